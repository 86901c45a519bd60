"""Deck registration: canonical form and deck hash, deck codes, diffs, reports and printable sheets.

Modules: `canonical` (the canonical list and its hash), `code` (deck codes), `diff` (registered vs
presented), `register` (one registration per deck), `render` (text, JSON, CSV) and `sheet` (HTML).
Nothing here prints, exits or writes files; the command line in `varz_deck.cli.register` does.
"""
