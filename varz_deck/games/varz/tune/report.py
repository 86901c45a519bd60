"""`varz-deck stats` and `varz-deck tune` for VARZ (SPEC §11), exact: no figure here is sampled.

The model is SPEC §6 (`sim/model.py`) and the closed forms are `sim/exact.py`'s; this module adds:

* **On curve.** A spell's curve turn T0 is the first turn whose Holder holds at least its cost
  (min(2t, 9) skills on the play, min(2t + 1, 9) on the draw). P(on curve) = P(drawn by T0) ×
  P(the Holder on T0 pays it): the two decks are shuffled apart and the mulligan looks only at the
  spells, so this is exact under both mulligan policies (`exact.p_seen`). A spell of the hero's
  colour (or colourless) is paid by any C skills; one of colour X ≠ hero needs C VAZ skills of X
  among the Holder's (hypergeometric over the skill deck, rulebook 6.1).
* **Expected delay.** E[first turn t ≥ T0 at which it is drawn by t and payable on t] − T0
  (`core.tuning.on_curve`). The sum runs to the turn by which every spell has been seen and the
  Holder is full (turn 26 on the play with 30 spells, before the deck runs out); past it nothing
  changes, so the figure is exact with no horizon cut. It is null when the spell can never be paid.
* **Swaps.** Every one-card change of the skill deck: one skill out (one copy), one skill of the
  database in that the hero may use (its class or generic; VAZ skills of any colour), keeping
  V111 (one copy of a non-VAZ skill), V112 (non-VAZ skills ≤ Memory), V113 (class), V114 (every
  off-colour spell keeps a VAZ skill of its colour) and the format (V115–V117). Only the skill deck
  changes, so the draw factor is cached; with the `auto` mulligan it depends on which spells count
  as openers (a turn-1 pay probability of ½ or more), and is cached by that set, the side, the
  mulligan and the copies (`DrawCache`). Swaps are ranked by the on-curve probabilities sorted
  lowest first, compared in that order (the lowest spell's first, ties broken by the next lowest),
  then by the mean over the deck's cards (each copy counts once); a second ranking by that mean
  alone is in the text.
* **Tables (Karsten-style).** For a colour X other than the hero's, cost C (1–9) and turn T (1–8):
  the fewest VAZ skills of X in a 9-card skill deck so that the Holder on turn T holds at least C of
  them with the target probability. This is the VAZ part only (Karsten's tables assume the card is
  in hand): P(castable by T) for a card drawn by T. The figures are the same for every colour X.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from varz_deck.core.source import DeckSource

from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any

from varz_deck.core.cards import CardDatabase
from varz_deck.core.check import DeckReport
from varz_deck.core.game import NOT_LEGAL_TUNED, DeckUnusable
from varz_deck.core.i18n import ENGLISH, CardName, Message, Term, joined, msg, term
from varz_deck.core.tuning import (
    Bars,
    curve_lines,
    fit,
    on_curve,
    pad,
    pct,
    png_charts,
    points,
    r,
    refuse_oversized,
    svg_charts,
)
from varz_deck.games.varz.cards import COLORLESS, COLORS, GENERIC, SPELL_TYPES, Card
from varz_deck.games.varz.check import check_parsed
from varz_deck.games.varz.deck import read_deck
from varz_deck.games.varz.resolve import DeckView
from varz_deck.games.varz.sim.exact import (
    first_turn_with,
    holder_size,
    is_opener,
    p_at_least,
    p_pays,
    p_seen,
    seen_by,
)
from varz_deck.games.varz.sim.model import (
    HERO_CLASS,
    SECTION_SIZES,
    Model,
    ModelError,
    SpellCard,
    build_model,
)

SKILL_DECK = 9
TABLE_COSTS = tuple(range(1, 10))
TABLE_TURNS = tuple(range(1, 9))
TOP = 5
HEX = {
    "red": "#d62728", "blue": "#1f77b4", "green": "#2ca02c", "purple": "#9467bd",
    "yellow": "#e0b000", "silver": "#9aa5b1", COLORLESS: "#7f7f7f",
}  # fmt: skip

_NO_HERO = msg("sim", "{path}: {problem}; name a Hero card under `hero:`")


# --------------------------------------------------------------------------- reading


@dataclass(frozen=True)
class Loaded:
    report: DeckReport
    view: DeckView
    warning: Message | None


def load(source: DeckSource, database: CardDatabase, *, bounded: bool = False) -> Loaded:
    """The checked deck; DeckUnusable when it cannot be read; with `bounded` (tune: its work grows
    with the deck), DeckTooLarge when a section is far over its size (core/tuning.py)."""
    deck, problems = read_deck(source)
    unreadable = [d for d in problems if d.code in ("F001", "F002")]
    if unreadable or not deck.readable:
        raise DeckUnusable(unreadable or problems)
    if bounded:
        refuse_oversized(deck.path, deck.entries, SECTION_SIZES)
    report = check_parsed(deck, problems, database)
    if report.view is None:
        raise DeckUnusable(report.diagnostics)
    warning = NOT_LEGAL_TUNED(path=source.name, n=report.errors) if report.errors else None
    return Loaded(report, report.view, warning)


def model_of(loaded: Loaded, name: str) -> Model:
    try:
        return build_model(loaded.view)
    except ModelError as err:
        raise DeckUnusable(message=_NO_HERO(path=name, problem=err.message)) from None


# --------------------------------------------------------------------------- exact figures


@dataclass(frozen=True, slots=True)
class SpellOdds:
    """One spell's exact on-curve figures."""

    on_curve_turn: int | None
    p_drawn: Fraction  # P(drawn by the curve turn)
    p_pays: Fraction  # P(the Holder on the curve turn pays it)
    p_on_curve: Fraction
    expected_delay: Fraction | None


