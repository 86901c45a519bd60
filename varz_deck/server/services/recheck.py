"""Using a card database, and checking the current lists again when the card data changed."""

from __future__ import annotations

from pathlib import Path

from django.utils import timezone

from varz_deck.server.models import Decklist, Event, Version
from varz_deck.server.services.carddata import use_library, verdict_fingerprint
from varz_deck.server.services.checking import check_deck, codes_of
from varz_deck.server.services.exports import _figures, _registration
from varz_deck.server.services.lists import _new_version
from varz_deck.server.services.store import writing


def use_cards(cards: Path | None) -> None:
    """The card database `serve --cards DIR` (or $VARZ_DECK_CARDS) names, opened now (its
    DatabaseError or OSError when it cannot be): events of its game use it, the others the
    bundled database of their game."""
    use_library(cards)
    _registration.cache_clear()
    _figures.cache_clear()


_VERDICT_FIELDS = ("deck_hash", "legal", "lead", "format", "diagnostics", "cards", "changed_at")


def recheck_current() -> int:
    """Check every current list again whose verdict is of other card data (or another
    varz-deck, or another date of its event) than this server's, and keep the current verdict:
    the API, the pages and the CSV then give one verdict; a verdict that became other than the
    one given at submission is stamped (`changed_at`). How many lists were checked again. Run
    as `serve` starts."""
    changed = 0
    now = timezone.now()
    for event in Event.objects.order_by("id").iterator():
        try:
            fingerprint = verdict_fingerprint(event)
        except Exception:  # a game this version lacks: its requests say so
            continue
        current = Decklist.objects.filter(event=event, current__isnull=False)
        stale = (
            Version.objects.filter(pk__in=current.values("current_id"))
            .exclude(cards=fingerprint)
            .select_related("decklist")
        )
        again = []
        for version in stale.iterator():
            version.decklist.event = event
            checked = check_deck(event, version.deck, version.decklist.player)
            fresh = _new_version(version.decklist, version.number, version.deck, checked, False)
            before = (version.legal, codes_of(version.diagnostics))
            for name in _VERDICT_FIELDS:
                if name != "changed_at":
                    setattr(version, name, getattr(fresh, name))
            after = (version.legal, codes_of(version.diagnostics))
            if after == (version.submitted_legal, list(version.submitted_errors or [])):
                version.changed_at = None
            elif after != before or version.changed_at is None:
                version.changed_at = now
            again.append(version)
        with writing():
            Version.objects.bulk_update(again, _VERDICT_FIELDS, batch_size=500)
        changed += len(again)
    if changed:
        _registration.cache_clear()
    _figures.cache_clear()
    return changed
