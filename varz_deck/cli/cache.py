"""`varz-deck cache info` and `varz-deck cache clear`: the card-database cache.

The cache keeps at most core.cachestore.MAX_DATABASES databases, the least recently used evicted
first; these commands show where it is and how large, and empty it (only varz-deck's own files).
"""

from __future__ import annotations

import sys

import typer

from varz_deck.cli.common import EXIT_OK, LangOption, language
from varz_deck.core.messages.i18n import N_, msg, nmsg

CACHE_HELP = N_("Show or empty the cache of card databases.")
INFO_HELP = N_("Show the cache folder, how many card databases it holds and their size.")
CLEAR_HELP = N_("Remove the cached card databases (only varz-deck's files) and say what it freed.")


def size_text(size: int) -> str:
    """Bytes for a person: 512 B, 3.4 KB, 59.0 MB (powers of 1000, as `du --si`)."""
    if size < 1000:
        return f"{size} B"
    value, unit = float(size), "B"
    for bigger in ("KB", "MB", "GB"):
        if unit != "B" and value < 999.95:
            break
        value, unit = value / 1000, bigger
    return f"{value:.1f} {unit}"


def cache_info(lang: LangOption = None) -> None:
    """Show the cache folder, how many card databases it holds and their size."""
    from varz_deck.core.cards import cachestore
    from varz_deck.core.messages.sanitize import safe

    chosen = language(lang)
    found = cachestore.info()
    if found.folder is None:
        off = msg("cache", "the cache is off (VARZ_DECK_NO_CACHE is set)")
        sys.stdout.write(off.render(chosen) + "\n")
        raise typer.Exit(EXIT_OK)
    folder = msg("cache", "folder: {folder}")(folder=safe(str(found.folder)))
    held = nmsg(
        "cache",
        "{n} card database, {size} (at most {most} are kept)",
        "{n} card databases, {size} (at most {most} are kept)",
    )(n=found.databases, size=size_text(found.size), most=cachestore.MAX_DATABASES)
    sys.stdout.write(f"{folder.render(chosen)}\n{held.render(chosen)}\n")
    raise typer.Exit(EXIT_OK)


def cache_clear(lang: LangOption = None) -> None:
    """Remove the cached card databases (only varz-deck's files) and say what it freed."""
    from varz_deck.core.cards import cachestore
    from varz_deck.core.messages.sanitize import safe

    chosen = language(lang)
    folder = cachestore.cache_dir()
    if folder is None:
        off = msg("cache", "the cache is off (VARZ_DECK_NO_CACHE is set)")
        sys.stdout.write(off.render(chosen) + "\n")
        raise typer.Exit(EXIT_OK)
    count, freed = cachestore.clear()
    removed = nmsg(
        "cache",
        "removed {n} card database from {folder}, freed {size}",
        "removed {n} card databases from {folder}, freed {size}",
    )(n=count, folder=safe(str(folder)), size=size_text(freed))
    sys.stdout.write(removed.render(chosen) + "\n")
    raise typer.Exit(EXIT_OK)
