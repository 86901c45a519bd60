"""A database's formats from its formats.yaml: what every game's format has, and the game's own
fields (`Game.format_fields`) kept in `Format.extra` for the game to read."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from varz_deck.core.cards import Format

if TYPE_CHECKING:
    from varz_deck.core.game import Game


def read_formats(data: Mapping[str, Any], game: Game) -> dict[str, Format]:
    """The formats of a formats.yaml document its schema accepted."""
    own = tuple(game.format_fields)
    out: dict[str, Format] = {}
    specs = data.get("formats")
    for key, spec in specs.items() if isinstance(specs, dict) else ():
        if not isinstance(spec, dict):
            continue
        sets, banned, restricted = spec.get("sets"), spec.get("banned"), spec.get("restricted")
        out[key] = Format(
            key=key,
            name=str(spec.get("name", key)),
            sets=tuple(sets) if isinstance(sets, list) else None,
            banned=tuple(banned) if isinstance(banned, list) else (),
            restricted=dict(restricted) if isinstance(restricted, dict) else {},
            extra={name: spec[name] for name in own if name in spec},
        )
    return out
