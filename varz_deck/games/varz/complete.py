"""What `complete` must know of VARZ beyond its declaration (rulebook 2.1, 2.2, 3-2): spells of
the hero's colour, skills of the hero's classes within its Memory, and the Portal Deck chosen
exactly: 8 portals of the hero's colour or colorless, Shield Life adding up to exactly 20, no
more portals with effects than the format allows."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from varz_deck.core.decks.declaration import Section
from varz_deck.core.game.complete import Completion, Draft, NoCompletion
from varz_deck.core.messages.i18n import Message, msg
from varz_deck.games.varz.cards import COLORLESS, GENERIC, Card, max_effect_portals
from varz_deck.games.varz.rules.portals import SHIELD_LIFE_TOTAL

if TYPE_CHECKING:
    from varz_deck.games.varz.view import VarzView

ON, MULLIGAN = "play", "auto"  # tune's defaults
SWAPS = 9  # at most one swap per skill
MEASURE = msg(
    "complete",
    "spells added by the cost curve, the cheapest first; skills by the castable-on-curve odds of "
    "`tune` (on the play, mulligan auto), the lowest raised first; portals so their Shield Life "
    "adds up to exactly 20",
)
RAISES = msg("complete", "a swap of `tune`: it raises the lowest castable-on-curve odds to {odds}")
SHIELD_LIFE = msg(
    "complete", "Shield Life {life}: with it the {size} portals add up to exactly {total}"
)
SPLASH = msg("complete", "a {color} VAZ skill: the {color} spells need it (they cost up to {cost})")
MEMORY = msg("complete", "a skill of the hero's classes, within its Memory of {memory}")
OWN_VAZ = msg("complete", "a VAZ skill of the hero's colour: it fills the Skill Deck")
FULL_PORTALS = msg(
    "V105",
    "the {n} portals written have {kept} Shield Life, not exactly {need}, and none can be added: "
    "swap one of them for a portal of other Shield Life",
)
NO_PORTALS = msg(
    "V105",
    "no {n} more portals of the hero's colour or colorless bring the Shield Life from {kept} to "
    "exactly {need} within the copy limits and {format}'s effect portals: change the portals "
    "written",
)


class VarzCompletion(Completion):
    """VARZ's own constraints on a completed deck."""

    def __init__(self) -> None:
        super().__init__("cost")

    def admits(self, draft: Draft, section: Section, card: Card) -> bool:
        hero = draft.lead
        if hero is None:
            return True
        if section.key == "spells":
            return card.color in (hero.color, COLORLESS, None)
        if section.key == "skills":
            if card.skill_class not in (*hero.skill_classes, GENERIC, None):
                return False
            if card.is_vaz:
                return card.color in (hero.color, COLORLESS, None)
            used = sum(line.count for line in draft.lines["skills"] if not line.card.is_vaz)
            return used < (hero.memory or 0)
        return True

    def measure(self, draft: Draft) -> Message:
        return MEASURE()

    def improve(self, draft: Draft, view: VarzView, view_of: Callable[[Draft], VarzView]) -> bool:
        """The skills added swapped one at a time, as `tune` would (on the play, mulligan
        auto), while a swap raises the castable-on-curve odds, the lowest first."""
        from varz_deck.games.varz.sim.model import ModelError, build_model
        from varz_deck.games.varz.tune.odds import DrawCache, mean_on_curve, spell_odds
        from varz_deck.games.varz.tune.swaps import sweep

        cache = DrawCache()
        changed = False
        for _step in range(SWAPS):
            try:
                model = build_model(view)
            except ModelError:
                return changed
            odds = spell_odds(model, ON, cache(model, ON, MULLIGAN))
            now = (tuple(sorted(o.p_on_curve for o in odds)), mean_on_curve(model, odds))
            added = {line.card.name for line in draft.lines["skills"] if line.added}
            best = next(
                (s for s in sweep(view, model, ON, MULLIGAN, cache) if s.out.name in added), None
            )
            if best is None or best.rank_key() <= now:
                return changed
            _swap(draft, best.out, best.into, RAISES(odds=f"{float(best.lowest):.1%}"))
            changed = True
            view = view_of(draft)
        return changed

    def choose(
        self, draft: Draft, section: Section, candidates: Sequence[Card], need: int
    ) -> list[tuple[Card, int, Message]] | None:
        if section.key == "portals":
            return portals(draft, section, candidates, need)
        if section.key == "skills" and draft.lead is not None:
            return skills(self, draft, section, candidates, need)
        return None


def _swap(draft: Draft, out: Card, into: Card, why: Message) -> None:
    """One copy of an added skill for another."""
    for line in draft.lines["skills"]:
        if line.card.name == out.name and line.added:
            line.count -= 1
            line.added -= 1
            break
    draft.lines["skills"] = [line for line in draft.lines["skills"] if line.count]
    draft.add("skills", into, 1, why)
    for line in draft.lines["skills"]:
        if line.card.name == into.name:
            line.why = why