def last_turn(model: Model, on: str) -> int:
    """The first turn by which every spell has been seen and the Holder is full."""
    n, s = model.n_spells, model.n_skills
    t = 1
    while seen_by(t, on, n) < n or holder_size(t, on, s) < s:
        t += 1
    return t


def openers(model: Model, on: str, mulligan: str) -> tuple[bool, ...]:
    """Which spells the `auto` mulligan keeps a hand for (all False for `none`)."""
    if mulligan != "auto":
        return tuple(False for _ in model.cards)
    return tuple(is_opener(model, card, on) for card in model.cards)


def draw_curves(model: Model, on: str, mulligan: str) -> tuple[tuple[Fraction, ...], ...]:
    """Per spell, P(drawn by turn t) for t = 1..last_turn (exact, `exact.p_seen`).

    By symmetry a card's curve depends only on its copies, whether it is an opener and how many
    copies of other openers the deck has, so cards alike share one computation."""
    n = model.n_spells
    last = last_turn(model, on)
    flags = openers(model, on, mulligan)
    opener_copies = sum(c.copies for c, f in zip(model.cards, flags, strict=True) if f)
    rows: dict[tuple[int, bool, int], tuple[Fraction, ...]] = {}
    out = []
    for k, card in enumerate(model.cards):
        key = (card.copies, flags[k], opener_copies - (card.copies if flags[k] else 0))
        row = rows.get(key)
        if row is None:
            row = tuple(
                p_seen(model, k, seen_by(t, on, n), mulligan, on, flags) for t in range(1, last + 1)
            )
            rows[key] = row
        out.append(row)
    return tuple(out)


def spell_odds(
    model: Model, on: str, draws: tuple[tuple[Fraction, ...], ...]
) -> tuple[SpellOdds, ...]:
    """Every spell's on-curve probability and expected delay, given its draw curve."""
    last = last_turn(model, on)
    out = []
    for k, card in enumerate(model.cards):
        t0 = first_turn_with(card.cost, on, model.n_skills)
        if t0 is None:
            out.append(SpellOdds(None, Fraction(0), Fraction(0), Fraction(0), None))
            continue
        row = draws[k]

        def drawn(t: int, row: tuple[Fraction, ...] = row) -> Fraction:
            return row[min(t, last) - 1]

        def pays(t: int, card: SpellCard = card) -> Fraction:
            return p_pays(model, card, t, on)

        p, delay = on_curve(drawn, pays, t0, last)
        out.append(SpellOdds(t0, drawn(t0), pays(t0), p, delay))
    return tuple(out)


class DrawCache:
    """Draw curves by everything they depend on: the side, the mulligan, each spell's copies and
    which spells are openers (the only way the skill deck reaches the spell draws)."""

    def __init__(self) -> None:
        self._curves: dict[
            tuple[str, str, tuple[int, ...], tuple[bool, ...]], tuple[tuple[Fraction, ...], ...]
        ] = {}

    def __call__(self, model: Model, on: str, mulligan: str) -> tuple[tuple[Fraction, ...], ...]:
        key = (on, mulligan, tuple(c.copies for c in model.cards), openers(model, on, mulligan))
        curves = self._curves.get(key)
        if curves is None:
            curves = draw_curves(model, on, mulligan)
            self._curves[key] = curves
        return curves


