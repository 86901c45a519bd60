"""The game-independent core: diagnostics, loading, card databases, deck entries, reports.

The core never imports a game or the command line (import-linter holds it: pyproject.toml)."""
