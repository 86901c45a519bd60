"""Deck registration for every game: canonical form and deck hash, deck codes, diffs, reports and
printable sheets.

Modules: `canonical` (the `Layout` a game describes its registration with, the canonical list and
its hash), `code` (deck codes), `diff` (registered vs presented), `register` (one registration per
deck), `render` (text, JSON, CSV) and `sheet` (the HTML page's skeleton). A game's `registrar`
(varz_deck/core/game.py) reads its decks and codes and fills in its parts. Nothing here prints,
exits or writes files; the command line in `varz_deck.cli.register` does.
"""
