"""The Azuki deck-building rules (rules page, "Deck building"): one small function per code.

Every rule reads an AzukiView and yields diagnostics; `RULES` maps each code to its Rule, and
`varz-deck rules` lists them with the VARZ ones. A rule registers with `rule(...)(check)` right
after its function, not as a decorator: mutation testing (scripts/mutation.py) skips decorated
functions.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from functools import partial

from varz_deck.core.diagnostics import Diagnostic, Mark, diag
from varz_deck.core.i18n import CardName, Joined, Message, msg
from varz_deck.core.rulebook import Check, Rulebook
from varz_deck.games.azuki.cards import NEUTRAL, AzukiCard
from varz_deck.games.azuki.deck import AzukiView

MAIN_SIZE = 50
IKZ_COUNT = 10
TOKEN_COUNT = 1
MAX_COPIES = 4

RULEBOOK: Rulebook[AzukiView] = Rulebook()
RULES = RULEBOOK.rules


def rule(
    code: str,
    name: str,
    section: str,
    *,
    needs_leader: bool = False,
    format_rule: bool = False,
    fix: str = "",
) -> Callable[[Check[AzukiView]], Check[AzukiView]]:
    """Register an Azuki rule (leader rules need a usable Leader, format rules a known format)."""
    when = partial(applies, needs_leader=needs_leader, format_rule=format_rule)
    return RULEBOOK.rule(code, name, section, when=when, fix=fix)


def applies(view: AzukiView, *, needs_leader: bool, format_rule: bool) -> bool:
    """Whether a rule of this kind runs on the deck (a module-level function, called when a deck
    is checked, so mutation testing reaches it)."""
    if needs_leader and view.leader is None:
        return False
    return not (format_rule and not view.format_known)


def run_rules(view: AzukiView) -> list[Diagnostic]:
    return RULEBOOK.run(view)


def _at_key(view: AzukiView, code: str, message: Message, key: str) -> Diagnostic:
    pick = view.deck.picks.get(key)
    mark: Mark | None = pick.key_mark if pick else view.deck.section_marks.get(key)
    return diag(code, message, mark, file=view.deck.path, section=key)


def leader_count_wrong(view: AzukiView) -> Iterator[Diagnostic]:
    """A deck has exactly one Leader.

    Legal:   leader: Shao
    Illegal: (no leader key, or `leader:` left empty)
    """
    pick = view.deck.picks.get("leader")
    if pick is None or pick.ref is None:
        yield _at_key(
            view,
            "A101",
            msg("A101", "no Leader; a deck has exactly one Leader card: add `leader: NAME`"),
            "leader",
        )


rule(
    "A101",
    "leader-count-wrong",
    "Deck building",
    fix="Add `leader: NAME` naming one Leader card.",
)(leader_count_wrong)


def gate_count_wrong(view: AzukiView) -> Iterator[Diagnostic]:
    """A deck has exactly one Gate.

    Legal:   gate: Hydromancy Gate
    Illegal: (no gate key, or `gate:` left empty)
    """
    pick = view.deck.picks.get("gate")
    if pick is None or pick.ref is None:
        yield _at_key(
            view,
            "A102",
            msg("A102", "no Gate; a deck has exactly one Gate card: add `gate: NAME`"),
            "gate",
        )


rule(
    "A102",
    "gate-count-wrong",
    "Deck building",
    fix="Add `gate: NAME` naming one Gate card.",
)(gate_count_wrong)


def main_deck_size_wrong(view: AzukiView) -> Iterator[Diagnostic]:
    """The main deck has exactly 50 cards.

    Legal:   main: 50 cards (entities, spells, weapons)
    Illegal: main: 49 cards
    """
    if "main" in view.deck.uncounted:
        return
    size = view.size("main")
    if size != MAIN_SIZE:
        yield _at_key(
            view,
            "A103",
            msg("A103", "the main deck has {n} cards; it must have exactly {size}")(
                n=size, size=MAIN_SIZE
            ),
            "main",
        )


rule(
    "A103",
    "main-deck-size-wrong",
    "Deck building",
    fix="Add or remove main-deck cards until they add up to 50.",
)(main_deck_size_wrong)


def ikz_count_wrong(view: AzukiView) -> Iterator[Diagnostic]:
    """The IKZ area has exactly 10 IKZ and 1 IKZ Token.

    Legal:   ikz: {IKZ: 10, IKZ Token: 1}
    Illegal: ikz: {IKZ: 9, IKZ Token: 1}
    """
    if "ikz" in view.deck.uncounted:
        return
    slots = view.slots["ikz"]
    if any(slot.card is None for slot in slots):
        return  # an unknown or misplaced card is reported already
    ikz = sum(s.entry.count for s in slots if s.card is not None and s.card.type == "ikz")
    tokens = sum(s.entry.count for s in slots if s.card is not None and s.card.type == "ikz_token")
    if (ikz, tokens) != (IKZ_COUNT, TOKEN_COUNT):
        yield _at_key(
            view,
            "A104",
            msg(
                "A104",
                "the deck has {ikz} IKZ and {tokens} IKZ Token; it must have exactly {want} IKZ "
                "and {want_tokens} IKZ Token",
            )(ikz=ikz, tokens=tokens, want=IKZ_COUNT, want_tokens=TOKEN_COUNT),
            "ikz",
        )


rule(
    "A104",
    "ikz-count-wrong",
    "Deck building",
    fix="Make the ikz section exactly 10 IKZ and 1 IKZ Token.",
)(ikz_count_wrong)


def _allowed(card: AzukiCard, leader: AzukiCard) -> bool:
    return any(e == NEUTRAL or e in leader.elements for e in card.elements)


def element_mismatch(view: AzukiView) -> Iterator[Diagnostic]:
    """Every card, the Gate included, is of the Leader's element or Neutral.

    Legal:   leader: Shao (water); main: {Rei: 4} (water)
    Illegal: leader: Shao (water); main: {Ruby: 3} (fire)
    """
    leader = view.leader
    assert leader is not None
    message = msg(
        "A105",
        "{card} is {elements}, but the Leader {leader} is {leader_elements}; every card must "
        "be of the Leader's element or neutral",
    )
    gate = view.picked.get("gate")
    if gate is not None and not _allowed(gate, leader):
        yield diag(
            "A105",
            message(
                card=CardName.of(gate),
                elements=Joined(gate.elements),
                leader=CardName.of(leader),
                leader_elements=Joined(leader.elements),
            ),
            view.deck.picks["gate"].mark,
            file=view.deck.path,
            section="gate",
            card=gate.id,
        )
    for section in ("main", "ikz"):
        for slot in view.slots[section]:
            card = slot.card
            if card is not None and not _allowed(card, leader):
                yield diag(
                    "A105",
                    message(
                        card=CardName.of(card),
                        elements=Joined(card.elements),
                        leader=CardName.of(leader),
                        leader_elements=Joined(leader.elements),
                    ),
                    slot.entry.mark,
                    file=view.deck.path,
                    section=section,
                    card=card.id,
                )


rule(
    "A105",
    "element-mismatch",
    "Deck building",
    needs_leader=True,
    fix="Replace the card with one of the Leader's element or a Neutral one.",
)(element_mismatch)


def copy_limit_exceeded(view: AzukiView) -> Iterator[Diagnostic]:
    """At most 4 copies of a card id in the main deck (alternate art counts with its id).

    Legal:   main: {Rei: 4}
    Illegal: main: {Rei: 5}
    """
    totals: dict[str, tuple[AzukiCard, int, object]] = {}
    for slot in view.slots["main"]:
        card = slot.card
        if card is None:
            continue
        seen = totals.get(card.id)
        count = slot.entry.count + (seen[1] if seen else 0)
        totals[card.id] = (card, count, seen[2] if seen else slot.entry)
    for card, count, entry in totals.values():
        if count > MAX_COPIES:
            yield diag(
                "A106",
                msg("A106", "{n} copies of {card} ({id}); at most {max} of a card")(
                    n=count,
                    card=CardName.of(card),
                    id=card.id,
                    max=MAX_COPIES,
                ),
                entry.mark,  # type: ignore[attr-defined]
                file=view.deck.path,
                section="main",
                card=card.id,
            )


rule(
    "A106",
    "copy-limit-exceeded",
    "Deck building",
    fix="Keep at most 4 copies of each card id in the main deck.",
)(copy_limit_exceeded)


def card_banned(view: AzukiView) -> Iterator[Diagnostic]:
    """No card the format bans (Standard: Rushfire Gate).

    Legal:   gate: Ragefire Gate
    Illegal: gate: Rushfire Gate
    """
    banned = set(view.format.banned)
    if not banned:
        return
    message = msg("A107", "{card} ({id}) is banned in {format}")

    def hit(card: AzukiCard) -> bool:
        return card.id in banned or any(a in banned for a in card.aliases)

    for slot_key in ("leader", "gate"):
        card = view.picked.get(slot_key)
        if card is not None and hit(card):
            yield diag(
                "A107",
                message(
                    card=CardName.of(card),
                    id=card.id,
                    format=view.format.name,
                ),
                view.deck.picks[slot_key].mark,
                file=view.deck.path,
                section=slot_key,
                card=card.id,
            )
    for section in ("main", "ikz"):
        for slot in view.slots[section]:
            if slot.card is not None and hit(slot.card):
                yield diag(
                    "A107",
                    message(
                        card=CardName.of(slot.card),
                        id=slot.card.id,
                        format=view.format.name,
                    ),
                    slot.entry.mark,
                    file=view.deck.path,
                    section=section,
                    card=slot.card.id,
                )


rule(
    "A107",
    "card-banned",
    "Deck building",
    format_rule=True,
    fix="Remove the banned card from the deck.",
)(card_banned)