def mean_on_curve(model: Model, odds: tuple[SpellOdds, ...]) -> Fraction:
    """The deck's average on-curve probability, each copy counted once."""
    n = model.n_spells
    if n == 0:
        return Fraction(0)
    return (
        sum((o.p_on_curve * c.copies for o, c in zip(odds, model.cards, strict=True)), Fraction(0))
        / n
    )


# --------------------------------------------------------------------------- swaps


@dataclass(frozen=True)
class Swap:
    out: Card
    into: Card
    odds: tuple[SpellOdds, ...]
    mean: Fraction

    @property
    def lowest(self) -> Fraction:
        return min((o.p_on_curve for o in self.odds), default=Fraction(0))

    def rank_key(self) -> tuple[tuple[Fraction, ...], Fraction]:
        return tuple(sorted(o.p_on_curve for o in self.odds)), self.mean


def skill_class_of(model: Model, card: Card) -> int:
    """The VAZ class a skill is in the model (sim/model.py's rule)."""
    if card.is_vaz and card.color in model.colors:
        return 1 + model.colors.index(card.color)
    return HERO_CLASS


def _legal_printing(view: DeckView, name: str) -> Card | None:
    """The printing to suggest for a card name, or None when the format forbids the card."""
    fmt, db = view.format, view.database
    printings = db.printings.get(name, [])
    banned = {db.cards[i].name for i in fmt.banned if i in db.cards}
    if not printings or name in banned:
        return None
    if fmt.sets is not None:
        allowed = [p for p in printings if p.set in fmt.sets]
        return allowed[0] if allowed else None
    return printings[0]


def _limit(view: DeckView, name: str) -> int | None:
    db = view.database
    limits = [
        n for i, n in view.format.restricted.items() if i in db.cards and db.cards[i].name == name
    ]
    return min(limits) if limits else None


def swap_candidates(view: DeckView, model: Model) -> list[tuple[Card, Card]]:
    """Every legal one-card skill swap (out, in), by card name, in a stable order."""
    hero = view.hero
    if hero is None or hero.type != "hero":
        return []
    classes = {*hero.skill_classes, GENERIC, None}
    memory = hero.memory or 0
    present = {
        name: (card, count)
        for name, (card, count, _) in view.by_name("skills").items()
        if card.type == "skill"
    }
    non_vaz = sum(count for card, count in present.values() if not card.is_vaz)
    off_colours = {c.color for c in model.cards if c.cls != HERO_CLASS}
    vaz_of = {
        color: sum(n for card, n in present.values() if card.is_vaz and card.color == color)
        for color in off_colours
    }
    ins: list[Card] = []
    for name in sorted(view.database.printings):
        card = _legal_printing(view, name)
        if card is None or card.type != "skill" or card.skill_class not in classes:
            continue
        ins.append(card)
    out: list[tuple[Card, Card]] = []
    for out_name in sorted(present):
        out_card, _ = present[out_name]
        for in_card in ins:
            if in_card.name == out_name:
                continue
            last_of_colour = (
                out_card.is_vaz and out_card.color in off_colours and vaz_of[out_card.color] == 1
            )
            if last_of_colour and not (in_card.is_vaz and in_card.color == out_card.color):
                continue  # V114: the last VAZ skill of an off colour stays
            have = present.get(in_card.name, (in_card, 0))[1]
            if not in_card.is_vaz and have >= 1:
                continue  # V111
            after = non_vaz - (0 if out_card.is_vaz else 1) + (0 if in_card.is_vaz else 1)
            if after > memory:
                continue  # V112
            limit = _limit(view, in_card.name)
            if limit is not None and have + 1 > limit:
                continue  # V116
            out.append((out_card, in_card))
    return out


def sweep(view: DeckView, model: Model, on: str, mulligan: str, cache: DrawCache) -> list[Swap]:
    """Every legal swap with its exact figures, best first (module docstring)."""
    by_skills: dict[tuple[int, ...], tuple[tuple[SpellOdds, ...], Fraction]] = {}
    swaps = []
    for out_card, in_card in swap_candidates(view, model):
        skills = list(model.skills)
        skills[skill_class_of(model, out_card)] -= 1
        skills[skill_class_of(model, in_card)] += 1
        key = tuple(skills)
        found = by_skills.get(key)
        if found is None:
            swapped = replace(model, skills=key)
            odds = spell_odds(swapped, on, cache(swapped, on, mulligan))
            found = (odds, mean_on_curve(swapped, odds))
            by_skills[key] = found
        swaps.append(Swap(out_card, in_card, found[0], found[1]))
    swaps.sort(key=lambda s: (s.out.name, s.into.name))
    swaps.sort(key=Swap.rank_key, reverse=True)
    return swaps


