"""Old import path of the VARZ deck reader, kept for benchmarks/bench_sim.py (which this change
leaves untouched); the code is in varz_deck/games/varz/deck.py."""

from varz_deck.games.varz.deck import Deck, Entry, parse_text, parse_yaml, read_deck

__all__ = ["Deck", "Entry", "parse_text", "parse_yaml", "read_deck"]
