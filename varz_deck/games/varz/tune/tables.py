"""Karsten-style tables: VAZ skills of one colour a spell needs by a turn."""

from __future__ import annotations

from fractions import Fraction

from varz_deck.games.varz.sim.exact import holder_size, p_at_least

SKILL_DECK = 9
TABLE_COSTS = tuple(range(1, 10))
TABLE_TURNS = tuple(range(1, 9))


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
