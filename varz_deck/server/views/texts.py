"""The HTML pages of `varz-deck serve` (SPEC §9): players, the organiser, judges, the public.

- Players: the submission page `/events/E/submit` (paste or upload; works without JavaScript: a
  plain POST stores the list and answers with a redirect to the result), the live check
  `POST /events/E/check` (stores nothing; the one static script calls it as the player types),
  and the private link `/decklists/ID/TOKEN` (the result: every diagnostic; replace the list until
  the deadline or lock, 409 after).
- The organiser (signed in by `/o/TOKEN`, urls.py): `/events/E/dashboard` (every list, lock,
  unlock, publish, CSV, every sheet in one printable document, the metagame), submitting or
  fixing a list for a player, and the judge's page `/events/E/judge` (a player or a deck hash ->
  the registered list; a presented list -> the `diff`).
- The public: `/events/E/public`, 404 until published.

Every write goes through `service`. Templates auto-escape; every text from a player or a deck is
also passed through `safe` (controls, terminal escapes and bidi controls made visible), and the
whole page once more through `clean_output` before it is sent. No inline script anywhere (the CSP
forbids it); every form that changes data carries `{% csrf_token %}`. Page texts are `msg(...)`
entries (context "page") rendered in the chosen language: `?lang=`, a form's `lang`, the
`varzdeck_lang` cookie a `?lang=` sets, else Accept-Language.
"""

from __future__ import annotations

import html
import json
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import replace
from typing import Any

from django.http import (
    HttpRequest,
    HttpResponse,
    HttpResponseRedirect,
)
from django.template.loader import render_to_string
from django.urls import URLPattern, path
from django.utils.html import format_html
from django.utils.safestring import SafeString, mark_safe
from django.views.decorators.http import require_http_methods

from varz_deck import __version__
from varz_deck.core.i18n import LANGUAGES, CardName, Message, msg, nmsg, term
from varz_deck.core.sanitize import clean_output, safe
from varz_deck.server import hosts, pageviews, service
from varz_deck.server.security import request_language
from varz_deck.server.settings import BODY_LIMIT

LANG_COOKIE = "varzdeck_lang"
FLASH_LINK = "varzdeck_flash_link"  # a private link shown once to the organiser who made it
STATIC = "/static/"
HTML_LANG = {"en": "en", "ja": "ja", "zh": "zh-Hans"}
LANGUAGE_NAMES = {"en": "English", "ja": "日本語", "zh": "中文"}

