"""The Language Server (`varz-deck lsp`, docs/guides/editors.md): a layer beside the command line, on top of the
games and the core; it needs the `lsp` extra (pygls, lsprotocol). varz_deck/lsp/main.py puts it
together: the server (server.py) and one module per feature, each adding its own handlers."""
