"""The Language Server (`varz-deck lsp`, SPEC §10): a layer beside the command line, on top of the
games and the core; it needs the `lsp` extra (pygls, lsprotocol). See varz_deck/lsp/server.py."""
