"""Old import path of the VARZ resolver, kept for benchmarks/bench_sim.py (which this change
leaves untouched); the code is in varz_deck/games/varz/resolve.py."""

from varz_deck.games.varz.resolve import DeckView, resolve

__all__ = ["DeckView", "resolve"]
