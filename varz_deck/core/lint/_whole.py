"""The whole-database part of `cards lint` over every card file's result, in file order.

Each check across files runs on the entries of the groups that can have a problem only, chosen
from the entries' summaries (so a file read from the lint store decodes only the entries a
check is shown): every entry of a chosen group is passed, in file order, so a check's own "first
seen" is the one of the whole database.

- C002 (ids used twice): the entries of each id given more than once;
- C003, C103 (printings): the first printing of each id (`unique_cards`), of each identity that
  more than one id has;
- C101 (shared names): the first printing of each id, of each normalised name that belongs to
  cards of two names.

A check of ACROSS without a chooser here is shown every entry.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import TYPE_CHECKING

from varz_deck.core.diagnostics import Diagnostic
from varz_deck.core.lint import cards
from varz_deck.core.lint._base import Cards, Entry, FormatsFile
from varz_deck.core.lint._file import FileLint, Summary

if TYPE_CHECKING:
    from varz_deck.core.game import Game
    from varz_deck.core.strictyaml import Document

Placed = tuple[FileLint, int, Summary]  # a file's result, the entry's position in it, its summary


def placed(results: list[FileLint]) -> list[Placed]:
    return [(f, i, s) for f in results for i, s in enumerate(f.summaries)]


def duplicate_ids(flat: list[Placed], unique: list[Placed]) -> list[Placed]:
    count = Counter(s[0] for _, _, s in flat)
    twice = {key for key, n in count.items() if n > 1 and key is not None}
    return [p for p in flat if p[2][0] in twice] if twice else []


def first_printings(flat: list[Placed]) -> list[Placed]:
    """The entries `unique_cards` keeps: a card, the first of its id."""
    seen: set[str] = set()
    out = []
    for p in flat:
        card_id = p[2][2]
        if card_id is not None and card_id not in seen:
            seen.add(card_id)
            out.append(p)
    return out


def printings(flat: list[Placed], unique: list[Placed]) -> list[Placed]:
    count = Counter(s[3] for _, _, s in unique)
    shared = {key for key, n in count.items() if n > 1}
    return [p for p in unique if p[2][3] in shared] if shared else []


def shared_names(flat: list[Placed], unique: list[Placed]) -> list[Placed]:
    owner: dict[str, str] = {}
    shared: set[str] = set()
    for _, _, s in unique:
        name = s[4]
        for key in s[6]:
            if owner.setdefault(key, name) != name:
                shared.add(key)
    return [p for p in unique if not shared.isdisjoint(p[2][6])] if shared else []


Chooser = Callable[[list[Placed], list[Placed]], list[Placed]]
CHOOSERS: dict[str, Chooser] = {
    "C002": duplicate_ids,
    "C003": printings,
    "C101": shared_names,
    "C103": printings,
}


def across(flat: list[Placed], game: Game) -> list[Diagnostic]:
    """What `cards.ACROSS.run` finds over every entry, in its order."""
    unique = first_printings(flat)
    chosen: dict[Chooser | None, list[Entry]] = {}
    found: list[Diagnostic] = []
    for code in sorted(cards.ACROSS.rules):
        rule = cards.ACROSS.rules[code]
        chooser = CHOOSERS.get(code)
        if chooser not in chosen:
            group = chooser(flat, unique) if chooser is not None else flat
            chosen[chooser] = [f.entry(i) for f, i, _ in group]
        view = Cards(chosen[chooser], game)
        if rule.applies(view):
            found.extend(rule.check(view))
    return found


def formats_view(doc: Document, shown: str, flat: list[Placed]) -> FormatsFile:
    known_sets: set[str] = set()
    ids: dict[str, str | None] = {}
    sets_of_name: dict[str, set[str]] = {}
    for _, _, s in flat:
        entry_id, set_code, card_id, _, name, card_set, _ = s
        if set_code is not None:
            known_sets.add(set_code)
        elif entry_id is not None:
            known_sets.add(entry_id.split("-", 1)[0])
        if entry_id is not None and entry_id not in ids:
            ids[entry_id] = name
        if card_id is not None:
            sets_of_name.setdefault(name, set()).add(card_set)
    return FormatsFile(doc, shown, known_sets, ids, sets_of_name)
