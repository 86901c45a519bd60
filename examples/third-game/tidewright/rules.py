"""The Tidewright deck-building rules: one small function per code (T101–T106, T201).

Every rule reads a TideView and yields diagnostics; `RULES` maps each code to its Rule, and
`varz-deck rules` lists them with every other installed game's. A rule registers with
`rule(...)(check)` right after its function, as the bundled games do.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterator
from functools import partial

from varz_deck.core.decks.entries import Slot
from varz_deck.core.messages.diagnostics import Diagnostic, Mark, Severity, diag
from varz_deck.core.messages.i18n import CardName, Joined, Message, Term, msg
from varz_deck.core.messages.rulebook import Check, Rulebook

from tidewright.deck import LEAD, TideView

CREW_SIZE = 20
CURRENTS_SIZE = 8
MAX_COPIES = 3
MIN_SAILORS = 10
RULEBOOK_SECTION = "Building a ship"

RULEBOOK: Rulebook[TideView] = Rulebook()
RULES = RULEBOOK.rules


def rule(
    code: str,
    name: str,
    *,
    needs_captain: bool = False,
    format_rule: bool = False,
    severity: Severity = Severity.ERROR,
    fix: str = "",
) -> Callable[[Check[TideView]], Check[TideView]]:
    """Register a rule (captain rules need a usable captain, format rules a known format)."""
    when = partial(applies, needs_captain=needs_captain, format_rule=format_rule)
    return RULEBOOK.rule(code, name, RULEBOOK_SECTION, when=when, severity=severity, fix=fix)


def applies(view: TideView, *, needs_captain: bool, format_rule: bool) -> bool:
    """Whether a rule of this kind runs on the deck."""
    if needs_captain and view.captain is None:
        return False
    return not (format_rule and not view.format_known)


def run_rules(view: TideView) -> list[Diagnostic]:
    return RULEBOOK.run(view)


def _at_key(view: TideView, code: str, message: Message, key: str) -> Diagnostic:
    mark: Mark | None
    if key == LEAD:
        mark = view.deck.captain.key_mark if view.deck.captain else None
    else:
        mark = view.deck.section_marks.get(key)
    return diag(code, message, mark, file=view.deck.path, section=key)


def captain_missing(view: TideView) -> Iterator[Diagnostic]:
    """A ship has exactly one captain.

    Legal:   captain: Mara Vell
    Illegal: (no captain key, or `captain:` left empty)
    """
    pick = view.deck.captain
    if pick is None or pick.ref is None:
        wrong = msg("T101", "no captain; a ship has exactly one captain card: add `captain: NAME`")
        yield _at_key(view, "T101", wrong, LEAD)


rule("T101", "captain-missing", fix="Add `captain: NAME` naming one captain card.")(captain_missing)


def crew_size_wrong(view: TideView) -> Iterator[Diagnostic]:
    """The crew has exactly 20 cards.

    Legal:   crew: 20 cards (sailors and maneuvers)
    Illegal: crew: 19 cards
    """
    if not view.counted("crew"):
        return
    size = view.size("crew")
    if size != CREW_SIZE:
        wrong = msg("T102", "the crew has {n} cards; it must have exactly {size}")
        yield _at_key(view, "T102", wrong(n=size, size=CREW_SIZE), "crew")


rule("T102", "crew-size-wrong", fix="Add or remove crew cards until there are exactly 20.")(
    crew_size_wrong
)


def currents_size_wrong(view: TideView) -> Iterator[Diagnostic]:
    """The currents hold exactly 8 cards.

    Legal:   currents: {North Current: 4, East Current: 4}
    Illegal: currents: {North Current: 9}
    """
    if not view.counted("currents"):
        return
    size = view.size("currents")
    if size != CURRENTS_SIZE:
        wrong = msg("T103", "the currents hold {n} cards; they must hold exactly {size}")
        yield _at_key(view, "T103", wrong(n=size, size=CURRENTS_SIZE), "currents")


rule("T103", "currents-size-wrong", fix="Add or remove currents until there are exactly 8.")(
    currents_size_wrong
)


def too_many_copies(view: TideView) -> Iterator[Diagnostic]:
    """At most 3 copies of one crew card, every printing counted together (currents: no limit).

    Legal:   crew: {Rigger Finn: 2, TW02-008: 1}
    Illegal: crew: {Rigger Finn: 2, TW02-008: 2}
    """
    copies: Counter[str] = Counter()
    first: dict[str, Slot] = {}
    for slot in view.slots["crew"]:
        if slot.card is not None:
            copies[slot.card.name] += slot.entry.count
            first.setdefault(slot.card.name, slot)
    for name, count in copies.items():
        if count > MAX_COPIES:
            slot = first[name]
            wrong = msg("T104", "{card}: {n} copies; a crew holds at most {most} of one card")
            yield diag(
                "T104",
                wrong(card=CardName.of(slot.card), n=count, most=MAX_COPIES),
                slot.entry.mark,
                file=view.deck.path,
                section="crew",
                card=slot.card.id,
            )


rule("T104", "too-many-copies", fix="Keep at most 3 copies of each crew card.")(too_many_copies)


def off_sea(view: TideView) -> Iterator[Diagnostic]:
    """Every crew card and current comes from one of the captain's seas.

    Legal:   captain: Mara Vell (north, east) with North Current
    Illegal: captain: Mara Vell (north, east) with South Current
    """
    assert view.captain is not None
    seas = view.captain.seas
    for section in ("crew", "currents"):
        for slot in view.slots[section]:
            card = slot.card
            if card is not None and card.sea not in seas:
                wrong = msg("T105", "{card} comes from the {sea}; {captain} sails only the {seas}")
                yield diag(
                    "T105",
                    wrong(
                        card=CardName.of(card),
                        sea=Term("sea", str(card.sea)),
                        captain=CardName.of(view.captain),
                        seas=Joined(tuple(Term("sea", sea) for sea in seas), " and "),
                    ),
                    slot.entry.mark,
                    file=view.deck.path,
                    section=section,
                    card=card.id,
                )


rule(
    "T105",
    "off-sea",
    needs_captain=True,
    fix="Replace the card with one from the captain's seas, or choose another captain.",
)(off_sea)


def not_in_format(view: TideView) -> Iterator[Diagnostic]:
    """Every card is allowed in the deck's format: not banned, and from one of its sets.

    Legal:   format: harbor, every card from TW01
    Illegal: format: harbor with Wavebreaker (TW02) or Broadside (banned)
    """
    fmt = view.format
    picked = [(LEAD, view.captain, view.deck.captain.mark if view.deck.captain else None)]
    listed = [
        (section, slot.card, slot.entry.mark)
        for section in ("crew", "currents")
        for slot in view.slots[section]
    ]
    for section, card, mark in (*picked, *listed):
        if card is None:
            continue
        if card.id in fmt.banned:
            wrong = msg("T106", "{card} is banned in {format}")
        elif fmt.sets is not None and card.set not in fmt.sets:
            wrong = msg("T106", "{card} is from {set}, not a set of {format}")
        else:
            continue
        yield diag(
            "T106",
            wrong(card=CardName.of(card), set=card.set, format=fmt.name),
            mark,
            file=view.deck.path,
            section=section,
            card=card.id,
        )


rule("T106", "not-in-format", format_rule=True, fix="Replace the card, or choose another format.")(
    not_in_format
)


def few_sailors(view: TideView) -> Iterator[Diagnostic]:
    """A warning: a crew of fewer than 10 sailors rarely holds the deck.

    Fine:    crew: 14 sailors and 6 maneuvers
    Warning: crew: 8 sailors and 12 maneuvers
    """
    sailors = sum(
        slot.entry.count
        for slot in view.slots["crew"]
        if slot.card is not None and slot.card.type == "sailor"
    )
    if sailors < MIN_SAILORS:
        thin = msg("T201", "the crew has {n} sailors; fewer than {least} rarely hold the deck")
        yield diag(
            "T201",
            thin(n=sailors, least=MIN_SAILORS),
            view.deck.section_marks.get("crew"),
            file=view.deck.path,
            section="crew",
        )


rule("T201", "few-sailors", severity=Severity.WARNING, fix="Trade maneuvers for sailors.")(
    few_sailors
)
