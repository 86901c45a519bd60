"""A page in the request's language: the language chosen, the template rendered with the page
words, made safe to send; the live check's JSON; the message pages (not found, refused, closed)."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any
from urllib.parse import urlencode

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.template.loader import render_to_string

from varz_deck import __version__
from varz_deck.core.messages.i18n import LANGUAGES, Message
from varz_deck.core.messages.sanitize import clean_output
from varz_deck.server.security import request_language
from varz_deck.server.views import texts
from varz_deck.server.views.viewmodels import event_view

if TYPE_CHECKING:
    from varz_deck.server.models import Event

LANG_COOKIE = "varzdeck_lang"
HTML_LANG = {"en": "en", "ja": "ja", "zh": "zh-Hans"}
LANGUAGE_NAMES = {"en": "English", "ja": "日本語", "zh": "中文"}


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


def with_lang(url: str, lang: str, **extra: str) -> str:
    """A URL of this site in the language, with extra query values (`saved=1`, `done=…`)."""
    return f"{url}?{urlencode({**extra, 'lang': lang})}"


def page(
    request: HttpRequest, template: str, context: dict[str, Any], status: int = 200
) -> HttpResponse:
    """A page in the request's language; every raw control character left is made visible."""
    lang = context.get("lang") or page_language(request)
    full = {
        "lang": lang,
        "html_lang": HTML_LANG[lang],
        "t": texts.Texts(lang),
        "languages": _language_links(request),
        "assets": settings.STATIC_URL,
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


def csv_download(text: str, filename: str) -> HttpResponse:
    """A CSV file to save (the organiser's: never kept in a shared cache)."""
    response = HttpResponse(text, content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    response["Cache-Control"] = "no-store"
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
    event: Event | None = None,
    back: str = "",
    kind: str = "error",
) -> HttpResponse:
    """A heading and a sentence (an error unless `kind` says otherwise)."""
    lang = page_language(request)
    context = {
        "kind": kind,
        "heading": heading.render(lang),
        "text": text.render(lang),
        "event": event_view(event) if event is not None else None,
        "back": back,
    }
    return page(request, "message.html", context, status)


def not_found(request: HttpRequest) -> HttpResponse:
    return message_page(request, texts.NOT_FOUND_HEADING, texts.NOT_FOUND, 404)
