"""Turning runs into the `sim` JSON (one deck, or two compared) and into text.

The text: labelled columns, ± (95% interval) on every sampled figure, exact figures marked as such,
as many turn columns as the width holds (the JSON has them all). It is made of pure functions from
the JSON documents to strings; every name from the card files goes through `safe`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, Literal, TypedDict

from varz_deck.core.analysis.capabilities import SimRequest
from varz_deck.core.analysis.console import printed, report_console
from varz_deck.core.analysis.glossary import GLOSSARY_HINT
from varz_deck.core.analysis.tuning import rounded
from varz_deck.core.messages.i18n import ENGLISH, Joined, Message, msg, value_text
from varz_deck.core.messages.sanitize import safe
from varz_deck.core.messages.wrap import wrap
from varz_deck.games.azuki.glossary import named
from varz_deck.games.azuki.sim.exact import HAND, Figures, ikz_on, seen_by
from varz_deck.games.azuki.sim.model import Model, SimCard, cost_groups
from varz_deck.games.azuki.sim.montecarlo import rate
from varz_deck.games.azuki.sim.run import Run, run

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt
    from rich.console import Console, RenderableType
    from rich.table import Table

FigureKey = Literal[
    "p_in_opening_hand", "p_in_opening_hand_se", "p_drawn_by_turn", "p_drawn_by_turn_se",
    "p_castable_by_turn", "p_castable_by_turn_se",
]  # fmt: skip
FIGURES: tuple[FigureKey, ...] = (
    "p_in_opening_hand", "p_in_opening_hand_se", "p_drawn_by_turn", "p_drawn_by_turn_se",
    "p_castable_by_turn", "p_castable_by_turn_se",
)  # fmt: skip
EXACT_KEYS = (
    "cards.p_in_opening_hand", "cards.p_drawn_by_turn", "cards.p_castable_by_turn",
    "costs.p_castable_by_turn", "p_mulligan",
)  # fmt: skip


def _card_entry(card: SimCard, fig: Figures) -> dict[str, object]:
    entry: dict[str, object] = {
        "id": card.id,
        "name": card.name,
        "copies": card.copies,
        "cost": card.cost,
        "element": card.element,
    }
    entry.update({key: fig[key] for key in FIGURES})
    return {k: rounded(v) for k, v in entry.items()}


def _others(model: Model, section: str) -> list[dict[str, str | int]]:
    return [
        {"id": card_id, "name": name, "copies": copies}
        for place, card_id, name, copies in model.others
        if place == section
    ]


def to_json(result: Run, request: SimRequest, legal: bool) -> dict[str, object]:
    """The `sim --output json` document for an Azuki deck (the VARZ one's shape where it fits)."""
    model, turns, on = result.model, request.turns, request.on
    sampled = request.mulligan != "none"
    costs = []
    for (cost, ks), fig in zip(cost_groups(model), result.costs, strict=True):
        entry: dict[str, object] = {"cost": cost, "copies": sum(model.cards[k].copies for k in ks)}
        entry.update({key: fig[key] for key in FIGURES if key.startswith("p_castable")})
        costs.append({k: rounded(v) for k, v in entry.items()})
    return {
        "version": 1,
        "game": "azuki",
        "deck": model.path,
        "games": request.games if sampled else 0,
        "seed": request.seed,
        "on": on,
        "mulligan": request.mulligan,
        "turns": [{"turn": t, "ikz": ikz_on(t, on)} for t in range(1, turns + 1)],
        "cards": [_card_entry(c, f) for c, f in zip(model.cards, result.cards, strict=True)],
        "costs": costs,
        "name": model.name,
        "leader": {"id": model.leader[0], "name": model.leader[1]} if model.leader else None,
        "main_deck": model.size,
        "format": model.format,
        "gate": _others(model, "gate"),
        "ikz_deck": _others(model, "ikz"),
        "p_mulligan": rounded(result.p_mulligan),
        "p_mulligan_se": rounded(result.p_mulligan_se),
        "legal": legal,
        "exact": [] if sampled else list(EXACT_KEYS),
        "sampled": list(EXACT_KEYS) if sampled else [],
    }


def _difference(
    a: Sequence[float], b: Sequence[float], diff: Sequence[npt.NDArray[np.generic]] | None
) -> tuple[list[float], list[float]]:
    """Per turn: the mean of b - a and its standard error, or exact (se 0) when not sampled."""
    if diff is None:
        return [y - x for x, y in zip(a, b, strict=True)], [0.0] * len(a)
    pairs = [rate(d) for d in diff]
    return [m for m, _ in pairs], [e for _, e in pairs]


class _Paired(TypedDict, total=False):
    """A card's per-game differences b - a: in the opening hand, then drawn and castable by each
    turn (`_paired` sets `opening` first, the two lists after)."""

    opening: npt.NDArray[np.int_]
    drawn: list[npt.NDArray[np.int_]]
    castable: list[npt.NDArray[np.int_]]


def _paired(
    first_a: npt.NDArray[np.intp] | None,
    first_b: npt.NDArray[np.intp],
    cost: tuple[int, int],
    turns: int,
    on: str,
) -> _Paired | None:
    """Per-game differences b - a of a card's hits (None when not sampled)."""
    if first_a is None:
        return None
    out: _Paired = {"opening": (first_b < HAND).astype(int) - (first_a < HAND)}
    drawn, castable = [], []
    for t in range(1, turns + 1):
        seen = seen_by(t, on)
        hit_a, hit_b = (first_a < seen).astype(int), (first_b < seen).astype(int)
        drawn.append(hit_b - hit_a)
        castable.append(hit_b * (cost[1] <= ikz_on(t, on)) - hit_a * (cost[0] <= ikz_on(t, on)))
    out["drawn"], out["castable"] = drawn, castable
    return out


def _diff_entry(
    fa: Mapping[str, Any], fb: Mapping[str, Any], paired: Mapping[str, Any] | None
) -> dict[str, object]:
    entry: dict[str, object] = {}
    if paired is None:
        entry["p_in_opening_hand"] = fb["p_in_opening_hand"] - fa["p_in_opening_hand"]
        entry["p_in_opening_hand_se"] = 0.0
    else:
        mean, se = rate(paired["opening"])
        entry["p_in_opening_hand"], entry["p_in_opening_hand_se"] = mean, se
    for key, name in (("p_drawn_by_turn", "drawn"), ("p_castable_by_turn", "castable")):
        mean_t, se_t = _difference(fa[key], fb[key], None if paired is None else paired[name])
        entry[key], entry[key + "_se"] = mean_t, se_t
    return entry


def _cost_differences(ra: Run, rb: Run, request: SimRequest) -> list[dict[str, object]]:
    """Per cost either deck has: the difference of P(a card of that cost castable by turn t),
    paired game by game when sampled (a deck without the cost has 0)."""
    import numpy as np

    turns, on = request.turns, request.on
    groups_a = {cost: i for i, (cost, _) in enumerate(cost_groups(ra.model))}
    groups_b = {cost: i for i, (cost, _) in enumerate(cost_groups(rb.model))}
    zero = [0.0] * turns
    out = []
    for cost in sorted(set(groups_a) | set(groups_b)):
        ia, ib = groups_a.get(cost), groups_b.get(cost)
        pa = ra.costs[ia]["p_castable_by_turn"] if ia is not None else zero
        pb = rb.costs[ib]["p_castable_by_turn"] if ib is not None else zero
        if ra.group_first is None:
            mean, se = _difference(pa, pb, None)
        else:
            never = np.full(request.games, np.iinfo(np.intp).max)
            fa = ra.group_first[:, ia] if ia is not None else never
            fb = rb.group_first[:, ib] if ib is not None else never
            paired = _paired(fa, fb, (cost, cost), turns, on)
            assert paired is not None
            mean, se = _difference(pa, pb, paired["castable"])
        entry = {"cost": cost, "p_castable_by_turn": mean, "p_castable_by_turn_se": se}
        out.append({k: rounded(v) for k, v in entry.items()})
    return out


def index_of(model: Model, card_id: str) -> int:
    return next(k for k, c in enumerate(model.cards) if c.id == card_id)


def compare(
    a: Model, b: Model, request: SimRequest, legal: tuple[bool, bool]
) -> tuple[dict[str, object], Run, Run]:
    """The `sim --vs` document: the difference (vs − deck) first, then both decks' documents.
    Sampled figures use the same random numbers for both decks, the cards the two share in the
    same places, so the differences have small standard errors."""
    copies_b = {c.id: c.copies for c in b.cards}
    common = [c.id for c in a.cards if c.id in copies_b]
    # the cards with as many copies in both decks first: they take the same slots of the shuffle
    slots = sorted(common, key=lambda i: copies_b[i] != a.cards[index_of(a, i)].copies)
    ra, rb = run(a, request, slots), run(b, request, slots)
    turns, on = request.turns, request.on
    index_a = {c.id: k for k, c in enumerate(a.cards)}
    index_b = {c.id: k for k, c in enumerate(b.cards)}
    cards = []
    for card_id in common:
        ka, kb = index_a[card_id], index_b[card_id]
        paired = (
            _paired(
                ra.first[:, ka], rb.first[:, kb], (a.cards[ka].cost, b.cards[kb].cost), turns, on
            )
            if ra.first is not None
            else None
        )
        entry: dict[str, object] = {
            "id": card_id,
            "name": a.cards[ka].name,
            "copies": b.cards[kb].copies - a.cards[ka].copies,
        }
        entry.update(_diff_entry(ra.cards[ka], rb.cards[kb], paired))
        cards.append({k: rounded(v) for k, v in entry.items()})
    costs = _cost_differences(ra, rb, request)
    if ra.mull is not None:
        p_mulligan, p_mulligan_se = rate(rb.mull.astype(int) - ra.mull)
    else:
        p_mulligan, p_mulligan_se = 0.0, 0.0
    sampled = request.mulligan != "none"
    document = {
        "version": 1,
        "game": "azuki",
        "deck": a.path,
        "vs": b.path,
        "games": request.games if sampled else 0,
        "seed": request.seed,
        "on": on,
        "mulligan": request.mulligan,
        "difference": {
            "of": "vs - deck",
            "cards": cards,
            "costs": costs,
            "main_deck": b.size - a.size,
            "p_mulligan": rounded(p_mulligan),
            "p_mulligan_se": rounded(p_mulligan_se),
        },
        "decks": [to_json(ra, request, legal[0]), to_json(rb, request, legal[1])],
    }
    return document, ra, rb


Z95 = 1.959963984540054
NAME_WIDTH = 22  # the card column's widest
GAP = 2  # cells between two columns (the table's padding)
MAX_CHANGES = 6  # card changes listed by name in a comparison

Names = Mapping[str, tuple[tuple[str, str], ...]]

_CARD = msg("sim", "Card")
_NONE = msg("sim", "none")
_TURN = msg("sim", "T{turn}")
_EXACT_NOTE = msg("sim", "Every figure is exact (closed forms, every hand kept): no ±.")
_SAMPLED_NOTE = msg(
    "sim",
    "Sampled figures (mulligan auto): ± is the 95% interval; a 0% because the IKZ cannot pay "
    "yet is exact.",
)
_OPEN_NOTE = msg("sim", "P(open): {open}. P(hand ≤T{turn}): {hand}, turn {turn}.")
_MULLIGANS = msg(
    "sim",
    "The auto mulligan sends back {p} of opening hands: those with no card castable by turn 3 "
    "(sampled).",
)
_RARE_MULLIGAN = msg(
    "sim",
    "The auto mulligan almost never sends a hand back: fewer than 1 opening hand in 1,000 has no "
    "card castable by turn 3 (sampled).",
)
_ON_CURVE = msg("sim", "Castable by its cost's turn: {costs} ({kind}).")
_COST_BY = msg("sim", "a {cost}-cost card by turn {cost} {p}")
_SEEN = msg("sim", "By turn {turn} you have seen {seen} of your {size} main-deck cards.")
_KIND = {True: msg("sim", "sampled"), False: msg("sim", "exact")}


def answer(document: Mapping[str, Any]) -> tuple[Message, ...]:
    """The sentences the report opens with, from one deck's JSON document."""
    sampled = _sampled(document)
    out: list[Message] = []
    if sampled:
        p, se = document["p_mulligan"], document["p_mulligan_se"]
        if p < 0.001:  # not "0.0%": it can happen, rarely
            out.append(_RARE_MULLIGAN)
        else:
            out.append(_MULLIGANS(p=_pct(p, se, digits=1)))
    turns = len(document["turns"])
    parts = []
    for entry in document["costs"]:
        cost = entry["cost"]
        if 1 <= cost <= min(turns, 3):
            p = entry["p_castable_by_turn"][cost - 1]
            se = entry["p_castable_by_turn_se"][cost - 1] if sampled else None
            parts.append(_COST_BY(cost=cost, p=_pct(p, se)))
    if parts:
        out.append(_ON_CURVE(costs=Joined(tuple(parts)), kind=_KIND[sampled]))
    seen = min(seen_by(turns, document["on"]), document["main_deck"])
    out.append(_SEEN(turn=turns, seen=seen, size=document["main_deck"]))
    return tuple(out)


def _footer(document: Mapping[str, object]) -> Message:
    return _SAMPLED_NOTE if _sampled(document) else _EXACT_NOTE


class _Titled:
    """A table with its title printed above it as a line (wrapped to the width, never squeezed
    into the table's own width)."""

    def __init__(self, title: str, table: Table) -> None:
        self.title, self.table = title, table

    def add_column(self, *args: RenderableType, **kwargs: Any) -> None:
        self.table.add_column(*args, **kwargs)

    def add_row(self, *args: RenderableType | None, **kwargs: Any) -> None:
        self.table.add_row(*args, **kwargs)

    def print(self, console: Console) -> None:
        console.print(self.title, markup=False, overflow="fold", style="italic")
        console.print(self.table)


def _table(title: str) -> _Titled:
    from rich import box
    from rich.table import Table

    return _Titled(
        title,
        Table(
            box=box.SIMPLE_HEAD,
            pad_edge=False,
            show_edge=False,
            collapse_padding=True,
        ),
    )


def _say(message: Message, lang: str) -> str:
    return message.render(lang)


def _name(card: Mapping[str, Any], names: Names, lang: str) -> str:
    """A card's name in the language when the database has it, escaped."""
    if lang != ENGLISH:
        for language, name in names.get(card["id"], ()):
            if language == lang:
                return safe(name)
    return safe(card["name"])


def _pct(p: float, se: float | None, sign: bool = False, digits: int = 0) -> str:
    """A probability in percent; with its 95% interval unless exact (se None)."""
    value = round(100 * p, digits) + 0.0  # never "-0%"
    shown = f"{value:+.{digits}f}%" if sign else f"{value:.{digits}f}%"
    return shown if se is None else f"{shown} ±{100 * Z95 * se:.1f}"


def _turns_shown(width: int, cell: int, turns: int, fixed: int) -> int:
    """How many turn columns of `cell` cells fit beside `fixed` cells of other columns."""
    return max(1, min(turns, (width - fixed) // (cell + GAP)))


def _sampled(document: Mapping[str, object]) -> bool:
    return document["mulligan"] != "none"


def _run_line(document: Mapping[str, Any], compared: bool = False) -> Message:
    on = msg("sim", "on the play") if document["on"] == "play" else msg("sim", "on the draw")
    turns = len(document["turns"]) if "turns" in document else len(document["decks"][0]["turns"])
    if not _sampled(document):
        return msg("sim", "exact · no mulligan · {turns} turns · {on}")(turns=turns, on=on)
    run = (
        msg("sim", "{games:,} games on common random numbers · seed {seed} · {turns} turns · {on}")
        if compared
        else msg("sim", "{games:,} games · seed {seed} · {turns} turns · {on} · mulligan auto")
    )
    return run(games=document["games"], seed=document["seed"], turns=turns, on=on)


def _title(document: Mapping[str, object]) -> str:
    name = document.get("name")
    return safe(f"{name} ({document['deck']})" if name else str(document["deck"]))


def _header(document: Mapping[str, Any], lang: str) -> list[str]:
    leader = document.get("leader")
    facts = msg("sim", "Leader {leader} · main deck {n} cards")(
        leader=safe(leader["name"]) if leader else "–", n=document["main_deck"]
    )
    lines = [
        _say(msg("sim", "Goldfish: {title}")(title=_title(document)), lang),
        _say(facts, lang),
        _say(_run_line(document), lang),
    ]
    return lines


def _se(document: Mapping[str, object], value: float | None) -> float | None:
    """The standard error to show: None for an exact figure."""
    return value if _sampled(document) else None


def _cards_table(document: Mapping[str, Any], names: Names, width: int, lang: str) -> _Titled:
    from rich.cells import cell_len

    sampled = _sampled(document)
    cell = 9 if sampled else 4
    labels = [f"{card['copies']}× {_name(card, names, lang)}" for card in document["cards"]]
    name_width = max([NAME_WIDTH, *(cell_len(label) for label in labels)])
    name_width = min(name_width, max(NAME_WIDTH, width - 4 - cell - 3 * GAP))
    fixed = name_width + GAP + 4 + GAP
    shown = _turns_shown(width, cell, len(document["turns"]), fixed)
    title = (
        msg("sim", "P(castable by turn 1–{last})")(last=shown)
        if shown > 1
        else msg("sim", "P(castable by turn 1)")
    )
    table = _table(_say(title, lang))
    table.add_column(_say(_CARD, lang), no_wrap=True, overflow="ellipsis", max_width=name_width)
    table.add_column(_say(msg("sim", "Cost"), lang), justify="right", no_wrap=True)
    for t in range(shown):
        table.add_column(_say(_TURN(turn=t + 1), lang), justify="right", no_wrap=True)
    ikz = [str(turn["ikz"]) for turn in document["turns"][:shown]]
    table.add_row(_say(msg("sim", "IKZ"), lang), "", *ikz, end_section=True)
    for card in document["cards"]:
        odds = card["p_castable_by_turn"][:shown]
        errors = card["p_castable_by_turn_se"][:shown]
        cells = [  # a 0 because the IKZ cannot pay yet is exact even in a sampled run
            _pct(p, se if sampled and (se or p) else None)
            for p, se in zip(odds, errors, strict=True)
        ]
        table.add_row(labels.pop(0), str(card["cost"]), *cells)
    return table


def _opening_table(document: Mapping[str, Any], names: Names, lang: str) -> _Titled:
    last = len(document["turns"])
    table = _table(_say(msg("sim", "Cards"), lang))
    table.add_column(_say(_CARD, lang), no_wrap=True, overflow="ellipsis", max_width=NAME_WIDTH)
    table.add_column(_say(msg("sim", "Copies"), lang), justify="right", no_wrap=True)
    table.add_column(_say(msg("sim", "Cost"), lang), justify="right", no_wrap=True)
    table.add_column("P(open)", justify="right", no_wrap=True)
    table.add_column(f"P(hand ≤T{last})", justify="right", no_wrap=True)
    for card in document["cards"]:
        table.add_row(
            _name(card, names, lang),
            str(card["copies"]),
            str(card["cost"]),
            _pct(card["p_in_opening_hand"], _se(document, card["p_in_opening_hand_se"])),
            _pct(card["p_drawn_by_turn"][-1], _se(document, card["p_drawn_by_turn_se"][-1])),
        )
    return table


def _print_lines(console: Console, lines: Sequence[str]) -> None:
    for line in lines:
        console.print(line, markup=False, overflow="fold")


def render_text(
    document: Mapping[str, Any],
    names: Names,
    *,
    width: int = 100,
    lang: str = ENGLISH,
    color: bool = False,
) -> str:
    """One deck: header, the cards' opening-hand odds, P(castable by turn t) with the IKZ."""
    console = report_console(color, width)
    _print_lines(console, _header(document, lang))
    console.print()
    for sentence in answer(document):
        _print_lines(console, wrap(_say(sentence, lang), width))
    console.print()
    _opening_table(document, names, lang).print(console)
    note = _OPEN_NOTE(
        open=named("opening-hand"), hand=named("in-hand-by"), turn=len(document["turns"])
    )
    for line in wrap(_say(note, lang), width):
        console.print(line, style="bright_black", markup=False)
    console.print()
    _cards_table(document, names, width, lang).print(console)
    console.print()
    _footer_lines(console, document, width, lang)
    return printed(console)


def _footer_lines(console: Console, document: Mapping[str, object], width: int, lang: str) -> None:
    for line in wrap(_say(_footer(document), lang), width) + wrap(_say(GLOSSARY_HINT, lang), width):
        console.print(line, style="bright_black", markup=False)


def _counted(
    entries: Sequence[Mapping[str, Any]], names: Names, lang: str
) -> tuple[dict[str, int], dict[str, str]]:
    copies: dict[str, int] = {}
    shown: dict[str, str] = {}
    for entry in entries:
        copies[entry["id"]] = copies.get(entry["id"], 0) + entry["copies"]
        shown[entry["id"]] = _name(entry, names, lang)
    return copies, shown


def _section_changes(
    before: Sequence[Mapping[str, Any]], after: Sequence[Mapping[str, Any]], names: Names, lang: str
) -> list[str]:
    copies_a, shown = _counted(before, names, lang)
    copies_b, shown_b = _counted(after, names, lang)
    shown.update(shown_b)
    changes = []
    for card_id in sorted(set(copies_a) | set(copies_b), key=lambda i: shown[i]):
        delta = copies_b.get(card_id, 0) - copies_a.get(card_id, 0)
        if delta:
            changes.append(f"{delta:+d} {shown[card_id]}")
    return changes


def _change_lines(document: Mapping[str, Any], names: Names, lang: str) -> list[str]:
    """Every difference (vs − deck): the format, the leader, the gate, then the main and IKZ
    decks' cards whose copies differ; many card changes are cut to MAX_CHANGES and a count."""
    a, b = document["decks"]
    out: list[str] = []
    place = msg("sim", "{place}: {changes}")
    fa, fb = a.get("format") or "standard", b.get("format") or "standard"
    if fa != fb:
        out.append(_say(place(place=msg("sim", "format"), changes=f"{fa} → {fb}"), lang))
    for slot, label in (("leader", msg("sim", "leader")), ("gate", msg("sim", "gate"))):
        before, after = a.get(slot), b.get(slot)
        before = before[0] if isinstance(before, list) and before else before
        after = after[0] if isinstance(after, list) and after else after
        if (before or {}).get("id") != (after or {}).get("id"):
            none = _say(msg("sim", "none"), lang)
            shown_a = _name(before, names, lang) if before else none
            shown_b = _name(after, names, lang) if after else none
            out.append(_say(place(place=label, changes=f"{shown_a} → {shown_b}"), lang))
    for key, label in (("cards", msg("sim", "main deck")), ("ikz_deck", msg("sim", "IKZ deck"))):
        changes = _section_changes(a.get(key) or [], b.get(key) or [], names, lang)
        if len(changes) > MAX_CHANGES:
            more = msg("sim", "{n} more")(n=len(changes) - MAX_CHANGES)
            changes = [*changes[:MAX_CHANGES], _say(more, lang)]
        if changes:
            listed = str(value_text(Joined(tuple(changes)), lang))
            out.append(_say(place(place=label, changes=listed), lang))
    return out


def _diff_table(document: Mapping[str, Any], names: Names, width: int, lang: str) -> _Titled:
    sampled = _sampled(document)
    cell = 10 if sampled else 5
    turns = len(document["decks"][0]["turns"])
    fixed = NAME_WIDTH + GAP + cell + GAP
    shown = _turns_shown(width, cell, turns, fixed)
    title = msg("sim", "Difference in P(castable by turn t) of the cards both decks have")
    table = _table(_say(title, lang))
    table.add_column(_say(_CARD, lang), no_wrap=True, overflow="ellipsis", max_width=NAME_WIDTH)
    table.add_column(_say(msg("sim", "Opening hand"), lang), justify="right", no_wrap=True)
    for t in range(shown):
        table.add_column(_say(_TURN(turn=t + 1), lang), justify="right", no_wrap=True)
    for card in document["difference"]["cards"]:
        p, se = card["p_in_opening_hand"], card["p_in_opening_hand_se"]
        cells = [_pct(p, se if sampled and (se or p) else None, sign=True)]
        for p, err in zip(
            card["p_castable_by_turn"][:shown], card["p_castable_by_turn_se"][:shown], strict=True
        ):
            cells.append(_pct(p, err if sampled and (err or p) else None, sign=True))
        table.add_row(_name(card, names, lang), *cells)
    return table


def _cost_diff_table(document: Mapping[str, Any], width: int, lang: str) -> _Titled:
    sampled = _sampled(document)
    cell = 10 if sampled else 5
    turns = len(document["decks"][0]["turns"])
    shown = _turns_shown(width, cell, turns, 6 + GAP)
    title = msg("sim", "Difference in P(a card of the cost castable by turn t), vs − deck")
    table = _table(_say(title, lang))
    table.add_column(_say(msg("sim", "Cost"), lang), justify="right", no_wrap=True)
    for t in range(shown):
        table.add_column(_say(_TURN(turn=t + 1), lang), justify="right", no_wrap=True)
    for group in document["difference"]["costs"]:
        cells = [
            _pct(p, err if sampled and (err or p) else None, sign=True)
            for p, err in zip(
                group["p_castable_by_turn"][:shown],
                group["p_castable_by_turn_se"][:shown],
                strict=True,
            )
        ]
        table.add_row(str(group["cost"]), *cells)
    return table


def render_compare_text(
    document: Mapping[str, Any],
    names: Names,
    *,
    width: int = 100,
    lang: str = ENGLISH,
    color: bool = False,
) -> str:
    """Two decks: which is which, what changed, and the differences (vs − deck) of the cards
    both have, with their 95% intervals when sampled."""
    from rich.cells import cell_len

    console = report_console(color, width)
    a, b = document["decks"]
    labels = [_say(msg("sim", "deck"), lang), _say(msg("sim", "vs"), lang)]
    pad = max(cell_len(label) for label in labels)
    lines = []
    for label, deck in zip(labels, (a, b), strict=True):
        shown = label + " " * (pad - cell_len(label))
        lines.append(f"{shown}: {_title(deck)}")
    changes = _change_lines(document, names, lang)
    if changes:
        lines.append(_say(msg("sim", "Changes (vs − deck):"), lang))
        lines.extend(f"  {line}" for line in changes)
    else:
        lines.append(_say(msg("sim", "Changes: {changes}")(changes=_say(_NONE, lang)), lang))
    lines.append(_say(_run_line(document, compared=True), lang))
    difference = document["difference"]
    if _sampled(document):
        mulligan = msg("sim", "P(mulligan), vs − deck: {p}")
        p = _pct(difference["p_mulligan"], difference["p_mulligan_se"], sign=True, digits=1)
        lines.append(_say(mulligan(p=p), lang))
    _print_lines(console, lines)
    console.print()
    _cost_diff_table(document, width, lang).print(console)
    console.print()
    if document["difference"]["cards"]:
        _diff_table(document, names, width, lang).print(console)
    else:
        console.print(_say(msg("sim", "The decks have no card in common."), lang), markup=False)
    console.print()
    _footer_lines(console, document, width, lang)
    return printed(console)
