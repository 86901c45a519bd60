"""Messages in English, Japanese and Chinese: the language choice, gettext catalogues, rendering.

A message is a `Message`: an English template (the gettext msgid, with `{named}` placeholders), a
context (the diagnostic code, or a word group such as "report"), an optional plural form (chosen
by the argument `n`), and its arguments. English is the msgid itself; other languages come from
`locale/<lang>/LC_MESSAGES/varz_deck.mo` (the core's) and from each game's own catalogue (its
package's locale/, `register_catalogue`), compiled from the `.po` sources when the wheel is built
(hatch_build.py). In a source checkout without compiled catalogues (or with a `.po` newer than its
`.mo`), the `.po` is compiled in memory with Babel when it is installed; without Babel, English.

Arguments are rendered in the chosen language at the last moment: user text is escaped (`safe`),
card names are shown in the language when the database has a translation, colours, card types,
sections and classes are translated as words of the rulebook (`Term`).

Markers for Babel's extractor (see locale/README.md): `msg(context, text)`,
`nmsg(context, singular, plural)`, `N_(text)` for help texts.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping, Sequence
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple, Protocol

from varz_deck.core.messages.sanitize import MAX_QUOTED, safe

if TYPE_CHECKING:
    import gettext


DOMAIN = "varz_deck"
LANGUAGES = ("en", "ja", "zh")
ENGLISH = "en"
ENV_VAR = "VARZ_DECK_LANG"
LOCALE_ENV = ("LC_ALL", "LC_MESSAGES", "LANG")
LOCALE_DIR = Path(__file__).resolve().parents[2] / "locale"  # varz_deck/locale
# Babel keyword specs for the markers below (`pybabel extract -k msg:1c,2 -k nmsg:1c,2,3 -k N_`).
BABEL_KEYWORDS: dict[str, tuple[int | tuple[int, str], ...] | None] = {
    "msg": ((1, "c"), 2),
    "nmsg": ((1, "c"), 2, 3),
    "N_": None,
}

Args = tuple[tuple[str, object], ...]


class Message(NamedTuple):
    """A translatable text: context, English msgid (and plural), and the values it shows."""

    context: str
    msgid: str
    plural: str = ""
    args: Args = ()

    def __call__(self, **args: object) -> Message:
        """The same message with these values (`n` picks the plural form)."""
        return self._replace(args=tuple(args.items()))

    def render(self, lang: str = ENGLISH) -> str:
        """The text in a language; arguments escaped and translated on the way."""
        return _render(self, lang)

    def __str__(self) -> str:
        return self.render(ENGLISH)


class English(str):
    """English text that keeps the Message it was rendered from, for code that passes strings
    around (LoadError.message): diag() given one of these still gets the translatable Message."""

    message: Message

    def __new__(cls, message: Message) -> English:
        made = super().__new__(cls, message.render(ENGLISH))
        made.message = message
        return made


def msg(context: str, text: str) -> Message:
    """Mark a message for translation (context: the diagnostic code or a word group)."""
    return Message(context, text)


def nmsg(context: str, singular: str, plural: str) -> Message:
    """Mark a message with a plural form; the argument `n` picks the form."""
    return Message(context, singular, plural)


def N_(text: str) -> str:
    """Mark a help text for translation; it is translated when the command line is built."""
    return text


class CardName(NamedTuple):
    """A card's name, shown in the chosen language when the database has it."""

    name: str
    names: tuple[tuple[str, str], ...] = ()
    quote: bool = True

    @classmethod
    def of(cls, card: Any, *, quote: bool = True) -> CardName:
        """Any game's card: it has a `name` and `names` (language -> name)."""
        # loose, not Named: registration/sheet.py passes a printing typed `CardRecord | None`
        # that its caller's check on `card.card` proves set
        return cls(card.name, tuple(sorted(card.names.items())), quote)

    def in_language(self, lang: str) -> str:
        return dict(self.names).get(lang, self.name) if lang != ENGLISH else self.name


