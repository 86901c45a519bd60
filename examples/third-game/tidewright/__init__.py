"""Tidewright, a small seafaring card game, as a varz-deck plugin.

A ship (deck) has one captain, a crew of 20 sailors and maneuvers, and 8 currents; every card
comes from one of the captain's seas. The game is a declaration (below) and two rules no
declaration can say (rules.py); everything else (reading decks, sizes, copy limits, the format's
bans, sets and release days, registration, schemas, look-up, stats) is varz-deck's, reached
through `varz_deck.plugin` alone.
"""

from __future__ import annotations

from pathlib import Path

from varz_deck.plugin import (
    CardField,
    CardType,
    CheckCode,
    Copies,
    Declaration,
    DeclaredGame,
    FormatCodes,
    Section,
    Size,
    Slot,
    msg,
    register_catalogue,
)

from tidewright.rules import RULEBOOK, SEAS

HERE = Path(__file__).resolve().parent
SHIP = "Building a ship"

NOT_IN_FORMAT = CheckCode(
    "T106",
    "not-in-format",
    doc="""Every card is allowed in the deck's format: not banned, and from one of its sets.

    Legal:   format: harbor, every card from TW01
    Illegal: format: harbor with Wavebreaker (TW02) or Broadside (banned)
    """,
    fix="Replace the card, or choose another format.",
    messages={
        "banned": msg("T106", "{card} is banned in {format}"),
        "banned_since": msg("T106", "{card} is banned in {format}"),
        "sets": msg("T106", "{card} is from {set}, not a set of {format}"),
    },
)


def _size(code: str, name: str, doc: str, fix: str, text: str) -> CheckCode:
    said = msg(code, text)
    return CheckCode(code, name, doc=doc, fix=fix, messages={"add": said, "remove": said})


DECLARATION = Declaration(
    key="tidewright",
    name="Tidewright",
    prefix="T",
    code_family="TW",
    hash_header="tidewright-deck-hash v1",
    rulebook=SHIP,
    list_example="3 Rigger Finn",
    fields={
        "seas": CardField("words", SEAS, most=2),
        "sea": CardField("word", SEAS),
        "renown": CardField("integer", minimum=1),
        "cost": CardField("integer", minimum=0, maximum=9),
        "might": CardField("integer", minimum=0),
        "text": CardField("text", common=True),
        "flavor": CardField("text", common=True, printing=True),
    },
    types={
        "captain": CardType("captain", needs=("seas", "renown")),
        "sailor": CardType("crew", needs=("sea", "cost", "might")),
        "maneuver": CardType("crew", needs=("sea", "cost")),
        "current": CardType("currents", needs=("sea",)),
    },
    slots=(
        Slot(
            "captain",
            {"en": "Captain", "ja": "キャプテン"},
            example="Mara Vell or TW01-001",
            code=CheckCode(
                "T101",
                "captain-missing",
                doc="""A ship has exactly one captain.

                Legal:   captain: Mara Vell
                Illegal: (no captain key, or `captain:` left empty)
                """,
                fix="Add `captain: NAME` naming one captain card.",
                messages={
                    "missing": msg(
                        "T101",
                        "no captain; a ship has exactly one captain card: add `captain: NAME`",
                    )
                },
            ),
        ),
    ),
    sections=(
        Section(
            "crew",
            {"en": "Crew", "ja": "クルー"},
            Size(exact=20),
            headers=("crew deck",),
            about="20 sailors and maneuvers",
            size_code=_size(
                "T102",
                "crew-size-wrong",
                """The crew has exactly 20 cards.

                Legal:   crew: 20 cards (sailors and maneuvers)
                Illegal: crew: 19 cards
                """,
                "Add or remove crew cards until there are exactly 20.",
                "the crew has {n} cards; it must have exactly {need}",
            ),
            copies=(
                Copies(
                    3,
                    code=CheckCode(
                        "T104",
                        "too-many-copies",
                        doc="""At most 3 copies of one crew card, every printing counted together.

                        Legal:   crew: {Rigger Finn: 2, TW02-008: 1}
                        Illegal: crew: {Rigger Finn: 2, TW02-008: 2}
                        """,
                        fix="Keep at most 3 copies of each crew card.",
                        messages={
                            "over": msg(
                                "T104",
                                "{card}: {count} copies; a crew holds at most {limit} of one card",
                            )
                        },
                    ),
                ),
            ),
        ),
        Section(
            "currents",
            {"en": "Currents", "ja": "潮流"},
            Size(exact=8),
            about="the 8 currents",
            size_code=_size(
                "T103",
                "currents-size-wrong",
                """The currents hold exactly 8 cards.

                Legal:   currents: {North Current: 4, East Current: 4}
                Illegal: currents: {North Current: 9}
                """,
                "Add or remove currents until there are exactly 8.",
                "the currents hold {n} cards; they must hold exactly {need}",
            ),
        ),
    ),
    formats={"standard": "Open Sea"},
    format_codes=FormatCodes(banned=NOT_IN_FORMAT, sets=NOT_IN_FORMAT),
)

GAME = DeclaredGame(
    DECLARATION, HERE / "card_data", rules=RULEBOOK, colours=("seas", "sea"), cost="cost"
)
register_catalogue("tidewright", HERE / "locale")