# Every word the pages show (context "page"); templates read them as {{ t.key }}.
TEXTS: dict[str, Message] = {
    "app": msg("page", "Deck registration"),
    "language": msg("page", "Language"),
    "back": msg("page", "Back"),
    "player": msg("page", "Player"),
    "player_name": msg("page", "Your name"),
    "deck_list": msg("page", "Deck list"),
    "deck_hint": msg(
        "page",
        "Paste the list as a YAML deck file, a .txt list or a deck code. It is checked as you type.",
    ),
    "or_upload": msg("page", "Or upload the file"),
    "messages_language": msg("page", "Language of the messages"),
    "checking": msg("page", "Checking…"),
    "check_failed": msg("page", "The list could not be checked now; submit it to see the result."),
    "your_list": msg("page", "Your deck list"),
    "saved": msg("page", "Your list is stored."),
    "deck_hash": msg("page", "Deck hash"),
    "submitted": msg("page", "Submitted"),
    "status": msg("page", "Status"),
    "private_link": msg("page", "Your private link"),
    "private_link_hint": msg(
        "page",
        "Keep this link: it shows your list and lets you replace it until the deadline. "
        "Anyone with the link can do the same.",
    ),
    "registered_list": msg("page", "Registered list"),
    "versions": msg("page", "Versions"),
    "replace_list": msg("page", "Replace the list"),
    "replace_button": msg("page", "Replace the list"),
    "dashboard": msg("page", "Organiser's dashboard"),
    "lock": msg("page", "Lock submissions"),
    "unlock": msg("page", "Unlock submissions"),
    "publish": msg("page", "Publish the lists"),
    "print_sheets": msg("page", "Print all sheets"),
    "export_csv": msg("page", "Export CSV"),
    "judge_page": msg("page", "Judge's page"),
    "submit_for_player": msg("page", "Submit a list for a player"),
    "public_page": msg("page", "Public lists"),
    "submission_link": msg("page", "Players submit at"),
    "metagame": msg("page", "Metagame"),
    "players": msg("page", "Players"),
    "legal": msg("page", "Legal"),
    "not_legal": msg("page", "Not legal"),
    "lists": msg("page", "Deck lists"),
    "errors": msg("page", "Errors"),
    "no_lists": msg("page", "No list has been submitted yet."),
    "back_dashboard": msg("page", "Back to the dashboard"),
    "choose_player": msg("page", "Player"),
    "or_hash": msg("page", "or deck hash"),
    "show_list": msg("page", "Show the list"),
    "compare": msg("page", "Compare with the presented list"),
    "presented_list": msg("page", "The list as presented (YAML, .txt list or deck code)"),
    "compare_button": msg("page", "Compare"),
    "public_lists": msg("page", "Published deck lists"),
}
SUBMIT_HEADING = msg("page", "Submit your deck list")
SUBMIT_BUTTON = msg("page", "Submit the list")
ORGANISER_HEADING = msg("page", "Submit a list for a player")
ORGANISER_BUTTON = msg("page", "Submit for this player")
LEGAL = msg("page", "Legal")
NOT_LEGAL = msg("page", "Not legal")
N_ERRORS = nmsg("page", "{n} error", "{n} errors")
N_WARNINGS = nmsg("page", "{n} warning", "{n} warnings")
N_LISTS = nmsg("page", "{n} list", "{n} lists")
N_LEGAL = nmsg("page", "{n} legal", "{n} legal")
GAME_FORMAT = msg("page", "{game} · format {format}")
GAME_ANY_FORMAT = msg("page", "{game} · each deck's own format")
DEADLINE = msg("page", "deadline {deadline}")
NO_DEADLINE = msg("page", "no deadline")
REQUIRED = msg("page", "lists required")
OPTIONAL = msg("page", "lists accepted, not required")
STATE_OPEN = msg("page", "open")
STATE_LOCKED = msg("page", "locked")
STATE_CLOSED = msg("page", "deadline passed")
STATE_PUBLISHED = msg("page", "published")
CLOSED_LOCKED = msg(
    "page", "The organiser has locked submissions: the list can no longer be changed."
)
CLOSED_DEADLINE = msg("page", "The deadline has passed: the list can no longer be changed.")
CLOSED_HEADING = msg("page", "Submissions are closed")
HOME = msg(
    "page",
    "Players: open the submission link of your event. Organisers: open the sign-in link that "
    "`event create` printed.",
)
NOT_FOUND_HEADING = msg("page", "Not found")
NOT_FOUND = msg("page", "There is nothing here. Check the link you were given.")
NOT_SIGNED_IN_HEADING = msg("page", "Sign in first")
NOT_SIGNED_IN = msg(
    "page", "This page is the organiser's: open the organiser link that `event create` printed."
)
NO_DECK = msg("page", "Paste your list or choose a file.")
NOT_TEXT = msg("page", "The file is not UTF-8 text; save it as UTF-8 and upload it again.")
TOO_LONG = msg("page", "The list is over {limit:,} bytes; a deck list is far smaller.")
DONE_LOCKED = msg("page", "Submissions are locked.")
DONE_UNLOCKED = msg("page", "Submissions are open again.")
DONE_PUBLISHED = msg("page", "The lists are published.")
FLASH_LINK_TEXT = msg("page", "The player's private link (shown once; give it to the player):")
HERO = msg("page", "Hero")
LEADER = msg("page", "Leader")
NO_LEAD = msg("page", "(none)")
JUDGE_NONE = msg("page", "No list matches {query}.")
JUDGE_SEVERAL = msg("page", "Several lists match; choose the player.")
SAME_DECK = msg("page", "Same deck: the presented list is the registered one.")
DIFFERENT_DECK = msg("page", "Different deck: see every difference below.")
CANNOT_COMPARE = msg("page", "The presented list cannot be compared; its problems:")
PRESENTED = msg("page", "presented list")
REGISTERED = msg("page", "Registered")  # the judge's comparison: its count columns
PRESENTED_COUNT = msg("page", "Presented")
VERSION_BY_ORGANISER = msg("page", "{status} (by the organiser)")


# --- Language and rendering ----------------------------------------------------------------------


