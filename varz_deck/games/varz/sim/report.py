"""Turning runs into the `sim` JSON (docs/reference/json.md) and into text: pure functions returning strings."""

from __future__ import annotations

import io
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from varz_deck.core.analysis.console import printed, report_console
from varz_deck.core.analysis.glossary import GLOSSARY_HINT
from varz_deck.core.analysis.tuning import Rows, curve_rows, rounded
from varz_deck.core.messages.i18n import (
    ENGLISH,
    CardName,
    Joined,
    Message,
    Term,
    msg,
    term,
    value_text,
)
from varz_deck.core.messages.sanitize import json_dumps, safe
from varz_deck.games.varz.cards import COLORLESS, COLORS
from varz_deck.games.varz.glossary import named
from varz_deck.games.varz.sim.answer import answer
from varz_deck.games.varz.sim.exact import p_opener
from varz_deck.games.varz.sim.model import Model, Names, SpellCard
from varz_deck.games.varz.sim.run import Comparison, Result

if TYPE_CHECKING:
    from rich.console import Console
    from rich.table import Table
    from rich.text import Text, TextType

    from varz_deck.games.varz.sim.montecarlo import Options

Z95 = 1.959963984540054

EXACT_KEYS = (
    "turns.vaz", "turns.p_color", "cards.p_in_opening_hand", "cards.p_drawn_by_turn",
    "cards.p_castable_by_turn", "cards.curve_turn", "v_sync_turn", "deck_out_turn", "p_opener",
)  # fmt: skip
SAMPLED_KEYS = (
    "turns.mean_vaz_spent", "turns.p_all_vaz_spent", "turns.mean_hand_size", "turns.p_discard",
    "cards.p_cast_on_curve", "mean_vaz_spent_total", "curve_score", "vaz_used",
)  # fmt: skip


def _zeros(value: object) -> object:
    return [_zeros(v) for v in value] if isinstance(value, list) else 0.0


def _on_curve(result: Result, k: int) -> tuple[float | None, float | None]:
    card = result.exact.cards[k]
    if card.curve_turn is None or card.curve_turn > result.options.turns:
        return None, None
    return result.sums.mean("on_curve")[k], result.sums.se("on_curve")[k]