# --------------------------------------------------------------------------- tables


def vaz_needed(
    cost: int, turn: int, on: str, target: Fraction, size: int = SKILL_DECK
) -> int | None:
    """The fewest VAZ skills of one colour (0..size) so that the Holder on `turn` holds at least
    `cost` of them with probability >= target; None when even `size` is not enough."""
    held = holder_size(turn, on, size)
    for n in range(size + 1):
        if p_at_least(size, n, held, cost) >= target:
            return n
    return None


def table(on: str, target: Fraction) -> list[list[int | None]]:
    """Rows by cost 1..9, columns by turn 1..8."""
    return [[vaz_needed(c, t, on, target) for t in TABLE_TURNS] for c in TABLE_COSTS]


# --------------------------------------------------------------------------- stats


def _curve_rows(model: Model) -> list[tuple[int, list[tuple[str, int]]]]:
    present = {c.color for c in model.cards}
    order = [model.hero_color, *(c for c in COLORS if c != model.hero_color), COLORLESS]
    colors = [c for c in order if c in present]
    rows = []
    for cost in sorted({c.cost for c in model.cards}):
        per = [
            (color, sum(c.copies for c in model.cards if c.cost == cost and c.color == color))
            for color in colors
        ]
        rows.append((cost, [(c, n) for c, n in per if n]))
    return rows


def _name(card: Any, lang: str) -> str:
    return CardName.of(card).in_language(lang)


def _spell_name(card: SpellCard, lang: str) -> str:
    return card.name if lang == ENGLISH else CardName(card.name, card.names).in_language(lang)


@dataclass(frozen=True)
class VarzStats:
    """`varz-deck stats` for one VARZ deck."""

    loaded: Loaded
    warnings: tuple[Message, ...] = ()

    def document(self) -> dict[str, Any]:
        view, report = self.loaded.view, self.loaded.report
        hero = view.hero if view.hero is not None and view.hero.type == "hero" else None
        by_type = {t: 0 for t in SPELL_TYPES}
        curve: dict[int, dict[str, int]] = {}
        for card, count, _ in view.by_name("spells").values():
            if not card.is_spell:
                continue
            by_type[card.type] += count
            cost = max(card.cost or 0, 0)
            color = card.color or COLORLESS
            curve.setdefault(cost, {})
            curve[cost][color] = curve[cost].get(color, 0) + count
        vaz: dict[str, int] = {}
        classes: dict[str, int] = {}
        non_vaz = 0
        for card, count, _ in view.by_name("skills").values():
            if card.type != "skill":
                continue
            if card.is_vaz:
                vaz[card.color or COLORLESS] = vaz.get(card.color or COLORLESS, 0) + count
            else:
                non_vaz += count
                cls = card.skill_class or GENERIC
                classes[cls] = classes.get(cls, 0) + count
        usable = {*(hero.skill_classes if hero else ()), GENERIC}
        return {
            "version": 1,
            "game": "varz",
            "deck": report.path,
            "name": report.name,
            "format": report.format,
            "legal": report.legal,
            "hero": None
            if hero is None
            else {
                "id": hero.id,
                "name": hero.name,
                "color": hero.color,
                "skill_classes": list(hero.skill_classes),
                "memory": hero.memory,
                "evolution_level": hero.evolution_level,
                "life": hero.life,
            },
            "counts": {
                "spells": view.size("spells"),
                "skills": view.size("skills"),
                "portals": view.size("portals"),
                "by_type": by_type,
            },
            "curve": [
                {"cost": cost, "copies": sum(per.values()), "by_color": dict(sorted(per.items()))}
                for cost, per in sorted(curve.items())
            ],
            "vaz": {c: vaz[c] for c in (*COLORS, COLORLESS) if c in vaz},
            "classes": dict(sorted(classes.items())),
            "off_class": sorted(c for c in classes if c not in usable),
            "memory": {"used": non_vaz, "max": hero.memory if hero else None},
            "shield_life": view.shield_life(),
        }

    def to_json(self) -> dict[str, Any]:
        return self.document()

    def render_text(self, *, color: bool, width: int, lang: str) -> str:
        doc = self.document()
        view = self.loaded.view
        width = max(40, min(width, 100))
        lines = [
            fit(_STATS_TITLE(deck=doc["name"] or doc["deck"], path=doc["deck"]).render(lang), width)
        ]
        hero = view.hero if doc["hero"] is not None else None
        if hero is not None:
            lines.append(
                fit(
                    _HERO_LINE(
                        hero=_name(hero, lang),
                        color=Term("color", hero.color or ""),
                        classes=joined(Term("class", c) for c in hero.skill_classes),
                        memory=hero.memory or 0,
                        level=hero.evolution_level or 0,
                    ).render(lang),
                    width,
                )
            )
        counts = doc["counts"]
        types = joined(
            _COUNT_OF(n=n, what=Term("card type", t)) for t, n in counts["by_type"].items() if n
        )
        lines.append(fit(_SPELLS_LINE(n=counts["spells"], types=types).render(lang), width))
        lines.append("")
        lines.append(_CURVE.render(lang))
        rows = [(e["cost"], _ordered(e["by_color"], doc)) for e in doc["curve"]]
        lines += curve_lines(rows, "color", lang, width)
        lines.append("")
        vaz = joined(_COUNT_OF(n=n, what=Term("color", c)) for c, n in doc["vaz"].items())
        lines.append(
            fit(
                _SKILLS_LINE(
                    n=counts["skills"],
                    vaz=sum(doc["vaz"].values()),
                    colors=vaz if doc["vaz"] else "–",
                ).render(lang),
                width,
            )
        )
        classes = joined(_COUNT_OF(n=n, what=Term("class", c)) for c, n in doc["classes"].items())
        lines.append(
            fit(_CLASSES_LINE(classes=classes if doc["classes"] else "–").render(lang), width)
        )
        if doc["off_class"]:
            off = joined(Term("class", c) for c in doc["off_class"])
            lines.append(fit(_OFF_CLASS.render(lang) + " " + _render(off, lang), width))
        memory = doc["memory"]
        lines.append(
            fit(
                _MEMORY_LINE(
                    used=memory["used"], most=memory["max"] if memory["max"] is not None else "–"
                ).render(lang),
                width,
            )
        )
        lines.append(
            fit(_PORTALS_LINE(n=counts["portals"], life=doc["shield_life"]).render(lang), width)
        )
        return "".join(line.rstrip() + "\n" for line in lines)

    def plot(self, fmt: str, lang: str) -> bytes:
        return _plot(self.loaded, fmt, lang, lambda _: [])