class Texts(Mapping[str, str]):
    """The page words in one language, for templates (`{{ t.key }}`)."""

    def __init__(self, lang: str) -> None:
        self.lang = lang
        self._cache: dict[str, str] = {}

    def __getitem__(self, key: str) -> str:
        found = self._cache.get(key)
        if found is None:
            found = self._cache[key] = TEXTS[key].render(self.lang)
        return found

    def __iter__(self) -> Iterator[str]:
        return iter(TEXTS)

    def __len__(self) -> int:
        return len(TEXTS)


def page_language(request: HttpRequest) -> str:
    """en, ja or zh: a form's `lang`, `?lang=`, the cookie, else Accept-Language."""
    for choice in (request.POST.get("lang"), request.GET.get("lang")):
        if choice in LANGUAGES:
            return str(choice)
    cookie = request.COOKIES.get(LANG_COOKIE)
    if cookie in LANGUAGES:
        return str(cookie)
    return request_language(request)


def _language_links(request: HttpRequest) -> list[tuple[str, str, str]]:
    links = []
    for code in LANGUAGES:
        query = request.GET.copy()
        query["lang"] = code
        query.pop("saved", None)
        query.pop("done", None)
        links.append((code, LANGUAGE_NAMES[code], f"{request.path}?{query.urlencode()}"))
    return links


def page(
    request: HttpRequest, template: str, context: dict[str, Any], status: int = 200
) -> HttpResponse:
    """A page in the request's language; every raw control character left is made visible."""
    lang = context.get("lang") or page_language(request)
    full = {
        "lang": lang,
        "html_lang": HTML_LANG[lang],
        "t": Texts(lang),
        "languages": _language_links(request),
        "assets": STATIC,
        "version": __version__,
        **context,
    }
    document = render_to_string(f"pages/{template}", full, request=request)
    response = HttpResponse(clean_output(document), status=status)
    response["Cache-Control"] = "no-store"
    # Referer only within this site (security.py's same-origin): a private link never leaves
    # it, and form posts keep their Origin (with no-referrer, Chromium sends `Origin: null` and
    # the CSRF check refuses the post)
    if request.GET.get("lang") in LANGUAGES:
        response.set_cookie(LANG_COOKIE, lang, max_age=365 * 24 * 3600, samesite="Lax")
    return response


def json_page(payload: object, status: int = 200) -> HttpResponse:
    """JSON for the page's script: ASCII only, and `<`, `>`, `&` as \\u escapes too, so no
    markup survives even if the answer were ever read as HTML."""
    text = json.dumps(payload, ensure_ascii=True)
    for char, code in (("<", "\\u003c"), (">", "\\u003e"), ("&", "\\u0026")):
        text = text.replace(char, code)
    response = HttpResponse(text, status=status, content_type="application/json")
    response["Cache-Control"] = "no-store"
    return response


def message_page(
    request: HttpRequest,
    heading: Message,
    text: Message,
    status: int,
    *,
    event: Any = None,
    back: str = "",
    kind: str = "error",
) -> HttpResponse:
    lang = page_language(request)
    context = {
        "kind": kind,
        "heading": heading.render(lang),
        "text": text.render(lang),
        "event": _event_view(event) if event is not None else None,
        "back": back,
    }
    return page(request, "message.html", context, status)


def not_found(request: HttpRequest) -> HttpResponse:
    return message_page(request, NOT_FOUND_HEADING, NOT_FOUND, 404)


def closed_message(reason: str | None) -> Message | None:
    if reason == "locked":
        return CLOSED_LOCKED
    if reason == "deadline_passed":
        return CLOSED_DEADLINE
    return None


# --- Views of the models, for templates --------------------------------------------------------


def _event_view(event: Any) -> dict[str, str]:
    return {"key": event.key, "name": safe(event.name)}


def _event_line(event: Any, lang: str) -> str:
    from varz_deck.games import get_game

    game = get_game(event.game).name
    parts = [
        (
            GAME_FORMAT(game=game, format=event.format)
            if event.format
            else GAME_ANY_FORMAT(game=game)
        )
    ]
    if event.deadline is not None:
        parts.append(DEADLINE(deadline=_when(event.deadline.isoformat())))
    else:
        parts.append(NO_DEADLINE)
    parts.append(REQUIRED if event.requires_lists else OPTIONAL)
    return " · ".join(part.render(lang) for part in parts)