def to_json(result: Result, legal: bool | None = None) -> dict[str, object]:
    """The `sim --output json` document: docs/reference/json.md's keys in its order, then the extra ones."""
    model, options, ex, sums = result.model, result.options, result.exact, result.sums
    spent, spent_se = sums.mean("spent"), sums.se("spent")
    full, full_se = sums.mean("all_spent"), sums.se("all_spent")
    hand, hand_se = sums.mean("hand"), sums.se("hand")
    discard, discard_se = sums.mean("discard"), sums.se("discard")
    turns = []
    for t in range(options.turns):
        entry: dict[str, object] = {
            "turn": t + 1,
            "vaz": ex.vaz[t],
            "mean_vaz_spent": spent[t],
            "mean_vaz_spent_se": spent_se[t],
            "p_all_vaz_spent": full[t],
            "p_all_vaz_spent_se": full_se[t],
            "mean_hand_size": hand[t],
            "mean_hand_size_se": hand_se[t],
            "p_discard": discard[t],
            "p_discard_se": discard_se[t],
        }
        if model.colors:
            entry["p_color"] = {c: list(p) for c, p in ex.p_color[t].items()}
        turns.append({k: rounded(v) for k, v in entry.items()})
    available = sum(ex.vaz)
    cards = []
    for k, card in enumerate(model.cards):
        exact_card = ex.cards[k]
        on_curve, on_curve_se = _on_curve(result, k)
        drawn, castable = list(exact_card.p_drawn_by_turn), list(exact_card.p_castable_by_turn)
        entry = {
            "id": card.id,
            "name": card.name,
            "copies": card.copies,
            "cost": card.cost,
            "color": card.color,
            "p_in_opening_hand": exact_card.p_in_opening_hand,
            "p_in_opening_hand_se": 0.0,
            "p_drawn_by_turn": drawn,
            "p_drawn_by_turn_se": _zeros(drawn),
            "p_castable_by_turn": castable,
            "p_castable_by_turn_se": _zeros(castable),
            "curve_turn": exact_card.curve_turn,
            "p_cast_on_curve": on_curve,
            "p_cast_on_curve_se": on_curve_se,
        }
        cards.append({k: rounded(v) for k, v in entry.items()})
    doc: dict[str, object] = {
        "version": 1,
        "deck": model.path,
        "games": options.games,
        "seed": options.seed,
        "on": options.on,
        "mulligan": options.mulligan,
        "turns": turns,
        "cards": cards,
        "v_sync_turn": ex.v_sync_turn,
        "name": model.name,
        "hero": {
            "id": model.hero_id,
            "name": model.hero_name,
            "color": model.hero_color,
            "evolution_level": model.evolution_level,
        },
    }
    if legal is not None:
        doc["legal"] = legal
    doc.update(
        {
            "spells": model.n_spells,
            "skills": model.n_skills,
            "vaz_skills": {c: model.skills_of(c) for c in model.colors},
            "spells_left_out": model.left_out,
            "deck_out_turn": ex.deck_out_turn,
            "mean_vaz_spent_total": rounded(sums.mean("total")),
            "mean_vaz_spent_total_se": rounded(sums.se("total")),
            "curve_score": rounded(sums.mean("score")),
            "curve_score_se": rounded(sums.se("score")),
            "vaz_used": rounded(sums.mean("total") / available) if available else 0.0,
            "vaz_used_se": rounded(sums.se("total") / available) if available else 0.0,
            "p_opener": rounded(float(p_opener(model, options.on, options.mulligan))),
            "exact": list(EXACT_KEYS),
            "sampled": list(SAMPLED_KEYS),
        }
    )
    return doc


def _minus(b: Any, a: Any) -> object:
    if isinstance(a, list):
        return [_minus(y, x) for x, y in zip(a, b, strict=True)]
    if a is None or b is None:
        return None
    return b - a


def compare_to_json(
    comparison: Comparison, legal: tuple[bool | None, bool | None] = (None, None)
) -> dict[str, object]:
    """The `sim --vs` document: the difference (vs − deck) first, then both decks' documents."""
    a, b, d = comparison.a, comparison.b, comparison.difference
    options = a.options
    turns = []
    for t in range(options.turns):
        entry: dict[str, object] = {"turn": t + 1, "vaz": b.exact.vaz[t] - a.exact.vaz[t]}
        for key, name in (
            ("mean_vaz_spent", "spent"),
            ("p_all_vaz_spent", "all_spent"),
            ("mean_hand_size", "hand"),
            ("p_discard", "discard"),
        ):
            entry[key] = d.mean(name)[t]
            entry[key + "_se"] = d.se(name)[t]
        turns.append({k: rounded(v) for k, v in entry.items()})
    cards = []
    for i, (ka, kb) in enumerate(comparison.common):
        ea, eb = a.exact.cards[ka], b.exact.cards[kb]
        card = a.model.cards[ka]
        both_on_curve = _on_curve(a, ka)[0] is not None and _on_curve(b, kb)[0] is not None
        drawn = _minus(list(eb.p_drawn_by_turn), list(ea.p_drawn_by_turn))
        castable = _minus(list(eb.p_castable_by_turn), list(ea.p_castable_by_turn))
        entry = {
            "id": card.id,
            "name": card.name,
            "copies": b.model.cards[kb].copies - card.copies,
            "p_in_opening_hand": eb.p_in_opening_hand - ea.p_in_opening_hand,
            "p_in_opening_hand_se": 0.0,
            "p_drawn_by_turn": drawn,
            "p_drawn_by_turn_se": _zeros(drawn),
            "p_castable_by_turn": castable,
            "p_castable_by_turn_se": _zeros(castable),
            "p_cast_on_curve": d.mean("on_curve")[i] if both_on_curve else None,
            "p_cast_on_curve_se": d.se("on_curve")[i] if both_on_curve else None,
        }
        cards.append({k: rounded(v) for k, v in entry.items()})
    return {
        "version": 1,
        "deck": a.model.path,
        "vs": b.model.path,
        "games": options.games,
        "seed": options.seed,
        "on": options.on,
        "mulligan": options.mulligan,
        "difference": {
            "of": "vs - deck",
            "turns": turns,
            "cards": cards,
            "v_sync_turn": _minus(b.exact.v_sync_turn, a.exact.v_sync_turn),
            "mean_vaz_spent_total": rounded(d.mean("total")),
            "mean_vaz_spent_total_se": rounded(d.se("total")),
            "curve_score": rounded(d.mean("score")),
            "curve_score_se": rounded(d.se("score")),
            "vaz_used": rounded(_used_difference(comparison)[0]),
            "vaz_used_se": rounded(_used_difference(comparison)[1]),
        },
        "decks": [to_json(a, legal[0]), to_json(b, legal[1])],
    }


