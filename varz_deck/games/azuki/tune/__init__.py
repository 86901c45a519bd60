"""`varz-deck stats` and `varz-deck tune` for Azuki (SPEC §11): exact, no sampling.

Azuki's resource is the IKZ: 1 a turn up to 10, plus the second player's token (`sim.ikz_on`); it
does not depend on any shuffle and the IKZ deck is fixed, so there is no swap to try and no source
table: `tune` gives, per main-deck card, the exact probability that it is castable on its curve
turn T0 (the first turn the IKZ pays its cost) = P(drawn by T0), hypergeometric, and the expected
delay past T0 (`core.tuning.on_curve`; the sum runs to the turn every card has been seen, exact
with no cut). The `auto` mulligan of `sim` is only sampled there, so `tune` takes `--mulligan none`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from varz_deck.core.source import DeckSource

from dataclasses import dataclass
from fractions import Fraction
from math import comb
from typing import Any

from varz_deck.core.cards import CardDatabase
from varz_deck.core.game import NOT_LEGAL_TUNED, DeckUnusable
from varz_deck.core.i18n import CardName, Message, Term, joined, msg, term
from varz_deck.core.tuning import curve_lines, fit, on_curve, pad, pct, png_charts, r, svg_charts
from varz_deck.games.azuki.cards import ELEMENTS, NEUTRAL
from varz_deck.games.azuki.sim.plot import HEX
from varz_deck.games.azuki.sim import MAX_IKZ, Model, build_model, ikz_on, seen_by

_EMPTY = msg("sim", "{path}: no card to simulate; check the deck with varz-deck check")
NO_SWAPS = msg("tune", "The IKZ deck is fixed in Azuki TCG: there are no swaps to try.")
CURVE_TITLE = msg("sim", "Cost curve by element: {deck}")


def p_drawn(total: int, copies: int, seen: int) -> Fraction:
    """P(at least one of `copies` among the first `seen` of `total` cards), exactly."""
    seen = min(seen, total)
    if seen <= 0 or copies <= 0:
        return Fraction(0)
    return 1 - Fraction(comb(total - copies, seen), comb(total, seen))


def curve_turn(cost: int, on: str) -> int | None:
    """The first turn whose IKZ pays `cost`; None when no turn does."""
    for t in range(1, MAX_IKZ + 2):
        if ikz_on(t, on) >= cost:
            return t
    return None


def last_turn(n: int, on: str) -> int:
    """The first turn by which every card has been seen and the IKZ is at its most."""
    t = 1
    while seen_by(t, on) < n or ikz_on(t, on) < ikz_on(MAX_IKZ, on):
        t += 1
    return t


@dataclass(frozen=True)
class Figures:
    on_curve_turn: int | None
    p_on_curve: Fraction
    expected_delay: Fraction | None


def card_figures(model: Model, on: str) -> list[Figures]:
    n = model.size
    last = last_turn(n, on)
    out = []
    for card in model.cards:
        t0 = curve_turn(card.cost, on)
        if t0 is None or n == 0:
            out.append(Figures(None, Fraction(0), None))
            continue

        def drawn(t: int, copies: int = card.copies) -> Fraction:
            return p_drawn(n, copies, seen_by(t, on))

        def pays(t: int, cost: int = card.cost) -> Fraction:
            return Fraction(1 if ikz_on(t, on) >= cost else 0)

        p, delay = on_curve(drawn, pays, t0, last)
        out.append(Figures(t0, p, delay))
    return out


def _load(
    source: DeckSource, database: CardDatabase, *, bounded: bool = True
) -> tuple[Model, Any, tuple[Message, ...]]:
    model, report = build_model(source, database, bounded=bounded)
    if model.size == 0 and report.view is not None and not report.view.slots["main"]:
        raise DeckUnusable(message=_EMPTY(path=source.name))
    warnings = (NOT_LEGAL_TUNED(path=source.name, n=report.errors),) if report.errors else ()
    return model, report, warnings


def _rows(model: Model) -> list[tuple[int, list[tuple[str, int]]]]:
    rows = []
    for cost in sorted({c.cost for c in model.cards}):
        per = [
            (e, sum(c.copies for c in model.cards if c.cost == cost and c.element == e))
            for e in ELEMENTS
        ]
        rows.append((cost, [(e, k) for e, k in per if k]))
    return rows


def _plot(model: Model, fmt: str, lang: str) -> bytes:
    from varz_deck.core.plot import unknown_format

    def title(lang: str) -> str:
        return CURVE_TITLE(deck=model.name or model.path).render(lang)

    if fmt == "svg":
        return svg_charts(title, _rows(model), "element", HEX, lambda _: [], lang).encode("utf-8")
    if fmt == "png":
        return png_charts(title, _rows(model), "element", HEX, lambda _: [], lang)
    raise unknown_format(fmt)


def _name(names: tuple[tuple[str, str], ...], name: str, lang: str) -> str:
    return CardName(name, names).in_language(lang)


_STATS_TITLE = msg("stats", "Stats: {deck} ({path})")
_LEADER = msg("stats", "Leader {leader}; gate {gate}")
_MAIN = msg("stats", "Main deck: {n} ({types})")
_COUNT_OF = msg("stats", "{n} {what}")
_CURVE = msg("stats", "Cost curve by element")
_IKZ = msg("stats", "IKZ deck: {n}")


@dataclass(frozen=True)
class AzukiStats:
    model: Model
    report: Any
    warnings: tuple[Message, ...] = ()

    def to_json(self) -> dict[str, Any]:
        view = self.report.view
        by_type: dict[str, int] = {}
        for slot in view.slots["main"] if view is not None else ():
            if slot.card is not None:
                by_type[slot.card.type] = by_type.get(slot.card.type, 0) + slot.entry.count
        picked = view.picked if view is not None else {}
        leader, gate = picked.get("leader"), picked.get("gate")
        return {
            "version": 1,
            "game": "azuki",
            "deck": self.report.path,
            "name": self.report.name,
            "format": self.report.format,
            "legal": self.report.legal,
            "leader": None if leader is None else {"id": leader.id, "name": leader.name},
            "gate": None if gate is None else {"id": gate.id, "name": gate.name},
            "counts": {
                "main": view.size("main") if view is not None else 0,
                "ikz": view.size("ikz") if view is not None else 0,
                "by_type": dict(sorted(by_type.items())),
            },
            "curve": [
                {"cost": cost, "copies": sum(k for _, k in per), "by_element": dict(per)}
                for cost, per in _rows(self.model)
            ],
        }

    def render_text(self, *, color: bool, width: int, lang: str) -> str:
        doc = self.to_json()
        width = max(40, min(width, 100))
        view = self.report.view
        picked = view.picked if view is not None else {}
        leader, gate = picked.get("leader"), picked.get("gate")
        out = [
            fit(_STATS_TITLE(deck=doc["name"] or doc["deck"], path=doc["deck"]).render(lang), width)
        ]
        out.append(
            fit(
                _LEADER(
                    leader=CardName.of(leader, quote=False).in_language(lang) if leader else "–",
                    gate=CardName.of(gate, quote=False).in_language(lang) if gate else "–",
                ).render(lang),
                width,
            )
        )
        types = joined(
            _COUNT_OF(n=n, what=Term("azuki card type", t))
            for t, n in doc["counts"]["by_type"].items()
        )
        out.append(fit(_MAIN(n=doc["counts"]["main"], types=types).render(lang), width))
        out.append("")
        out.append(_CURVE.render(lang))
        out += curve_lines(_rows(self.model), "element", lang, width)
        out.append("")
        out.append(fit(_IKZ(n=doc["counts"]["ikz"]).render(lang), width))
        return "".join(line.rstrip() + "\n" for line in out)

    def plot(self, fmt: str, lang: str) -> bytes:
        return _plot(self.model, fmt, lang)


_TUNE_TITLE = msg("tune", "Tune: {deck} ({path})")
_SETTINGS = msg("tune", "{on}; mulligan {mulligan}")
_EXACT = msg("tune", "Every figure is exact: closed forms, no sampling.")
_ON = {"play": msg("sim", "on the play"), "draw": msg("sim", "on the draw")}
_CARDS = msg("tune", "Cards on curve (the first turn the IKZ pays the cost)")
_NEVER = msg("sim", "never")


@dataclass(frozen=True)
class AzukiTune:
    model: Model
    on: str
    target: float
    figures: tuple[Figures, ...]
    warnings: tuple[Message, ...] = ()

    def to_json(self) -> dict[str, Any]:
        cards = [
            {
                "id": card.id,
                "name": card.name,
                "cost": card.cost,
                "color": card.element,
                "copies": card.copies,
                "on_curve_turn": fig.on_curve_turn,
                "p_on_curve": r(fig.p_on_curve),
                "expected_delay": r(fig.expected_delay),
                "exact": True,
            }
            for card, fig in zip(self.model.cards, self.figures, strict=True)
        ]
        return {
            "version": 1,
            "game": "azuki",
            "deck": self.model.path,
            "name": self.model.name,
            "on": self.on,
            "mulligan": "none",
            "target": self.target,
            "exact": True,
            "delay_horizon": "every card seen and the IKZ at its most (no truncation)",
            "spells": cards,
            "swaps": [],
            "tables": [],
            "no_swaps": NO_SWAPS.render(),
            "curve": [
                {"cost": cost, "copies": sum(k for _, k in per), "by_element": dict(per)}
                for cost, per in _rows(self.model)
            ],
        }

    def render_text(self, *, color: bool, width: int, lang: str) -> str:
        width = max(60, min(width, 100))
        model = self.model
        out = [
            fit(_TUNE_TITLE(deck=model.name or model.path, path=model.path).render(lang), width),
            fit(_SETTINGS(on=_ON[self.on], mulligan="none").render(lang), width),
            fit(_EXACT.render(lang), width),
            "",
            fit(_CARDS.render(lang), width),
        ]
        name_w = width - 43
        out.append(
            pad(msg("sim", "Card").render(lang), name_w)
            + pad(msg("sim", "Cost").render(lang), 6, True)
            + "  "
            + pad("", 10)
            + pad(msg("sim", "Turn").render(lang), 5, True)
            + pad(msg("tune", "On curve").render(lang), 10, True)
            + pad(msg("tune", "Delay").render(lang), 8, True)
        )
        for card, fig in zip(model.cards, self.figures, strict=True):
            delay = (
                _NEVER.render(lang)
                if fig.expected_delay is None
                else f"{float(fig.expected_delay):.2f}"
            )
            out.append(
                pad(f"{card.copies}× {_name(card.names, card.name, lang)}", name_w)
                + pad(str(card.cost), 6, True)
                + "  "
                + pad(term("element", card.element or NEUTRAL, lang), 10)
                + pad(str(fig.on_curve_turn or "–"), 5, True)
                + pad(pct(fig.p_on_curve), 10, True)
                + pad(delay, 8, True)
            )
        out.append("")
        out.append(msg("stats", "Cost curve by element").render(lang))
        out += curve_lines(_rows(model), "element", lang, width)
        out.append("")
        out.append(fit(NO_SWAPS.render(lang), width))
        return "".join(line.rstrip() + "\n" for line in out)

    def plot(self, fmt: str, lang: str) -> bytes:
        return _plot(self.model, fmt, lang)


class AzukiTuner:
    """SPEC §11 for Azuki: per-card figures and the cost curve; no swaps (fixed IKZ deck)."""

    options = frozenset({"on", "plot"})

    def stats(self, source: DeckSource, database: CardDatabase) -> AzukiStats:
        model, report, warnings = _load(source, database, bounded=False)  # stats only counts
        return AzukiStats(model, report, warnings)

    def tune(
        self, source: DeckSource, database: CardDatabase, *, target: float, on: str, mulligan: str
    ) -> AzukiTune:
        model, _, warnings = _load(source, database)
        return AzukiTune(model, on, target, tuple(card_figures(model, on)), warnings)


TUNER = AzukiTuner()
