"""Row 18: inputs whose messages must say what is wrong: a symlink loop, `--sheet FILE`, a deck
code with a stray '.', a card database subfolder that cannot be read."""

from __future__ import annotations

from pathlib import Path


def symlink_loop(folder: Path) -> Path:
    a, b = folder / "loop-a.yaml", folder / "loop-b.yaml"
    a.symlink_to(b)
    b.symlink_to(a)
    return a


def sheet_file(folder: Path) -> Path:
    path = folder / "sheets"
    path.write_text("a file where a folder was meant\n", encoding="utf-8")
    return path


def database_with_secret_folder(folder: Path, source: Path) -> tuple[Path, Path]:
    """A copy of a database with one set file moved into `secret/` (made unreadable by the
    test); (database root, the secret folder)."""
    import shutil

    root = folder / "db"
    shutil.copytree(source, root)
    sets = sorted((root / "sets").glob("*.yaml"))
    secret = root / "secret"
    secret.mkdir()
    shutil.move(str(sets[0]), secret / sets[0].name)
    return root, secret
