"""The WSGI application for a deployer's own server: `gunicorn varz_deck.server.wsgi:application`
(docs/guides/organiser.md, "Run it on a server"). The settings come from the environment
(`varz_deck.server.settings`); the database must be migrated first (`varz-deck manage migrate`).
"""

from __future__ import annotations

import os

from django.core.exceptions import ImproperlyConfigured

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "varz_deck.server.settings")

from django.core.wsgi import get_wsgi_application

from varz_deck.server import app

_django = get_wsgi_application()
try:
    app.start_wsgi()
except app.StartError as err:
    raise ImproperlyConfigured(str(err)) from None
application = app.application(_django)
