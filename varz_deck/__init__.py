"""varz-deck: deck legality checker, card-data linter and goldfish simulator for VARZ TCG."""

__version__ = "0.1.0"