def _render(value: Any, lang: str) -> str:
    from varz_deck.core.i18n import value_text

    return str(value_text(value, lang))


def _ordered(per: dict[str, int], doc: dict[str, Any]) -> list[tuple[str, int]]:
    hero_color = doc["hero"]["color"] if doc["hero"] else None
    order = [hero_color, *(c for c in COLORS if c != hero_color), COLORLESS]
    return [(c, per[c]) for c in order if c in per]


def _plot(loaded: Loaded, fmt: str, lang: str, swaps: Bars) -> bytes:
    from varz_deck.core.plot import unknown_format

    view = loaded.view
    try:
        rows = _curve_rows(build_model(view))
    except ModelError:
        rows = []

    def title(lang: str) -> str:
        return CURVE_TITLE(deck=loaded.report.name or loaded.report.path).render(lang)

    if fmt == "svg":
        return svg_charts(title, rows, "color", HEX, swaps, lang).encode("utf-8")
    if fmt == "png":
        return png_charts(title, rows, "color", HEX, swaps, lang)
    raise unknown_format(fmt)


CURVE_TITLE = msg("sim", "Cost curve by colour: {deck}")
_STATS_TITLE = msg("stats", "Stats: {deck} ({path})")
_HERO_LINE = msg(
    "stats", "Hero {hero}: {color}; classes {classes}; Memory {memory}; evolution level {level}"
)
_COUNT_OF = msg("stats", "{n} {what}")
_SPELLS_LINE = msg("stats", "Spells: {n} ({types})")
_CURVE = msg("stats", "Cost curve by colour")
_SKILLS_LINE = msg("stats", "Skills: {n}, of which {vaz} VAZ ({colors})")
_CLASSES_LINE = msg("stats", "Other skills by class: {classes}")
_OFF_CLASS = msg("stats", "Not a class of the hero:")
_MEMORY_LINE = msg("stats", "Memory used: {used} of {most}")
_PORTALS_LINE = msg("stats", "Portals: {n}; Shield Life {life}")


# --------------------------------------------------------------------------- tune


