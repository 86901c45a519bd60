"""Game-independent card pieces: the reference form, formats, and the look-up index a deck's
references resolve against. Each game's card class is in its own package (its cards.py)."""

from __future__ import annotations

import builtins
import datetime as dt
import unicodedata
from collections.abc import Callable, Collection, Iterable, Mapping
from dataclasses import dataclass, field, fields, replace
from typing import Any, ClassVar, Generic, Protocol, TypeVar

from varz_deck.core.cards.suggest import CloseNames


def normalize(text: str) -> str:
    """The form references are matched in: NFKC, case-folded, runs of spaces made one."""
    if text.isascii():  # the same result, twice as fast: NFKC keeps ASCII, casefold is lower
        return " ".join(text.lower().split())
    return " ".join(unicodedata.normalize("NFKC", text).casefold().split())


CardT = TypeVar("CardT", bound="CardRecord")
# sets (None: any), types (None: any) -> the keys of the cards with such a printing
KeysIn = Callable[[Collection[str] | None, Collection[str] | None], list[str]]


def _add(index: dict[str, set[str]], key: str, name: str) -> None:
    names = index.get(key)
    if names is None:
        index[key] = {name}
    else:
        names.add(name)


class CardRecord:
    """What every game's card record shares: its game fields, names by language, cache JSON.

    A game's card is a frozen dataclass deriving from this, naming its `GAME_FIELDS` (what makes
    two printings the same card) and the `TUPLE_FIELDS` that JSON turns into lists.
    """

    GAME_FIELDS: ClassVar[tuple[str, ...]] = ()
    TUPLE_FIELDS: ClassVar[tuple[str, ...]] = ()
    id: str
    name: str
    set: str
    type: str  # one of the game's card types (its declaration's `types`)
    names: Mapping[str, str]
    file: str  # the card file it was read from, and its line there
    line: int

    def game_fields(self) -> dict[str, object]:
        return {name: getattr(self, name) for name in self.GAME_FIELDS}

    def name_in(self, lang: str | None) -> str:
        """The card's name in a language, falling back to the canonical English one."""
        return self.names.get(lang, self.name) if lang else self.name

    def to_json(self) -> dict[str, object]:
        out: dict[str, object] = {}
        for f in fields(self):  # type: ignore[arg-type]
            value = getattr(self, f.name)
            out[f.name] = dict(value) if isinstance(value, Mapping) else value
        return out

    @classmethod
    def from_json(cls: builtins.type[CardT], data: Mapping[str, Any]) -> CardT:
        values = dict(data)
        for name in cls.TUPLE_FIELDS:
            values[name] = tuple(values.get(name) or ())
        return cls(**values)


@dataclass(frozen=True)
class CardFields(CardRecord):
    """The fields every card record has, as a frozen dataclass in the order of `record_fields`: a
    game's card class derives from it and adds its own fields, each with a default."""

    id: str
    name: str
    type: str
    set: str
    file: str = ""
    line: int = 0
    names: Mapping[str, str] = field(default_factory=dict)


def record_fields(
    raw: Mapping[str, Any], set_code: str | None, file: str, line: int
) -> dict[str, Any]:
    """The fields every card record has, from one mapping of a card file: its id, name and type,
    its set (the set code given, else the id's prefix), where it was read and its names."""
    card_id = raw["id"]
    return {
        "id": card_id,
        "name": raw["name"],
        "type": raw["type"],
        "set": set_code if set_code is not None else card_id.split("-", 1)[0],
        "file": file,
        "line": line,
        "names": dict(raw.get("names") or {}),
    }


def _dates(data: Mapping[str, str] | None) -> dict[str, dt.date]:
    return {k: dt.date.fromisoformat(v) for k, v in (data or {}).items()}


def _card_of(key: Callable[[str], str | None] | None) -> Callable[[str], str]:
    """The card an id names (the id itself when `key` is None or knows no card), looked up once."""
    found: dict[str, str] = {}

    def card(card_id: str) -> str:
        named = found.get(card_id)
        if named is None:
            named = found[card_id] = (key(card_id) if key is not None else None) or card_id
        return named

    return card


def _by_date(changes: Iterable[FormatChange]) -> list[tuple[dt.date, list[FormatChange]]]:
    """The changes grouped by date, in date order."""
    out: dict[dt.date, list[FormatChange]] = {}
    for change in sorted(changes, key=lambda c: c.date):
        out.setdefault(change.date, []).append(change)
    return list(out.items())