class Quoted(NamedTuple):
    """User-supplied text: escaped, cut to a readable length, in the language's quotes."""

    text: object  # shown as str() gives it, escaped: a value of the document may be any


class Term(NamedTuple):
    """A word of the game (colour, card type, section, class, format), translated when known."""

    group: str
    value: str


class Joined(NamedTuple):
    """Several values in a row, with a translated separator (", ", " or ", "; ")."""

    items: tuple[object, ...]
    separator: str = ", "


# The words every game shares, so the extractor finds them; translated with pgettext(group, value).
# A game marks its own words (colours, card types, sections, classes) in its package.
TERMS = (
    msg("format", "Standard"),
    msg("format", "Pioneer"),
    msg("separator", ", "),
    msg("separator", " or "),
    msg("separator", "; "),
    msg("severity", "error"),
    msg("severity", "warning"),
)


# --------------------------------------------------------------------------- language choice


def normalize_language(value: str | None) -> str | None:
    """'ja_JP.UTF-8' -> 'ja', 'zh_CN' -> 'zh', 'C'/'POSIX' -> 'en'; None for other languages."""
    if not value:
        return None
    code = value.split(":")[0].split(".")[0].split("@")[0].replace("-", "_").lower()
    if code in ("c", "posix"):
        return ENGLISH
    base = code.split("_")[0]
    return base if base in LANGUAGES else None


def choose_language(option: str | None = None, environ: Mapping[str, str] | None = None) -> str:
    """--lang, else $VARZ_DECK_LANG, else the locale (LC_ALL, LC_MESSAGES, LANG), else English.

    An unsupported $VARZ_DECK_LANG is passed over; an unsupported locale means English.
    """
    if option:
        return normalize_language(option) or ENGLISH
    env = os.environ if environ is None else environ
    chosen = normalize_language(env.get(ENV_VAR))
    if chosen:
        return chosen
    for name in LOCALE_ENV:
        if env.get(name):
            return normalize_language(env[name]) or ENGLISH
    return ENGLISH


def option_from_argv(args: Sequence[str]) -> str | None:
    """The value of `--lang X` / `--lang=X` in a command line (before `--`), if any."""
    for i, arg in enumerate(args):
        if arg == "--":
            break
        if arg.startswith("--lang="):
            return arg.split("=", 1)[1]
        if arg == "--lang" and i + 1 < len(args):
            return args[i + 1]
    return None


# --------------------------------------------------------------------------- catalogues


def catalogue_paths(
    lang: str, domain: str = DOMAIN, folder: Path = LOCALE_DIR
) -> tuple[Path, Path]:
    """The .po source and the compiled .mo of a language, in the core's catalogue or another's."""
    messages = folder / lang / "LC_MESSAGES"
    return messages / f"{domain}.po", messages / f"{domain}.mo"


# The games' catalogues (domain, locale folder), in the order they registered: a message the
# core's catalogue does not have is looked up in each of them.
GAME_CATALOGUES: list[tuple[str, Path]] = []


def register_catalogue(domain: str, folder: Path) -> None:
    """A game's own catalogue (its package's `locale/<lang>/LC_MESSAGES/<domain>.po`)."""
    if (domain, folder) not in GAME_CATALOGUES:
        GAME_CATALOGUES.append((domain, folder))
        translations.cache_clear()


class _English:
    """English is the msgid itself: no catalogue (and no gettext import on the common path)."""

    def gettext(self, message: str) -> str:
        return message

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        return singular if n == 1 else plural

    def pgettext(self, context: str, message: str) -> str:
        return message

    def npgettext(self, context: str, singular: str, plural: str, n: int) -> str:
        return singular if n == 1 else plural


@cache
def translations(lang: str) -> gettext.NullTranslations | _English:
    """The catalogue of a language: the core's, falling back to each game's (each the compiled
    .mo, else the .po compiled in memory, else none)."""
    if lang == ENGLISH or lang not in LANGUAGES:
        return _English()
    import gettext

    chain = gettext.NullTranslations()
    for domain, folder in ((DOMAIN, LOCALE_DIR), *GAME_CATALOGUES):
        found = _catalogue(*catalogue_paths(lang, domain, folder))
        if found is not None:
            chain.add_fallback(found)
    return chain


