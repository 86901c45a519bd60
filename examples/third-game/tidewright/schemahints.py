"""The messages of Tidewright's deck schema (varz_deck.core.files.schemahints), by JSON pointer; the
card schema's are jsonschema's own."""

from __future__ import annotations

from varz_deck.core.files.schemahints import deck_hints, register
from varz_deck.core.messages.i18n import Message

from tidewright.deck import DECK_SCHEMA

register(
    DECK_SCHEMA,
    deck_hints(
        Message("schema", "a Tidewright deck file is a mapping with captain, crew and currents"),
        {
            "captain": Message(
                "schema", "captain is one captain card: its name or id, e.g. Mara Vell or TW01-001"
            ),
        },
        {
            "crew": Message(
                "schema",
                'crew (20 sailors and maneuvers) is a mapping of card: count, or a list of "COUNT NAME" strings',
            ),
            "currents": Message(
                "schema",
                'currents (the 8 currents) is a mapping of card: count, or a list of "COUNT NAME" strings',
            ),
        },
        Message("schema", 'each list item is "COUNT NAME", e.g. "3 Rigger Finn"'),
    ),
)
