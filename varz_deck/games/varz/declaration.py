"""VARZ's deck as a declaration: the hero, the 30 spells, the 9 skills and the 8 portals with
their copy limits (rulebook 2.1, 3-2), and the codes the core's construction and format checks
report under (V101-V104, V107, V108, V110, V111, V115-V118, W203). The rules no declaration can
say are in rules/.
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
from varz_deck.core.messages.i18n import msg, nmsg

FORMAT_DATA = "format data (2.2)"
DATED = "format data (2.2), dated formats"
POOLED = {"portals": ("pooled",)}  # a format whose Portal Deck is the table's (pioneer)

# The words the core puts together for VARZ from the declaration, marked here for its catalogue.
CORE_WORDS = (msg("F004", "the deck file is empty; it needs hero, spells, skills and portals"),)

HERO = Slot(
    "hero",
    {"en": "Hero", "ja": "ヒーロー", "zh": "英雄"},
    code=CheckCode(
        "V101",
        "hero-missing",
        section="2.1, 3-2 ❶",
        doc="""A deck names exactly one Hero card.

        Legal:   hero: Matsuri
        Illegal: (no hero key, or `hero:` left empty)
        """,
        fix="Add `hero: NAME` naming one Hero card.",
        messages={
            "missing": msg("V101", "no hero; a deck has exactly one Hero card: add `hero: NAME`")
        },
    ),
    misplaced={
        "named": msg("F008", "{card} is a {type} card, not a hero; name a Hero card as hero"),
        "listed": msg("F008", "{card} is a {type} card and cannot go in {section}; put it as hero"),
    },
)

SPELLS = Section(
    "spells",
    {"en": "spells", "ja": "スペルデッキ", "zh": "法术牌组"},
    Size(exact=30),
    headers=("deck", "main deck", "spell deck"),
    size_code=CheckCode(
        "V102",
        "spell-deck-size-wrong",
        section="2.1, 3-2 ❹",
        doc="""The spell deck holds exactly 30 cards.

        Legal:   spells: {Ember Imp: 3, ...}  # 30 in all
        Illegal: spells adding up to 29 or 31
        """,
        fix="Add or remove spells until they add up to 30.",
        messages={
            "add": nmsg(
                "V102",
                "{n} spell card; the Deck needs exactly {need} (add {diff})",
                "{n} spell cards; the Deck needs exactly {need} (add {diff})",
            ),
            "remove": nmsg(
                "V102",
                "{n} spell card; the Deck needs exactly {need} (remove {diff})",
                "{n} spell cards; the Deck needs exactly {need} (remove {diff})",
            ),
        },
    ),
    copies=(
        Copies(
            3,
            code=CheckCode(
                "V103",
                "spell-copy-limit-exceeded",
                section="2.1",
                doc="""At most 3 copies of a spell, counting every printing of its name together.

                Legal:   Scorch Shot: 3
                Illegal: VZ01-010: 2 and VZ02-063 (both printings of Scorch Shot): 2
                """,
                fix="Cut copies until at most 3 remain, all printings of the name together.",
                messages={
                    "over": msg(
                        "V103",
                        "{count} copies of {card}; at most {limit} (all printings together): "
                        "remove {excess}",
                    )
                },
            ),
        ),
    ),
)

SKILLS = Section(
    "skills",
    {"en": "skills", "ja": "スキルデッキ", "zh": "技能牌组"},
    Size(exact=9),
    headers=("skill deck",),
    size_code=CheckCode(
        "V110",
        "skill-deck-size-wrong",
        section="2.1",
        doc="""The Skill Deck holds exactly 9 cards.

        Legal:   skills adding up to 9
        Illegal: skills adding up to 8
        """,
        fix="Add or remove skills until they add up to 9.",
        messages={
            "add": nmsg(
                "V110",
                "{n} skill card; the Skill Deck needs exactly {need} (add {diff})",
                "{n} skill cards; the Skill Deck needs exactly {need} (add {diff})",
            ),
            "remove": nmsg(
                "V110",
                "{n} skill card; the Skill Deck needs exactly {need} (remove {diff})",
                "{n} skill cards; the Skill Deck needs exactly {need} (remove {diff})",
            ),
        },
    ),
    copies=(
        Copies(None, where={"vaz": (True,)}),  # a VAZ skill: any number
        Copies(
            1,
            code=CheckCode(
                "V111",
                "skill-copy-limit-exceeded",
                section="2.1, 3-2 ❷",
                doc="""At most 1 copy of each skill, except VAZ skills (any number).

                Legal:   Iron Fist: 1, Crimson VAZ: 5
                Illegal: Iron Fist: 2
                """,
                fix="Keep one copy of each skill; only VAZ skills may repeat.",
                messages={
                    "over": msg(
                        "V111",
                        "{count} copies of {card}; at most {limit} of a skill that is not a VAZ "
                        "skill: remove {excess}",
                    )
                },
            ),
        ),
    ),
)

PORTALS = Section(
    "portals",
    {"en": "portals", "ja": "ポータルデッキ", "zh": "传送门牌组"},
    Size(exact=8),
    headers=("portal deck",),
    unless=POOLED,
    size_code=CheckCode(
        "V104",
        "portal-deck-size-wrong",
        section="2.1, 3-2 ❸",
        doc="""The Portal Deck holds exactly 8 cards.

        Legal:   portals: {Basic Gate (3): 4, Basic Gate (2): 4}
        Illegal: 7 portals
        """,
        fix="Add or remove portals until they add up to 8.",
        messages={
            "add": nmsg(
                "V104",
                "{n} portal; the Portal Deck needs exactly {need} (add {diff})",
                "{n} portals; the Portal Deck needs exactly {need} (add {diff})",
            ),
            "remove": nmsg(
                "V104",
                "{n} portal; the Portal Deck needs exactly {need} (remove {diff})",
                "{n} portals; the Portal Deck needs exactly {need} (remove {diff})",
            ),
        },
    ),
    copies=(
        Copies(
            1,
            where={"has_effect": (True,)},  # rules text that is not blank (cards.py)
            code=CheckCode(
                "V107",
                "effect-portal-copy-limit-exceeded",
                section="2.1, 3-2 ❸",
                doc="""At most 1 copy of each portal with an effect.

                Legal:   Shrine Gate (has text): 1
                Illegal: Shrine Gate: 2
                """,
                fix="Keep one copy of each portal with an effect.",
                messages={
                    "over": msg(
                        "V107",
                        "{count} copies of {card}, a portal with an effect; at most {limit}: "
                        "remove {excess}",
                    )
                },
            ),
        ),
        Copies(
            4,
            code=CheckCode(
                "V108",
                "basic-portal-copy-limit-exceeded",
                section="2.1 (Japanese/Chinese)",
                doc="""At most 4 copies of each basic portal (one with no effect).

                Legal:   Basic Gate (3): 4
                Illegal: Basic Gate (3): 5
                """,
                fix="Keep at most 4 copies of each basic portal.",
                messages={
                    "over": msg(
                        "V108",
                        "{count} copies of {card}, a basic portal; at most {limit}: "
                        "remove {excess}",
                    )
                },
            ),
        ),
    ),
)

FORMAT_CODES = FormatCodes(
    banned=CheckCode(
        "V115",
        "banned-card",
        section=FORMAT_DATA,
        doc="""No card the format bans; a ban covers every printing of the card.

        Legal:   a deck without VZ01-031 in Standard
        Illegal: VZ01-031 (or any reprint of it) in Standard
        """,
        fix="Remove the banned card, every printing of it.",
        messages={
            "banned": msg("V115", "{card} is banned in {format}; replace it"),
            "banned_since": msg("V115", "{card} is banned in {format} since {date}; replace it"),
        },
    ),
    restricted=CheckCode(
        "V116",
        "restricted-card-over-limit",
        section=FORMAT_DATA,
        doc="""No more copies of a restricted card than the format allows.

        Legal:   VZ01-040: 1 when Standard restricts it to 1
        Illegal: VZ01-040: 2 when Standard restricts it to 1
        """,
        fix="Cut the restricted card down to the number the format allows.",
        messages={
            "over": msg(
                "V116",
                "{count} copies of {card}; {format} restricts it to {limit}: remove {excess}",
            ),
            "over_since": msg(
                "V116",
                "{count} copies of {card}; {format} restricts it to {limit} since {date}: "
                "remove {excess}",
            ),
        },
    ),
    sets=CheckCode(
        "V117",
        "card-not-in-format-sets",
        section=FORMAT_DATA,
        doc="""Every card is printed in a set the format allows (any printing of it counts).

        Legal:   a VZ01 card in a format with sets [VZ01, VZ02]
        Illegal: a card printed only in PR in that format
        """,
        fix="Replace the card with one printed in the format's sets, or play another format.",
        messages={
            "sets": msg(
                "V117", "{card} is only in set {sets}; {format} allows {allowed}: replace it"
            )
        },
    ),
    released=CheckCode(
        "V118",
        "not-yet-released",
        section=DATED,
        doc="""A card is legal once a printing of it in a set the format allows is released.

        Legal:   a VZ03 card checked on 2027-02-01, VZ03's release day
        Illegal: the same card checked on 2027-01-31, even when a promo printing is older
        """,
        fix="Replace the card, or check the deck for a day on or after its set's release.",
        messages={
            "released": msg(
                "V118", "{card} is in {set}, released {date}: not yet legal in {format}"
            )
        },
    ),
    announced=CheckCode(
        "W203",
        "announced-change",
        section=DATED,
        doc="""Warn of a change 1 to 60 days ahead that bans, restricts or rotates out a card played.

        Fine:    a ban of VZ02-010 from 2027-01-15, checked on 2027-01-15 (then V115) or 2026-11-15
        Fine:    an unban of VZ01-031 from 2027-01-15, checked on 2027-01-01
        Warning: the same ban checked on 2027-01-01: VZ02-010 is banned from 2027-01-15, in 14 days
        """,
        fix="Replace the card before the change is in force, or check for the day of your event.",
        messages={
            "banned": nmsg(
                "W203",
                "{card} is banned from {date}, in {n} day",
                "{card} is banned from {date}, in {n} days",
            ),
            "restricted": nmsg(
                "W203",
                "{card} is restricted to {limit} from {date}, in {n} day; the deck plays {count}",
                "{card} is restricted to {limit} from {date}, in {n} days; the deck plays {count}",
            ),
            "rotates": nmsg(
                "W203",
                "{card} rotates out of {format} on {date}, in {n} day: it allows {allowed}",
                "{card} rotates out of {format} on {date}, in {n} days: it allows {allowed}",
            ),
        },
    ),
)

DECLARATION = Declaration(
    key="varz",
    name="VARZ",
    prefix="V",
    code_family="VZ",
    hash_header="varz-deck-hash v1",
    list_example="2 Crimson VAZ",
    types={
        "hero": CardType("hero"),
        "spil": CardType("spells"),
        "command": CardType("spells"),
        "slash": CardType("spells"),
        "skill": CardType("skills"),
        "portal": CardType("portals"),
    },
    slots=(HERO,),
    sections=(SPELLS, SKILLS, PORTALS),
    formats={"standard": "Standard", "pioneer": "Pioneer"},
    format_codes=FORMAT_CODES,
)


def _exact(section: Section) -> int:
    size = section.size.exact
    assert size is not None, section.key  # every VARZ section holds an exact number of cards
    return size


# Each section's size: W202 reads the Skill Deck's, and `sim` and `tune` refuse a deck far over
# them (core/analysis/tuning.py).
SECTION_SIZES = {section.key: _exact(section) for section in DECLARATION.sections}