def _catalogue(po: Path, mo: Path) -> gettext.NullTranslations | None:
    """One catalogue, read afresh (gettext.translation's shared copies would keep fallbacks)."""
    import gettext

    stale = mo.is_file() and po.is_file() and po.stat().st_mtime > mo.stat().st_mtime
    if mo.is_file() and not stale:
        with mo.open("rb") as handle:
            return gettext.GNUTranslations(handle)
    return compile_po(po) if po.is_file() else None


def compile_po(po: Path) -> gettext.NullTranslations | None:
    """A .po file compiled in memory with Babel (None when Babel is not installed)."""
    import gettext
    import io

    try:
        from babel.messages.mofile import write_mo
        from babel.messages.pofile import read_po
    except ImportError:
        return None
    with po.open("rb") as handle:
        catalog = read_po(handle)
    buffer = io.BytesIO()
    write_mo(buffer, catalog)
    buffer.seek(0)
    return gettext.GNUTranslations(buffer)


def gettext_in(lang: str, text: str) -> str:
    """A context-free text (help) in a language."""
    return translations(lang).gettext(text) if text else text


# --------------------------------------------------------------------------- rendering


def _template(message: Message, lang: str) -> str:
    t = translations(lang)
    if message.plural:
        n = dict(message.args).get("n", 1)
        count = n if isinstance(n, int) else 1
        if message.context:
            return t.npgettext(message.context, message.msgid, message.plural, count)
        return t.ngettext(message.msgid, message.plural, count)
    if message.context:
        return t.pgettext(message.context, message.msgid)
    return t.gettext(message.msgid)


def _render(message: Message, lang: str) -> str:
    template = _template(message, lang)
    if not message.args:
        return template
    values = {key: value_text(value, lang) for key, value in message.args}
    try:
        return template.format_map(values)
    except (KeyError, IndexError, ValueError, TypeError):  # a broken translation: say it in English
        return message.msgid.format_map(values)


def quote(text: str, lang: str) -> str:
    """Already-escaped text in the language's quotes: 'x' in English, 「x」 in Japanese and Chinese."""
    return f"'{text}'" if lang == ENGLISH else f"「{text}」"


def _shorten(text: object) -> str:
    shown = safe(text)
    return shown if len(shown) <= MAX_QUOTED else shown[: MAX_QUOTED - 1] + "…"


def value_text(value: object, lang: str) -> str | int | float:
    """One argument as the template shows it (numbers stay numbers for format specs)."""
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, (int, float)):
        return value
    if isinstance(value, Message):
        return value.render(lang)
    if isinstance(value, CardName):
        shown = _shorten(value.in_language(lang))
        return quote(shown, lang) if value.quote else shown
    if isinstance(value, Quoted):
        return quote(_shorten(value.text), lang)
    if isinstance(value, Term):
        return term(value.group, value.value, lang)
    if isinstance(value, Joined):
        separator = translations(lang).pgettext("separator", value.separator)
        return separator.join(str(value_text(item, lang)) for item in value.items)
    return safe(value)


def term(group: str, value: str, lang: str) -> str:
    """A word of the game in a language (unknown words are shown as written, escaped)."""
    return safe(translations(lang).pgettext(group, value))


class Said(Protocol):
    """What `localized` reads of a diagnostic (diagnostics.py's `Diagnostic`, which imports
    this module): its English message, and its `text` when it has one."""

    @property
    def message(self) -> str: ...


def localized(diagnostic: Said, lang: str) -> str:
    """A diagnostic's message in a language (its English message when it has no template)."""
    text = getattr(diagnostic, "text", None)
    if lang == ENGLISH or not isinstance(text, Message):
        return str(diagnostic.message)
    return text.render(lang)


def joined(items: Iterable[object], separator: str = ", ") -> Joined:
    return Joined(tuple(items), separator)
