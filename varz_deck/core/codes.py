"""Every diagnostic code: file problems (F), construction rules (V, W; Azuki A) and card data (C)."""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any, NamedTuple

from varz_deck.core.diagnostics import Severity, default_severity
from varz_deck.core.i18n import Message, msg

if TYPE_CHECKING:
    from varz_deck.core.rulebook import Rule


class CodeInfo(NamedTuple):
    code: str
    name: str
    section: str
    summary: str
    doc: str = ""
    fix: str = ""  # how to fix what the code flags (SARIF `help`)

    @property
    def severity(self) -> Severity:
        return default_severity(self.code)

    @property
    def examples(self) -> tuple[tuple[str, str], ...]:
        """The examples of the rule's docstring, as (label, text)."""
        return doc_examples(self.doc)


# A rule's docstring is its summary line, then one line per example under one of these labels
# (`Legal:   hero: Matsuri`). The docstring is the English source: in another language
# `varz-deck rules CODE` shows the translated label and the example's text translated under the
# context "example" (varz_deck.games.extract_code_summaries extracts each one for the catalogues).
EXAMPLE_LABELS: dict[str, Message] = {
    "Legal": msg("rules", "Legal"),
    "Illegal": msg("rules", "Illegal"),
    "Fine": msg("rules", "Fine"),
    "Warning": msg("rules", "Warning"),
}
_EXAMPLE = re.compile(rf"^({'|'.join(EXAMPLE_LABELS)}):\s*(\S.*?)\s*$")


def doc_examples(doc: str) -> tuple[tuple[str, str], ...]:
    """Each `Label: text` line of a rule's docstring as (label, text), in order."""
    found = (_EXAMPLE.match(line) for line in doc.splitlines())
    return tuple((match[1], match[2]) for match in found if match)


FILE_CODES = (
    CodeInfo(
        "F001",
        "file-unreadable",
        "-",
        "file cannot be read (missing, a folder, not UTF-8, over the size limit)",
        fix="Check the path: a file (not a folder), saved as UTF-8, under the size limit.",
    ),
    CodeInfo(
        "F002",
        "yaml-invalid",
        "-",
        "YAML syntax error, or a YAML feature deck files do not allow (aliases, tags, depth)",
        fix="Fix the YAML at the place shown; write cards out instead of aliases or tags.",
    ),
    CodeInfo(
        "F003",
        "listed-twice",
        "-",
        "duplicate key, or the same card listed twice in a section",
        fix="Keep one entry per card in a section and add up its counts; drop the duplicate key.",
    ),
    CodeInfo(
        "F004",
        "deck-structure-invalid",
        "-",
        "deck structure invalid (wrong type, unknown key, count not a whole number from 1 to 99)",
        fix='Use only the deck\'s keys, give a section as card: count or as "COUNT NAME" items, and write each count as a whole number from 1 to 99.',
    ),
    CodeInfo(
        "F005",
        "card-unknown",
        "-",
        'unknown card (with "did you mean" when a close name exists)',
        fix="Check the spelling (`varz-deck cards search`), or write the card's id.",
    ),
    CodeInfo(
        "F006",
        "card-reference-ambiguous",
        "-",
        "ambiguous reference: a name that means two different cards",
        fix="Write the card's id instead of the name two cards share.",
    ),
    CodeInfo(
        "F007",
        "format-unknown",
        "2.2",
        "unknown format",
        fix="Use a format the card database defines (the message lists them).",
    ),
    CodeInfo(
        "F008",
        "card-in-wrong-section",
        "3-2",
        "card in the wrong section (a portal under spells, a non-hero as hero)",
        fix="Move the card to the section of its type, or choose another card.",
    ),
    CodeInfo(
        "F010",
        "deck-for-another-game",
        "-",
        "the deck is written for another game than the card database's; use --game or --cards",
        fix="Check the deck with its own game: pass --game, or --cards with that game's cards.",
    ),
    CodeInfo(
        "F009",
        "deck-code-unreadable",
        "-",
        "deck code cannot be decoded (damaged, cut short, or a newer version)",
        fix="Copy the deck code again in full, or export it again with this version.",
    ),
)

CARD_CODES = (
    CodeInfo(
        "C001",
        "card-schema-violation",
        "SPEC §1",
        "card file or formats.yaml does not match its schema",
        fix="Fix the field the message names, as the schema says (`varz-deck schema NAME`).",
    ),
    CodeInfo(
        "C002",
        "card-id-duplicate",
        "SPEC §1",
        "the same card id is used twice in the database",
        fix="Give each card its own id: renumber or remove the duplicate.",
    ),
    CodeInfo(
        "C003",
        "printings-differ",
        "SPEC §1",
        "printings of one name have different game fields",
        fix="Make the printings of the name agree on their game fields, or rename one card.",
    ),
    CodeInfo(
        "C004",
        "class-or-keyword-unknown",
        "3-2 ❷, 9",
        "unknown skill class or keyword",
        fix="Use a skill class or keyword the game knows, or correct its spelling.",
    ),
    CodeInfo(
        "C005",
        "format-names-unknown",
        "2.2",
        "formats.yaml names an unknown card or set",
        fix="Correct the card or set name in formats.yaml, or add it to the database.",
    ),
    CodeInfo(
        "C006",
        "card-database-empty",
        "SPEC §1",
        "the card database has no cards: no .yaml/.yml file below it has a top-level cards: list",
        fix="Point --cards at the folder of the card files, each with a top-level `cards:` list.",
    ),
    CodeInfo(
        "C007",
        "formats-file-misnamed",
        "SPEC §1",
        "a file at the root is named like formats.yaml but is not read as it (Formats.yaml, "
        "format.yml, formats.yaml.txt), or formats.yaml and formats.yml are both there",
        fix="Name the file exactly formats.yaml, and keep only one of formats.yaml and .yml.",
    ),
    CodeInfo(
        "C101",
        "card-name-shared",
        "SPEC §2",
        "warning: one name (in any language) belongs to two different cards, so a deck that "
        "uses it is ambiguous (F006)",
        fix="Rename one of the cards; until then decks must use the cards' ids.",
    ),
    CodeInfo(
        "C102",
        "set-code-id-mismatch",
        "SPEC §1",
        "warning: a card's id does not start with the set code of its file",
        fix="Move the card to the file of its set, or correct its id.",
    ),
    CodeInfo(
        "C103",
        "printings-translated-differently",
        "SPEC §1",
        "warning: printings of one card give different translations of its name",
        fix="Give every printing of the card the same translated names.",
    ),
    CodeInfo(
        "C104",
        "format-entry-without-effect",
        "2.2",
        "warning: a format bans or restricts a card none of whose printings is in its sets",
        fix="Drop the entry from the format, or add a set the card is printed in.",
    ),
)


def codes_with(rules: Iterable[Rule[Any]]) -> dict[str, CodeInfo]:
    """Every file and card code plus the given rules' codes, with name, rulebook section and
    summary, in code order (varz_deck.games.all_codes gives the games' rules)."""
    out = {info.code: info for info in (*FILE_CODES, *CARD_CODES)}
    for rule in rules:
        out[rule.code] = CodeInfo(
            rule.code, rule.name, rule.section, rule.summary, rule.doc, getattr(rule, "fix", "")
        )
    order = {"F": 0, "V": 1, "W": 2, "A": 3, "C": 4}
    return dict(sorted(out.items(), key=lambda kv: (order.get(kv[0][0], 9), kv[0])))
