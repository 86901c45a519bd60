"""`varz-deck serve`: deck registration for an event over HTTP (SPEC §9), from the `server` extra.

A top layer beside the command line and the language server: it uses the games and the core, never
the command line. Django is configured in code (settings.py) from a database URL; the JSON API is
api.py (django-ninja), the pages pages.py; both go through service.py. Nothing here is imported by
`check` or any other command but `serve` and `event`.
"""
