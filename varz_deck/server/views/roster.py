"""The roster's pages (docs/guides/organiser.md "Roster"): the organiser's roster page `/events/E/roster` (upload,
every player with status and personal link), the links CSV, the dashboard's roster and audit
sections, and a player's personal link `/p/TOKEN`.

The personal link is the player's submission page with their name and player id filled in (not
editable); the first list sent from it goes to its result page and private link, as any
submission does. Once the link (or the organiser) has stored a list for their player id, the
link shows that list as the private link does, and a list sent from it replaces it (a new
version), so a player never leaves two lists behind. A list someone named the id on without the
link is never shown here (docs/guides/organiser.md, "The roster").
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.urls import reverse
from django.views.decorators.http import require_http_methods

from varz_deck.core.messages.sanitize import clean_output, safe
from varz_deck.server import hosts, service
from varz_deck.server.views import texts
from varz_deck.server.views.forms import DeckForm, RosterForm
from varz_deck.server.views.public import (
    closed_message,
    list_closed_message,
    list_page,
    refused_here,
    refused_list,
)
from varz_deck.server.views.render import (
    csv_download,
    message_page,
    not_found,
    page,
    page_language,
    with_lang,
)
from varz_deck.server.views.viewmodels import event_line, event_view, iso, when

if TYPE_CHECKING:
    from varz_deck.server.models import Event

FLASH_ROSTER = "varzdeck_flash_roster"  # what the last upload did, shown once


# (the event, None) or (None, the refusal): loosely typed, as mypy cannot narrow one half by the other
def _organiser(request: HttpRequest, key: str) -> tuple[Any, HttpResponse | None]:
    """The event when this browser signed in as its organiser; else the refusal, as the
    organiser's pages give it (404 for an unknown event, 403 for another's)."""
    try:
        event = service.get_event(key)
    except service.NotFound:
        return None, not_found(request)
    if not service.signed_in(request.session, event):
        refused = message_page(request, texts.NOT_SIGNED_IN_HEADING, texts.NOT_SIGNED_IN, 403)
        return None, refused
    return event, None


def _status_words(lang: str) -> dict[str, str]:
    return {
        "missing": texts.TEXTS["missing"].render(lang),
        "legal": texts.LEGAL.render(lang),
        "illegal": texts.NOT_LEGAL.render(lang),
    }


def _row(
    event: Event, row: service.RosterRow, words: dict[str, str], lang: str
) -> dict[str, object]:
    at = row.submitted_at
    shown_id = safe(row.player_id) or "—"
    if row.claimed:  # the id it named, taken since by the rostered player's own link
        shown_id = texts.CLAIMED_WITHOUT_LINK(player_id=safe(row.claimed)).render(lang)
    return {
        "name": safe(row.name),
        "player_id": shown_id,
        "email": safe(row.email),
        "link": hosts.url_parts(row.link or ""),
        "state": row.status,
        "status": words[row.status],
        "list": row.list,
        "iso": iso(event, at) if at else "",
        "when": when(event, at) if at else "",
    }


def dashboard_sections(request: HttpRequest, event: Event, lang: str) -> dict[str, object]:
    """The dashboard's roster (counts, who is missing, lists not on the roster, what the last
    upload did) and audit log."""
    flash = request.session.pop(FLASH_ROSTER, "")
    rows = service.roster_rows(event, links=False)
    words = _status_words(lang)
    on = [r for r in rows if r.on_roster]
    off = [r for r in rows if not r.on_roster]
    counts = texts.ROSTER_COUNTS(
        missing=sum(1 for r in on if r.status == "missing"),
        legal=sum(1 for r in on if r.status == "legal"),
        illegal=sum(1 for r in on if r.status == "illegal"),
        off=len(off),
    )
    audit = [
        {
            "iso": iso(event, entry.at),
            "when": when(event, entry.at),
            "action": texts.AUDIT_ACTIONS[entry.action].render(lang)
            if entry.action in texts.AUDIT_ACTIONS
            else safe(entry.action),
            "detail": safe(entry.detail),
            "list": entry.decklist_id,
        }
        for entry in service.audit_log(event)
    ]
    return {
        "roster_flash": flash,
        "roster": {
            "exists": bool(on),
            "counts": counts.render(lang) if on else texts.NO_ROSTER.render(lang),
            "missing": [_row(event, r, words, lang) for r in on if r.status == "missing"],
            "off": [_row(event, r, words, lang) for r in off],
            "off_ids": {r.list for r in off},
            "page": reverse("page-roster", args=[event.key]),
            "csv": reverse("page-roster-csv", args=[event.key]),
        },
        "audit": audit,
    }


@require_http_methods(["GET", "POST"])
def roster(request: HttpRequest, key: str) -> HttpResponse:
    """Every rostered player with status and personal link; a POST uploads a roster (422 with
    every wrong line, the text kept, nothing stored)."""
    event, refused = _organiser(request, key)
    if refused is not None:
        return refused
    lang = page_language(request)
    here = reverse("page-roster", args=[event.key])
    form = RosterForm(request.POST, request.FILES, lang=lang) if request.method == "POST" else None
    problems: list[str] = []
    status = 200
    if form is not None:
        if form.is_valid():
            try:
                done = service.upload_roster(event, form.csv)
            except service.RosterInvalid as invalid:
                problems = [p.message.render(lang) for p in invalid.problems]
            except service.TooLarge as large:
                problems = [large.message.render(lang)]
            else:
                stored = (
                    texts.ROSTER_STORED_KEPT(n=done.players, new=done.new, kept=done.not_in_file)
                    if done.not_in_file
                    else texts.ROSTER_STORED(n=done.players, new=done.new)
                )
                request.session[FLASH_ROSTER] = stored.render(lang)
                from_dashboard = request.POST.get("from") == "dashboard"
                back = service.dashboard_path(event) if from_dashboard else here
                return HttpResponseRedirect(with_lang(back, lang), status=303)
        else:
            problems = [form.problem]
        status = 422
    words = _status_words(lang)
    context = {
        "event": event_view(event),
        "event_line": event_line(event, lang),
        "rows": [_row(event, r, words, lang) for r in service.roster_rows(event)],
        "action": here,
        "csv": f"{here}.csv",
        "back": service.dashboard_path(event),
        "flash": request.session.pop(FLASH_ROSTER, "") if request.method == "GET" else "",
        "refused": texts.ROSTER_REFUSED.render(lang) if problems else "",
        "problems": problems,
        "text": clean_output(form.shown_text) if form is not None else "",
        "no_roster": texts.NO_ROSTER.render(lang),
    }
    return page(request, "roster.html", context, status)


@require_http_methods(["GET"])
def roster_csv(request: HttpRequest, key: str) -> HttpResponse:
    """The personal links for a mail merge (formula-safe cells)."""
    event, refused = _organiser(request, key)
    if refused is not None:
        return refused
    return csv_download(service.roster_csv(event), f"{event.key}-links.csv")


@require_http_methods(["GET", "POST"])
def personal_link(request: HttpRequest, token: str) -> HttpResponse:
    """A rostered player's page: the submission form with their name and id, or their list."""
    entry = service.roster_entry_for_token(token)
    if entry is None:
        return not_found(request)
    event = entry.event
    lang = page_language(request)
    here = service.roster_path(token)
    mine = service.entry_list(entry)
    form = DeckForm(request.POST, request.FILES, lang=lang) if request.method == "POST" else None
    refused: dict[str, str] = {}
    status = 409
    if form is not None and form.is_valid():
        try:
            decklist, _, edit_token, _ = service.submit_for_entry(entry, form.text)
        except service.Closed as closed_now:  # shown back with the reason, never lost
            event, mine = service.get_event(event.key), service.entry_list(entry)  # as now
            reason = list_closed_message(mine) if mine is not None else closed_message(event)
            refused = refused_list(form.text, reason or closed_now.message, lang)
        except service.Oversized as refusal:
            refused, status = refused_here(form.text, refusal, lang), refusal.status
        else:  # the first list: its result page, with its private link; then this page
            target = service.decklist_path(decklist, edit_token) if edit_token else here
            return HttpResponseRedirect(with_lang(target, lang, saved="1"), status=303)
    if mine is not None:
        return list_page(request, mine, here, form, refused, lang, status)
    closed = closed_message(event)
    problem = form.problem if form is not None else ""
    status = status if refused else 422 if problem else 200
    context = {
        "event": event_view(event),
        "event_line": event_line(event, lang),
        "heading": texts.SUBMIT_HEADING.render(lang),
        "submit_label": texts.SUBMIT_BUTTON.render(lang),
        "check_url": reverse("page-check", args=[event.key]),
        "closed": closed.render(lang) if closed else "",
        "problem": problem,
        "deck": clean_output(form.shown_deck) if form is not None else "",
        "action": here,
        "roster_player": {"name": safe(entry.name), "player_id": safe(entry.player_id)},
        "name_label": texts.TEXTS["player_name"].render(lang),
        **refused,
    }
    return page(request, "submit.html", context, status)
