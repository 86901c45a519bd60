"""Issue 24, the cache's two audit survivors: a misnamed formats file must be part of the cache
key (else a database cached before it appeared hides its C007), and the body's checksum must be
checked on every read (else an edited cache body is served)."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml
from typer.testing import CliRunner

from varz_deck.cli import app
from varz_deck.games import open_database

ROOT = Path(__file__).resolve().parent.parent
DECK = ROOT / "examples" / "red-kagura-festival.yaml"  # legal in the bundled database


@pytest.fixture
def private_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "cache"
    monkeypatch.setenv("VARZ_DECK_CACHE", str(folder))
    return folder


def bundled_copy(folder: Path, formats: bool = True) -> Path:
    shutil.copytree(ROOT / "varz_deck" / "games" / "varz" / "card_data" / "sets", folder / "sets")
    if formats:
        shutil.copy(ROOT / "varz_deck" / "games" / "varz" / "card_data" / "formats.yaml", folder)
    return folder


def check(cards: Path) -> Any:
    return CliRunner().invoke(app, ["check", str(DECK), "--cards", str(cards)])


# --------------------------------------------------------------------------- misnamed formats


@pytest.mark.parametrize(
    ("name", "formats"),
    [
        ("Formats.yaml.txt", True),  # not a .yaml file: only the C007 check sees it
        ("format.yml.bak", True),
        ("formats.yaml.txt", False),  # beside no formats.yaml, a copy of one is misnamed too
        ("Formats.yaml", True),
    ],
)
def test_a_misnamed_formats_file_added_after_the_cache_was_built_is_c007(
    name: str, formats: bool, tmp_path: Path, private_cache: Path
) -> None:
    cards = bundled_copy(tmp_path / "db", formats)
    first = check(cards)
    assert first.exit_code == 0, first.output
    assert len(list(private_cache.glob("db-*.json"))) == 1  # built and cached
    (cards / name).write_text("formats:\n  standard:\n    name: Standard\n", encoding="utf-8")
    second = check(cards)
    assert second.exit_code == 2, second.output
    assert "C007" in second.output and name in second.output
    (cards / name).unlink()
    assert check(cards).exit_code == 0  # and gone again: the first entry serves


# --------------------------------------------------------------------------- checksum


def ember_imp_cost(cards: Path) -> int:
    """Ember Imp's cost, read from its card file with PyYAML (not varz-deck)."""
    data = yaml.safe_load((cards / "sets" / "vz01.yaml").read_text(encoding="utf-8"))
    (card,) = [c for c in data["cards"] if c["name"] == "Ember Imp"]
    cost = card["cost"]
    assert isinstance(cost, int)
    return cost


def cache_file(cache: Path) -> tuple[Path, str, str]:
    """The one cache file: its path, header line and body."""
    (path,) = cache.glob("db-*.json")
    header, _, body = path.read_text(encoding="utf-8").partition("\n")
    return path, header, body


def test_the_header_carries_the_key_and_a_blake2b_of_the_body(
    tmp_path: Path, private_cache: Path
) -> None:
    open_database(bundled_copy(tmp_path / "db"))
    path, header, body = cache_file(private_cache)
    digest = hashlib.blake2b(body.encode("utf-8"), digest_size=20).hexdigest()
    key = path.name.removeprefix("db-").removesuffix(".json")
    assert header == f"varz-deck-cache 3 {key} {digest}"
    assert body.isascii()


def test_an_edited_cache_body_is_not_served(tmp_path: Path, private_cache: Path) -> None:
    cards = bundled_copy(tmp_path / "db")
    cost = ember_imp_cost(cards)
    assert open_database(cards).lookup("Ember Imp")[0].cost == cost
    path, header, body = cache_file(private_cache)
    document = json.loads(body)
    (card,) = [c for c in document["cards"] if c["name"] == "Ember Imp"]
    card["cost"] = cost + 5  # still valid JSON and a valid card: only the checksum can tell
    path.write_text(f"{header}\n{json.dumps(document)}", encoding="utf-8")
    assert open_database(cards).lookup("Ember Imp")[0].cost == cost
    rebuilt_header, rebuilt_body = cache_file(private_cache)[1:]
    assert rebuilt_header == header  # rebuilt: the right body under the same key
    digest = hashlib.blake2b(rebuilt_body.encode("utf-8"), digest_size=20).hexdigest()
    assert rebuilt_header.endswith(digest)
    assert open_database(cards).lookup("Ember Imp")[0].cost == cost


@pytest.mark.parametrize("field", [2, 3], ids=["key", "checksum"])
def test_a_cache_header_with_another_key_or_checksum_is_not_served(
    field: int, tmp_path: Path, private_cache: Path
) -> None:
    """The body is edited and the header's key or checksum made to match it in all but one
    place: whichever one is wrong, the file is not served."""
    cards = bundled_copy(tmp_path / "db")
    cost = ember_imp_cost(cards)
    open_database(cards)
    path, header, body = cache_file(private_cache)
    document = json.loads(body)
    (card,) = [c for c in document["cards"] if c["name"] == "Ember Imp"]
    card["cost"] = cost + 5
    edited = json.dumps(document)
    parts = header.split(" ")
    parts[3] = hashlib.blake2b(edited.encode("utf-8"), digest_size=20).hexdigest()
    parts[field] = parts[field][:-1] + ("0" if parts[field][-1] != "0" else "1")
    path.write_text(" ".join(parts) + "\n" + edited, encoding="utf-8")
    assert open_database(cards).lookup("Ember Imp")[0].cost == cost


def test_an_edited_cache_body_is_not_served_by_the_command_line(
    tmp_path: Path, private_cache: Path
) -> None:
    """The same through `check` in a child process: Ember Imp made blue in the cache body would
    make this red deck illegal if served."""
    cards = bundled_copy(tmp_path / "db")
    env = {**os.environ, "VARZ_DECK_CACHE": str(private_cache)}
    run = [sys.executable, "-m", "varz_deck", "check", str(DECK), "--cards", str(cards)]
    first = subprocess.run(run, capture_output=True, text=True, timeout=120, env=env)
    assert first.returncode == 0, first
    path, header, body = cache_file(private_cache)
    document = json.loads(body)
    (card,) = [c for c in document["cards"] if c["name"] == "Ember Imp"]
    card["color"] = "blue"
    path.write_text(f"{header}\n{json.dumps(document)}", encoding="utf-8")
    again = subprocess.run(run, capture_output=True, text=True, timeout=120, env=env)
    assert again.returncode == 0, again
