"""Azuki's figures as the parts of a report page (core/analysis/parts.py), each from its JSON document."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from varz_deck.core.analysis.parts import (
    COUNT,
    NUMBER,
    PERCENT,
    CardColumns,
    Chart,
    Column,
    Figure,
    Omitted,
    Part,
    Series,
    Table,
    card_name,
    curve_chart,
    on_curve_table,
)
from varz_deck.core.messages.i18n import CardName, Message, Term, msg
from varz_deck.games.azuki.cards import PALETTE_NAMES
from varz_deck.games.azuki.glossary import named

Names = Mapping[str, CardName]

_CARD = msg("sim", "Card")
_COST = msg("sim", "Cost")
_COPIES = msg("sim", "Copies")
_TITLES = CardColumns(_CARD, _COST, _COPIES)


def stats_parts(doc: Mapping[str, Any]) -> tuple[Part, ...]:
    """The curve by element and the main deck by card type."""
    elements = sorted({e for entry in doc["curve"] for e in entry["by_element"]})
    curve = curve_chart(
        msg("stats", "Cost curve by element"),
        _COST,
        doc["curve"],
        "by_element",
        elements,
        "element",
        PALETTE_NAMES,
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
    cards = on_curve_table(
        msg("report", "Castable on curve, per card (exact, every hand kept)"),
        _TITLES,
        doc["spells"],
        names,
        named,
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
