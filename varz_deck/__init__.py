"""varz-deck: deck legality checker, card-data linter and goldfish simulator for trading card
games, each game a plugin (the entry-point group varz_deck.games)."""

__version__ = "0.2.0"