@dataclass(frozen=True)
class VarzTune:
    """`varz-deck tune` for one VARZ deck: every figure exact."""

    loaded: Loaded
    model: Model
    on: str
    mulligan: str
    target: float
    odds: tuple[SpellOdds, ...]
    mean: Fraction
    swaps: tuple[Swap, ...]
    tables: dict[str, list[list[int | None]]]  # "play" / "draw" -> rows by cost
    warnings: tuple[Message, ...] = ()

    def needed(self, card: SpellCard, odds: SpellOdds) -> int | None:
        """VAZ skills of its colour an off-colour spell needs on its curve turn (the table)."""
        if card.cls == HERO_CLASS or odds.on_curve_turn is None or card.cost > 9:
            return None
        turn = odds.on_curve_turn
        if card.cost < 1 or turn > len(TABLE_TURNS):
            return vaz_needed(card.cost, turn, self.on, Fraction(str(self.target)))
        return self.tables[self.on][card.cost - 1][turn - 1]

    def to_json(self) -> dict[str, Any]:
        model = self.model
        spells = []
        for card, odds in zip(model.cards, self.odds, strict=True):
            spells.append(
                {
                    "id": card.id,
                    "name": card.name,
                    "cost": card.cost,
                    "color": card.color,
                    "copies": card.copies,
                    "on_curve_turn": odds.on_curve_turn,
                    "p_on_curve": r(odds.p_on_curve),
                    "expected_delay": r(odds.expected_delay),
                    "exact": True,
                    "p_drawn_on_curve": r(odds.p_drawn),
                    "p_pays_on_curve": r(odds.p_pays),
                    "vaz_needed": self.needed(card, odds),
                }
            )
        swaps = []
        for swap in self.swaps:
            swaps.append(
                {
                    "out": {"id": swap.out.id, "name": swap.out.name},
                    "in": {"id": swap.into.id, "name": swap.into.name},
                    "min_p_on_curve": r(swap.lowest),
                    "mean_p_on_curve": r(swap.mean),
                    "delta": {
                        card.id: r(new.p_on_curve - old.p_on_curve)
                        for card, new, old in zip(model.cards, swap.odds, self.odds, strict=True)
                    },
                }
            )
        current = {c: model.skills_of(c) for c in model.colors}
        tables = []
        for color in COLORS:
            if color == model.hero_color:
                continue
            rows = [
                {
                    "cost": cost,
                    "by_turn": self.tables[self.on][i],
                    "by_turn_play": self.tables["play"][i],
                    "by_turn_draw": self.tables["draw"][i],
                }
                for i, cost in enumerate(TABLE_COSTS)
            ]
            tables.append(
                {
                    "color": color,
                    "deck_vaz": current.get(color, _vaz_count(self.loaded.view, color)),
                    "rows": rows,
                }
            )
        return {
            "version": 1,
            "game": "varz",
            "deck": model.path,
            "name": model.name,
            "on": self.on,
            "mulligan": self.mulligan,
            "target": self.target,
            "exact": True,
            "delay_horizon": "every spell seen and the Holder full (no truncation)",
            "min_p_on_curve": r(min((o.p_on_curve for o in self.odds), default=Fraction(0))),
            "mean_p_on_curve": r(self.mean),
            "spells": spells,
            "swaps": swaps,
            "tables": tables,
        }

    def render_text(self, *, color: bool, width: int, lang: str) -> str:
        return render_tune(self, width=max(60, min(width, 100)), lang=lang, color=color)

    def plot(self, fmt: str, lang: str) -> bytes:
        best = sorted(self.swaps, key=lambda s: s.mean, reverse=True)[:12]

        def bars(lang: str) -> list[tuple[str, float]]:
            return [
                (f"−{_name(s.out, lang)} +{_name(s.into, lang)}", 100 * float(s.mean - self.mean))
                for s in best
            ]

        return _plot(self.loaded, fmt, lang, bars)


def _vaz_count(view: DeckView, color: str) -> int:
    return sum(
        count
        for card, count, _ in view.by_name("skills").values()
        if card.is_vaz and card.color == color
    )