def _vaz_used(total: float, se: float, result: Result) -> tuple[float, float]:
    """VAZ used: the VAZ spent over the turns ÷ the VAZ available over them, and its error."""
    available = sum(result.exact.vaz)
    return (total / available, se / available) if available else (0.0, 0.0)


def _used_difference(comparison: Comparison) -> tuple[float, float | None]:
    """VAZ used (vs − deck); its error when both decks have the same VAZ available (the
    difference of the totals is then sampled on common random numbers)."""
    a, b, d = comparison.a, comparison.b, comparison.difference
    used_a = _vaz_used(a.sums.mean("total"), 0.0, a)[0]
    used_b = _vaz_used(b.sums.mean("total"), 0.0, b)[0]
    if a.exact.vaz == b.exact.vaz:
        return used_b - used_a, _vaz_used(0.0, d.se("total"), a)[1]
    return used_b - used_a, None


def dumps(document: Mapping[str, object]) -> str:
    """JSON text with a fixed layout: the same document gives the same bytes."""
    return json_dumps(document, allow_nan=False) + "\n"


# --------------------------------------------------------------------------- text

STYLE = {
    "red": "red", "blue": "blue", "green": "green", "purple": "magenta", "yellow": "yellow",
    "silver": "white", COLORLESS: "bright_black",
}  # fmt: skip
GLYPHS = "█▓▒░▞▚▗"


def _pct(p: float | None, digits: int = 1) -> str:
    return "–" if p is None else f"{100 * p:.{digits}f}%"


def _pm(se: float | None, scale: float = 1.0, digits: int = 2) -> str:
    """A sampled figure's 95% interval half-width (exact figures get none)."""
    return "" if se is None else f" ±{Z95 * se * scale:.{digits}f}"


def _colors_of(model: Model) -> list[str]:
    """The deck's spell colours, the hero's first, then rulebook order, colourless last."""
    present = {c.color for c in model.cards}
    order = [model.hero_color, *(c for c in COLORS if c != model.hero_color), COLORLESS]
    return [c for c in order if c in present]


def _say(message: Message, lang: str) -> str:
    return message.render(lang)


def _color(color: str, lang: str) -> str:
    return term("color", color, lang)


def _name(card: SpellCard, lang: str) -> str:
    """A spell's name in the language when the database has it."""
    name = card.name if lang == ENGLISH else CardName(card.name, card.names).in_language(lang)
    return safe(name)  # a card name is data: no terminal escape or bidi control reaches a table


_NEVER = msg("sim", "never")
_CARD = msg("sim", "Card")
_COUNT_OF_COLOR = msg("sim", "{n} {color}")


