"""A game declared without Python: `game.yaml` at the top of its card-data folder, read with the
strict loader, checked against its schema (core/files/game.schema.json) and for what a schema
cannot say (a card type that goes nowhere, a field no type has), then made a `DeclaredGame`.

docs/reference/game-yaml.md documents the file.
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from varz_deck.core.decks.declaration import (
    CardField,
    CardType,
    Copies,
    Declaration,
    Section,
    Size,
    Slot,
)
from varz_deck.core.files.schemas import schema_diagnostics
from varz_deck.core.files.source import CARD_FILE_LIMIT, LoadError, read_bytes
from varz_deck.core.files.strictyaml import Document, load
from varz_deck.core.game.declared import DeclaredGame
from varz_deck.core.messages.diagnostics import Diagnostic, diag
from varz_deck.core.messages.i18n import Message, Quoted, msg

GAME_FILE = "game.yaml"
GAME_SCHEMA = "game"
_CARD_KEYS = frozenset({"id", "name", "names", "type", "set"})  # a card file's own keys


class GameFileError(Exception):
    """A game.yaml that cannot be read or declares no usable game: the diagnostics say why."""

    def __init__(self, path: Path, diagnostics: list[Diagnostic]) -> None:
        super().__init__(str(path))
        self.path = path
        self.diagnostics = diagnostics


def game_file(root: Path) -> Path | None:
    """The game.yaml of a card-data folder, if it has one."""
    path = root / GAME_FILE
    try:
        return path if path.is_file() else None
    except (OSError, ValueError):  # a name no file can have
        return None


def declared_folder(deck: Path) -> Path | None:
    """The card-data folder of the game.yaml nearest above a deck file: one of the folders it is
    in, or a `card_data` folder in one of them; None when there is none."""
    try:
        start = Path(os.path.abspath(deck)).parent
    except (OSError, ValueError):
        return None
    for folder in (start, *start.parents):
        for root in (folder, folder / "card_data"):
            if game_file(root) is not None:
                return root
    return None


@dataclass(frozen=True)
class Taken:
    """What an installed game has that a game.yaml may not take: its key, the letter of its
    codes, the letters of its deck codes (None: it declares none)."""

    key: str
    origin: str  # the package it comes from, for the message
    prefix: str | None = None
    code_family: str | None = None


def load_game(
    path: Path,
    shown: str | None = None,
    data: bytes | None = None,
    taken: Sequence[Taken] = (),
) -> DeclaredGame:
    """The game a game.yaml declares (its card data: the folder it is in), from `data` when
    given (an editor's buffer) else the file; GameFileError if it cannot be read or declares no
    usable game, or takes the key, code prefix or deck-code letters of an installed game."""
    shown = shown or str(path)
    try:
        raw = read_bytes(path, CARD_FILE_LIMIT) if data is None else data
        doc = load(raw.decode("utf-8"))
    except LoadError as err:
        raise GameFileError(path, [diag(err.code, err.message, err.mark, file=shown)]) from None
    except UnicodeDecodeError:
        problem = diag("F001", msg("F001", "not UTF-8 text; save the file as UTF-8"), file=shown)
        raise GameFileError(path, [problem]) from None
    what = msg("schema", "a game declaration")
    problems = list(schema_diagnostics(GAME_SCHEMA, doc.data, doc, "C001", file=shown, what=what))
    if not problems:
        problems = list(_meaning(doc, shown))
    if not problems:
        problems = list(_clashes(doc, shown, taken))
    if problems:
        raise GameFileError(path, problems)
    return DeclaredGame(
        declaration(doc.data), path.parent, colours=tuple(doc.data.get("colours", ()))
    )


def _meaning(doc: Document, shown: str) -> Iterator[Diagnostic]:
    """What the schema cannot say: every key unique, every card type going to a slot or a
    section, every field a type names declared, a size's minimum not above its maximum."""
    data = doc.data
    slots = [data["lead"]] if "lead" in data else []
    slots += list(data.get("slots", ()))
    places = [s["key"] for s in slots] + [s["key"] for s in data["sections"]]
    fields = data.get("fields", {})

    def wrong(path: tuple[Any, ...], said: Message, **values: object) -> Diagnostic:
        return diag("C001", said(**values), doc.mark(path), file=shown)

    seen: set[str] = set()
    for key in places:
        if key in seen or key in ("name", "format", "player", "event"):
            yield wrong(
                (),
                msg("C001", "{key} names two slots or sections, or a deck file's own key"),
                key=Quoted(key),
            )
        seen.add(key)
    for type_key, kind in data["types"].items():
        if kind["goes"] not in places:
            yield wrong(("types", type_key, "goes"),
                        msg("C001", "card type {type} goes to {goes}, which is no slot or section"),
                        type=Quoted(type_key), goes=Quoted(kind["goes"]))  # fmt: skip
        for name in (*kind.get("needs", ()), *kind.get("may", ())):
            if name not in fields:
                yield wrong(("types", type_key), msg("C001", "card type {type} names the field {field}, which is not declared"), type=Quoted(type_key), field=Quoted(name))  # fmt: skip
    for name, spec in fields.items():
        if name in _CARD_KEYS:
            yield wrong(("fields", name), msg("C001", "the field {field} is a key every card has; give the field another name"), field=Quoted(name))  # fmt: skip
        if spec["kind"] in ("word", "words") and not spec.get("words"):
            yield wrong(("fields", name), msg("C001", "the field {field} holds words but lists none; list them in words"), field=Quoted(name))  # fmt: skip
        if spec.get("min", 0) > spec.get("max", spec.get("min", 0)):
            yield wrong(("fields", name), msg("C001", "the field {field} has a min above its max"), field=Quoted(name))  # fmt: skip
    for name in data.get("colours", ()):
        if name not in fields:
            yield wrong(
                ("colours",),
                msg("C001", "colours names the field {field}, which is not declared"),
                field=Quoted(name),
            )
    for i, section in enumerate(data["sections"]):
        size = section["size"]
        if ("exact" in size and len(size) > 1) or size.get("min", 0) > size.get("max", 10**9):
            yield wrong(
                ("sections", i, "size"),
                msg("C001", "a size is exact, or a min and max with min <= max"),
            )


def _clashes(doc: Document, shown: str, taken: Sequence[Taken]) -> Iterator[Diagnostic]:
    """C001 for a key, code prefix or deck-code letters an installed game has."""
    said = {
        "key": msg("C001", "the key {value} is the installed game {game}'s ({origin}); choose another key"),
        "prefix": msg("C001", "the code prefix {value} is the installed game {game}'s ({origin}); choose another capital letter"),
        "code_family": msg("C001", "the deck-code letters {value} are the installed game {game}'s ({origin}); choose other letters"),
    }  # fmt: skip
    for other in taken:
        for name, value in (
            ("key", other.key),
            ("prefix", other.prefix),
            ("code_family", other.code_family),
        ):
            if value is not None and doc.data[name] == value:
                wording = said[name](value=Quoted(value), game=other.key, origin=other.origin)
                yield diag("C001", wording, doc.mark((name,)), file=shown)


def _names(value: Mapping[str, str]) -> dict[str, str]:
    return dict(value)


def _slot(data: Mapping[str, Any], lead: bool) -> Slot:
    return Slot(
        data["key"],
        _names(data["names"]),
        required=data.get("required", lead),
        example=data.get("example", ""),
    )


def _copies(value: Any) -> tuple[Copies, ...]:
    if value is None:
        return ()
    if isinstance(value, int):
        return (Copies(value),)
    out = []
    for limit in value:
        where = {
            k: tuple(v) if isinstance(v, list) else (v,) for k, v in limit.get("where", {}).items()
        }
        out.append(Copies(limit["limit"], where))
    return tuple(out)


def declaration(data: Mapping[str, Any]) -> Declaration:
    """The declaration a valid game.yaml document makes."""
    fields = {
        name: CardField(
            spec["kind"],
            tuple(spec.get("words", ())),
            minimum=spec.get("min"),
            maximum=spec.get("max"),
            most=spec.get("most"),
            common=spec.get("common", False),
            printing=spec.get("printing", False),
        )
        for name, spec in data.get("fields", {}).items()
    }
    types = {
        key: CardType(kind["goes"], tuple(kind.get("needs", ())), tuple(kind.get("may", ())))
        for key, kind in data["types"].items()
    }
    slots = [_slot(data["lead"], True)] if "lead" in data else []
    slots += [_slot(s, False) for s in data.get("slots", ())]
    sections = tuple(
        Section(
            s["key"],
            _names(s["names"]),
            Size(s["size"].get("exact"), s["size"].get("min"), s["size"].get("max")),
            copies=_copies(s.get("copies")),
            headers=tuple(h.lower() for h in s.get("headers", ())),
            about=s.get("about", ""),
        )
        for s in data["sections"]
    )
    return Declaration(
        key=data["key"],
        name=data["name"],
        prefix=data["prefix"],
        code_family=data["code_family"],
        types=types,
        sections=sections,
        slots=tuple(slots),
        fields=fields,
        identity=data.get("identity", "name"),
        formats=dict(data.get("formats") or {"standard": "Standard"}),
        rulebook=data.get("rulebook", "deck building"),
        list_example=data.get("list_example", ""),
    )
