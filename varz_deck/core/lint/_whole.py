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
from itertools import compress, repeat
from operator import is_, itemgetter, not_
from typing import TYPE_CHECKING

from varz_deck.core.lint import cards, formats
from varz_deck.core.lint._base import Cards, Entry, FormatsFile
from varz_deck.core.lint._file import FileLint, Summary
from varz_deck.core.messages.diagnostics import Diagnostic

if TYPE_CHECKING:
    from varz_deck.core.files.strictyaml import Document
    from varz_deck.core.lint._base import LintedGame

Placed = tuple[FileLint, int, Summary]  # a file's result, the entry's position in it, its summary

# The choosers count and pick with the built-ins (map, Counter, compress) where they are faster
# than a loop over the entries (measured at 100,000 entries).
_ID, _SET_CODE, _CARD, _IDENTITY, _NAME, _SET, _KEYS = (itemgetter(i) for i in range(7))


def placed(results: list[FileLint]) -> list[Placed]:
    return [(f, i, s) for f in results for i, s in enumerate(f.summaries)]


def _summaries(group: list[Placed]) -> list[Summary]:
    return list(map(itemgetter(2), group))


def _given_twice(values: list[object]) -> set[object]:
    """The values (not None) given more than once."""
    if len(set(values)) == len(values):
        return set()
    twice = {value for value, n in Counter(values).items() if n > 1}
    twice.discard(None)
    return twice


def duplicate_ids(flat: list[Placed], unique: list[Placed]) -> list[Placed]:
    twice = _given_twice(list(map(_ID, _summaries(flat))))
    return list(compress(flat, map(twice.__contains__, map(_ID, _summaries(flat)))))


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
    identities = list(map(_IDENTITY, _summaries(unique)))
    shared = _given_twice(identities)
    return list(compress(unique, map(shared.__contains__, identities)))


def shared_names(flat: list[Placed], unique: list[Placed]) -> list[Placed]:
    owner: dict[str, str] = {}
    shared: set[str] = set()
    for _, _, s in unique:
        name = s[4]
        for key in s[6]:
            if owner.setdefault(key, name) != name:
                shared.add(key)
    if not shared:
        return []
    return list(compress(unique, map(not_, map(shared.isdisjoint, map(_KEYS, _summaries(unique))))))


Chooser = Callable[[list[Placed], list[Placed]], list[Placed]]
CHOOSERS: dict[str, Chooser] = {
    "C002": duplicate_ids,
    "C003": printings,
    "C101": shared_names,
    "C103": printings,
}


def across(flat: list[Placed], game: LintedGame) -> list[Diagnostic]:
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
    """formats.yaml with what its checks need of the entries: the set codes, the first card of
    each id (its name and identity), and the sets of the names it bans or restricts."""
    summaries = _summaries(flat)
    ids = list(map(_ID, summaries))
    set_codes = list(map(_SET_CODE, summaries))
    known_sets = set(set_codes)
    known_sets.discard(None)
    for entry_id in compress(ids, map(is_, set_codes, repeat(None))):
        if entry_id is not None:
            known_sets.add(entry_id.split("-", 1)[0])
    names = list(map(_NAME, summaries))
    card_of: dict[str, str | None] = {}  # in the order ids first come
    identity: dict[str, str] = {}  # each id -> the card its first entry is a printing of
    for entry_id, name, card in zip(ids, names, map(_IDENTITY, summaries), strict=True):
        if entry_id not in card_of:
            card_of[entry_id] = name
            if card is not None:
                identity[entry_id] = card
    card_of.pop(None, None)  # type: ignore[call-overload]
    identity.pop(None, None)  # type: ignore[call-overload]
    named = {
        card_of.get(card_id)
        for key, spec in formats.specs(doc)
        for _, card_id, _ in formats.named(doc, key, spec)
    }
    sets_of_name: dict[str, set[str]] = {}
    wanted = zip(names, map(_SET, summaries), map(_CARD, summaries), strict=True)
    for name, card_set, card_id in compress(wanted, map(named.__contains__, names)):
        if card_id is not None:
            sets_of_name.setdefault(name, set()).add(card_set)
    return FormatsFile(doc, shown, known_sets, card_of, sets_of_name, identity)
