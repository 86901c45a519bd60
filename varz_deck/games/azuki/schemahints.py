"""The messages of Azuki's deck and card schemas (core/files/schemahints.py), by JSON pointer; English
only, as they always were."""

from __future__ import annotations

from varz_deck.core.files.schemahints import deck_hints, register
from varz_deck.core.messages.i18n import Message

register(
    "azuki-deck",
    deck_hints(
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
)

register(
    "azuki-card",
    {
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
)