def _allowed_by_all(given: set[tuple[str, ...]]) -> tuple[str, ...]:
    """The sets every one of several set lists of one date allows, in code order (`cards lint`
    reports such a date: C013)."""
    common = set.intersection(*(set(sets) for sets in given))
    return tuple(sorted(common))


@dataclass(frozen=True)
class FormatChange:
    """One dated change of a format (docs/guides/card-data.md), in force from its date on (inclusive)."""

    date: dt.date
    banned: tuple[str, ...] = ()
    unbanned: tuple[str, ...] = ()
    restricted: Mapping[str, int] = field(default_factory=dict)
    unrestricted: tuple[str, ...] = ()
    sets: tuple[str, ...] | None = None  # the legal sets from this date on (replaces the list)

    def to_json(self) -> dict[str, object]:
        return {
            "date": self.date.isoformat(),
            "banned": list(self.banned),
            "unbanned": list(self.unbanned),
            "restricted": dict(self.restricted),
            "unrestricted": list(self.unrestricted),
            "sets": list(self.sets) if self.sets is not None else None,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> FormatChange:
        sets = data.get("sets")
        return cls(
            date=dt.date.fromisoformat(data["date"]),
            banned=tuple(data.get("banned", ())),
            unbanned=tuple(data.get("unbanned", ())),
            restricted=dict(data.get("restricted", {})),
            unrestricted=tuple(data.get("unrestricted", ())),
            sets=tuple(sets) if sets is not None else None,
        )


@dataclass(frozen=True)
class Format:
    """A constructed format: which sets, bans and restrictions; `extra` holds the game's own
    format fields (`Game.format_fields`), which only the game reads.

    `changes` are its dated changes and `released` each set's release day (docs/guides/card-data.md); `on(date)`
    is the format in force on a day, with `banned_on`/`restricted_on` the day of the change that
    banned or restricted a card (a card the undated lists name has none) and `written` the
    format as formats.yaml writes it.
    """

    key: str
    name: str
    sets: tuple[str, ...] | None = None
    banned: tuple[str, ...] = ()
    restricted: Mapping[str, int] = field(default_factory=dict)
    extra: Mapping[str, object] = field(default_factory=dict)
    changes: tuple[FormatChange, ...] = ()
    released: Mapping[str, dt.date] = field(default_factory=dict)
    banned_on: Mapping[str, dt.date] = field(default_factory=dict)
    restricted_on: Mapping[str, dt.date] = field(default_factory=dict)
    written: Format | None = field(default=None, compare=False, repr=False)

    def on(self, day: dt.date, key: Callable[[str], str | None] | None = None) -> Format:
        """The format in force on `day`: every change dated on or before it applied in date
        order, the changes of one date together whatever order they are written in (lifted bans,
        then bans, then lifted restrictions, then restrictions: a card's lowest limit of the date
        wins; the sets several changes of the date all allow). With `key` (a card id -> the card
        it names, None for no card) an id stands for every printing of its card, so an unban
        lifts the card's ban whichever printing's id banned it (docs/guides/card-data.md, "Ban
        lists and release dates"). A format already in force on a day starts again from the one
        written."""
        base = self.written or self
        if not base.changes:
            return self
        card = _card_of(key)
        sets = base.sets
        banned = list(base.banned)
        restricted = dict(base.restricted)
        banned_on = dict(base.banned_on)
        restricted_on = dict(base.restricted_on)
        for date, changes in _by_date(base.changes):
            if date > day:
                break
            lifted = {card(i) for change in changes for i in change.unbanned}
            for card_id in [i for i in banned if card(i) in lifted]:
                banned.remove(card_id)
                banned_on.pop(card_id, None)
            for card_id in sorted({i for change in changes for i in change.banned}):
                if all(card(i) != card(card_id) for i in banned):
                    banned.append(card_id)
                    banned_on[card_id] = date
            limits: dict[str, tuple[int, str]] = {}
            for change in changes:
                for card_id, limit in change.restricted.items():
                    named = card(card_id)
                    limits[named] = min(limits.get(named, (limit, card_id)), (limit, card_id))
            lifted = {card(i) for change in changes for i in change.unrestricted} | set(limits)
            for card_id in [i for i in restricted if card(i) in lifted]:
                del restricted[card_id]
                restricted_on.pop(card_id, None)
            for limit, card_id in limits.values():
                restricted[card_id] = limit
                restricted_on[card_id] = date
            given = {change.sets for change in changes if change.sets is not None}
            if given:
                sets = given.pop() if len(given) == 1 else _allowed_by_all(given)
        return replace(
            base,
            sets=sets,
            banned=tuple(banned),
            restricted=restricted,
            banned_on=banned_on,
            restricted_on=restricted_on,
            written=base,
        )

    def to_json(self) -> dict[str, object]:
        return {
            "key": self.key,
            "name": self.name,
            "sets": list(self.sets) if self.sets is not None else None,
            "banned": list(self.banned),
            "restricted": dict(self.restricted),
            "extra": dict(self.extra),
            "changes": [change.to_json() for change in self.changes],
            "released": {k: v.isoformat() for k, v in self.released.items()},
            "banned_on": {k: v.isoformat() for k, v in self.banned_on.items()},
            "restricted_on": {k: v.isoformat() for k, v in self.restricted_on.items()},
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Format:
        sets = data.get("sets")
        return cls(
            key=data["key"],
            name=data["name"],
            sets=tuple(sets) if sets is not None else None,
            banned=tuple(data.get("banned", ())),
            restricted=dict(data.get("restricted", {})),
            extra=dict(data.get("extra", {})),
            changes=tuple(FormatChange.from_json(c) for c in data.get("changes", ())),
            released=_dates(data.get("released")),
            banned_on=_dates(data.get("banned_on")),
            restricted_on=_dates(data.get("restricted_on")),
        )


class CardDatabase(Generic[CardT]):
    """Cards by id, printings by name, and every name in every language for look-ups; `CardT` is
    the game's card class."""

    game = ""  # the key of the game (varz_deck.games) the cards are for: each game's class names it
    # The card index (core/cards/cardindex.py) restores `cards`, `printings`, `index` and `id_index()`
    # and answers the core's look-ups from them. A game's class whose own look-ups read anything
    # else names those attributes here: each a dict of str -> str its __init__ builds, stored in
    # the index and read back lazily. None: the class keeps the core's look-ups (else not indexed).
    INDEX_TABLES: ClassVar[tuple[str, ...] | None] = None
    content_key: str | None = None  # the cache's content key of the files it was read from

    def __init__(self, cards: Iterable[CardT], formats: Mapping[str, Format] | None = None) -> None:
        self.cards: dict[str, CardT] = {}
        self.printings: dict[str, list[CardT]] = {}
        for card in cards:
            self.cards.setdefault(card.id, card)
            self.printings.setdefault(card.name, []).append(card)
        self.formats: dict[str, Format] = dict(formats or {})
        self._index: dict[str, set[str]] | None = None
        self._names: CloseNames | None = None
        self._shown: dict[str, str] | None = None  # normalized name -> as written (no ids)
        self._ids: dict[str, CardT] | None = None  # normalized id -> its card
        self._prefetch: Callable[[Iterable[str]], None] | None = None
        self._keys_in: KeysIn | None = None  # the card index's answer to `keys_in`
        self._fingerprint: str | None = None

    def fingerprint(self) -> str:
        """What an answer from this database depends on besides the deck: a sha256 of
        varz-deck's version, the game, every printing in order (without its file and line) and
        the formats. Worked out once; the card index stores it (core/cards/cardindex.py)."""
        if self._fingerprint is None:
            import hashlib
            import json

            from varz_deck import __version__

            # The bytes of json.dumps({"cards": [...], "formats": ..., "game": ..., "version": ...},
            # sort_keys=True, ensure_ascii=False), a card at a time through the C encoder.
            encode = json.JSONEncoder(sort_keys=True, ensure_ascii=False, default=str).encode
            digest = hashlib.sha256(b'{"cards": [')
            first = True
            for printings in self.printings.values():
                for card in printings:
                    data = {k: v for k, v in card.to_json().items() if k not in ("file", "line")}
                    digest.update((encode(data) if first else ", " + encode(data)).encode())
                    first = False
            formats = {key: f.to_json() for key, f in self.formats.items()}
            tail = f'], "formats": {encode(formats)}, "game": {encode(self.game)}, '
            digest.update(f'{tail}"version": {encode(__version__)}}}'.encode())
            self._fingerprint = digest.hexdigest()
        return self._fingerprint

    def prefetch(self, refs: Iterable[str]) -> None:
        """Make ready what looking up these references reads (a deck's, before it resolves):
        nothing for a database in memory; an indexed one reads its rows in batched queries."""
        if self._prefetch is not None:
            self._prefetch(refs)

    def keys_in(
        self, sets: Collection[str] | None, types: Collection[str] | None = None
    ) -> list[str]:
        """Every card (its key in `printings`) with a printing in one of `sets` (None: any set)
        whose type is one of `types` (None: any), in the database's order, its printings made
        ready. A database opened from the card index answers from the index, reading only these
        cards: what `complete` and `tune` add is chosen among them, not among every card."""
        if self._keys_in is not None:
            return self._keys_in(sets, types)
        wanted_sets = None if sets is None else set(sets)
        wanted_types = None if types is None else set(types)
        return [
            key
            for key, printings in self.printings.items()
            if any(
                (wanted_sets is None or card.set in wanted_sets)
                and (wanted_types is None or getattr(card, "type", None) in wanted_types)
                for card in printings
            )
        ]

    @property
    def index(self) -> dict[str, set[str]]:
        """Normalized id or name (any language) -> the canonical names it can mean."""
        if self._index is None:
            index: dict[str, set[str]] = {}
            shown: dict[str, str] = {}
            for card in self.cards.values():
                name = card.name
                _add(index, normalize(card.id), name)
                for text in (name, *card.names.values()):
                    key = normalize(text)
                    _add(index, key, name)
                    shown.setdefault(key, text)
            self._index = index
            self._shown = shown
        return self._index

    def by_id(self, ref: str) -> CardT | None:
        """The printing an id names, matched as a name is (case, width, spaces: docs/guides/player.md)."""
        found = self.cards.get(ref) or self.cards.get(ref.strip().upper())
        if found is not None:
            return found
        return self.id_index().get(normalize(ref))

    def id_index(self) -> dict[str, CardT]:
        """Normalized id (each of `id_keys`) -> the first printing it names."""
        if self._ids is None:
            self._ids = {}
            for card in self.cards.values():
                for key in self.id_keys(card):
                    self._ids.setdefault(normalize(key), card)
        return self._ids

    def id_keys(self, card: CardT) -> tuple[str, ...]:
        """What names this one printing: its id."""
        return (card.id,)

    def card_key(self, card: CardT) -> str:
        """What every printing of one card shares: its name."""
        return str(card.name)

    def canonical(self, name: str) -> CardT:
        """The printing that stands for a card name (the first one in the database)."""
        return self.printings[name][0]

    def lookup(self, ref: str) -> list[CardT]:
        """Every card a reference can mean: one printing for an id, else one per card name."""
        by_id = self.by_id(ref)
        if by_id is not None:
            return [by_id]
        names = self.index.get(normalize(ref))
        return [self.canonical(name) for name in sorted(names)] if names else []

    def suggestions(self, ref: str, limit: int = 3) -> list[str]:
        """Up to `limit` close names, for "did you mean" (varz_deck/core/cards/suggest.py)."""
        if self._names is None:
            from varz_deck.core.cards.suggest import NameIndex

            self._names = NameIndex(self.shown_names())
        return self._names.close(normalize(ref), limit)

    def shown_names(self) -> dict[str, str]:
        """Every name (any language), normalized -> as written: what "did you mean" searches."""
        self.index  # noqa: B018 - builds the names as shown, normalized once for both
        choices = self._shown
        if choices is None:  # a database class with its own index
            choices = {}
            for card in self.cards.values():
                for shown in (card.name, *card.names.values()):
                    choices.setdefault(normalize(shown), shown)
        return choices


class CardModel(Protocol[CardT]):
    """What the card rooms (reading card files, the cache and its index, lint) need of a game:
    its key, its card schema and format fields, and how its cards and database are made. The
    `Game` protocol (core/game.py) extends it."""

    key: str
    card_schema: str  # a name the schema registry knows (core/files/resources.py)
    # the game's own fields of a format in formats.yaml: name -> JSON Schema; kept in Format.extra
    format_fields: Mapping[str, Mapping[str, object]]

    def make_card(
        self, raw: Mapping[str, object], set_code: str | None, file: str, line: int
    ) -> CardT:
        """A card from one mapping of a card file the game's schema accepted."""
        ...

    def card_from_json(self, data: Mapping[str, object]) -> CardT:
        """A card from the cache (the inverse of the card's `to_json`)."""
        ...

    def make_database(
        self, cards: list[CardT], formats: Mapping[str, Format] | None
    ) -> CardDatabase[CardT]:
        """The look-up index a deck's references resolve against (built-in formats when None)."""
        ...

    def identity(self, card: CardT) -> str:
        """What copy limits and printings count by (the card's name, or its id, as the game says)."""
        ...

    def game_fields(self, card: CardT) -> dict[str, object]:
        """The fields that make two printings of one card the same card (C003)."""
        ...
