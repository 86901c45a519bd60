"""The shipped schemas' friendly messages, kept beside the schema files rather than in them."""

from __future__ import annotations

import copy
from functools import cache
from typing import Any

from varz_deck.core.i18n import Message, msg
from varz_deck.core.resources import schema

# The schemas' messages, by JSON pointer to the subschema they explain. They live here, not in the
# schema files: a strict reader (ajv --strict) rejects a keyword it does not know, such as the
# `x-message` they used to carry. hinted() puts them back, as `x-message`, into the copy the
# explaining validators use. The VARZ ones are marked for the catalogues (context "schema"); the
# Azuki ones are English only, as they always were, unless they share a VARZ msgid.
_TEXT = msg("schema", "name, player and event are text (a number or true/false is read as written)")
_FORMAT = msg("schema", "format is the name of a format, e.g. standard")
_KEY = msg("schema", "a card name cannot be empty or only spaces")
_COUNT = msg("schema", "a count is a whole number from 1 to 99")


def _deck(
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


_SECTION = msg("schema", 'a section is a mapping of card: count, or a list of "COUNT NAME" strings')
HINTS: dict[str, dict[str, Message]] = {
    "deck": _deck(
        msg("schema", "a deck file is a mapping with hero, spells, skills and portals"),
        {"hero": msg("schema", "hero is one card name or id")},
        {"spells": _SECTION, "skills": _SECTION, "portals": _SECTION},
        msg("schema", 'each list item is "COUNT NAME", e.g. "2 Crimson VAZ" or "2x Crimson VAZ"'),
    ),
    "azuki-deck": _deck(
        Message("schema", "an Azuki deck file is a mapping with leader, gate, main and ikz"),
        {
            "leader": Message(
                "schema", "leader is one Leader card: its name or id, e.g. Shao or STT02-001"
            ),
            "gate": Message(
                "schema", "gate is one Gate card: its name or id, e.g. Hydromancy Gate or STT02-002"
            ),
        },
        {
            "main": Message(
                "schema",
                'main (the 50-card main deck: entities, spells, weapons) is a mapping of card: count, or a list of "COUNT NAME" strings',
            ),
            "ikz": Message(
                "schema",
                'ikz (10 IKZ and 1 IKZ Token) is a mapping of card: count, or a list of "COUNT NAME" strings',
            ),
        },
        Message(
            "schema",
            'each list item is "COUNT NAME", e.g. "4 Crate Rat Kurobo" or "4x Crate Rat Kurobo"',
        ),
    ),
    "card": {
        "/properties/set/properties/code": msg(
            "schema", "a set code is capital letters and digits, e.g. VZ01"
        ),
        "/properties/set/properties/released": msg(
            "schema", "released is a date written YYYY-MM-DD"
        ),
        "/properties/cards": msg("schema", "cards is a list of card mappings"),
        "/$defs/card": msg("schema", "each card is a mapping with at least id, name and type"),
        "/$defs/card/properties/id": msg(
            "schema",
            "an id is letters A-Z and digits, a dash, then letters and digits (e.g. VZ01-001)",
        ),
        "/$defs/card/properties/name": msg("schema", "a card needs a non-empty name"),
        "/$defs/card/properties/names": msg(
            "schema", "names maps language codes (ja, zh, ...) to names, e.g. {ja: 茉莉}"
        ),
        "/$defs/card/properties/names/propertyNames": msg(
            "schema",
            "a language code is 2 or 3 lower-case letters, optionally with a region: ja, zh, pt-BR",
        ),
        "/$defs/card/properties/names/additionalProperties": msg(
            "schema", "a translated name is non-empty text"
        ),
        "/$defs/card/properties/type": msg(
            "schema", "type is one of hero, skill, portal, spil, command, slash"
        ),
        "/$defs/card/properties/color": msg(
            "schema", "color is one of red, blue, green, purple, yellow, silver, colorless"
        ),
        "/$defs/card/properties/life": msg("schema", "life is a whole number from 1 to 99"),
        "/$defs/card/properties/power": msg("schema", "power is a whole number from 0 to 99"),
        "/$defs/card/properties/skill_classes": msg(
            "schema", "skill_classes is a non-empty list of classes, e.g. [fighter, samurai]"
        ),
        "/$defs/card/properties/evolution_level": msg(
            "schema", "evolution_level is a whole number from 1 to 99"
        ),
        "/$defs/card/properties/memory": msg("schema", "memory is a whole number from 0 to 99"),
        "/$defs/card/properties/v_sync/properties/power": msg(
            "schema", "power is a whole number from 0 to 99"
        ),
        "/$defs/card/properties/skill_class": msg(
            "schema", "skill_class is one class name or generic"
        ),
        "/$defs/card/properties/shield_life": msg(
            "schema", "shield_life is a whole number from 1 to 99"
        ),
        "/$defs/card/properties/cost": msg("schema", "cost is a whole number from 0 to 99"),
        "/$defs/card/allOf/0/then/properties/color": msg(
            "schema", "a hero's color is one of red, blue, green, purple, yellow, silver"
        ),
        "/$defs/card/allOf/1/then/then/properties/color": msg(
            "schema",
            "a VAZ skill's color is the VAZ colour it makes: one of red, blue, green, purple, yellow, silver",
        ),
    },
    "formats": {
        "/properties/game": msg("schema", "game is varz or azuki"),
        "/properties/formats/propertyNames": msg(
            "schema", "a format key is lower-case letters, digits, - and _"
        ),
        "/properties/formats/additionalProperties/properties/max_effect_portals": msg(
            "schema", "max_effect_portals is a whole number, at least 0"
        ),
        "/properties/formats/additionalProperties/properties/restricted/additionalProperties": msg(
            "schema", "a restricted card's limit is a whole number, at least 0"
        ),
        "/properties/formats/additionalProperties/properties/portals": msg(
            "schema", "portals is constructed or pooled"
        ),
    },
    "azuki-card": {
        "/properties/set/properties/code": Message(
            "schema", "a set code is capital letters and digits, e.g. AZK01"
        ),
        "/properties/set/properties/released": Message(
            "schema", "released is a date written YYYY-MM-DD"
        ),
        "/properties/cards": Message("schema", "cards is a list of card mappings"),
        "/$defs/card": Message(
            "schema", "each card is a mapping with at least id, name, type and elements"
        ),
        "/$defs/card/properties/id": Message(
            "schema",
            "an id is capital letters and digits, a dash, then capital letters and digits (e.g. AZK01-001)",
        ),
        "/$defs/card/properties/name": Message("schema", "a card needs a non-empty name"),
        "/$defs/card/properties/names": Message(
            "schema", "names maps language codes (ja, zh, ...) to the card's name in that language"
        ),
        "/$defs/card/properties/type": Message(
            "schema", "type is one of leader, gate, entity, spell, weapon, ikz, ikz_token"
        ),
        "/$defs/card/properties/elements": Message(
            "schema", "elements is a list of one element (a leader may have two), e.g. [fire]"
        ),
        "/$defs/card/properties/elements/items": Message(
            "schema", "an element is one of fire, water, earth, lightning, neutral"
        ),
        "/$defs/card/properties/cost": Message(
            "schema", "cost (IKZ to play it) is a whole number from 0 to 99"
        ),
        "/$defs/card/properties/attack": Message("schema", "attack is a whole number from 0 to 99"),
        "/$defs/card/properties/health": Message("schema", "health is a whole number from 1 to 99"),
        "/$defs/card/properties/gate_power": Message(
            "schema", "gate_power is a whole number from 0 to 99"
        ),
        "/$defs/card/properties/keywords": Message(
            "schema", "keywords is a list of lower-case snake_case words, e.g. [charge, on_play]"
        ),
        "/$defs/card/properties/keywords/items": Message(
            "schema", "a keyword is lower-case snake_case, e.g. on_play, defender, carapace_1"
        ),
        "/$defs/card/properties/traits": Message(
            "schema", "traits is a list of subtype names, e.g. [Black Jade, Steelborn]"
        ),
        "/$defs/card/properties/aliases": Message(
            "schema", "aliases is a list of other printed ids of this same card, e.g. [IKZ-002]"
        ),
        "/$defs/card/properties/aliases/items": Message(
            "schema",
            "an id is capital letters and digits, a dash, then capital letters and digits (e.g. AZK01-001)",
        ),
        "/$defs/card/properties/variants": Message(
            "schema", "variants is a list of art versions: {rarity, label, image}"
        ),
        "/$defs/card/allOf/1/then/properties/elements": Message(
            "schema",
            "only a leader can have two elements: give one of fire, water, earth, lightning, neutral",
        ),
        "/$defs/card/allOf/2/then/properties/elements": Message(
            "schema",
            "only a leader can have two elements: give one of fire, water, earth, lightning, neutral",
        ),
        "/$defs/card/allOf/3/then/properties/elements": Message(
            "schema",
            "only a leader can have two elements: give one of fire, water, earth, lightning, neutral",
        ),
        "/$defs/card/allOf/4/then/properties/elements": Message(
            "schema",
            "only a leader can have two elements: give one of fire, water, earth, lightning, neutral",
        ),
        "/$defs/card/allOf/5/then/properties/elements": Message(
            "schema", "IKZ cards are colourless resources: elements is [neutral]"
        ),
        "/$defs/card/allOf/5/then/properties/elements/items": Message(
            "schema", "IKZ cards are colourless resources: elements is [neutral]"
        ),
        "/$defs/card/allOf/6/then/properties/elements": Message(
            "schema", "IKZ cards are colourless resources: elements is [neutral]"
        ),
        "/$defs/card/allOf/6/then/properties/elements/items": Message(
            "schema", "IKZ cards are colourless resources: elements is [neutral]"
        ),
        "/$defs/variant": Message("schema", "a variant is a mapping {rarity, label, image}"),
        "/$defs/variant/properties/id": Message(
            "schema",
            "a variant's id is the other printed id (one of the card's aliases) its art carries",
        ),
        "/$defs/variant/properties/rarity": Message(
            "schema", "rarity is the printed rarity, e.g. C, UC, R, SR, SR*, L"
        ),
        "/$defs/variant/properties/label": Message(
            "schema", "label names the art, e.g. Standard, Alt Art"
        ),
        "/$defs/variant/properties/image": Message(
            "schema", "image is the http(s) URL of the card art"
        ),
    },
}


@cache
def hinted(name: str) -> dict[str, Any]:
    """The schema with its messages (HINTS) as `x-message`, for the validators that explain."""
    document: dict[str, Any] = copy.deepcopy(schema(name))
    for where, hint in HINTS.get(name, {}).items():
        node: Any = document
        for step in where.split("/")[1:]:
            key = step.replace("~1", "/").replace("~0", "~")
            node = node[int(key)] if isinstance(node, list) else node[key]
        node["x-message"] = hint.msgid
    return document