_TUNE_TITLE = msg("tune", "Tune: {deck} ({path})")
_TUNE_SETTINGS = msg("tune", "Hero {hero} ({color}); {on}; mulligan {mulligan}; target {target}")
_EXACT = msg("tune", "Every figure is exact: closed forms, no sampling.")
_ON = {"play": msg("sim", "on the play"), "draw": msg("sim", "on the draw")}
_SPELLS = msg("tune", "Spells on curve (the first turn the Holder holds the cost)")
_H_CARD = msg("sim", "Card")
_H_COST = msg("sim", "Cost")
_H_TURN = msg("sim", "Turn")
_H_P = msg("tune", "On curve")
_H_DELAY = msg("tune", "Delay")
_H_NEED = msg("tune", "VAZ")
_NEVER = msg("sim", "never")
_DELAY_NOTE = msg(
    "tune",
    "Delay: expected turns past the curve turn until drawn and payable. VAZ: VAZ skills of its "
    "colour an off-colour spell needs to be payable on curve at the target (deck has).",
)
_SWAPS_LOWEST = msg("tune", "Best swaps by the lowest spell's odds (then the next lowest)")
_SWAPS_MEAN = msg("tune", "Best swaps by the mean on-curve probability")
_SWAP_LINE = msg("tune", "mean {mean} ({change}); lowest {lowest}")
_NO_SWAPS = msg("tune", "No legal one-card swap of the skill deck.")
_NONE_BETTER = msg(
    "tune", "No swap raises any spell's odds: the skill deck is already the best one swap away."
)
_CURRENT = msg("tune", "Now: mean {mean}; lowest {lowest}; {n} legal swaps tried")
_TABLE_TITLE = msg(
    "tune",
    "VAZ skills of one colour a spell of cost C needs to be payable by turn T with {target} "
    "(the same for every colour but {color}; – : 9 are not enough)",
)
_SPLASH = msg("tune", "{color}: the deck has {n} VAZ skills of this colour")


def _bold(text: str, color: bool) -> str:
    return f"\x1b[1m{text}\x1b[0m" if color else text


def render_tune(result: VarzTune, *, width: int, lang: str, color: bool) -> str:
    model = result.model
    say = lambda m: m.render(lang)  # noqa: E731
    hero = result.loaded.view.hero
    out = [
        _bold(fit(say(_TUNE_TITLE(deck=model.name or model.path, path=model.path)), width), color),
        fit(
            say(
                _TUNE_SETTINGS(
                    hero=_name(hero, lang) if hero is not None else model.hero_name,
                    color=Term("color", model.hero_color),
                    on=_ON[result.on],
                    mulligan=result.mulligan,
                    target=pct(result.target, 0),
                )
            ),
            width,
        ),
        fit(say(_EXACT), width),
        "",
        _bold(fit(say(_SPELLS), width), color),
    ]
    name_w = width - 45
    head = (
        pad(say(_H_CARD), name_w)
        + pad(say(_H_COST), 6, True)
        + "  "
        + pad("", 8)
        + pad(say(_H_TURN), 5, True)
        + pad(say(_H_P), 10, True)
        + pad(say(_H_DELAY), 7, True)
        + pad(say(_H_NEED), 7, True)
    )
    out.append(head)
    for card, odds in zip(model.cards, result.odds, strict=True):
        need = result.needed(card, odds)
        need_text = "" if card.cls == HERO_CLASS else ("–" if need is None else str(need))
        if card.cls != HERO_CLASS:
            need_text += f"({model.skills[card.cls]})"
        delay = say(_NEVER) if odds.expected_delay is None else f"{float(odds.expected_delay):.2f}"
        out.append(
            pad(f"{card.copies}× {_spell_name(card, lang)}", name_w)
            + pad(str(card.cost), 6, True)
            + "  "
            + pad(term("color", card.color, lang), 8)
            + pad(str(odds.on_curve_turn or "–"), 5, True)
            + pad(pct(odds.p_on_curve), 10, True)
            + pad(delay, 7, True)
            + pad(need_text, 7, True)
        )
    out += _wrap(say(_DELAY_NOTE), width)
    out.append("")
    lowest = min((o.p_on_curve for o in result.odds), default=Fraction(0))
    out.append(
        fit(say(_CURRENT(mean=pct(result.mean), lowest=pct(lowest), n=len(result.swaps))), width)
    )
    if not result.swaps:
        out.append(fit(say(_NO_SWAPS), width))
    else:
        improving = [s for s in result.swaps if s.rank_key() > _key(result)]
        if not improving:
            out += _wrap(say(_NONE_BETTER), width)
        by_mean = sorted(result.swaps, key=lambda s: (s.mean, s.rank_key()), reverse=True)
        better = [s for s in by_mean if s.mean > result.mean]
        for title, chosen in (
            (_SWAPS_LOWEST, _grouped(improving)[:TOP]),
            (_SWAPS_MEAN, _grouped(better)[:TOP]),
        ):
            if not chosen:
                continue
            out.append(_bold(fit(say(title), width), color))
            for i, group in enumerate(chosen, start=1):
                out += _swap_lines(result, group, i, width, lang)
    out.append("")
    out += _table_lines(result, width, lang, color)
    return "".join(line.rstrip() + "\n" for line in out)


def _key(result: VarzTune) -> tuple[tuple[Fraction, ...], Fraction]:
    return tuple(sorted(o.p_on_curve for o in result.odds)), result.mean


