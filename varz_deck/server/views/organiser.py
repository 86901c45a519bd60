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
from typing import Any

from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.urls import reverse
from django.views.decorators.http import require_http_methods

from varz_deck.core.messages.i18n import Message, msg
from varz_deck.core.messages.sanitize import clean_output, safe
from varz_deck.server import hosts, service
from varz_deck.server.views import texts
from varz_deck.server.views.forms import DeckForm, JudgeForm, PlayerDeckForm
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
    canonical_view,
    dashboard_rows,
    decklist_view,
    diff_view,
    event_line,
    event_view,
    iso,
    lead_title,
    problems_view,
    verdict,
    when,
)

JUDGE_LOOKUP = msg("page", "or deck hash or deck code")  # a scanned sheet's QR code
FLASH_LINK = "varzdeck_flash_link"  # a private link shown once to the organiser who made it
_DONE = {
    "locked": texts.DONE_LOCKED,
    "unlocked": texts.DONE_UNLOCKED,
    "published": texts.DONE_PUBLISHED,
    "unpublished": texts.DONE_UNPUBLISHED,
    "withdrawn": texts.DONE_WITHDRAWN,
    "restored": texts.DONE_RESTORED,
}


def _organiser_event(request: HttpRequest, key: str) -> Any:
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


def _dashboard_urls(event: Any) -> dict[str, str]:
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
        "submit_full": hosts.link(service.submit_path(event)),
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
        "rows": [r.shown(words["legal"], words["not_legal"]) for r in rows],
        "withdrawn": _withdrawn_rows(event),
        "metagame": metagame,
        "summary": summary,
        "lead_title": lead_title(event, lang),
        "flash": done.render(lang) if done else "",
    }
    context.update(roster_sections(request, event, lang))
    return page(request, "dashboard.html", context)


def _withdrawn_rows(event: Any) -> list[dict[str, Any]]:
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
    event: Any,
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
    change: Callable[[Any], Any],
    done: str,
    ask: Callable[[HttpRequest, Any], HttpResponse] | None = None,
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


def _ask_lock(request: HttpRequest, event: Any) -> HttpResponse:
    question = texts.CONFIRM_LOCK(event=event.name)
    return _confirm_page(request, event, "lock", question, "lock")


def _ask_publish(request: HttpRequest, event: Any) -> HttpResponse:
    question = texts.CONFIRM_PUBLISH(event=event.name)
    still_open = texts.CONFIRM_PUBLISH_OPEN if service.closed_reason(event) is None else None
    return _confirm_page(request, event, "publish", question, "publish", still_open)


def _ask_unpublish(request: HttpRequest, event: Any) -> HttpResponse:
    question = texts.CONFIRM_UNPUBLISH(event=event.name)
    return _confirm_page(request, event, "unpublish", question, "unpublish")


lock = _state_change(lambda event: service.set_locked(event, True), "locked", _ask_lock)
unlock = _state_change(lambda event: service.set_locked(event, False), "unlocked")
publish = _state_change(service.publish, "published", _ask_publish)
unpublish = _state_change(service.unpublish, "unpublished", _ask_unpublish)


def _organisers_list(request: HttpRequest, key: str, number: str) -> tuple[Any, Any]:
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
    refused: dict[str, Any] = {}
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
    context: dict[str, Any] = {
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


def _judged(event: Any, decklist: Any, version: Any, lang: str) -> dict[str, Any]:
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


def _compared(event: Any, decklist: Any, version: Any, presented: str, lang: str) -> dict[str, Any]:
    """The registered list against the one presented, card by card (or why it cannot be)."""
    from varz_deck.core.registration.render import diff_lines

    context: dict[str, Any] = {"presented": clean_output(presented)}
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
