"""The paths the pages, the API and `varz-deck event` agree on, from the named routes
(varz_deck/server/views/__init__.py, urls.py) by reverse()."""

from __future__ import annotations

from django.urls import reverse

from varz_deck.server.models import Decklist, Event


def submit_path(event: Event) -> str:
    return str(reverse("page-submit", args=[event.key]))


def dashboard_path(event: Event) -> str:
    return str(reverse("page-dashboard", args=[event.key]))


def public_path(event: Event) -> str:
    return str(reverse("page-public", args=[event.key]))


def decklist_path(decklist: Decklist, edit_token: str) -> str:
    """The player's private link (the token is the secret: show it to them only)."""
    return str(reverse("page-decklist", args=[decklist.pk, edit_token]))


def organiser_path(token: str) -> str:
    return str(reverse("organiser-sign-in", args=[token]))


def roster_path(token: str) -> str:
    """A rostered player's personal link (the token is the secret: the organiser sends it)."""
    return str(reverse("page-personal", args=[token]))