def skills(
    rules: VarzCompletion, draft: Draft, section: Section, candidates: Sequence[Card], need: int
) -> list[tuple[Card, int, Message]]:
    """The Skill Deck: first a VAZ skill of each colour the spells splash (as many as the
    dearest such spell costs), then skills of the hero's classes within its Memory, then VAZ
    skills of the hero's colour."""
    hero = draft.lead
    assert hero is not None
    out: list[tuple[Card, int, Message]] = []
    vaz = [card for card in candidates if card.is_vaz]
    kept = [line.card for line in draft.lines["skills"]]
    dearest: dict[str, int] = {}
    for line in draft.lines["spells"]:
        colour = line.card.color
        if colour not in (hero.color, COLORLESS, None):
            dearest[colour] = max(dearest.get(colour, 0), line.card.cost or 0, 1)
    for colour, cost in sorted(dearest.items()):
        have = sum(1 for card in kept if card.is_vaz and card.color == colour)
        source = next((card for card in vaz if card.color == colour), None)
        count = min(need, cost - have)
        if source is not None and count > 0:
            out.append((source, count, SPLASH(color=colour, cost=cost)))
            need -= count
    used = sum(line.count for line in draft.lines["skills"] if not line.card.is_vaz)
    for card in candidates:
        if need <= 0 or used >= (hero.memory or 0):
            break
        if card.is_vaz or not rules.admits(draft, section, card):
            continue
        if draft.room(section, card) == 0:
            continue
        out.append((card, 1, MEMORY(memory=hero.memory or 0)))
        need -= 1
        used += 1
    source = next((card for card in vaz if card.color in (hero.color, COLORLESS)), None)
    if source is not None and need > 0:
        out.append((source, need, OWN_VAZ()))
    return out


def portals(
    draft: Draft, section: Section, candidates: Sequence[Card], need: int
) -> list[tuple[Card, int, Message]]:
    """The first set of `need` portals, in card order (as many of each as fit, earlier ones
    first), that brings the Shield Life to exactly 20; NoCompletion (V105) when none does."""
    hero = draft.lead
    colour = hero.color if hero is not None else None
    kept = draft.lines["portals"]
    life = sum((line.card.shield_life or 0) * line.count for line in kept)
    effects = sum(line.count for line in kept if line.card.has_effect)
    limit = max_effect_portals(draft.format)
    budget = None if limit is None else max(0, limit - effects)
    fitting = [card for card in candidates if card.color in (colour, COLORLESS, None)]
    rooms = []
    for card in fitting:
        room = draft.room(section, card)
        rooms.append(need if room is None else min(need, room))
    target = SHIELD_LIFE_TOTAL - life
    found = _first_fit(
        [(card.shield_life or 0, bool(card.has_effect)) for card in fitting],
        rooms,
        need,
        target,
        -1 if budget is None else budget,
    )
    if found is None and need == 0:
        raise NoCompletion(
            "V105",
            FULL_PORTALS(n=draft.size("portals"), kept=life, need=SHIELD_LIFE_TOTAL),
        )
    if found is None:
        fmt = draft.format.name
        raise NoCompletion(
            "V105", NO_PORTALS(n=need, kept=life, need=SHIELD_LIFE_TOTAL, format=fmt)
        )
    size = section.size.exact or need
    return [
        (card, count, SHIELD_LIFE(life=card.shield_life or 0, size=size, total=SHIELD_LIFE_TOTAL))
        for card, count in zip(fitting, found, strict=False)  # found stops at the last portal
        if count
    ]


Kind = tuple[int, bool]  # a portal's Shield Life and whether it has an effect


def _first_fit(
    kinds: Sequence[Kind], rooms: Sequence[int], need: int, target: int, effects: int
) -> list[int] | None:
    """The counts of the portals (`kinds[i]`, at most `rooms[i]` of each), the earlier ones as
    many as can be, that add `need` portals and `target` Shield Life with at most `effects`
    effect portals (-1: any number); None when none do. Each count is the largest the portals
    after it can still complete: what those can add is worked out once for each change of
    what they hold by kind (a few, however many portals there are)."""
    most = [
        0 if life > target else min(room, need)
        for (life, _), room in zip(kinds, rooms, strict=True)
    ]
    after: list[frozenset[State]] = [frozenset({(0, 0, 0)})] * (len(kinds) + 1)
    caps: dict[Kind, int] = {}
    for i in range(len(kinds) - 1, -1, -1):
        had = caps.get(kinds[i], 0)
        caps[kinds[i]] = min(need, had + most[i])
        grown = caps[kinds[i]] > had
        after[i] = _adding(after[i + 1], kinds[i], most[i], need, target) if grown else after[i + 1]
    if not _reaches(after[0], need, target, effects):
        return None
    counts: list[int] = []
    n, t, e = need, target, effects
    for i, (life, effect) in enumerate(kinds):
        if n == 0:
            break
        for count in range(min(most[i], n, e if effect and e >= 0 else n), -1, -1):
            left = e - count if effect and e >= 0 else e
            if _reaches(after[i + 1], n - count, t - life * count, left):
                counts.append(count)
                n, t, e = n - count, t - life * count, left
                break
    return counts


State = tuple[int, int, int]  # portals, Shield Life and effect portals some of them add


def _adding(
    states: frozenset[State], kind: Kind, room: int, need: int, target: int
) -> frozenset[State]:
    """What the portals of `states` add, with up to `room` more of one kind (within `need`
    portals and `target` Shield Life)."""
    life, effect = kind
    return frozenset(
        (n + count, t + life * count, u + (count if effect else 0))
        for n, t, u in states
        for count in range(min(room, need - n) + 1)
        if t + life * count <= target
    )


def _reaches(states: frozenset[State], n: int, t: int, e: int) -> bool:
    """Whether some state adds exactly `n` portals and `t` Shield Life with at most `e` effect
    portals (-1: any number)."""
    return any(sn == n and st == t and (e < 0 or su <= e) for sn, st, su in states)
