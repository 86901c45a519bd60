"""The settings module: `DJANGO_SETTINGS_MODULE=varz_deck.server.settings`.

Every setting comes from the environment, or from the file $VARZ_DECK_CONFIG names (`NAME=value`
lines): VARZ_DECK_DATABASE (the database URL), VARZ_DECK_SECRET_KEY, VARZ_DECK_PUBLIC_URL,
VARZ_DECK_ALLOWED_HOSTS, VARZ_DECK_TRUSTED_PROXIES, VARZ_DECK_TIME_ZONE, VARZ_DECK_LOG_LEVEL,
VARZ_DECK_CARDS and the VARZ_DECK_HSTS_* switches; config.build reads them, and the organiser's
guide (docs/guides/organiser.md, "Run it on a server") lists them.
"""

from __future__ import annotations

from django.core.exceptions import ImproperlyConfigured

from varz_deck.server.config import DatabaseURLError, SettingError, build, environment

try:
    globals().update(build(environment()))
except (DatabaseURLError, SettingError) as err:
    raise ImproperlyConfigured(str(err)) from None