def _when(iso: str) -> str:
    """A time as the pages show it: `2026-05-17 09:30 UTC` (the server keeps UTC)."""
    text = iso[:16].replace("T", " ")
    if iso.endswith(("+00:00", "Z")):
        return f"{text} UTC"
    return f"{text} {iso[-6:]}" if iso[-6:-5] in "+-" and len(iso) > 19 else text


def _verdict(legal: bool, diagnostics: Sequence[Mapping[str, Any]], lang: str) -> str:
    errors = sum(1 for d in diagnostics if d.get("severity") == "error")
    warnings = len(diagnostics) - errors
    parts = [(LEGAL if legal else NOT_LEGAL).render(lang)]
    counts = []
    if errors:
        counts.append(N_ERRORS(n=errors).render(lang))
    if warnings:
        counts.append(N_WARNINGS(n=warnings).render(lang))
    if counts:
        parts.append(", ".join(counts))
    return " · ".join(parts)


def diagnostic_rows(diagnostics: Sequence[Mapping[str, Any]], lang: str) -> list[dict[str, str]]:
    """Diagnostics (as `check --output json`) as the pages and the live check show them: place
    (line:column), code, severity and message in the language."""
    rows = []
    for d in diagnostics:
        line, column = d.get("line"), d.get("column")
        where = f"{line}:{column or 1}" if line else "—"
        severity = str(d.get("severity", "error"))
        text = d.get("message_localized") or d.get("message") or ""
        rows.append(
            {
                "where": where,
                "line": str(line or ""),
                "column": str(column or ""),
                "code": safe(d.get("code", "")),
                "severity": "warning" if severity == "warning" else "error",
                "severity_label": term("severity", severity, lang),
                "text": safe(text),
            }
        )
    return rows


def _card_name(card: Any, lang: str) -> str:
    if card.card is None or lang == "en":
        return safe(card.name)
    return safe(CardName.of(card.card, quote=False).in_language(lang))


def canonical_view(canonical: Any, lang: str) -> dict[str, Any] | None:
    """A canonical list (slots, then sections with their cards) in the language."""
    if canonical is None:
        return None
    layout = canonical.layout
    slots = []
    for slot in layout.slots:
        card = canonical.slots.get(slot)
        slots.append(
            {
                "label": layout.slot_words[slot].render(lang),
                "name": _card_name(card, lang) if card else NO_LEAD.render(lang),
                "id": safe(card.shown_id) if card else "",
            }
        )
    sections = [
        {
            "label": term("section", section, lang),
            "total": canonical.size(section),
            "cards": [
                {"count": c.count, "name": _card_name(c, lang), "id": safe(c.shown_id or "?")}
                for c in canonical.sections[section]
            ],
        }
        for section in layout.sections
    ]
    return {"slots": slots, "sections": sections}


def diff_view(lines: Any, lang: str) -> dict[str, Any]:
    """The judge's comparison (core's DiffLines) as the page's table: the format and slot
    changes, then each section's cards with both counts (a table, not the terminal's aligned
    text: a browser's CJK glyphs are not two monospace columns wide)."""
    return {
        "notes": list(lines.notes),
        "registered": REGISTERED.render(lang),
        "presented": PRESENTED_COUNT.render(lang),
        "sections": [
            {
                "label": label,
                "rows": [
                    {
                        "sign": row.sign,
                        "name": row.name,
                        "id": safe(row.id),
                        "registered": row.registered,
                        "presented": row.presented,
                        "added": row.presented > row.registered,
                    }
                    for row in rows
                ],
            }
            for label, rows in lines.sections
        ],
    }


def _lead_label(event: Any, lang: str) -> str:
    return (LEADER if service.lead_word(event) == "leader" else HERO).render(lang)


def _deck_for_textarea(text: str) -> str:
    return text.replace("\r\n", "\n").replace("\r", "\n")


def _posted_deck(request: HttpRequest, field: str = "deck") -> tuple[str, Message | None]:
    """The deck text of a form: the uploaded file when one is chosen, else the text area."""
    upload = request.FILES.get("file")
    if upload is not None and upload.size:
        if upload.size > BODY_LIMIT:
            return "", TOO_LONG(limit=BODY_LIMIT)
        try:
            text = upload.read().decode("utf-8-sig")
        except UnicodeDecodeError:
            return "", NOT_TEXT
    else:
        text = request.POST.get(field, "")
    text = _deck_for_textarea(text)
    if not text.strip():
        return "", NO_DECK
    return text, None


