"""`varz-deck tune` for one VARZ deck: its figures as JSON and as text."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from varz_deck.core.analysis.glossary import GLOSSARY_HINT
from varz_deck.core.analysis.parts import Part
from varz_deck.core.analysis.tuning import fit, pad, pct, points, r
from varz_deck.core.messages.i18n import CardName, Message, Term, msg, term
from varz_deck.core.messages.wrap import CJK
from varz_deck.games.varz.cards import COLORS, Card
from varz_deck.games.varz.glossary import named
from varz_deck.games.varz.sim.model import HERO_CLASS, Model, SpellCard
from varz_deck.games.varz.tune.answer import answer
from varz_deck.games.varz.tune.model import Loaded, card_name, spell_name
from varz_deck.games.varz.tune.odds import SpellOdds
from varz_deck.games.varz.tune.plot import charts
from varz_deck.games.varz.tune.swaps import Swap
from varz_deck.games.varz.tune.tables import TABLE_COSTS, TABLE_TURNS, vaz_needed
from varz_deck.games.varz.view import VarzView

TOP = 5


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

    def to_json(self) -> dict[str, object]:
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

    def names(self) -> dict[str, CardName]:
        """Every card the figures name (the spells, the swaps' skills), by id."""
        cards: list[SpellCard | Card] = [
            *self.model.cards,
            *(c for s in self.swaps for c in (s.out, s.into)),
        ]
        return {
            c.id: CardName(c.name, tuple(sorted(dict(c.names).items())), quote=False) for c in cards
        }

    def answer(self) -> tuple[Message, ...]:
        """The sentences the report opens with, from the JSON's figures."""
        return answer(self.to_json(), self.names())

    def parts(self) -> tuple[Part, ...]:
        from varz_deck.games.varz.analysis import tune_parts

        return tune_parts(self.to_json(), self.names(), _NONE_BETTER)

    def render_text(self, *, color: bool, width: int, lang: str) -> str:
        return render_tune(self, width=max(60, min(width, 100)), lang=lang, color=color)

    def plot(self, fmt: str, lang: str) -> bytes:
        best = sorted(self.swaps, key=lambda s: s.mean, reverse=True)[:12]

        def bars(lang: str) -> list[tuple[str, float]]:
            return [
                (
                    f"−{card_name(s.out, lang)} +{card_name(s.into, lang)}",
                    100 * float(s.mean - self.mean),
                )
                for s in best
            ]

        return charts(self.loaded, fmt, lang, bars)


def _vaz_count(view: VarzView, color: str) -> int:
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
_H_P = "P(on curve)"
_H_DELAY = msg("tune", "Delay")
_H_NEED = msg("tune", "VAZ")
_NEVER = msg("sim", "never")
_DELAY_NOTE = msg(
    "tune",
    "P(on curve): {castable} (exact): in hand and payable on its curve turn (Turn), each spell "
    "counted as if it were the only one to cast; varz-deck sim's P(cast) is lower, since there "
    "the turn's VAZ may go to another spell. Delay: {delay}, in turns.",
)
_NEED_NOTE = msg(
    "tune", "VAZ: {needed} for an off-colour spell at the target (the deck's count in brackets)."
)
_SWAPS_LOWEST = msg("tune", "Best swaps by the lowest spell's odds (then the next lowest)")
_SWAPS_MEAN = msg("tune", "Best swaps by the mean on-curve probability")
_SWAP_LINE = msg("tune", "mean {mean} ({change}); lowest {lowest}")
_NO_SWAPS = msg("tune", "No legal one-card swap of the skill deck.")
_NONE_BETTER = msg(
    "tune",
    "Good news: no one-card swap raises any spell's odds; the skill deck is already the best "
    "one swap away.",
)
_MONO_TABLE = msg(
    "tune",
    "Every spell is {color} (the hero's colour) or colourless: any VAZ pays it, so there is no "
    "table of VAZ skills needed by colour.",
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
                    hero=card_name(hero, lang) if hero is not None else model.hero_name,
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
        *(line for sentence in result.answer() for line in _wrap(say(sentence), width)),
        "",
        _bold(fit(say(_SPELLS), width), color),
    ]
    off_colour = any(card.cls != HERO_CLASS for card in model.cards)
    name_w = width - 49
    head = (
        pad(say(_H_CARD), name_w)
        + pad(say(_H_COST), 6, True)
        + "  "
        + pad("", 8)
        + pad(say(_H_TURN), 7, True)
        + pad(_H_P, 12, True)
        + pad(say(_H_DELAY), 7, True)
        + (pad(say(_H_NEED), 7, True) if off_colour else "")
    )
    out.append(head)
    for card, odds in zip(model.cards, result.odds, strict=True):
        need = result.needed(card, odds)
        need_text = "" if card.cls == HERO_CLASS else ("–" if need is None else str(need))
        if card.cls != HERO_CLASS:
            need_text += f"({model.skills[card.cls]})"
        delay = say(_NEVER) if odds.expected_delay is None else f"{float(odds.expected_delay):.2f}"
        out.append(
            pad(f"{card.copies}× {spell_name(card, lang)}", name_w)
            + pad(str(card.cost), 6, True)
            + "  "
            + pad(term("color", card.color, lang), 8)
            + pad(str(odds.on_curve_turn or "–"), 7, True)
            + pad(pct(odds.p_on_curve), 12, True)
            + pad(delay, 7, True)
            + pad(need_text, 7, True)
        )
    note = say(_DELAY_NOTE(castable=named("castable-on-curve"), delay=named("delay")))
    if off_colour:  # the VAZ column is shown
        need = say(_NEED_NOTE(needed=named("skills-needed")))
        note += ("" if CJK.search(need) else " ") + need
    out += _wrap(note, width)
    out.append("")
    lowest = min((o.p_on_curve for o in result.odds), default=Fraction(0))
    out.append(
        fit(say(_CURRENT(mean=pct(result.mean), lowest=pct(lowest), n=len(result.swaps))), width)
    )
    if not result.swaps:
        out.append(fit(say(_NO_SWAPS), width))
    else:
        improving = [s for s in result.swaps if s.rank_key() > _key(result)]
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
    if off_colour:
        out += _table_lines(result, width, lang, color)
    else:
        out += _wrap(say(_MONO_TABLE(color=Term("color", model.hero_color))), width)
    out.append("")
    out += _wrap(say(GLOSSARY_HINT), width)
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
    outs = " / ".join(card_name(s.out, lang) for s in group)
    head = f"{i:>2}. +{card_name(swap.into, lang)}  −{outs}"
    figures = _SWAP_LINE(
        mean=pct(swap.mean), change=points(swap.mean - result.mean), lowest=pct(swap.lowest)
    ).render(lang)
    changes = [
        (new.p_on_curve - old.p_on_curve, card)
        for card, new, old in zip(result.model.cards, swap.odds, result.odds, strict=True)
        if new.p_on_curve != old.p_on_curve
    ]
    changes.sort(key=lambda x: (-abs(x[0]), x[1].name))
    detail = ", ".join(f"{spell_name(card, lang)} {points(d)}" for d, card in changes)
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
    from varz_deck.core.messages.wrap import wrap

    return wrap(text, width)
