"""The messages of VARZ's deck and card schemas (core/files/schemahints.py), by JSON pointer."""

from __future__ import annotations

from varz_deck.core.files.schemahints import SECTION, deck_hints, register
from varz_deck.core.messages.i18n import msg

register(
    "deck",
    deck_hints(
        msg("schema", "a deck file is a mapping with hero, spells, skills and portals"),
        {"hero": msg("schema", "hero is one card name or id")},
        {"spells": SECTION, "skills": SECTION, "portals": SECTION},
        msg("schema", 'each list item is "COUNT NAME", e.g. "2 Crimson VAZ" or "2x Crimson VAZ"'),
    ),
)

register(
    "card",
    {
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
)

# its own fields of a format (cards.FORMAT_FIELDS), in the formats schema its databases are
# checked against (core/resources.formats_schema)
register(
    "formats:varz",
    {
        "/properties/formats/additionalProperties/properties/max_effect_portals": msg(
            "schema", "max_effect_portals is a whole number, at least 0"
        ),
        "/properties/formats/additionalProperties/properties/portals": msg(
            "schema", "portals is constructed or pooled"
        ),
    },
)
