"""Azuki's deck as a declaration (core/decks/declaration.py): the Leader and the Gate, the 50-card
main deck (at most 4 copies of a card id) and the IKZ deck, where each card type goes, a card
known by its id (alias ids name it too: cards.py), `AZ1` deck codes, and the codes the core's
checks report under: A101 and A102 (a slot left empty), A103 (the main deck's size), A106 (the
copy limit), A107, A108 and A201 (the format's bans, release days and announced bans).

What no declaration can say stays a Python rule (rules/: A104 the IKZ deck, A105 elements).
"""

from __future__ import annotations

from varz_deck.core.decks.declaration import (
    CardType,
    CheckCode,
    Copies,
    Declaration,
    FormatCodes,
    Section,
    Size,
    Slot,
)
from varz_deck.core.messages.code import Severity
from varz_deck.core.messages.i18n import msg, nmsg

DECK_BUILDING = "Deck building"  # the rules page's section
DATED = "dated formats"  # docs/guides/card-data.md, "Dated formats"
MAIN_SIZE = 50
MAX_COPIES = 4

# A Leader or a Gate listed in a section (the core says the same of any card out of its section).
LISTED = msg("F008", "{card} is a {type} card and cannot go in {section}; put it under {home}")

LEADER = Slot(
    "leader",
    {"en": "Leader", "ja": "リーダー", "zh": "领袖"},
    example="Shao or STT02-001",
    code=CheckCode(
        "A101",
        "leader-count-wrong",
        section=DECK_BUILDING,
        doc="""A deck has exactly one Leader.

        Legal:   leader: Shao
        Illegal: (no leader key, or `leader:` left empty)
        """,
        fix="Add `leader: NAME` naming one Leader card.",
        messages={
            "missing": msg(
                "A101", "no Leader; a deck has exactly one Leader card: add `leader: NAME`"
            )
        },
    ),
    misplaced={
        "named": msg("F008", "{card} is a {type} card, not a Leader; name a Leader card as leader"),
        "listed": LISTED,
    },
)

GATE = Slot(
    "gate",
    {"en": "Gate", "ja": "ゲート", "zh": "门"},
    example="Hydromancy Gate or STT02-002",
    code=CheckCode(
        "A102",
        "gate-count-wrong",
        section=DECK_BUILDING,
        doc="""A deck has exactly one Gate.

        Legal:   gate: Hydromancy Gate
        Illegal: (no gate key, or `gate:` left empty)
        """,
        fix="Add `gate: NAME` naming one Gate card.",
        messages={
            "missing": msg("A102", "no Gate; a deck has exactly one Gate card: add `gate: NAME`")
        },
    ),
    misplaced={
        "named": msg("F008", "{card} is a {type} card, not a Gate; name a Gate card as gate"),
        "listed": LISTED,
    },
)

_MAIN_SIZE = msg("A103", "the main deck has {n} cards; it must have exactly {size}")

MAIN = Section(
    "main",
    {"en": "main deck", "ja": "メインデッキ", "zh": "主牌组"},
    Size(exact=MAIN_SIZE),
    headers=("main deck",),
    about="the 50-card main deck: entities, spells, weapons",
    size_code=CheckCode(
        "A103",
        "main-deck-size-wrong",
        section=DECK_BUILDING,
        doc="""The main deck has exactly 50 cards.

        Legal:   main: 50 cards (entities, spells, weapons)
        Illegal: main: 49 cards
        """,
        fix="Add or remove main-deck cards until they add up to 50.",
        messages={"add": _MAIN_SIZE, "remove": _MAIN_SIZE},
    ),
    copies=(
        Copies(
            MAX_COPIES,
            code=CheckCode(
                "A106",
                "copy-limit-exceeded",
                section=DECK_BUILDING,
                doc="""At most 4 copies of a card id in the main deck (alternate art counts with its id).

                Legal:   main: {Rei: 4}
                Illegal: main: {Rei: 5}
                """,
                fix="Keep at most 4 copies of each card id in the main deck.",
                messages={
                    "over": msg("A106", "{n} copies of {card} ({id}); at most {max} of a card")
                },
            ),
        ),
    ),
)

# The IKZ deck's 10 IKZ and 1 IKZ Token is A104 (rules/ikz.py): its size alone says too little.
IKZ = Section(
    "ikz",
    {"en": "IKZ deck", "ja": "IKZデッキ", "zh": "IKZ牌组"},
    Size(),
    headers=("ikz deck",),
    about="10 IKZ and 1 IKZ Token",
)

BANNED = CheckCode(
    "A107",
    "card-banned",
    section=DECK_BUILDING,
    doc="""No card the format bans (Standard: Rushfire Gate).

    Legal:   gate: Ragefire Gate
    Illegal: gate: Rushfire Gate
    """,
    fix="Remove the banned card from the deck.",
    messages={
        "banned": msg("A107", "{card} ({id}) is banned in {format}"),
        "banned_since": msg("A107", "{card} ({id}) is banned in {format} since {date}"),
    },
)

RELEASED = CheckCode(
    "A108",
    "card-not-yet-released",
    section=DATED,
    doc="""A card is legal once its set is released.

    Legal:   an AZK02 card checked on AZK02's release day
    Illegal: the same card checked the day before
    """,
    fix="Play a printing already released on the day checked, or check the deck for a later day.",
    messages={"released": msg("A108", "{card} ({id}) is in {set}, released {date}: not yet legal")},
)

ANNOUNCED = CheckCode(
    "A201",
    "announced-ban",
    section=DATED,
    severity=Severity.WARNING,
    doc="""Warn of a ban 1 to 60 days ahead of a card the deck plays.

    Fine:    a ban from 2027-01-15 of a card the deck plays, checked on 2026-11-15
    Warning: the same ban checked on 2027-01-01 (in 14 days)
    """,
    fix="Replace the card before its ban is in force, or check for the day of your event.",
    messages={
        "banned": nmsg(
            "A201",
            "{card} ({id}) is banned from {date}, in {n} day",
            "{card} ({id}) is banned from {date}, in {n} days",
        )
    },
)

DECLARATION = Declaration(
    key="azuki",
    name="Azuki TCG",
    prefix="A",
    code_family="AZ",
    hash_header="azuki-deck-hash v1",
    rulebook=DECK_BUILDING,
    list_example="4 Alley Thug",
    identity="id",
    types={
        "leader": CardType("leader"),
        "gate": CardType("gate"),
        "entity": CardType("main"),
        "spell": CardType("main"),
        "weapon": CardType("main"),
        "ikz": CardType("ikz"),
        "ikz_token": CardType("ikz"),
    },
    slots=(LEADER, GATE),
    sections=(MAIN, IKZ),
    format_codes=FormatCodes(banned=BANNED, released=RELEASED, announced=ANNOUNCED),
)
