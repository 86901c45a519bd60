"""The pages of players and of the public.

- The submission page `/events/E/submit` (paste or upload; works without JavaScript: a plain POST
  stores the list and answers with a redirect to the result).
- The live check `POST /events/E/check` (stores nothing; the one static script calls it as the
  player types).
- The private link `/decklists/ID/TOKEN` (the result: every diagnostic; replace the list until the
  deadline or lock, 409 after, or while the organiser has withdrawn it).
- A closed form is shown disabled with the reason; a list posted anyway (a stale page) is refused
  (409) and shown back in the text area, never lost.
- The published lists `/events/E/public` (404 until published), and the server's root.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.urls import reverse
from django.views.decorators.http import require_http_methods

from varz_deck.core.messages.i18n import Message
from varz_deck.core.messages.sanitize import clean_output, safe
from varz_deck.server import hosts, service
from varz_deck.server.views import texts
from varz_deck.server.views.forms import CheckForm, DeckForm, PlayerDeckForm
from varz_deck.server.views.render import (
    json_page,
    message_page,
    not_found,
    page,
    page_language,
    with_lang,
)
from varz_deck.server.views.viewmodels import (
    canonical_view,
    decklist_view,
    diagnostic_rows,
    event_line,
    event_view,
    verdict,
    when,
)

if TYPE_CHECKING:
    from varz_deck.server.models import Decklist, Event, Version
    from varz_deck.server.services.checking import Checked


def closed_message(event: Event) -> Message | None:
    """Why a player can no longer submit or change a list now (None: they can)."""
    reason = service.closed_reason(event)
    if reason == "locked":
        return texts.CLOSED_LOCKED
    if reason == "deadline_passed":
        return texts.CLOSED_AT(time=when(event, event.deadline))
    return None


def list_closed_message(decklist: Decklist) -> Message | None:
    """Why a list cannot be replaced by its player now (None: it can)."""
    if decklist.withdrawn_at is not None:
        return texts.CLOSED_WITHDRAWN
    return closed_message(decklist.event)


def saved_banner(context: dict[str, Any], lang: str) -> dict[str, str]:
    """The banner over a list just stored: green when legal, else the error colour with the
    number of errors."""
    if context["legal"]:
        return {"saved_kind": "ok", "saved_text": texts.TEXTS["saved"].render(lang)}
    errors = sum(1 for d in context["diagnostics"] if d["severity"] == "error")
    return {"saved_kind": "error", "saved_text": texts.STORED_NOT_LEGAL(n=errors).render(lang)}


def refused_list(text: str, reason: Message, lang: str) -> dict[str, str]:
    """A list posted to a closed form: shown back in the text area, with the reason."""
    return {
        "deck": clean_output(text),
        "closed": reason.render(lang),
        "problem": texts.NOT_STORED.render(lang),
    }


def refused_here(text: str, refusal: service.ServiceError, lang: str) -> dict[str, str]:
    """A list the form stays open for (a player id it may not take, a list far over its size):
    shown back in the text area with why, and the answer's status."""
    return {"deck": clean_output(text), "problem": refusal.message.render(lang)}


def submit_form(
    event: Event, form: PlayerDeckForm, *, by_organiser: bool = False
) -> tuple[Decklist, Version, str, Checked]:
    """Store the list of a valid submission form (`service.submit`)."""
    return service.submit(
        event,
        form.cleaned_data["player"],
        form.text,
        by_organiser=by_organiser,
        player_id=form.cleaned_data["player_id"],
    )


def submission_context(
    event: Event,
    form: PlayerDeckForm,
    lang: str,
    heading: Message,
    button: Message,
    name_label: Message = texts.TEXTS["player_name"],
) -> dict[str, object]:
    """The submission form of an event (the player's or the organiser's), as posted."""
    return {
        "event": event_view(event),
        "event_line": event_line(event, lang),
        "heading": heading.render(lang),
        "submit_label": button.render(lang),
        "name_label": name_label.render(lang),
        "check_url": reverse("page-check", args=[event.key]),
        "closed": "",
        "problem": form.problem,
        "player": safe(form.shown_player),
        "player_id": safe(form.shown_player_id),
        "deck": clean_output(form.shown_deck),
    }


@require_http_methods(["GET", "POST"])
def submit(request: HttpRequest, key: str) -> HttpResponse:
    """The submission page; a POST stores the list (legal or not) and goes to its private link."""
    try:
        event = service.get_event(key)
    except service.NotFound:
        return not_found(request)
    lang = page_language(request)
    status = 200
    refused: dict[str, str] = {}
    if request.method == "POST":
        form = PlayerDeckForm(request.POST, request.FILES, lang=lang)
        if form.is_valid():
            try:
                decklist, _, token, _ = submit_form(event, form)
            except service.Closed as closed_now:
                event = service.get_event(key)  # as it is now: locked, or past its deadline
                reason = closed_message(event) or closed_now.message
                refused, status = refused_list(form.text, reason, lang), 409
            except (service.Claimed, service.Oversized) as refusal:
                refused, status = refused_here(form.text, refusal, lang), refusal.status
            else:
                target = service.decklist_path(decklist, token)
                return HttpResponseRedirect(with_lang(target, lang, saved="1"), status=303)
        else:
            status = 422
    else:
        form = PlayerDeckForm(lang=lang)
    closed = closed_message(event)
    context = submission_context(event, form, lang, texts.SUBMIT_HEADING, texts.SUBMIT_BUTTON)
    context.update(action=service.submit_path(event), closed=closed.render(lang) if closed else "")
    context.update(refused)
    return page(request, "submit.html", context, status)