def _cost_curve(model: Model, lang: str = ENGLISH) -> Table:
    from rich.text import Text

    colors = _colors_of(model)
    glyph = {c: GLYPHS[i % len(GLYPHS)] for i, c in enumerate(colors)}
    table = _table(_say(msg("sim", "Cost curve by colour"), lang))
    table.add_column(_say(msg("sim", "Cost"), lang), justify="right")
    table.add_column(_say(msg("sim", "Cards"), lang), justify="right")
    table.add_column("", no_wrap=True)
    several = len(colors) > 1
    if several:
        table.add_column(_say(msg("sim", "By colour"), lang))
    costs = sorted({c.cost for c in model.cards})
    for cost in costs:
        bar = Text()
        parts = []
        for color in colors:
            n = sum(c.copies for c in model.cards if c.cost == cost and c.color == color)
            if n:
                bar.append(glyph[color] * n, style=STYLE[color])
                parts.append(_COUNT_OF_COLOR(n=n, color=Term("color", color)))
        total = sum(c.copies for c in model.cards if c.cost == cost)
        table.add_row(str(cost), str(total), bar, *([_joined(parts, lang)] if several else []))
    if several:
        table.caption = "  ".join(f"{glyph[c]} {_color(c, lang)}" for c in colors)
        table.caption_justify = "left"
    return table


def _joined(parts: Sequence[object], lang: str) -> str:
    """Items in a row with the language's separator ("、" in Japanese and Chinese)."""
    return str(value_text(Joined(tuple(parts)), lang))


def _bar(spent: float, vaz: int, scale: int) -> Text:
    from rich.text import Text

    full = round(spent * scale)
    bar = Text("█" * full, style="green")
    bar.append("░" * max(vaz * scale - full, 0), style="bright_black")
    return bar


def _table(title: TextType | None) -> Table:
    from rich import box
    from rich.table import Table

    return Table(
        title=title, box=box.SIMPLE_HEAD, title_justify="left", pad_edge=False, show_edge=False
    )


def _printed(console: Console) -> str:
    """What a console of `_console` printed, trimmed."""
    return _trimmed(printed(console))


def _trimmed(text: str) -> str:
    """Lines without the spaces rich pads tables with."""
    return "".join(line.rstrip() + "\n" for line in text.splitlines())


def _natural_width(table: Table) -> int:
    """The columns a table takes when nothing is squeezed."""
    from rich.console import Console

    return int(Console(file=io.StringIO(), width=10_000).measure(table).maximum)


def _fit(table: Table, width: int, keys: int = 1) -> list[Table]:
    """The table as it is when it fits the width; else split into tables of its first `keys`
    columns plus as many of the others as fit, so no cell is ever cut to `T…` or `±0.…`."""

    if _natural_width(table) <= width:
        return [table]
    rows = [[column._cells[i] for column in table.columns] for i in range(table.row_count)]

    def part(columns: list[int], title: TextType | None) -> Table:
        piece = _table(title)
        piece.caption, piece.caption_justify = table.caption, table.caption_justify
        for i in columns:
            column = table.columns[i]
            piece.add_column(
                column.header,
                justify=column.justify,
                no_wrap=column.no_wrap,
                overflow=column.overflow,
                max_width=column.max_width,
            )
        for row in rows:
            piece.add_row(*(row[i] for i in columns))
        return piece

    groups: list[list[int]] = []
    current = list(range(keys))
    for i in range(keys, len(table.columns)):
        if len(current) > keys and _natural_width(part([*current, i], None)) > width:
            groups.append(current)
            current = [*range(keys), i]
        else:
            current.append(i)
    groups.append(current)
    pieces: list[Table] = []
    for n, columns in enumerate(groups):
        piece = part(columns, table.title if n == 0 else None)
        if n < len(groups) - 1:
            piece.caption = None
        pieces.append(piece)
    return pieces


def _heading(message: Message, lang: str) -> str:
    """A glossary name as a title: its first letter upper case (English; a no-op in ja/zh)."""
    text = message.render(lang)
    return text[:1].upper() + text[1:]


