"""VARZ's figures as the parts of a report page (core/analysis/parts.py), each from its JSON document."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from varz_deck.core.analysis.parts import (
    COUNT,
    NUMBER,
    PERCENT,
    TURN,
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
from varz_deck.games.varz.cards import COLORLESS, COLORS, PALETTE_NAMES, VAZ_AVAILABLE, VAZ_SPENT
from varz_deck.games.varz.glossary import named

Names = Mapping[str, CardName]

_CARD = msg("sim", "Card")
_COST = msg("sim", "Cost")
_COPIES = msg("sim", "Copies")
_TITLES = CardColumns(_CARD, _COST, _COPIES)
_COLOUR = msg("sim", "Colour")
_TURN = msg("sim", "Turn")


def stats_parts(doc: Mapping[str, Any]) -> tuple[Part, ...]:
    """The curve by colour, the spells by type, the skills by class."""
    colours = [c for c in (*COLORS, COLORLESS) if any(c in e["by_color"] for e in doc["curve"])]
    curve = curve_chart(
        msg("stats", "Cost curve by colour"),
        _COST,
        doc["curve"],
        "by_color",
        colours,
        "color",
        PALETTE_NAMES,
    )
    types = Table(
        "types",
        msg("report", "Spells by type"),
        (Column(msg("report", "Type")), Column(_COPIES)),
        tuple(
            (Term("card type", t), Figure(n, COUNT))
            for t, n in doc["counts"]["by_type"].items()
            if n
        ),
    )
    rows = [(Term("color", c), Figure(n, COUNT)) for c, n in doc["vaz"].items()]
    rows += [(Term("class", c), Figure(n, COUNT)) for c, n in doc["classes"].items()]
    skills = Table(
        "skills",
        msg("report", "Skills: VAZ by colour, the others by class"),
        (Column(msg("report", "Colour or class")), Column(_COPIES)),
        tuple(rows),
    )
    return (curve, types, skills)


def tune_parts(doc: Mapping[str, Any], names: Names, good_news: Message) -> tuple[Part, ...]:
    """Castable on curve per spell, and the best swaps (or the good news that none helps)."""
    spells = on_curve_table(
        msg("report", "Castable on curve, per spell (exact)"),
        _TITLES,
        doc["spells"],
        names,
        named,
        ((Column(_COLOUR), lambda s: Term("color", s["color"])),),
    )
    better = [w for w in doc["swaps"] if w["min_p_on_curve"] > doc["min_p_on_curve"]]
    if not doc["swaps"]:
        swaps: Part = Omitted(
            "swaps", named("swap"), msg("tune", "No legal one-card swap of the skill deck.")
        )
    elif not better:
        swaps = Omitted("swaps", named("swap"), good_news)
    else:
        swaps = Table(
            "swaps",
            msg("report", "Best one-card swaps (exact)"),
            (
                Column(msg("report", "Out")),
                Column(msg("report", "In")),
                Column(msg("report", "Lowest castable on curve"), "castable-on-curve"),
                Column(msg("report", "Mean castable on curve"), "castable-on-curve"),
            ),
            tuple(
                (
                    card_name(w["out"], names),
                    card_name(w["in"], names),
                    Figure(w["min_p_on_curve"], PERCENT),
                    Figure(w["mean_p_on_curve"], PERCENT),
                )
                for w in better[:5]
            ),
        )
    return (spells, swaps)


def sim_parts(doc: Mapping[str, Any], names: Names) -> tuple[Part, ...]:
    """Opening hand and cast on curve per spell, and VAZ available and spent per turn."""
    cards = Table(
        "goldfish-cards",
        msg("report", "Opening hand and goldfish games, per spell"),
        (
            Column(_CARD),
            Column(named("opening-hand"), "opening-hand"),
            Column(named("curve-turn"), "curve-turn"),
            Column(named("cast-on-curve"), "cast-on-curve"),
        ),
        tuple(
            (
                card_name(c, names),
                Figure(c["p_in_opening_hand"], PERCENT),
                Figure(c["curve_turn"], TURN),
                Figure(c["p_cast_on_curve"], PERCENT, c["p_cast_on_curve_se"]),
            )
            for c in doc["cards"]
        ),
        note=msg(
            "report",
            "Cast on curve in a goldfish game is lower than castable on curve: on that turn the "
            "player may spend its VAZ on another spell.",
        ),
    )
    turns = doc["turns"]
    vaz = Chart(
        "vaz",
        msg("sim", "VAZ per turn"),
        _TURN,
        tuple(str(t["turn"]) for t in turns),
        (
            # as sim --plot draws them (games/varz/sim/plot.py)
            Series(named("vaz-available"), tuple(float(t["vaz"]) for t in turns), VAZ_AVAILABLE),
            Series(named("vaz-spent"), tuple(t["mean_vaz_spent"] for t in turns), VAZ_SPENT[0]),
        ),
        stacked=False,
        unit=NUMBER,
        term="vaz-spent",
    )
    return (cards, vaz)
