"""`varz-deck serve`: deck registration for an event over HTTP (docs/guides/organiser.md), from the `server` extra.

A top layer beside the command line and the language server: it uses the games and the core, never
the command line. A standard Django project: `settings.py` (read from the environment, config.py),
`wsgi.py`, `urls.py`; `varz-deck serve` configures the same settings with its --database. The JSON
API is api/ (django-ninja), the pages views/; both go through the services (services/, one
module per domain; service.py names them). Nothing here is imported by `check` or any other
command but `serve`, `event` and `manage`.
"""