def _organiser_event(request: HttpRequest, key: str) -> Any:
    """The event when this browser signed in as its organiser; None otherwise."""
    try:
        event = service.get_event(key)
    except service.NotFound:
        return None
    return event if service.signed_in(request.session, event) else None


def _organiser_refused(request: HttpRequest, key: str) -> HttpResponse:
    try:
        service.get_event(key)
    except service.NotFound:
        return not_found(request)
    return message_page(request, NOT_SIGNED_IN_HEADING, NOT_SIGNED_IN, 403)


def _with_lang(url: str, lang: str, **extra: str) -> str:
    from urllib.parse import urlencode

    return f"{url}?{urlencode({**extra, 'lang': lang})}"


# --- Players ----------------------------------------------------------------------------------


@require_http_methods(["GET", "POST"])
def submit(request: HttpRequest, key: str) -> HttpResponse:
    """The submission page; a POST stores the list (legal or not) and goes to its private link."""
    try:
        event = service.get_event(key)
    except service.NotFound:
        return not_found(request)
    lang = page_language(request)
    problem: Message | None = None
    status = 200
    if request.method == "POST":
        text, problem = _posted_deck(request)
        if problem is None:
            try:
                decklist, _, token, _ = service.submit(event, request.POST.get("player"), text)
            except service.Closed as refused:
                return message_page(request, CLOSED_HEADING, refused.message, 409, event=event)
            except service.Invalid as invalid:
                problem = invalid.message
            else:
                target = service.decklist_path(decklist, token)
                return HttpResponseRedirect(_with_lang(target, lang, saved="1"), status=303)
        status = 422
    closed = closed_message(service.closed_reason(event))
    context = {
        "event": _event_view(event),
        "event_line": _event_line(event, lang),
        "heading": SUBMIT_HEADING.render(lang),
        "submit_label": SUBMIT_BUTTON.render(lang),
        "action": service.submit_path(event),
        "check_url": f"/events/{event.key}/check",
        "closed": closed.render(lang) if closed else "",
        "problem": problem.render(lang) if problem else "",
        "player": safe(" ".join(request.POST.get("player", "").split())),
        "deck": clean_output(_deck_for_textarea(request.POST.get("deck", ""))),
    }
    return page(request, "submit.html", context, status)


@require_http_methods(["POST"])
def check(request: HttpRequest, key: str) -> HttpResponse:
    """The live check: the list as `check` sees it, in the language; nothing is stored."""
    lang = page_language(request)
    try:
        event = service.recent_event(key)
    except service.NotFound:
        return json_page({"error": {"code": "not_found", "message": NOT_FOUND.render(lang)}}, 404)
    text = _deck_for_textarea(request.POST.get("deck", ""))
    checked = service.check_deck(event, text)
    diagnostics = checked.diagnostics(lang)
    return json_page(
        {
            "legal": checked.legal,
            "deck_hash": checked.deck_hash,
            "summary": _verdict(checked.legal, diagnostics, lang),
            "diagnostics": diagnostic_rows(diagnostics, lang),
        }
    )


def _decklist_context(request: HttpRequest, decklist: Any, lang: str) -> dict[str, Any]:
    event = decklist.event
    every = service.versions(decklist)
    current = decklist.current or (every[-1] if every else None)
    deck = current.deck if current is not None else ""
    checked = service.check_deck(event, deck, decklist.player)
    diagnostics = checked.diagnostics(lang)
    legal = checked.legal if current is not None else False  # the verdict of these diagnostics
    versions = []
    for v in every:
        status = (LEGAL if v.legal else NOT_LEGAL).render(lang)
        if v.by_organiser:
            status = VERSION_BY_ORGANISER(status=status).render(lang)
        iso = v.submitted_at.isoformat()
        versions.append(
            {
                "iso": iso,
                "when": _when(iso),
                "deck_hash": v.deck_hash,
                "legal": v.legal,
                "status": status,
            }
        )
    iso = current.submitted_at.isoformat() if current is not None else ""
    return {
        "event": _event_view(event),
        "event_line": _event_line(event, lang),
        "player": safe(decklist.player),
        "legal": legal,
        "verdict": _verdict(legal, diagnostics, lang),
        "deck_hash": current.deck_hash if current is not None else None,
        "submitted_iso": iso,
        "submitted": _when(iso) if iso else "—",
        "diagnostics": diagnostic_rows(diagnostics, lang),
        "canonical": canonical_view(checked.registration.canonical, lang),
        "versions": versions,
        "deck": clean_output(_deck_for_textarea(deck)),
        "saved": request.GET.get("saved") == "1",
        "check_url": f"/events/{event.key}/check",
    }


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
    problem: Message | None = None
    if request.method == "POST":
        text, problem = _posted_deck(request)
        if problem is None:
            try:
                service.replace_deck(decklist, text)
            except service.Closed as refused:
                return message_page(
                    request, CLOSED_HEADING, refused.message, 409, event=decklist.event, back=here
                )
            return HttpResponseRedirect(_with_lang(here, lang, saved="1"), status=303)
    context = _decklist_context(request, decklist, lang)
    closed = closed_message(service.closed_reason(decklist.event))
    context.update(
        private_link=hosts.link(here),
        action=here,
        closed=closed.render(lang) if closed else "",
        problem=problem.render(lang) if problem else "",
    )
    return page(request, "decklist.html", context, 422 if problem else 200)


