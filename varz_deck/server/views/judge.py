"""The judge's page: a player's registered list by name, deck hash or deck code (a scanned
sheet's QR code), and the comparison with the list a player presents at the table."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.http import HttpRequest, HttpResponse
from django.urls import reverse
from django.views.decorators.http import require_http_methods

from varz_deck.core.messages.i18n import Message, msg
from varz_deck.core.messages.sanitize import clean_output, safe
from varz_deck.server import service
from varz_deck.server.views import texts
from varz_deck.server.views.forms import JudgeForm
from varz_deck.server.views.organiser import _organiser_event, _refused
from varz_deck.server.views.render import (
    page,
    page_language,
)
from varz_deck.server.views.viewmodels import (
    canonical_view,
    diff_view,
    event_view,
    iso,
    problems_view,
    verdict,
    when,
)

if TYPE_CHECKING:
    from varz_deck.server.models import Decklist, Event, Version

JUDGE_LOOKUP = msg("page", "or deck hash or deck code")  # a scanned sheet's QR code


@require_http_methods(["GET", "POST"])
def judge(request: HttpRequest, key: str) -> HttpResponse:
    """A player or a deck hash -> the registered list; a presented list -> the `diff`."""
    event = _organiser_event(request, key)
    if event is None:
        return _refused(request, key)
    lang = page_language(request)
    pairs = service.current_versions(event)
    form = JudgeForm(request.POST if request.method == "POST" else request.GET, lang=lang)
    form.is_valid()  # every field is any text
    chosen_id, query = form.cleaned_data["entry"], form.cleaned_data["hash"]
    problem: Message | None = None
    entry = None
    options = pairs
    if chosen_id:
        entry = next(((d, v) for d, v in pairs if str(d.pk) == chosen_id), None)
    elif query:
        found = service.find_lists(event, query)
        if len(found) == 1:
            entry = found[0]
        elif found:
            problem, options = texts.JUDGE_SEVERAL, found
        else:
            problem = texts.JUDGE_NONE(query=query)
    context: dict[str, object] = {
        "event": event_view(event),
        "dashboard_url": service.dashboard_path(event),
        "action": reverse("page-judge", args=[event.key]),
        "compare_action": reverse("page-judge", args=[event.key]),
        "options": [{"id": str(d.pk), "player": safe(d.player)} for d, _ in options],
        "chosen_id": str(entry[0].pk) if entry else "",
        "hash": safe(query),
        "hash_label": JUDGE_LOOKUP.render(lang),
    }
    if entry is not None:
        context.update(_judged(event, *entry, lang))
        if request.method == "POST":
            context.update(_compared(event, *entry, form.cleaned_data["presented"], lang))
    context["problem"] = problem.render(lang) if problem else ""
    return page(request, "judge.html", context)


def _judged(event: Event, decklist: Decklist, version: Version, lang: str) -> dict[str, object]:
    """The registered list the judge asked for: its verdict, canonical list and diagnostics."""
    checked = service.check_deck(event, version.deck, decklist.player)
    diagnostics = checked.diagnostics(lang)
    return {
        "entry": {
            "id": str(decklist.pk),
            "player": safe(decklist.player),
            "legal": version.legal,
            "verdict": verdict(version.legal, diagnostics, lang),
            "deck_hash": version.deck_hash,
            "iso": iso(event, version.submitted_at),
            "when": when(event, version.submitted_at),
        },
        "canonical": canonical_view(checked.registration.canonical, lang),
        **problems_view(diagnostics, lang),
    }


def _compared(
    event: Event, decklist: Decklist, version: Version, presented: str, lang: str
) -> dict[str, object]:
    """The registered list against the one presented, card by card (or why it cannot be)."""
    from varz_deck.core.registration.render import diff_lines

    context: dict[str, object] = {"presented": clean_output(presented)}
    if not presented.strip():
        return context
    diff, before, after = service.compare(event, version, presented)
    if diff is None:
        context["diff_verdict"] = texts.CANNOT_COMPARE.render(lang)
        problems = after.report.to_json(lang)["diagnostics"]
        context.update(problems_view(problems, lang, "diff_problems"))
        return context
    context["same"] = diff.same
    context["diff_verdict"] = (texts.SAME_DECK if diff.same else texts.DIFFERENT_DECK).render(lang)
    context["diff"] = diff_view(diff_lines(diff, before, after, lang), lang)
    return context
