"""The Django application of the registration server (its models and migrations)."""

from __future__ import annotations

from django.apps import AppConfig


class ServerConfig(AppConfig):
    name = "varz_deck.server"
    label = "varzdeck"
    verbose_name = "varz-deck registration"
    default_auto_field = "django.db.models.BigAutoField"