def _turns_table(result: Result, lang: str = ENGLISH) -> tuple[Table, bool]:
    """VAZ per turn; the discard column only when some game discards (second: it was left out)."""
    ex, sums, model = result.exact, result.sums, result.model
    spent, spent_se = sums.mean("spent"), sums.se("spent")
    full, full_se = sums.mean("all_spent"), sums.se("all_spent")
    hand, hand_se = sums.mean("hand"), sums.se("hand")
    discard, discard_se = sums.mean("discard"), sums.se("discard")
    discards = any(discard[t] > 0 for t in range(result.options.turns))
    table = _table(_say(msg("sim", "VAZ per turn"), lang))
    headings = [
        msg("sim", "Turn"),
        named("vaz-available"),
        named("vaz-spent"),
        named("all-vaz-spent"),
        named("hand-size"),
    ]
    if discards:
        headings.append(msg("sim", "Discard"))
    for heading in headings:
        table.add_column(_heading(heading, lang), justify="right", no_wrap=True)
    for color in model.colors:
        heading = msg("sim", "≥1 {color}")(color=Term("color", color))
        table.add_column(_say(heading, lang), justify="right", no_wrap=True)
    for t in range(result.options.turns):
        row = [
            str(t + 1),
            str(ex.vaz[t]),
            f"{spent[t]:.2f}{_pm(spent_se[t], digits=3)}",
            f"{_pct(full[t])}{_pm(full_se[t], 100, 1)}",
            f"{hand[t]:.2f}{_pm(hand_se[t], digits=3)}",
        ]
        if discards:
            row.append(f"{_pct(discard[t])}{_pm(discard_se[t], 100, 1)}")
        for color in model.colors:
            odds = ex.p_color[t][color]
            row.append(_pct(odds[0] if odds else 0.0))
        table.add_row(*row)
    return table, not discards


def _cards_table(result: Result, lang: str = ENGLISH) -> Table:
    from rich.text import Text

    model, ex = result.model, result.exact
    colours = len(_colors_of(model)) > 1
    table = _table(_say(msg("sim", "Cards"), lang))
    table.add_column(_say(_CARD, lang), no_wrap=True, overflow="ellipsis", max_width=28)
    headings = [msg("sim", "Cost"), *([msg("sim", "Colour")] if colours else [])]
    headings += [msg("sim", "Copies")]
    for heading in headings:
        table.add_column(_say(heading, lang), justify="right", no_wrap=True)
    for key in ("opening-hand", "curve-turn", "cast-on-curve"):
        table.add_column(SYMBOLS[key], justify="right", no_wrap=True)
    never = _say(_NEVER, lang)
    for k, card in enumerate(model.cards):
        exact_card = ex.cards[k]
        on_curve, on_curve_se = _on_curve(result, k)
        curve = f"{exact_card.curve_turn}" if exact_card.curve_turn is not None else never
        table.add_row(
            Text(_name(card, lang), style=STYLE.get(card.color, "")),
            str(card.cost),
            *([_color(card.color, lang)] if colours else []),
            str(card.copies),
            _pct(exact_card.p_in_opening_hand),
            curve,
            f"{_pct(on_curve)}{_pm(on_curve_se, 100, 1)}" if on_curve is not None else "–",
        )
    return table


SYMBOLS = {"opening-hand": "P(open)", "curve-turn": "T0", "cast-on-curve": "P(cast)"}
_CARDS_NOTE = msg(
    "sim",
    "P(open): {open} (exact). T0: {curve} (exact). P(cast): {cast} (sampled): the goldfish "
    "game's player casts the spell on its curve turn. It is lower than {castable} in "
    "varz-deck tune, which counts each spell as if it were the only one to cast: here that "
    "turn's VAZ may go to another spell.",
)


