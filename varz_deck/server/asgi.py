"""The ASGI application uvicorn serves: Django behind the body limit (security.BodyLimit).

`application(url)` configures Django for the database URL first; settings.configure must have run
before Django's handler is built.
"""

from __future__ import annotations

from varz_deck.server.security import ASGIApp, BodyLimit


def application(url: str) -> ASGIApp:
    from django.core.handlers.asgi import ASGIHandler

    from varz_deck.server.settings import configure

    configure(url)
    return BodyLimit(ASGIHandler())
