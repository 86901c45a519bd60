"""Azuki's figures as the parts of a report page (core/analysis/parts.py), each from its JSON document."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from varz_deck.core.analysis.parts import (
    COUNT,
    NUMBER,
    PERCENT,
    TURN,
    Chart,
    Column,
    Figure,
    Omitted,
    Part,
    Series,
    Table,
    card_name,
)
from varz_deck.core.messages.i18n import CardName, Message, Term, msg
from varz_deck.games.azuki.cards import PALETTE_NAMES
from varz_deck.games.azuki.glossary import named

Names = Mapping[str, CardName]

_CARD = msg("sim", "Card")
_COST = msg("sim", "Cost")
_COPIES = msg("sim", "Copies")


def stats_parts(doc: Mapping[str, Any]) -> tuple[Part, ...]:
    """The curve by element and the main deck by card type."""
    elements = sorted({e for entry in doc["curve"] for e in entry["by_element"]})
    curve = Chart(
        "curve",
        msg("stats", "Cost curve by element"),
        _COST,
        tuple(str(e["cost"]) for e in doc["curve"]),
        tuple(
            Series(
                Term("element", el),
                tuple(e["by_element"].get(el, 0) for e in doc["curve"]),
                PALETTE_NAMES.get(el),
            )
            for el in elements
        ),
        unit=COUNT,
    )
    types = Table(
        "types",
        msg("report", "Main deck by card type"),
        (Column(msg("report", "Type")), Column(_COPIES)),
        tuple(
            (Term("azuki card type", t), Figure(n, COUNT))
            for t, n in doc["counts"]["by_type"].items()
        ),
    )
    return (curve, types)


def tune_parts(doc: Mapping[str, Any], names: Names, no_swaps: Message) -> tuple[Part, ...]:
    """Castable on curve per card; the fixed IKZ deck has no swaps."""
    cards = Table(
        "on-curve",
        msg("report", "Castable on curve, per card (exact, every hand kept)"),
        (
            Column(_CARD),
            Column(_COST),
            Column(_COPIES),
            Column(named("curve-turn"), "curve-turn"),
            Column(named("castable-on-curve"), "castable-on-curve"),
            Column(named("delay"), "delay"),
        ),
        tuple(
            (
                card_name(s, names),
                Figure(s["cost"], COUNT),
                Figure(s["copies"], COUNT),
                Figure(s["on_curve_turn"], TURN),
                Figure(s["p_on_curve"], PERCENT),
                Figure(s["expected_delay"], NUMBER),
            )
            for s in doc["spells"]
        ),
    )
    return (cards, Omitted("swaps", msg("report", "Swaps"), no_swaps))


def sim_parts(doc: Mapping[str, Any], names: Names) -> tuple[Part, ...]:
    """Opening hand per card (sampled with the auto mulligan), and the IKZ per turn."""
    sampled = doc["mulligan"] != "none"

    def fig(value: float, se: float) -> Figure:
        return Figure(value, PERCENT, se if sampled else None)

    last = len(doc["turns"])
    cards = Table(
        "goldfish-cards",
        msg("report", "Opening hand and draws, per card"),
        (
            Column(_CARD),
            Column(named("opening-hand"), "opening-hand"),
            Column(msg("report", "In hand by turn {turn}")(turn=last), "in-hand-by"),
        ),
        tuple(
            (
                card_name(c, names),
                fig(c["p_in_opening_hand"], c["p_in_opening_hand_se"]),
                fig(c["p_drawn_by_turn"][-1], c["p_drawn_by_turn_se"][-1]),
            )
            for c in doc["cards"]
        ),
    )
    ikz = Chart(
        "ikz",
        msg("report", "IKZ per turn"),
        msg("sim", "Turn"),
        tuple(str(t["turn"]) for t in doc["turns"]),
        (Series(named("ikz-available"), tuple(float(t["ikz"]) for t in doc["turns"])),),
        stacked=False,
        unit=NUMBER,
        term="ikz-available",
    )
    return (cards, ikz)
