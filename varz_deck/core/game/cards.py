"""A declared game's cards: one record class for every declared game, its database, and the JSON
Schemas of its card files and deck files, made from the declaration."""

from __future__ import annotations

import datetime
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar, Protocol

from varz_deck.core.cards.model import (
    CardDatabase,
    CardFields,
    Format,
    normalize,
    record_fields,
)
from varz_deck.core.decks.check import DeckReport
from varz_deck.core.decks.declaration import CardField, Declaration
from varz_deck.core.files.source import DeckSource

_ID = "^[A-Z0-9]+-[A-Z0-9]+$"
_SPACE = "\\t-\\r\\x1c- \\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000"
_VALUE = [{"type": "string"}, {"type": "number"}, {"type": "boolean"}]


class Declared(Protocol):
    """A declared game, as its look-up, `stats` and sheet read it (core/game/declared.py)."""

    declaration: Declaration
    colours: tuple[str, ...]
    cost: str | None
    lead: str
    sections: tuple[str, ...]

    def colours_of(self, card: Any) -> tuple[str, ...]: ...

    def check_deck(
        self,
        source: DeckSource,
        database: CardDatabase[Any],
        format_key: str | None,
        date: datetime.date,
    ) -> DeckReport: ...


@dataclass(frozen=True)
class DeclaredCard(CardFields):
    """A card of a declared game: the fields every card has, and its declared `fields` (each
    also read as an attribute: `card.cost`)."""

    fields: Mapping[str, Any] = field(default_factory=dict)
    GAME_FIELDS: ClassVar[tuple[str, ...]] = ()

    def __post_init__(self) -> None:
        tupled = {k: tuple(v) if isinstance(v, list) else v for k, v in self.fields.items()}
        object.__setattr__(self, "fields", tupled)

    def __getattr__(self, name: str) -> Any:
        fields = self.__dict__.get("fields")
        if fields is not None and name in fields:
            return fields[name]
        raise AttributeError(name)

    def to_json(self) -> dict[str, Any]:
        out = super().to_json()
        out["fields"] = {k: list(v) if isinstance(v, tuple) else v for k, v in self.fields.items()}
        return out


def make_card(
    declaration: Declaration,
    card_class: type[DeclaredCard],
    raw: Mapping[str, Any],
    set_code: str | None,
    file: str,
    line: int,
) -> DeclaredCard:
    """A card from one mapping of a card file the game's schema accepted; every declared field
    is there (None, or () for a list, when the card has none)."""
    values = {
        name: raw.get(name, () if spec.kind == "words" else None)
        for name, spec in declaration.fields.items()
    }
    return card_class(**record_fields(raw, set_code, file, line), fields=values)


def database_class(declaration: Declaration) -> type[CardDatabase[Any]]:
    """The card database class of a declared game: the core's look-ups, its game's key, and its
    copy limits counted by name or by id."""
    by_id = declaration.identity == "id"

    def card_key(self: CardDatabase[Any], card: Any) -> str:
        return str(card.id if by_id else card.name)

    def __init__(self: Any, cards: Any, formats: Mapping[str, Format] | None = None) -> None:
        CardDatabase.__init__(self, cards, formats or builtin_formats(declaration))
        if by_id:
            self.printings = {card_id: [card] for card_id, card in self.cards.items()}

    def canonical(self: CardDatabase[Any], name: str) -> Any:
        """A card's id, or a name: its first card (lookup gives every card of a name)."""
        found = self.cards.get(name)
        return found if found is not None else _named(self, name)[0]

    def lookup(self: CardDatabase[Any], ref: str) -> list[Any]:
        """An id names its card; a name, every card of that name (each id is a card)."""
        found = self.by_id(ref)
        if found is not None:
            return [found]
        names = self.index.get(normalize(ref))
        return [card for name in sorted(names) for card in _named(self, name)] if names else []

    attributes: dict[str, Any] = {"game": declaration.key, "__init__": __init__}
    if by_id:
        attributes["card_key"] = card_key
        attributes["canonical"] = canonical
        attributes["lookup"] = lookup
        attributes["INDEX_TABLES"] = ()
    title = "".join(part.capitalize() for part in declaration.key.replace("-", "_").split("_"))
    return type(f"{title}Database", (CardDatabase,), attributes)


def _named(database: CardDatabase[Any], name: str) -> list[Any]:
    """The cards of a name, in id order (a database whose identity is the id)."""
    return sorted((c for c in database.cards.values() if c.name == name), key=lambda c: c.id)


def builtin_formats(declaration: Declaration) -> dict[str, Format]:
    return {key: Format(key, name) for key, name in declaration.formats.items()}


# ------------------------------------------------------------------------------------ schemas


