"""Decks: their entries in every form (YAML, text lists), the one resolver every game uses, and
the outcome of checking one deck."""
