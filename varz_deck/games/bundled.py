"""Where the bundled games' card data and schemas are: the repository's top-level `card_data/`
and `schemas/` folders in a clone or an editable install; in a wheel, the same folders under
`varz_deck/_bundled/` (pyproject.toml's `force-include`). One answer for all three."""

from __future__ import annotations

from pathlib import Path

_PACKAGE = Path(__file__).resolve().parent.parent  # varz_deck/
SHIPPED = "_bundled"  # the folder a wheel ships them in, inside the package


def bundled(*parts: str) -> Path:
    """A path under the bundled data: `bundled("card_data", "varz")`, `bundled("schemas",
    "azuki", "deck.schema.json")`."""
    shipped = _PACKAGE / SHIPPED
    return (shipped if shipped.is_dir() else _PACKAGE.parent).joinpath(*parts)