@require_http_methods(["POST"])
def check(request: HttpRequest, key: str) -> HttpResponse:
    """The live check: the list as `check` sees it, in the language; nothing is stored."""
    lang = page_language(request)
    try:
        event = service.recent_event(key)
    except service.NotFound:
        message = texts.NOT_FOUND.render(lang)
        return json_page({"error": {"code": "not_found", "message": message}}, 404)
    form = CheckForm(request.POST, lang=lang)
    form.is_valid()  # any text is a list to check
    checked = service.check_deck(event, form.cleaned_data["deck"])
    diagnostics = checked.diagnostics(lang)
    return json_page(
        {
            "legal": checked.legal,
            "deck_hash": checked.deck_hash,
            "summary": verdict(checked.legal, diagnostics, lang),
            "diagnostics": diagnostic_rows(diagnostics, lang),
        }
    )


@require_http_methods(["GET", "POST"])
def private_link(request: HttpRequest, number: str, token: str) -> HttpResponse:
    """The player's result page: the list, every diagnostic, its versions; replace it until the
    deadline or the lock (409 after)."""
    try:
        decklist, _ = service.get_decklist(number, edit_token=token)
    except service.NotFound:
        return not_found(request)
    lang = page_language(request)
    here = service.decklist_path(decklist, token)
    form = DeckForm(request.POST, request.FILES, lang=lang) if request.method == "POST" else None
    refused: dict[str, str] = {}
    status = 409
    if form is not None and form.is_valid():
        try:
            service.replace_deck(decklist, form.text)
        except service.Closed as closed_now:
            decklist, _ = service.get_decklist(number, edit_token=token)  # as it is now
            reason = list_closed_message(decklist) or closed_now.message
            refused = refused_list(form.text, reason, lang)
        except service.Oversized as refusal:
            refused, status = refused_here(form.text, refusal, lang), refusal.status
        else:
            return HttpResponseRedirect(with_lang(here, lang, saved="1"), status=303)
    return list_page(request, decklist, here, form, refused, lang, status)


def list_page(
    request: HttpRequest,
    decklist: Decklist,
    here: str,
    form: DeckForm | None,
    refused: dict[str, str],
    lang: str,
    refused_status: int,
) -> HttpResponse:
    """A player's own list at its link `here` (private or personal), with its replace form:
    `refused_status` (409: closed) with the posted list shown back when it was refused, 422 when
    the form had a problem."""
    context = decklist_view(decklist, lang)
    closed = list_closed_message(decklist)
    problem = form.problem if form is not None else ""
    context.update(
        saved=request.GET.get("saved") == "1",
        private_link=hosts.link(here),
        figures_url=here + "/report",
        action=here,
        closed=closed.render(lang) if closed else "",
        problem=problem,
        withdrawn=texts.WITHDRAWN_NOTICE.render(lang) if decklist.withdrawn_at else "",
        **saved_banner(context, lang),
    )
    context.update(refused)
    status = refused_status if refused else 422 if problem else 200
    return page(request, "decklist.html", context, status)


def figures_response(request: HttpRequest, decklist: Decklist) -> HttpResponse:
    """The list's figures: `varz-deck report`'s page for its current version (the same seed,
    games and date), or a page saying the list cannot be read."""
    from varz_deck.core.analysis.capabilities import DeckUnusable
    from varz_deck.core.analysis.tuning import DeckTooLarge

    if decklist.current is None or decklist.current.deck_hash is None:
        return message_page(request, texts.NO_FIGURES_HEADING, texts.NO_FIGURES, 422)
    try:
        body = service.figures_page(decklist, page_language(request))
    except (DeckUnusable, DeckTooLarge):
        return message_page(request, texts.NO_FIGURES_HEADING, texts.NO_FIGURES, 422)
    response = HttpResponse(body, content_type="text/html; charset=utf-8")
    response["Cache-Control"] = "private, no-store"
    response["Referrer-Policy"] = "no-referrer"
    return response


@require_http_methods(["GET"])
def private_figures(request: HttpRequest, number: str, token: str) -> HttpResponse:
    """The player's own list's figures, at its private link."""
    try:
        decklist, _ = service.get_decklist(number, edit_token=token)
    except service.NotFound:
        return not_found(request)
    return figures_response(request, decklist)


@require_http_methods(["GET"])
def public_figures(request: HttpRequest, key: str, number: str) -> HttpResponse:
    """A published list's figures (404 before the lists are published, or for a withdrawn list)."""
    try:
        event = service.get_event(key)
    except service.NotFound:
        return not_found(request)
    current = {str(d.pk): d for d, _ in service.current_versions(event)}
    decklist = current.get(number)
    if not event.published or decklist is None:
        return not_found(request)
    return figures_response(request, decklist)


@require_http_methods(["GET"])
def public(request: HttpRequest, key: str) -> HttpResponse:
    """Every player's canonical list, once the organiser has published them (404 before)."""
    try:
        event = service.get_event(key)
    except service.NotFound:
        return not_found(request)
    if not event.published:
        return not_found(request)
    lang = page_language(request)
    entries = [
        {
            "player": safe(reg.player),
            "figures_url": reverse("page-public-figures", args=[event.key, reg.path]),
            "deck_hash": reg.deck_hash,
            "canonical": canonical_view(reg.canonical, lang),
        }
        for reg in service.registrations(event)
    ]
    context = {
        "event": event_view(event),
        "event_line": event_line(event, lang),
        "entries": entries,
    }
    return page(request, "public.html", context)


@require_http_methods(["GET"])
def home(request: HttpRequest) -> HttpResponse:
    """The server's root: where to go (events are not listed: their ids are shared by link)."""
    return message_page(request, texts.TEXTS["app"], texts.HOME, 200, kind="plain")
