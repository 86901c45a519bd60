"""The organiser's pages (signed in by `/o/TOKEN`, urls.py).

`/events/E/dashboard` (every list, lock, unlock, publish, unpublish, withdraw, restore, CSV, every
sheet in one printable document, the metagame), submitting or fixing a list for a player, and the
judge's page `/events/E/judge` (a player or a deck hash -> the registered list; a presented list
-> the `diff`). Another browser gets 403, an unknown event 404.

Lock, publish, unpublish and withdraw ask first: their GET is a confirmation page (it changes
nothing) whose form posts to the same URL, and the POST does it. Unlock and restore, which undo,
are one POST from the dashboard.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.urls import reverse
from django.views.decorators.http import require_http_methods

from varz_deck.core.messages.i18n import Message
from varz_deck.core.messages.sanitize import safe
from varz_deck.server import hosts, service
from varz_deck.server.views import texts
from varz_deck.server.views.forms import DeckForm, PlayerDeckForm
from varz_deck.server.views.public import (
    refused_here,
    refused_list,
    saved_banner,
    submission_context,
    submit_form,
)
from varz_deck.server.views.render import (
    csv_download,
    message_page,
    not_found,
    page,
    page_language,
    with_lang,
)
from varz_deck.server.views.roster import dashboard_sections as roster_sections
from varz_deck.server.views.viewmodels import (
    dashboard_rows,
    decklist_view,
    event_line,
    event_view,
    iso,
    lead_title,
    when,
)

if TYPE_CHECKING:
    from varz_deck.server.models import Decklist, Event

FLASH_LINK = "varzdeck_flash_link"  # a private link shown once to the organiser who made it
_DONE = {
    "locked": texts.DONE_LOCKED,
    "unlocked": texts.DONE_UNLOCKED,
    "published": texts.DONE_PUBLISHED,
    "unpublished": texts.DONE_UNPUBLISHED,
    "withdrawn": texts.DONE_WITHDRAWN,
    "restored": texts.DONE_RESTORED,
}


def _organiser_event(request: HttpRequest, key: str) -> Event | None:
    """The event when this browser signed in as its organiser; None otherwise."""
    try:
        event = service.get_event(key)
    except service.NotFound:
        return None
    return event if service.signed_in(request.session, event) else None


def _refused(request: HttpRequest, key: str) -> HttpResponse:
    """404 for an unknown event, 403 for one this browser is not the organiser of."""
    try:
        service.get_event(key)
    except service.NotFound:
        return not_found(request)
    return message_page(request, texts.NOT_SIGNED_IN_HEADING, texts.NOT_SIGNED_IN, 403)


def _dashboard_urls(event: Event) -> dict[str, str]:
    key = [event.key]
    return {
        "lock": reverse("page-lock", args=key),
        "unlock": reverse("page-unlock", args=key),
        "publish": reverse("page-publish", args=key),
        "unpublish": reverse("page-unpublish", args=key),
        "sheets": reverse("page-sheets", args=key),
        "csv": reverse("page-export", args=key),
        "judge": reverse("page-judge", args=key),
        "add": reverse("page-add", args=key),
        "public": service.public_path(event),
    }


@require_http_methods(["GET"])
def dashboard(request: HttpRequest, key: str) -> HttpResponse:
    """Every list (legal or not, its errors, hash, time, versions), the event's state and
    actions, and the metagame by lead card."""
    event = _organiser_event(request, key)
    if event is None:
        return _refused(request, key)
    lang = page_language(request)
    rows = dashboard_rows(event, lang)
    none = texts.NO_LEAD.render(lang)
    metagame = [
        {
            "name": safe(m.lead) or none,
            "count": m.lists,
            "share": f"{100 * m.share:.1f}",
            "legal": m.legal,
        }
        for m in service.metagame_of([(r.lead, r.legal) for r in rows])
    ]
    reason = service.closed_reason(event)
    states = [("open", texts.STATE_OPEN)] if reason is None else []
    if event.locked:
        states.append(("locked", texts.STATE_LOCKED))
    if reason == "deadline_passed":
        states.append(("closed", texts.STATE_CLOSED))
    if event.published:
        states.append(("published", texts.STATE_PUBLISHED))
    legal = sum(1 for r in rows if r.legal)
    words = texts.Texts(lang)
    summary = (
        f"{texts.N_LISTS(n=len(rows)).render(lang)} · {texts.N_LEGAL(n=legal).render(lang)}"
        if rows
        else words["no_lists"]
    )
    done = _DONE.get(request.GET.get("done", ""))
    context = {
        "event": event_view(event),
        "event_line": event_line(event, lang),
        "states": [(cls, text.render(lang)) for cls, text in states],
        "locked": event.locked,
        "published": event.published,
        "urls": _dashboard_urls(event),
        "submit_parts": hosts.url_parts(hosts.link(service.submit_path(event))),
        "rows": [r.shown(words["legal"], words["not_legal"]) for r in rows],
        "withdrawn": _withdrawn_rows(event),
        "metagame": metagame,
        "summary": summary,
        "lead_title": lead_title(event, lang),
        "flash": done.render(lang) if done else "",
    }
    context.update(roster_sections(request, event, lang))
    return page(request, "dashboard.html", context)


def _withdrawn_rows(event: Event) -> list[dict[str, object]]:
    """The withdrawn lists, in order of first submission: player, when withdrawn, restore."""
    gone = service.withdrawn_times(event)
    rows = []
    for pk, player, *_ in service.current_lists(event, withdrawn=True):
        at = gone.get(pk)
        rows.append(
            {
                "id": pk,
                "player": safe(player),
                "iso": iso(event, at) if at else "",
                "when": when(event, at) if at else "—",
                "restore": reverse("page-restore", args=[event.key, pk]),
            }
        )
    return rows


def _confirm_page(
    request: HttpRequest,
    event: Event,
    heading: str,
    question: Message,
    value: str,
    warning: Message | None = None,
) -> HttpResponse:
    """The page that asks before an action: the question, a form (CSRF) that posts to this
    same URL, and Cancel back to the dashboard."""
    lang = page_language(request)
    words = texts.Texts(lang)
    context = {
        "event": event_view(event),
        "heading": words[heading],
        "question": question.render(lang),
        "warning": warning.render(lang) if warning else "",
        "action": request.path,
        "value": value,
        "button": words[heading],
        "cancel": with_lang(service.dashboard_path(event), lang),
    }
    return page(request, "confirm.html", context)


def _state_change(
    change: Callable[[Event], Event],
    done: str,
    ask: Callable[[HttpRequest, Event], HttpResponse] | None = None,
) -> Callable[..., HttpResponse]:
    """An action on the event: a POST does it; with `ask`, a GET is its confirmation page."""

    @require_http_methods(["GET", "POST"] if ask else ["POST"])
    def view(request: HttpRequest, key: str) -> HttpResponse:
        event = _organiser_event(request, key)
        if event is None:
            return _refused(request, key)
        if request.method != "POST" and ask is not None:
            return ask(request, event)
        change(event)
        target = with_lang(service.dashboard_path(event), page_language(request), done=done)
        return HttpResponseRedirect(target, status=303)

    view.__name__ = f"event_{done}"
    return view


def _ask_lock(request: HttpRequest, event: Event) -> HttpResponse:
    question = texts.CONFIRM_LOCK(event=event.name)
    return _confirm_page(request, event, "lock", question, "lock")


def _ask_publish(request: HttpRequest, event: Event) -> HttpResponse:
    question = texts.CONFIRM_PUBLISH(event=event.name)
    still_open = texts.CONFIRM_PUBLISH_OPEN if service.closed_reason(event) is None else None
    return _confirm_page(request, event, "publish", question, "publish", still_open)


def _ask_unpublish(request: HttpRequest, event: Event) -> HttpResponse:
    question = texts.CONFIRM_UNPUBLISH(event=event.name)
    return _confirm_page(request, event, "unpublish", question, "unpublish")


lock = _state_change(lambda event: service.set_locked(event, True), "locked", _ask_lock)
unlock = _state_change(lambda event: service.set_locked(event, False), "unlocked")
publish = _state_change(service.publish, "published", _ask_publish)
unpublish = _state_change(service.unpublish, "unpublished", _ask_unpublish)


def _organisers_list(
    request: HttpRequest, key: str, number: str
) -> tuple[Event, Decklist] | tuple[None, HttpResponse]:
    """(event, list) when this browser is the organiser of the list's event; (None, page) with
    the refusal (403 for another browser, 404 for a list not of this event) otherwise."""
    event = _organiser_event(request, key)
    if event is None:
        return None, _refused(request, key)
    decklist = service.decklist_in_session(number, request.session)
    if decklist is None or decklist.event_id != event.pk:
        return None, not_found(request)
    return event, decklist


@require_http_methods(["GET", "POST"])
def withdraw(request: HttpRequest, key: str, number: str) -> HttpResponse:
    """A GET asks (the confirmation page); the POST withdraws the list."""
    event, decklist = _organisers_list(request, key, number)
    if event is None:
        return decklist  # the refusal
    if request.method != "POST":
        question = texts.CONFIRM_WITHDRAW(player=decklist.player)
        return _confirm_page(request, event, "withdraw", question, "withdraw")
    service.withdraw(decklist)
    target = with_lang(service.dashboard_path(event), page_language(request), done="withdrawn")
    return HttpResponseRedirect(target, status=303)


@require_http_methods(["POST"])
def restore(request: HttpRequest, key: str, number: str) -> HttpResponse:
    """Restore a withdrawn list (no confirmation: it undoes a withdrawal)."""
    event, decklist = _organisers_list(request, key, number)
    if event is None:
        return decklist  # the refusal
    try:
        service.restore(decklist)
    except service.Claimed as taken:  # another list has its player id now
        back = with_lang(service.dashboard_path(event), page_language(request))
        return message_page(
            request, texts.NOT_RESTORED, taken.message, taken.status, event=event, back=back
        )
    target = with_lang(service.dashboard_path(event), page_language(request), done="restored")
    return HttpResponseRedirect(target, status=303)


@require_http_methods(["GET"])
def sheets(request: HttpRequest, key: str) -> HttpResponse:
    """Every player's registration sheet in one printable document, a page each."""
    event = _organiser_event(request, key)
    if event is None:
        return _refused(request, key)
    document = service.sheets_document(event, page_language(request))
    response = HttpResponse(document, content_type="text/html; charset=utf-8")
    response["Cache-Control"] = "no-store"
    return response