# --- The organiser -----------------------------------------------------------------------------


def _dashboard_urls(request: HttpRequest, event: Any) -> dict[str, str]:
    base = f"/events/{event.key}"
    return {
        "lock": f"{base}/lock",
        "unlock": f"{base}/unlock",
        "publish": f"{base}/publish",
        "sheets": f"{base}/sheets",
        "csv": f"{base}/export.csv",
        "judge": f"{base}/judge",
        "add": f"{base}/add",
        "public": service.public_path(event),
        "submit_full": hosts.link(service.submit_path(event)),
    }


def _esc(text: str) -> str:
    return html.escape(text, quote=True)


def _rows_html(rows: Sequence[pageviews.Row], base: str, lang: str) -> SafeString:
    """The dashboard's table body, built here rather than by the template engine (1,000 rows in
    a few milliseconds instead of a few hundred); every value escaped."""
    if not rows:
        return format_html('<tr><td colspan="7">{}</td></tr>', Texts(lang)["no_lists"])
    yes, no = _esc(LEGAL.render(lang)), _esc(NOT_LEGAL.render(lang))
    out = []
    for r in rows:
        iso = r.submitted_at.isoformat()
        state = "legal" if r.legal else "illegal"
        out.append(
            f'<tr class="{state}"><td><a href="{base}{r.id}">{_esc(safe(r.player))}</a></td>'
            f"<td>{yes if r.legal else no}</td>"
            f'<td class="codes">{_esc(" ".join(r.errors))}</td>'
            f"<td>{_esc(safe(r.lead))}</td>"
            f"<td><code>{_esc(r.deck_hash or '—')}</code></td>"
            f'<td><time datetime="{_esc(iso)}">{_esc(_when(iso))}</time></td>'
            f'<td class="num">{r.versions}</td></tr>\n'
        )
    return mark_safe("".join(out))  # every value above is escaped


_DONE = {"locked": DONE_LOCKED, "unlocked": DONE_UNLOCKED, "published": DONE_PUBLISHED}


@require_http_methods(["GET"])
def dashboard(request: HttpRequest, key: str) -> HttpResponse:
    """Every list (legal or not, its errors, hash, time, versions), the event's state and
    actions, and the metagame by hero (leader)."""
    event = _organiser_event(request, key)
    if event is None:
        return _organiser_refused(request, key)
    lang = page_language(request)
    rows = pageviews.dashboard_rows(event)
    none = NO_LEAD.render(lang)
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
    states = [("open", STATE_OPEN)] if reason is None else []
    if event.locked:
        states.append(("locked", STATE_LOCKED))
    if reason == "deadline_passed":
        states.append(("closed", STATE_CLOSED))
    if event.published:
        states.append(("published", STATE_PUBLISHED))
    legal = sum(1 for r in rows if r.legal)
    summary = (
        f"{N_LISTS(n=len(rows)).render(lang)} · {N_LEGAL(n=legal).render(lang)}"
        if rows
        else Texts(lang)["no_lists"]
    )
    done = _DONE.get(request.GET.get("done", ""))
    context = {
        "event": _event_view(event),
        "event_line": _event_line(event, lang),
        "states": [(cls, text.render(lang)) for cls, text in states],
        "locked": event.locked,
        "published": event.published,
        "urls": _dashboard_urls(request, event),
        "rows_html": _rows_html(rows, f"/events/{event.key}/decklists/", lang),
        "metagame": metagame,
        "summary": summary,
        "hero_label": _lead_label(event, lang),
        "flash": done.render(lang) if done else "",
    }
    return page(request, "dashboard.html", context)


