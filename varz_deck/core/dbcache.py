"""The card-database cache: a content key, and a database read from and written to it.

The key is of the very bytes the lint reads; the cache file's layout and what a read of it trusts
are in cachedoc.py, the folder and its eviction in cachestore.py.
"""

from __future__ import annotations

import contextlib
import os
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING

from varz_deck import __version__
from varz_deck.core import cachedoc, cachestore
from varz_deck.core._hash import blake2b
from varz_deck.core.cards import CardDatabase, Format
from varz_deck.core.discovery import Content, display
from varz_deck.core.resources import schema_text
from varz_deck.core.source import LoadError

if TYPE_CHECKING:
    from varz_deck.core.game import Game


def cache_dir() -> Path | None:
    return cachestore.cache_dir()


def cache_key(
    root: Path, files: list[tuple[Path, Content]], game: Game, misnamed: list[Path]
) -> str:
    digest = blake2b(f"{__version__} cache-4".encode(), digest_size=20)
    digest.update(game.key.encode())
    digest.update(schema_text(game.card_schema).encode())
    digest.update(schema_text("formats").encode())
    for path, data in files:
        rel = os.fsencode(path.relative_to(root).as_posix())  # a name may not be UTF-8
        digest.update(len(rel).to_bytes(8, "big") + rel)
        if isinstance(data, LoadError):
            digest.update(b"unreadable")
        else:
            digest.update(len(data).to_bytes(8, "big") + data)
    for path in misnamed:  # never cached (C007), but a new one must not hit an older entry
        name = os.fsencode(path.name)
        digest.update(b"misnamed" + len(name).to_bytes(8, "big") + name)
    return digest.hexdigest()[:40]


def _indexing() -> bool:
    """Whether the card index (issue 27, core/cardindex.py) is tried before the JSON cache:
    only with $VARZ_DECK_INDEX set, while it is being built (docs/design/card-index.md)."""
    return bool(os.environ.get("VARZ_DECK_INDEX"))


def _index_read(folder: Path, key: str, root: Path, game: Game) -> CardDatabase | None:
    from varz_deck.core import cardindex

    try:
        index = cardindex.CardIndex(folder / f"db-{key}.sqlite", key, __version__, game.key)
        return cardindex.open_database(index, game, root, Path(display(root)))
    except (OSError, cardindex.IndexDamaged):
        return None


def cache_read(key: str, root: Path, game: Game) -> CardDatabase | None:
    """The cached database for key, or None when there is none that fits (see cachedoc)."""
    folder = cache_dir()
    if folder is None:
        return None
    if _indexing():
        indexed = _index_read(folder, key, root, game)
        if indexed is not None:
            return indexed
    try:
        text = (folder / f"db-{key}.json").read_text(encoding="utf-8")
    except (OSError, ValueError):
        return None
    document = cachedoc.decode(text, key, __version__, game.key)
    if document is None:
        return None
    cards = []
    shown_root = Path(display(root))  # the working directory is asked once, not per card
    for data in document["cards"]:
        shown = {**data, "file": str(shown_root / data["file"])}
        card = cachedoc.rebuild(partial(game.card_from_json, shown))
        if card is None:
            return None
        cards.append(card)
    formats = {}
    for name, data in document["formats"].items():
        found = cachedoc.rebuild(partial(Format.from_json, data))
        if found is None:
            return None
        formats[name] = found
    return game.make_database(cards, formats)


def cache_write(key: str, root: Path, database: CardDatabase) -> None:
    """Store a database; card files are kept relative to its root, so the same content in
    another folder, or checked from another working directory, shows its own paths."""
    folder = cache_dir()
    if folder is None:
        return
    try:
        base = root.resolve()
        payload = {
            "version": __version__,
            "game": database.game,
            "cards": [
                {**c.to_json(), "file": Path(c.file).resolve().relative_to(base).as_posix()}
                for c in database.cards.values()
            ],
            "formats": {k: f.to_json() for k, f in database.formats.items()},
        }
        folder.mkdir(parents=True, exist_ok=True)
        tmp = folder / f".db-{key}.{os.getpid()}.tmp"
        tmp.write_text(cachedoc.encode(key, payload), encoding="utf-8")
        os.replace(tmp, folder / f"db-{key}.json")
    except (OSError, ValueError, MemoryError, RecursionError):  # no cache is slower, never wrong
        return
    if _indexing():
        import sqlite3

        from varz_deck.core import cardindex

        if cardindex.supported(type(database)):
            with contextlib.suppress(OSError, ValueError, sqlite3.Error):
                cardindex.write(folder / f"db-{key}.sqlite", key, __version__, root, database)