@require_http_methods(["GET"])
def export_csv(request: HttpRequest, key: str) -> HttpResponse:
    """`register --output csv` of every current list (formula-safe cells)."""
    event = _organiser_event(request, key)
    if event is None:
        return _refused(request, key)
    return csv_download(service.export_csv(event), f"{event.key}.csv")


@require_http_methods(["GET", "POST"])
def add_for_player(request: HttpRequest, key: str) -> HttpResponse:
    """The organiser submits a list for a player (also after the deadline or lock); for a player
    id that has a list, it replaces that list (the player keeps their private link)."""
    event = _organiser_event(request, key)
    if event is None:
        return _refused(request, key)
    lang = page_language(request)
    here = reverse("page-add", args=[event.key])
    status = 200
    refused: dict[str, str] = {}
    if request.method == "POST":
        form = PlayerDeckForm(request.POST, request.FILES, lang=lang)
        status = 422
        if form.is_valid():
            try:
                decklist, _, token, _ = submit_form(event, form, by_organiser=True)
            except service.Oversized as refusal:
                refused, status = refused_here(form.text, refusal, lang), refusal.status
            else:
                if token:  # a new list: its private link, shown once
                    request.session[FLASH_LINK] = hosts.link(service.decklist_path(decklist, token))
                target = reverse("page-organiser-list", args=[event.key, decklist.pk])
                return HttpResponseRedirect(with_lang(target, lang, saved="1"), status=303)
    else:
        form = PlayerDeckForm(lang=lang)
    heading, button = texts.ORGANISER_HEADING, texts.ORGANISER_BUTTON
    context = submission_context(event, form, lang, heading, button, texts.TEXTS["their_name"])
    context["action"] = here
    context.update(refused)
    return page(request, "submit.html", context, status)