def _state_change(change: Callable[[Any], Any], done: str) -> Callable[..., HttpResponse]:
    @require_http_methods(["POST"])
    def view(request: HttpRequest, key: str) -> HttpResponse:
        event = _organiser_event(request, key)
        if event is None:
            return _organiser_refused(request, key)
        change(event)
        target = _with_lang(service.dashboard_path(event), page_language(request), done=done)
        return HttpResponseRedirect(target, status=303)

    view.__name__ = f"event_{done}"
    return view


lock = _state_change(lambda event: service.set_locked(event, True), "locked")
unlock = _state_change(lambda event: service.set_locked(event, False), "unlocked")
publish = _state_change(service.publish, "published")


@require_http_methods(["GET"])
def sheets(request: HttpRequest, key: str) -> HttpResponse:
    """Every player's registration sheet in one printable document, a page each."""
    event = _organiser_event(request, key)
    if event is None:
        return _organiser_refused(request, key)
    document = service.sheets_document(event, page_language(request))
    response = HttpResponse(document, content_type="text/html; charset=utf-8")
    response["Cache-Control"] = "no-store"
    return response


@require_http_methods(["GET"])
def export_csv(request: HttpRequest, key: str) -> HttpResponse:
    """`register --output csv` of every current list (formula-safe cells)."""
    event = _organiser_event(request, key)
    if event is None:
        return _organiser_refused(request, key)
    response = HttpResponse(service.export_csv(event), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{event.key}.csv"'
    response["Cache-Control"] = "no-store"
    return response


@require_http_methods(["GET", "POST"])
def add_for_player(request: HttpRequest, key: str) -> HttpResponse:
    """The organiser submits a list for a player (also after the deadline or lock)."""
    event = _organiser_event(request, key)
    if event is None:
        return _organiser_refused(request, key)
    lang = page_language(request)
    here = f"/events/{event.key}/add"
    problem: Message | None = None
    if request.method == "POST":
        text, problem = _posted_deck(request)
        if problem is None:
            try:
                decklist, _, token, _ = service.submit(
                    event, request.POST.get("player"), text, by_organiser=True
                )
            except service.Invalid as invalid:
                problem = invalid.message
            else:
                link = hosts.link(service.decklist_path(decklist, token))
                request.session[FLASH_LINK] = link
                target = f"/events/{event.key}/decklists/{decklist.pk}"
                return HttpResponseRedirect(_with_lang(target, lang, saved="1"), status=303)
    context = {
        "event": _event_view(event),
        "event_line": _event_line(event, lang),
        "heading": ORGANISER_HEADING.render(lang),
        "submit_label": ORGANISER_BUTTON.render(lang),
        "action": here,
        "check_url": f"/events/{event.key}/check",
        "closed": "",
        "problem": problem.render(lang) if problem else "",
        "player": safe(" ".join(request.POST.get("player", "").split())),
        "deck": clean_output(_deck_for_textarea(request.POST.get("deck", ""))),
    }
    return page(request, "submit.html", context, 422 if problem else 200)


@require_http_methods(["GET", "POST"])
def organiser_decklist(request: HttpRequest, key: str, number: str) -> HttpResponse:
    """One list as the organiser sees it; the organiser may fix it at any time."""
    event = _organiser_event(request, key)
    if event is None:
        return _organiser_refused(request, key)
    decklist = service.decklist_in_session(number, request.session)
    if decklist is None or decklist.event_id != event.pk:
        return not_found(request)
    lang = page_language(request)
    here = f"/events/{event.key}/decklists/{decklist.pk}"
    problem: Message | None = None
    if request.method == "POST":
        text, problem = _posted_deck(request)
        if problem is None:
            service.replace_deck(decklist, text, by_organiser=True)
            return HttpResponseRedirect(_with_lang(here, lang, saved="1"), status=303)
    context = _decklist_context(request, decklist, lang)
    flash = request.session.pop(FLASH_LINK, "")
    context.update(
        private_link=flash,
        private_link_label=FLASH_LINK_TEXT.render(lang) if flash else "",
        action=here,
        closed="",
        problem=problem.render(lang) if problem else "",
        back=service.dashboard_path(event),
    )
    return page(request, "decklist.html", context, 422 if problem else 200)


@require_http_methods(["GET", "POST"])
def judge(request: HttpRequest, key: str) -> HttpResponse:
    """A player or a deck hash -> the registered list; a presented list -> the `diff`."""
    from varz_deck.core.registration.render import diff_lines

    event = _organiser_event(request, key)
    if event is None:
        return _organiser_refused(request, key)
    lang = page_language(request)
    pairs = service.current_versions(event)
    data = request.POST if request.method == "POST" else request.GET
    chosen_id = str(data.get("entry", "")).strip()
    query = " ".join(str(data.get("hash", "")).split())[:80]
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
            problem, options = JUDGE_SEVERAL, found
        else:
            problem = JUDGE_NONE(query=query)
    context: dict[str, Any] = {
        "event": _event_view(event),
        "dashboard_url": service.dashboard_path(event),
        "action": f"/events/{event.key}/judge",
        "compare_action": f"/events/{event.key}/judge",
        "options": [{"id": str(d.pk), "player": safe(d.player)} for d, _ in options],
        "chosen_id": str(entry[0].pk) if entry else "",
        "hash": safe(query),
    }
    if entry is not None:
        decklist, version = entry
        checked = service.check_deck(event, version.deck, decklist.player)
        diagnostics = checked.diagnostics(lang)
        iso = version.submitted_at.isoformat()
        context["entry"] = {
            "id": str(decklist.pk),
            "player": safe(decklist.player),
            "legal": version.legal,
            "verdict": _verdict(version.legal, diagnostics, lang),
            "deck_hash": version.deck_hash,
            "iso": iso,
            "when": _when(iso),
        }
        context["canonical"] = canonical_view(checked.registration.canonical, lang)
        context["diagnostics"] = diagnostic_rows(diagnostics, lang)
        if request.method == "POST":
            presented = _deck_for_textarea(request.POST.get("presented", ""))
            context["presented"] = clean_output(presented)
            if presented.strip():
                diff, before, after = service.compare(event, version, presented)
                if diff is None:
                    context["diff_verdict"] = CANNOT_COMPARE.render(lang)
                    context["diff_problems"] = diagnostic_rows(
                        after.report.to_json(lang)["diagnostics"], lang
                    )
                else:
                    before = replace(before, path=decklist.player)
                    after = replace(after, path=PRESENTED.render(lang))
                    context["same"] = diff.same
                    context["diff_verdict"] = (SAME_DECK if diff.same else DIFFERENT_DECK).render(
                        lang
                    )
                    context["diff"] = diff_view(diff_lines(diff, before, after, lang), lang)
    context["problem"] = problem.render(lang) if problem else ""
    return page(request, "judge.html", context)


# --- The public -----------------------------------------------------------------------------------


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
            "deck_hash": reg.deck_hash,
            "canonical": canonical_view(reg.canonical, lang),
        }
        for reg in service.registrations(event)
    ]
    context = {
        "event": _event_view(event),
        "event_line": _event_line(event, lang),
        "entries": entries,
    }
    return page(request, "public.html", context)


@require_http_methods(["GET"])
def home(request: HttpRequest) -> HttpResponse:
    """The server's root: where to go (events are not listed: their ids are shared by link)."""
    return message_page(request, TEXTS["app"], HOME, 200, kind="plain")


urlpatterns: list[URLPattern] = [
    path("", home, name="page-home"),
    path("events/<str:key>/submit", submit, name="page-submit"),
    path("events/<str:key>/check", check, name="page-check"),
    path("decklists/<str:number>/<str:token>", private_link, name="page-decklist"),
    path("events/<str:key>/dashboard", dashboard, name="page-dashboard"),
    path("events/<str:key>/lock", lock, name="page-lock"),
    path("events/<str:key>/unlock", unlock, name="page-unlock"),
    path("events/<str:key>/publish", publish, name="page-publish"),
    path("events/<str:key>/sheets", sheets, name="page-sheets"),
    path("events/<str:key>/export.csv", export_csv, name="page-export"),
    path("events/<str:key>/add", add_for_player, name="page-add"),
    path("events/<str:key>/decklists/<str:number>", organiser_decklist, name="page-organiser-list"),
    path("events/<str:key>/judge", judge, name="page-judge"),
    path("events/<str:key>/public", public, name="page-public"),
]