def _grouped(swaps: list[Swap]) -> list[list[Swap]]:
    """Swaps with the same card in and the same result, together (the order kept)."""
    groups: dict[tuple[str, tuple[SpellOdds, ...]], list[Swap]] = {}
    for swap in swaps:
        groups.setdefault((swap.into.name, swap.odds), []).append(swap)
    return list(groups.values())


def _swap_lines(result: VarzTune, group: list[Swap], i: int, width: int, lang: str) -> list[str]:
    swap = group[0]
    outs = " / ".join(_name(s.out, lang) for s in group)
    head = f"{i:>2}. +{_name(swap.into, lang)}  −{outs}"
    figures = _SWAP_LINE(
        mean=pct(swap.mean), change=points(swap.mean - result.mean), lowest=pct(swap.lowest)
    ).render(lang)
    changes = [
        (new.p_on_curve - old.p_on_curve, card)
        for card, new, old in zip(result.model.cards, swap.odds, result.odds, strict=True)
        if new.p_on_curve != old.p_on_curve
    ]
    changes.sort(key=lambda x: (-abs(x[0]), x[1].name))
    detail = ", ".join(f"{_spell_name(card, lang)} {points(d)}" for d, card in changes)
    return [
        fit(head, width),
        fit("    " + figures, width),
        *([fit("    " + detail, width)] if detail else []),
    ]


def _table_lines(result: VarzTune, width: int, lang: str, color: bool) -> list[str]:
    model = result.model
    out = _wrap(
        _TABLE_TITLE(target=pct(result.target, 0), color=Term("color", model.hero_color)).render(
            lang
        ),
        width,
    )
    out = [_bold(line, color) for line in out]
    cell = 3
    half = cell * len(TABLE_TURNS)
    play, draw = _ON["play"].render(lang), _ON["draw"].render(lang)
    out.append(pad("", 6) + pad(play, half) + "   " + pad(draw, half))
    turns = "".join(pad(f"T{t}", cell, True) for t in TABLE_TURNS)
    out.append(pad("C", 6) + turns + "   " + turns)
    for i, cost in enumerate(TABLE_COSTS):
        cells_play = "".join(
            pad("–" if n is None else str(n), cell, True) for n in result.tables["play"][i]
        )
        cells_draw = "".join(
            pad("–" if n is None else str(n), cell, True) for n in result.tables["draw"][i]
        )
        out.append(pad(str(cost), 6) + cells_play + "   " + cells_draw)
    for c in model.colors:
        out.append(fit(_SPLASH(color=Term("color", c), n=model.skills_of(c)).render(lang), width))
    return out


def _wrap(text: str, width: int) -> list[str]:
    """Words wrapped to `width` cells (CJK text, without spaces, wraps by character)."""
    from varz_deck.core.tuning import cells

    lines: list[str] = []
    current = ""
    for ch in text:
        if cells(current + ch) > width:
            cut = current.rfind(" ")
            if cut > width // 2:
                lines.append(current[:cut])
                current = current[cut + 1 :] + ch
            else:
                lines.append(current)
                current = ch.lstrip()
        else:
            current += ch
    if current:
        lines.append(current)
    return lines


# --------------------------------------------------------------------------- the capability


def tune_model(loaded: Loaded, model: Model, *, target: float, on: str, mulligan: str) -> VarzTune:
    cache = DrawCache()
    odds = spell_odds(model, on, cache(model, on, mulligan))
    mean = mean_on_curve(model, odds)
    swaps = sweep(loaded.view, model, on, mulligan, cache)
    goal = Fraction(str(target))
    tables = {side: table(side, goal) for side in ("play", "draw")}
    warnings = (loaded.warning,) if loaded.warning is not None else ()
    return VarzTune(loaded, model, on, mulligan, target, odds, mean, tuple(swaps), tables, warnings)


class VarzTuner:
    """SPEC §11 for VARZ."""

    options = frozenset({"target", "on", "mulligan", "plot"})

    def stats(self, source: DeckSource, database: CardDatabase) -> VarzStats:
        loaded = load(source, database)
        warnings = (loaded.warning,) if loaded.warning is not None else ()
        return VarzStats(loaded, warnings)

    def tune(
        self, source: DeckSource, database: CardDatabase, *, target: float, on: str, mulligan: str
    ) -> VarzTune:
        loaded = load(source, database, bounded=True)
        return tune_model(
            loaded, model_of(loaded, source.name), target=target, on=on, mulligan=mulligan
        )


TUNER = VarzTuner()