@require_http_methods(["GET", "POST"])
def organiser_decklist(request: HttpRequest, key: str, number: str) -> HttpResponse:
    """One list as the organiser sees it; the organiser may fix it at any time, unless it is
    withdrawn (restore it first)."""
    event, decklist = _organisers_list(request, key, number)
    if event is None:
        return decklist  # the refusal
    lang = page_language(request)
    here = reverse("page-organiser-list", args=[event.key, decklist.pk])
    form = DeckForm(request.POST, request.FILES, lang=lang) if request.method == "POST" else None
    refused: dict[str, str] = {}
    refused_status = 409
    if form is not None and form.is_valid():
        try:
            service.replace_deck(decklist, form.text, by_organiser=True)
        except service.Closed:
            refused = refused_list(form.text, texts.CLOSED_WITHDRAWN, lang)
            decklist = service.decklist_in_session(number, request.session) or decklist
        except service.Oversized as refusal:
            refused, refused_status = refused_here(form.text, refusal, lang), refusal.status
        else:
            return HttpResponseRedirect(with_lang(here, lang, saved="1"), status=303)
    context = decklist_view(decklist, lang)
    flash = request.session.pop(FLASH_LINK, "")
    problem = form.problem if form is not None else ""
    withdrawn = decklist.withdrawn_at is not None
    context.update(
        saved=request.GET.get("saved") == "1",
        private_link=flash,
        private_link_label=texts.FLASH_LINK_TEXT.render(lang) if flash else "",
        action=here,
        closed=texts.CLOSED_WITHDRAWN.render(lang) if withdrawn else "",
        problem=problem,
        back=service.dashboard_path(event),
        withdrawn=texts.WITHDRAWN_NOTICE.render(lang) if withdrawn else "",
        restore_url=f"{here}/restore" if withdrawn else "",
        withdraw_url="" if withdrawn else f"{here}/withdraw",
        **saved_banner(context, lang),
    )
    context.update(refused)
    status = refused_status if refused else 422 if problem else 200
    return page(request, "decklist.html", context, status)
