"""The one record every problem becomes, and the small helpers that make one."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, NamedTuple

from varz_deck.core.code import Code, Severity, declared

if TYPE_CHECKING:
    from varz_deck.core.i18n import Args, Message

__all__ = ["Code", "Diagnostic", "Mark", "Severity", "diag"]


class Mark(NamedTuple):
    """A 1-based place in a file."""

    line: int
    column: int


@dataclass(frozen=True)
class Diagnostic:
    """One problem: what, how bad, where, and which section and card it concerns.

    `message` is the English text (JSON, SARIF and GitHub outputs use it); `text`, when set, is
    the translatable template with its values, which `varz_deck.core.i18n.localized` renders in
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
    its id the declared code's (varz_deck.core.code.declare), else an error.

    `message` is a `Message` (see varz_deck.core.i18n), or an English template whose context is
    the code when `args` is given, or else plain English text (then it is not translated).
    """
    from varz_deck.core.i18n import English, Message

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