def _field_schema(spec: CardField) -> dict[str, object]:
    if spec.kind == "integer":
        out: dict[str, object] = {"type": "integer"}
        if spec.minimum is not None:
            out["minimum"] = spec.minimum
        if spec.maximum is not None:
            out["maximum"] = spec.maximum
        return out
    if spec.kind == "word":
        return {"enum": list(spec.words)}
    if spec.kind == "words":
        out = {
            "type": "array",
            "minItems": 1,
            "uniqueItems": True,
            "items": {"enum": list(spec.words)},
        }
        if spec.most is not None:
            out["maxItems"] = spec.most
        return out
    if spec.kind == "flag":
        return {"type": "boolean"}
    return {"type": "string"}


def card_schema(declaration: Declaration) -> dict[str, object]:
    """The JSON Schema of the game's card files: an optional set block, a list of cards whose
    fields are those its type needs and may have."""
    properties: dict[str, object] = {
        "id": {"type": "string", "pattern": _ID},
        "name": {"type": "string", "minLength": 1},
        "names": {
            "type": "object",
            "propertyNames": {"pattern": "^[a-z]{2,3}(-[A-Za-z0-9]+)*$"},
            "additionalProperties": {"type": "string", "minLength": 1},
        },
        "type": {"enum": list(declaration.types)},
    }
    properties.update({name: _field_schema(spec) for name, spec in declaration.fields.items()})
    rules = []
    for key, kind in declaration.types.items():
        allowed = {*kind.needs, *kind.may}
        banned = {
            name: False
            for name, spec in declaration.fields.items()
            if name not in allowed and not spec.common
        }
        then: dict[str, object] = {}
        if kind.needs:
            then["required"] = list(kind.needs)
        if banned:
            then["properties"] = banned
        if then:
            rules.append(
                {"if": {"properties": {"type": {"const": key}}, "required": ["type"]}, "then": then}
            )
    card: dict[str, object] = {
        "type": "object",
        "required": ["id", "name", "type"],
        "additionalProperties": False,
        "properties": properties,
    }
    if rules:
        card["allOf"] = rules
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": f"urn:varz-deck-{declaration.key}:schema:card-file:1",
        "title": f"{declaration.name} card file",
        "description": f"A varz-deck card file for {declaration.name}: an optional set block and "
        "a list of cards.",
        "type": "object",
        "required": ["cards"],
        "additionalProperties": False,
        "properties": {
            "set": {
                "type": "object",
                "required": ["code"],
                "additionalProperties": False,
                "properties": {
                    "code": {"type": "string", "pattern": "^[A-Z0-9]+$"},
                    "name": {"type": "string"},
                    "released": {
                        "type": "string",
                        "format": "date",
                        "pattern": "^[0-9]{4}-[0-9]{2}-[0-9]{2}$",
                    },
                },
            },
            "cards": {"type": "array", "items": {"$ref": "#/$defs/card"}},
        },
        "$defs": {"card": card},
    }


def _section_schema() -> dict[str, object]:
    item = f"^[{_SPACE}]*[0-9]+[xX×]?[{_SPACE}]+[^{_SPACE}][^\\n]*[{_SPACE}]*$"
    count = f"^[{_SPACE}]*0*[1-9][0-9]?[xX×{_SPACE}]"
    return {
        "anyOf": [
            {
                "type": "object",
                "propertyNames": {"pattern": f"[^{_SPACE}]"},
                "additionalProperties": {"type": "integer", "minimum": 1, "maximum": 99},
            },
            {
                "type": "array",
                "items": {"type": "string", "pattern": item, "allOf": [{"pattern": count}]},
            },
            {"type": "null"},
        ]
    }


def deck_schema(declaration: Declaration) -> dict[str, object]:
    """The JSON Schema of the game's deck files: name, format, player, event, each slot (a
    card reference) and each section (card: count, or a list of "COUNT NAME")."""
    properties: dict[str, object] = {
        "name": {"anyOf": _VALUE},
        "format": {"anyOf": [{"type": "string", "minLength": 1}, *_VALUE[1:]]},
        "player": {"anyOf": _VALUE},
        "event": {"anyOf": _VALUE},
    }
    for slot in declaration.slots:
        properties[slot.key] = {"anyOf": [*_VALUE, {"type": "null"}]}
    for section in declaration.sections:
        properties[section.key] = _section_schema()
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": f"urn:varz-deck-{declaration.key}:schema:deck:1",
        "title": f"{declaration.name} deck",
        "description": f"A varz-deck deck file for {declaration.name}. A card reference is a card "
        "id or its name, ignoring case, Unicode width and repeated spaces.",
        "type": "object",
        "additionalProperties": False,
        "properties": properties,
    }
