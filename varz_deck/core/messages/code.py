"""A diagnostic code as its owner declares it, and every declared code by id.

Each check owns its code, as a linter's rule does: a deck rule (core/messages/rulebook.py), a card-data
check (core/lint/) or a file reader (core/messages/filecodes.py) declares a `Code`, and a diagnostic
takes its severity from it, never from the code's letters.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import Enum, IntEnum


class Severity(str, Enum):
    ERROR = "error"
    WARNING = "warning"

    def __str__(self) -> str:
        return self.value


class Scope(IntEnum):
    """What a code is about, in the order `varz-deck rules` lists them."""

    FILE = 0  # reading a file or a deck code
    DECK = 1  # building a deck (a game's rules)
    CARDS = 2  # the card data (`cards lint`)


# A code's docs are its title line, then one line per example under one of these labels
# (`Legal:   lead: Some Card`); core/report/codes.py has the labels' translations.
EXAMPLE_WORDS = ("Legal", "Illegal", "Fine", "Warning")
_EXAMPLE = re.compile(rf"^({'|'.join(EXAMPLE_WORDS)}):\s*(\S.*?)\s*$")


def doc_examples(doc: str) -> tuple[tuple[str, str], ...]:
    """Each `Label: text` line of a code's docs as (label, text), in order."""
    found = (_EXAMPLE.match(line) for line in doc.splitlines())
    return tuple((match[1], match[2]) for match in found if match)


@dataclass(frozen=True)
class Code:
    """A stable diagnostic code: its id, severity, one-line title and its docs.

    `section` is where the rulebook (or these docs) says so; `doc` the longer text with its examples;
    `fix` how to fix what it flags (SARIF `help`).
    """

    id: str
    name: str
    title: str
    severity: Severity = Severity.ERROR
    scope: Scope = Scope.DECK
    section: str = "-"
    doc: str = ""
    fix: str = ""

    @property
    def code(self) -> str:
        return self.id

    @property
    def summary(self) -> str:
        return self.title

    @property
    def examples(self) -> tuple[tuple[str, str], ...]:
        return doc_examples(self.doc)

    def __str__(self) -> str:
        return self.id


_DECLARED: dict[str, Code] = {}


class CodeClash(ValueError):
    """Another, different code already has this id (`code`: the id)."""

    def __init__(self, code: str) -> None:
        super().__init__(f"code {code} declared twice")
        self.code = code


def declare(code: Code) -> Code:
    """Make a code known by its id (what `diag` asks for a code given as text); CodeClash when
    another, different code already has the id."""
    known = _DECLARED.setdefault(code.id, code)
    if known != code:
        raise CodeClash(code.id)
    return code


def declared(code_id: str) -> Code | None:
    """The code declared with this id, if any."""
    return _DECLARED.get(code_id)
