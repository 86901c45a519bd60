"""One vocabulary for every figure a player sees.

Each figure has one entry: a key (`castable-on-curve`), one name, one definition, a symbol, the
JSON keys that carry it, and whether it is exact or sampled. `sim`, `stats`, `tune`, `report`, the
server's pages and `varz-deck explain` all take their words from here, so two figures never share
a name and one figure never has two.

The core defines the entries every game shares, in words that name no game; a game adds its own
and may restate a shared entry in its words (the same key, a closer definition) through
`Game.glossary`. `entries(game)` merges the two, the game's last.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Protocol

from varz_deck.core.messages.i18n import ENGLISH, Message, msg

EXACT = "exact"
SAMPLED = "sampled"
EITHER = "either"  # exact in one command, sampled in another: the entry says which
NOT_A_FIGURE = ""  # a word the figures use (mulligan, goldfish game), not a figure itself
DROPPED = "dropped"  # a game's way to say a shared entry names nothing it shows

GLOSSARY_HINT = msg(
    "glossary", "What a figure means: varz-deck explain TERM (varz-deck explain lists them all)."
)


@dataclass(frozen=True)
class Entry:
    """One term of the glossary."""

    key: str  # stable, ASCII, kebab-case: what `varz-deck explain` takes and links point to
    name: Message  # the name every output uses for the figure (a column title, a sentence's noun)
    definition: Message  # one or two sentences: what is counted, on which turn, against what
    symbol: str = ""  # the short form of a chart's axis or a narrow column, when there is one
    json: tuple[str, ...] = ()  # the JSON keys that carry it, "command: path" (tune: spells[].x)
    kind: str = NOT_A_FIGURE  # EXACT, SAMPLED, EITHER or NOT_A_FIGURE
    see: tuple[str, ...] = ()  # keys of the entries a reader should compare it with


# The shared entries. Their msgids are spelled out where they are made so the extractor finds them.
SHARED: tuple[Entry, ...] = (
    Entry(
        "exact",
        msg("glossary", "exact"),
        msg(
            "glossary",
            "Computed by counting (closed forms, hypergeometric odds), not by sampling: shown "
            "without ±, and the same on every run.",
        ),
        see=("sampled",),
    ),
    Entry(
        "sampled",
        msg("glossary", "sampled"),
        msg(
            "glossary",
            "Estimated from the simulated games: ± is the 95% interval (1.96 standard errors). "
            "JSON gives the standard error beside the figure, as NAME_se.",
        ),
        symbol="±",
        see=("exact",),
    ),
    Entry(
        "goldfish-game",
        msg("glossary", "goldfish game"),
        msg(
            "glossary",
            "A game played alone, with no opponent, by the simulator's player, who casts each "
            "turn the cards in hand that spend the most of what it can pay.",
        ),
    ),
    Entry(
        "mulligan",
        msg("glossary", "mulligan"),
        msg(
            "glossary",
            "auto: a hand with no early play is sent back whole, once; none: every hand is kept. "
            "Every command defaults to auto, and says which it used.",
        ),
    ),
    Entry(
        "opening-hand",
        msg("glossary", "in the opening hand"),
        msg(
            "glossary",
            "At least one copy of the card is in the hand kept at the start, after the mulligan.",
        ),
        symbol="P(open)",
        json=("sim: cards[].p_in_opening_hand",),
        kind=EITHER,
    ),
    Entry(
        "in-hand-by",
        msg("glossary", "in hand by turn T"),
        msg(
            "glossary",
            "At least one copy is among the cards seen once turn T's draw is done, whether or not "
            "it could be paid for.",
        ),
        symbol="P(hand ≤T)",
        json=("sim: cards[].p_drawn_by_turn",),
        kind=EITHER,
        see=("castable-by",),
    ),
    Entry(
        "castable-by",
        msg("glossary", "castable by turn T"),
        msg(
            "glossary",
            "In hand by turn T, and the resources available on turn T can pay its cost.",
        ),
        symbol="P(castable ≤T)",
        json=("sim: cards[].p_castable_by_turn",),
        kind=EITHER,
        see=("in-hand-by", "castable-on-curve"),
    ),
    Entry(
        "curve-turn",
        msg("glossary", "curve turn"),
        msg("glossary", "The first turn whose resources can pay the card's cost."),
        symbol="T0",
        json=("tune: spells[].on_curve_turn",),
        kind=EXACT,
    ),
    Entry(
        "castable-on-curve",
        msg("glossary", "castable on curve"),
        msg(
            "glossary",
            "Castable by its curve turn: in hand, and payable, on the first turn it could be. "
            "Each card is counted on its own, as if it were the only card you wanted to cast.",
        ),
        symbol="P(on curve)",
        json=("tune: spells[].p_on_curve",),
        kind=EXACT,
        see=("cast-on-curve", "curve-turn"),
    ),
    Entry(
        "cast-on-curve",
        msg("glossary", "cast on curve in a goldfish game"),
        msg(
            "glossary",
            "The goldfish game's player actually casts the card on its curve turn. It is lower "
            "than castable on curve, because on that turn the player may spend its resources on "
            "another card instead.",
        ),
        symbol="P(cast)",
        json=("sim: cards[].p_cast_on_curve",),
        kind=SAMPLED,
        see=("castable-on-curve", "goldfish-game"),
    ),
    Entry(
        "delay",
        msg("glossary", "expected delay"),
        msg(
            "glossary",
            "The expected number of turns after the curve turn until the card is castable.",
        ),
        symbol="E[delay]",
        json=("tune: spells[].expected_delay",),
        kind=EXACT,
        see=("curve-turn",),
    ),
)


def dropped(key: str) -> Entry:
    """What a game's glossary holds to leave out a shared entry its commands never show."""
    return Entry(key, Message("glossary", key), Message("glossary", key), kind=DROPPED)


def name_in(glossary: Sequence[Entry], key: str) -> Message:
    """The name of a term of a game's glossary: its own entry, else the shared one."""
    for e in glossary:
        if e.key == key:
            return e.name
    return next(e.name for e in SHARED if e.key == key)


class GlossaryOwner(Protocol):
    """A game, as far as its glossary goes."""

    @property
    def glossary(self) -> Sequence[Entry]: ...


def entries(game: GlossaryOwner | None = None) -> dict[str, Entry]:
    """The glossary for a game (None: the shared entries), by key, in reading order; a game's
    entry of a shared key takes the shared one's place, or leaves it out (`dropped`)."""
    merged = {e.key: e for e in SHARED}
    if game is not None:
        for e in game.glossary:
            merged[e.key] = e
    kept = {key: e for key, e in merged.items() if e.kind != DROPPED}
    return {key: replace(e, see=tuple(k for k in e.see if k in kept)) for key, e in kept.items()}


def _folded(text: str) -> str:
    return unicodedata.normalize("NFKC", text).casefold().replace("-", " ").strip()


def find(
    glossary: Mapping[str, Entry], term: str, langs: Iterable[str] = (ENGLISH,)
) -> Entry | None:
    """The entry a reader meant: its key, or its name in any of the languages given."""
    wanted = _folded(term)
    for e in glossary.values():
        names = {_folded(e.key)} | {_folded(e.name.render(lang)) for lang in langs}
        if wanted in names:
            return e
    return None
