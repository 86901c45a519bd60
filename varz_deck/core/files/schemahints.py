"""The schemas' friendly messages, kept beside the schema files rather than in them.

Each game registers the messages of its own schemas (`register`, from its package); the core keeps
the mechanism, the messages every deck schema shares and those of the shared formats file."""

from __future__ import annotations

import copy
from functools import cache
from typing import Any

from varz_deck.core.files.resources import schema
from varz_deck.core.messages.i18n import Message, msg

# The schemas' messages, by JSON pointer to the subschema they explain. They live here, not in the
# schema files: a strict reader (ajv --strict) rejects a keyword it does not know, such as the
# `x-message` they used to carry. hinted() puts them back, as `x-message`, into the copy the
# explaining validators use. A game marks its messages for the catalogues (context "schema") or
# keeps them English only.
_TEXT = msg("schema", "name, player and event are text (a number or true/false is read as written)")
_FORMAT = msg("schema", "format is the name of a format, e.g. standard")
_KEY = msg("schema", "a card name cannot be empty or only spaces")
_COUNT = msg("schema", "a count is a whole number from 1 to 99")


def deck_hints(
    top: Message, slots: dict[str, Message], sections: dict[str, Message], item: Message
) -> dict[str, Message]:
    """A deck schema's messages: the document, its fields and each section's parts."""
    hints = {"": top, "/properties/name": _TEXT, "/properties/format": _FORMAT}
    hints |= {"/properties/player": _TEXT, "/properties/event": _TEXT}
    hints |= {f"/properties/{key}": hint for key, hint in slots.items()}
    for key, hint in sections.items():
        where = f"/properties/{key}"
        hints[where] = hint
        hints[f"{where}/anyOf/0/propertyNames"] = _KEY
        hints[f"{where}/anyOf/0/additionalProperties"] = _COUNT
        hints[f"{where}/anyOf/1/items"] = item
        hints[f"{where}/anyOf/1/items/allOf/0"] = _COUNT
    return hints


SECTION = msg("schema", 'a section is a mapping of card: count, or a list of "COUNT NAME" strings')
HINTS: dict[str, dict[str, Message]] = {
    "formats": {
        "/properties/game": msg("schema", "game is the key of an installed game"),
        "/properties/formats/propertyNames": msg(
            "schema", "a format key is lower-case letters, digits, - and _"
        ),
        "/properties/formats/additionalProperties/properties/restricted/additionalProperties": msg(
            "schema", "a restricted card's limit is a whole number, at least 0"
        ),
    },
}


def register(name: str, hints: dict[str, Message]) -> None:
    """A game's messages for its schema `name`, before any validator of it is built."""
    HINTS[name] = hints
    hinted.cache_clear()


@cache
def hinted(name: str) -> dict[str, Any]:
    """The schema with its messages (HINTS) as `x-message`, for the validators that explain."""
    document: dict[str, Any] = copy.deepcopy(schema(name))
    # a game's formats schema (formats:<game>) has the shared formats' messages and its own
    hints = {**HINTS.get(name.partition(":")[0], {}), **HINTS.get(name, {})}
    for where, hint in hints.items():
        node: Any = document
        for step in where.split("/")[1:]:
            key = step.replace("~1", "/").replace("~0", "~")
            node = node[int(key)] if isinstance(node, list) else node[key]
        node["x-message"] = hint.msgid
    return document
