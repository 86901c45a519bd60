"""The game-independent core, in rooms that each have one job (lowest first):

- `messages/`: messages in every language, codes, diagnostics, the rulebook, safe text, wrapping;
- `dates.py`: what "today" is, for the entry points to decide once;
- `files/`: reading untrusted files, the strict YAML loader, JSON Schemas, deck files, safe writes;
- `cards/`: card records, formats, card databases, their cache and index, card look-up;
- `decks/`: deck entries and the resolver every game uses, a deck's check report;
- `lint/`: `cards lint`, and opening a card database (which lints it first);
- `registration/`: canonical lists, deck hashes, deck codes, sheets;
- `analysis/`: figures, charts, the glossary and the report page;
- `report/`: the reporters (text, JSON, GitHub, SARIF), the code catalogue, card-data diffs;
- `game.py`: the `Game` protocol, which puts the rooms' pieces together for one game.

A room imports only rooms below it; the core never imports a game or the command line
(import-linter holds both: pyproject.toml).
"""
