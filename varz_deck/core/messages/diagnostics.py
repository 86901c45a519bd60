"""The one record every problem becomes, and the small helpers that make one."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, NamedTuple

from varz_deck.core.messages.code import Code, Severity, declared

if TYPE_CHECKING:
    from varz_deck.core.messages.i18n import Args, Message

__all__ = ["Code", "Diagnostic", "Mark", "Severity", "diag"]


class Mark(NamedTuple):
    """A 1-based place in a file."""

    line: int
    column: int


@dataclass(frozen=True)
class Diagnostic:
    """One problem: what, how bad, where, and which section and card it concerns.

    `message` is the English text (JSON, SARIF and GitHub outputs use it); `text`, when set, is
    the translatable template with its values, which `varz_deck.core.messages.i18n.localized` renders in
    another language.
    """

    code: str
    severity: Severity
    message: str
    file: str | None = None
    line: int | None = None
    column: int | None = None
    section: str | None = None
    card: str | None = None
    text: Message | None = field(default=None, compare=False)

    @property
    def is_error(self) -> bool:
        return self.severity is Severity.ERROR

    @property
    def template(self) -> str:
        """The English template (gettext msgid) of the message, or "" when it has none."""
        return self.text.msgid if self.text is not None else ""

    @property
    def args(self) -> Args:
        """The values the template shows."""
        return self.text.args if self.text is not None else ()

    def sort_key(self) -> tuple[int, int, str]:
        return (self.line or 0, self.column or 0, self.code)


def diag(
    code: Code | str,
    message: str | Message,
    mark: Mark | None = None,
    *,
    file: str | None = None,
    section: str | None = None,
    card: str | None = None,
    severity: Severity | None = None,
    args: Mapping[str, object] | None = None,
) -> Diagnostic:
    """Build a diagnostic; its severity is the code's own: the `Code`'s, or for a code given by
    its id the declared code's (varz_deck.core.messages.code.declare), else an error.

    `message` is a `Message` (see varz_deck.core.messages.i18n), or an English template whose context is
    the code when `args` is given, or else plain English text (then it is not translated).
    """
    from varz_deck.core.messages.i18n import English, Message

    if isinstance(message, English):
        message = message.message
    if isinstance(code, str):
        code = declared(code) or code
    if severity is None:
        severity = code.severity if isinstance(code, Code) else Severity.ERROR
    code_id = code.id if isinstance(code, Code) else code
    text: Message | None = None
    if isinstance(message, Message):
        text = message(**args) if args is not None else message
    elif args is not None:
        text = Message(code_id, message)(**args)
    return Diagnostic(
        code=code_id,
        severity=severity,
        message=text.render() if text is not None else str(message),
        file=file,
        line=mark.line if mark else None,
        column=mark.column if mark else None,
        section=section,
        card=card,
        text=text,
    )


# --------------------------------------------------------------------------- a tagged JSON form
# For stores of results (core/lint/lintstore.py): a diagnostic and its Message, with every argument's
# type, so that a diagnostic read back renders the same in every language. Scalars are themselves;
# every other value is a one-key object naming its type.


class Unencodable(ValueError):
    """A value the tagged form does not carry (the result is then not stored)."""


def to_tagged(diagnostic: Diagnostic) -> list[object]:
    """A diagnostic as JSON-ready data (see from_tagged)."""
    d = diagnostic
    text = None if d.text is None else _tag(d.text)
    return [d.code, d.severity.value, d.message, d.file, d.line, d.column, d.section, d.card, text]


def from_tagged(data: list[object], file: str | None = None) -> Diagnostic:
    """The diagnostic to_tagged gave, with `file` when the stored one had none."""
    code, severity, message, stored_file, line, column, section, card, text = data
    return Diagnostic(
        code=str(code),
        severity=Severity(severity),
        message=str(message),
        file=stored_file if stored_file is not None else file,  # type: ignore[arg-type]
        line=line,  # type: ignore[arg-type]
        column=column,  # type: ignore[arg-type]
        section=section,  # type: ignore[arg-type]
        card=card,  # type: ignore[arg-type]
        text=None if text is None else _untag(text),  # type: ignore[arg-type]
    )


def _tag(value: object) -> object:
    from varz_deck.core.messages.i18n import CardName, Joined, Message, Quoted, Term

    if value is None or isinstance(value, (bool, int, float, str)):
        if type(value) not in (type(None), bool, int, float, str):
            raise Unencodable(type(value).__name__)  # a subclass would come back as its base
        return value
    if isinstance(value, Message):
        args = [[key, _tag(arg)] for key, arg in value.args]
        return {"M": [value.context, value.msgid, value.plural, args]}
    if isinstance(value, CardName):
        return {"N": [value.name, [list(pair) for pair in value.names], value.quote]}
    if isinstance(value, Quoted):
        return {"Q": _tag(value.text)}
    if isinstance(value, Term):
        return {"T": [value.group, value.value]}
    if isinstance(value, Joined):
        return {"J": [[_tag(item) for item in value.items], value.separator]}
    raise Unencodable(type(value).__name__)


def _untag(value: object) -> object:
    from varz_deck.core.messages.i18n import CardName, Joined, Message, Quoted, Term

    if not isinstance(value, dict):
        return value
    ((tag, body),) = value.items()
    if tag == "M":
        context, msgid, plural, args = body
        return Message(context, msgid, plural, tuple((key, _untag(arg)) for key, arg in args))
    if tag == "N":
        name, names, quote = body
        return CardName(name, tuple((lang, shown) for lang, shown in names), quote)
    if tag == "Q":
        return Quoted(_untag(body))
    if tag == "T":
        return Term(*body)
    if tag == "J":
        items, separator = body
        return Joined(tuple(_untag(item) for item in items), separator)
    raise Unencodable(tag)