def _castable_table(result: Result, width: int, lang: str = ENGLISH) -> Table:
    from rich.text import Text

    model, ex = result.model, result.exact
    shown = max(1, min(result.options.turns, (width - 24) // 6))
    title = (
        msg("sim", "P(castable by turn 1–{last})")(last=shown)
        if shown > 1
        else msg("sim", "P(castable by turn 1)")
    )
    table = _table(_say(title, lang))
    table.add_column(_say(_CARD, lang), no_wrap=True, overflow="ellipsis", max_width=22)
    turn = msg("sim", "T{turn}")
    for t in range(shown):
        table.add_column(_say(turn(turn=t + 1), lang), justify="right", no_wrap=True)
    for k, card in enumerate(model.cards):
        odds = ex.cards[k].p_castable_by_turn[:shown]
        name = Text(_name(card, lang), style=STYLE.get(card.color, ""))
        table.add_row(name, *(_pct(p, 0) for p in odds))
    return table


def _title(model: Model) -> str:
    return safe(f"{model.name} ({model.path})" if model.name else model.path)


def _on(options: Options) -> Message:
    return msg("sim", "on the play") if options.on == "play" else msg("sim", "on the draw")


def _mulligan(options: Options) -> Message:
    return (
        msg("sim", "mulligan auto") if options.mulligan == "auto" else msg("sim", "mulligan none")
    )


def _header(result: Result, lang: str = ENGLISH) -> list[str]:
    model, options, ex = result.model, result.options, result.exact
    hero = CardName(model.hero_name, model.hero_names, quote=False)
    facts: dict[str, object] = {
        "hero": hero,
        "color": Term("color", model.hero_color),
        "level": model.evolution_level,
        "spells": model.n_spells,
        "skills": model.n_skills,
    }
    if model.colors:
        vaz = Joined(
            tuple(
                _COUNT_OF_COLOR(n=model.skills_of(c), color=Term("color", c)) for c in model.colors
            )
        )
        deck = msg(
            "sim",
            "Hero {hero} ({color}, evolution level {level}) · {spells} spells · {skills} skills "
            "({vaz} VAZ)",
        )(**facts, vaz=vaz)
    else:
        deck = msg(
            "sim",
            "Hero {hero} ({color}, evolution level {level}) · {spells} spells · {skills} skills",
        )(**facts)
    run = msg("sim", "{games:,} games · seed {seed} · {turns} turns · {on} · {mulligan}")(
        games=options.games,
        seed=options.seed,
        turns=options.turns,
        on=_on(options),
        mulligan=_mulligan(options),
    )
    lines = [
        _say(msg("sim", "Goldfish: {title}")(title=_title(model)), lang),
        _say(deck, lang),
        _say(run, lang),
    ]
    if model.left_out:
        left_out = msg("sim", "{n} spell card(s) not found in the card database are left out")
        lines.append(_say(left_out(n=model.left_out), lang))
    if ex.deck_out_turn is not None:
        deck_out = msg("sim", "The spell deck runs out on turn {turn}: no more draws after it")
        lines.append(_say(deck_out(turn=ex.deck_out_turn), lang))
    return lines


FOOTER = msg(
    "sim",
    "Exact (closed forms, no ±): VAZ available, colour odds, P(open), T0, castable by turn T, "
    "V-Sync. Sampled: figures with ± (95% interval).",
)
_MONO = msg("sim", "Every spell is {color}: the curve has no colour breakdown.")
_NO_DISCARD = msg("sim", "No hand is ever over 6 cards at the end of a turn: nothing is discarded.")


def _lines(text: str, width: int) -> list[str]:
    from varz_deck.core.messages.wrap import wrap

    return wrap(text, width)


def render_text(
    result: Result, *, color: bool = False, width: int = 100, lang: str = ENGLISH
) -> str:
    """The text report: header, the answer, the cards, castable by turn, VAZ per turn, the curve,
    the footer (its words in a language)."""
    console = report_console(color, width)
    for line in _header(result, lang):
        console.print(line, markup=False)
    console.print()
    for sentence in answer(to_json(result)):
        for line in _lines(_say(sentence, lang), width):
            console.print(line, markup=False)
    console.print()
    for piece in _fit(_cards_table(result, lang), width):
        console.print(piece)
    note = _CARDS_NOTE(
        open=named("opening-hand"),
        curve=named("curve-turn"),
        cast=named("cast-on-curve"),
        castable=named("castable-on-curve"),
    )
    for line in _lines(_say(note, lang), width):
        console.print(line, style="bright_black", markup=False)
    console.print()
    for piece in _fit(_castable_table(result, width, lang), width):
        console.print(piece)
    console.print()
    turns, no_discard = _turns_table(result, lang)
    for piece in _fit(turns, width, 2):
        console.print(piece)
    if no_discard:
        console.print(_say(_NO_DISCARD, lang), style="bright_black", markup=False)
    console.print()
    colors = _colors_of(result.model)
    for piece in _fit(_cost_curve(result.model, lang), width):
        console.print(piece)
    if len(colors) == 1:
        mono = _MONO(color=Term("color", colors[0]))
        console.print(_say(mono, lang), style="bright_black", markup=False)
    console.print()
    for line in _lines(_say(FOOTER, lang), width) + _lines(_say(GLOSSARY_HINT, lang), width):
        console.print(line, style="bright_black", markup=False)
    return _printed(console)


def _diff_table(comparison: Comparison, lang: str = ENGLISH) -> Table:
    d, options = comparison.difference, comparison.a.options
    table = _table(_say(msg("sim", "Difference per turn (vs − deck, ± 95%)"), lang))
    for heading in (
        msg("sim", "Turn"),
        msg("sim", "Spent"),
        msg("sim", "All spent"),
        msg("sim", "Hand"),
        msg("sim", "Discard"),
    ):
        table.add_column(_say(heading, lang), justify="right", no_wrap=True)
    spent, spent_se = d.mean("spent"), d.se("spent")
    full, full_se = d.mean("all_spent"), d.se("all_spent")
    hand, hand_se = d.mean("hand"), d.se("hand")
    discard, discard_se = d.mean("discard"), d.se("discard")
    for t in range(options.turns):
        table.add_row(
            str(t + 1),
            f"{spent[t]:+.3f}{_pm(spent_se[t], digits=3)}",
            f"{100 * full[t]:+.2f}%{_pm(full_se[t], 100)}",
            f"{hand[t]:+.3f}{_pm(hand_se[t], digits=3)}",
            f"{100 * discard[t]:+.2f}%{_pm(discard_se[t], 100)}",
        )
    return table


def _shown(name: str, names: Names, lang: str) -> str:
    return safe(name if lang == ENGLISH else CardName(name, names).in_language(lang))


def _changes(comparison: Comparison, lang: str = ENGLISH) -> list[tuple[str, list[str]]]:
    """Every difference between the two decks, by place: the format, the hero, then the spells,
    skills and portals whose copies differ (`+2 Ember Imp`, `-1 Iron Fist`)."""
    a, b = comparison.a.model, comparison.b.model
    out: list[tuple[str, list[str]]] = []
    if (a.format or "standard") != (b.format or "standard"):
        out.append(("format", [f"{a.format or 'standard'} → {b.format or 'standard'}"]))
    if a.hero_id != b.hero_id:
        before = _shown(a.hero_name, a.hero_names, lang)
        after = _shown(b.hero_name, b.hero_names, lang)
        out.append(("hero", [f"{before} → {after}"]))
    for section in ("spells", "skills", "portals"):
        copies: dict[str, list[int]] = {}
        names: dict[str, str] = {}
        for side, model in enumerate((a, b)):
            entries = (
                [(c.name, c.copies, c.names) for c in model.cards]
                if section == "spells"
                else [(n, k, ns) for s, n, k, ns in model.others if s == section]
            )
            for name, count, other_names in entries:
                copies.setdefault(name, [0, 0])[side] += count
                names[name] = _shown(name, other_names, lang)
        lines = [
            f"{after - before:+d} {names[name]}"
            for name, (before, after) in sorted(copies.items())
            if after != before
        ]
        if lines:
            out.append((section, lines))
    return out


def _packed(head: str, items: Sequence[str], sep: str, width: int, hang: int = 4) -> list[str]:
    """Items after a heading, as many to a line as fit the width, never split inside an item
    (`-2 Golden Paladin` stays whole); the next lines hang `hang` columns in."""
    from rich.cells import cell_len

    rows: list[str] = []
    line, fresh = head, True
    for i, item in enumerate(items):
        piece = item + (sep if i < len(items) - 1 else "")
        if not fresh and cell_len(line + piece.rstrip()) > width:
            rows.append(line.rstrip())
            line = " " * hang
        line += piece
        fresh = False
    rows.append(line.rstrip())
    return rows


def _ljust(text: str, width: int) -> str:
    from rich.cells import cell_len

    return text + " " * max(width - cell_len(text), 0)


def render_compare_text(
    comparison: Comparison, *, color: bool = False, width: int = 100, lang: str = ENGLISH
) -> str:
    """Both decks' headers, what changed, and the differences with their intervals."""
    from rich.cells import cell_len

    console = report_console(color, width)
    d = comparison.difference
    labels = [_say(msg("sim", "deck"), lang), _say(msg("sim", "vs"), lang)]
    label_width = max(cell_len(label) for label in labels)
    deck_line = msg("sim", "{label}: {title} · VAZ used {used}")
    for label, result in zip(labels, (comparison.a, comparison.b), strict=True):
        used, used_se = _vaz_used(result.sums.mean("total"), result.sums.se("total"), result)
        shown = f"{_pct(used)}{_pm(used_se, 100, 1)}"
        line = deck_line(label=_ljust(label, label_width), title=_title(result.model), used=shown)
        console.print(_say(line, lang), markup=False)
    changes = _changes(comparison, lang)
    if not changes:
        listed = _say(msg("sim", "none"), lang)
        console.print(_say(msg("sim", "Changes: {changes}")(changes=listed), lang), markup=False)
    else:
        console.print(_say(msg("sim", "Changes (vs − deck):"), lang), markup=False)
        for place, lines in changes:
            where: Message | Term = (
                msg("sim", "format") if place == "format" else Term("section", place)
            )
            heading = _say(msg("sim", "{place}:")(place=where), lang)
            for row in _packed(f"  {heading} ", lines, _joined(["", ""], lang), console.width):
                console.print(row, markup=False)
    options = comparison.a.options
    run = msg("sim", "{games:,} games on common random numbers · seed {seed} · {on} · {mulligan}")
    console.print(
        _say(
            run(
                games=options.games, seed=options.seed, on=_on(options), mulligan=_mulligan(options)
            ),
            lang,
        ),
        markup=False,
    )
    change, change_se = _used_difference(comparison)
    totals = msg("sim", "VAZ used: {used} · VAZ spent over {turns} turns: {total}")(
        used=f"{100 * change:+.1f}%{_pm(change_se, 100, 1)}",
        turns=options.turns,
        total=f"{d.mean('total'):+.3f}{_pm(d.se('total'), digits=3)}",
    )
    console.print(_say(totals, lang), markup=False)
    console.print()
    for piece in _fit(_diff_table(comparison, lang), width):
        console.print(piece)
    console.print()
    for text in _lines(_say(GLOSSARY_HINT, lang), width):
        console.print(text, style="bright_black", markup=False)
    return _printed(console)


def cost_curve_rows(model: Model) -> Rows:
    """Copies per cost and colour, for plots: [(cost, [(colour, copies), ...]), ...]."""
    return curve_rows(((c.cost, c.color, c.copies) for c in model.cards), _colors_of(model))


def spent_rows(result: Result) -> Sequence[tuple[int, int, float, float]]:
    """(turn, VAZ available, mean spent, its standard error) per turn, for plots."""
    spent, se = result.sums.mean("spent"), result.sums.se("spent")
    return [(t + 1, result.exact.vaz[t], spent[t], se[t]) for t in range(result.options.turns)]
