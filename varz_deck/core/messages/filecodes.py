"""The F-codes: problems of reading a file, a deck's structure and its references (docs/reference/rules/).

The readers (core/files/source.py, core/files/strictyaml.py, core/decks/entries.py, core/registration/code.py and
each game's deck reader) report them; they are declared here once, beside those readers."""

from __future__ import annotations

from varz_deck.core.messages.code import Code, Scope, declare


def _file_code(code_id: str, name: str, title: str, fix: str, section: str = "-") -> Code:
    return declare(Code(code_id, name, title, scope=Scope.FILE, section=section, fix=fix))


F001 = _file_code(
    "F001",
    "file-unreadable",
    "file cannot be read (missing, a folder, not UTF-8, over the size limit)",
    "Check the path: a file (not a folder), saved as UTF-8, under the size limit.",
)
F002 = _file_code(
    "F002",
    "yaml-invalid",
    "YAML syntax error, or a YAML feature deck files do not allow (aliases, tags, depth)",
    "Fix the YAML at the place shown; write cards out instead of aliases or tags.",
)
F003 = _file_code(
    "F003",
    "listed-twice",
    "duplicate key, or the same card listed twice in a section",
    "Keep one entry per card in a section and add up its counts; drop the duplicate key.",
)
F004 = _file_code(
    "F004",
    "deck-structure-invalid",
    "deck structure invalid (wrong type, unknown key, count not a whole number from 1 to 99)",
    'Use only the deck\'s keys, give a section as card: count or as "COUNT NAME" items, and write each count as a whole number from 1 to 99.',
)
F005 = _file_code(
    "F005",
    "card-unknown",
    'unknown card (with "did you mean" when a close name exists)',
    "Check the spelling (`varz-deck cards search`), or write the card's id.",
)
F006 = _file_code(
    "F006",
    "card-reference-ambiguous",
    "ambiguous reference: a name that means two different cards",
    "Write the card's id instead of the name two cards share.",
)
F007 = _file_code(
    "F007",
    "format-unknown",
    "unknown format",
    "Use a format the card database defines (the message lists them).",
    section="2.2",
)
F008 = _file_code(
    "F008",
    "card-in-wrong-section",
    "card in the wrong section (not of its type, or in a slot it cannot fill)",
    "Move the card to the section of its type, or choose another card.",
    section="3-2",
)
F009 = _file_code(
    "F009",
    "deck-code-unreadable",
    "deck code cannot be decoded (damaged, cut short, or a newer version)",
    "Copy the deck code again in full, or export it again with this version.",
)
F010 = _file_code(
    "F010",
    "deck-for-another-game",
    "the deck is written for another game than the card database's; use --game or --cards",
    "Check the deck with its own game: pass --game, or --cards with that game's cards.",
)

FILE_CODES = (F001, F002, F003, F004, F005, F006, F007, F008, F009, F010)
