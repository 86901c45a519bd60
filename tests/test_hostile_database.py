"""Issue 11, the card-database rows: each hostile case in tests/hostile/ (one script per row)
through the loader, the card database, its cache and the command line.

Rows 1, 2, 6, 7, 9, 11, 13 and 17; the command-line rows are in tests/test_hostile_cli.py.
"""

from __future__ import annotations

import copy
import difflib
import importlib.util
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from typer.testing import CliRunner

from varz_deck.cli import app
from varz_deck.core.cards import discovery as discovery_module
from varz_deck.core.cards.model import normalize
from varz_deck.core.dates import on_date
from varz_deck.core.files import strictyaml
from varz_deck.core.files.fastschema import FastSchema, detail_validator
from varz_deck.core.files.resources import schema
from varz_deck.games import check_deck, get_game, lint_database, open_database

HOSTILE = Path(__file__).resolve().parent / "hostile"
ROOT = HOSTILE.parent.parent
MIB = 1024 * 1024


def row(name: str) -> ModuleType:
    """The hostile case script tests/hostile/<name>.py."""
    spec = importlib.util.spec_from_file_location(f"hostile_{name}", HOSTILE / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def run(*args: str | Path) -> Any:
    return CliRunner().invoke(app, [str(a) for a in args])


def lint_json(folder: Path) -> tuple[int, list[dict[str, Any]]]:
    result = run("cards", "lint", folder, "--output", "json")
    assert result.exception is None or isinstance(result.exception, SystemExit), result.output
    document = json.loads(result.stdout)
    found = [{**d, "path": f["path"]} for f in document["files"] for d in f["diagnostics"]]
    return result.exit_code, found


def check_json(deck: Path, cards: Path) -> tuple[int, dict[str, Any] | None, str]:
    result = run("check", deck, "--cards", cards, "--output", "json")
    assert result.exception is None or isinstance(result.exception, SystemExit), result.output
    document = json.loads(result.stdout) if result.exit_code in (0, 1) else None
    return result.exit_code, document, result.output


@contextmanager
def cpu_limit(seconds: float) -> Iterator[None]:
    """Fail the block (TimeoutError) once it has used `seconds` of CPU."""

    def expired(signum: int, frame: object) -> None:
        raise TimeoutError(f"over {seconds} s of CPU")

    previous = signal.signal(signal.SIGPROF, expired)
    signal.setitimer(signal.ITIMER_PROF, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0)
        signal.signal(signal.SIGPROF, previous)


@pytest.fixture
def private_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A cache folder of this test's own."""
    folder = tmp_path / "cache"
    monkeypatch.setenv("VARZ_DECK_CACHE", str(folder))
    return folder


# --------------------------------------------------------------------------- row 1


def test_row01_formats_yml_is_read(tmp_path: Path, private_cache: Path) -> None:
    r01 = row("row01_formats_yml")
    cards = r01.write(tmp_path / "db", "formats.yml")
    assert lint_json(cards) == (0, [])
    code, report, _ = check_json(r01.DECK, cards)
    assert code == 1
    assert report is not None
    banned = [d for d in report["decks"][0]["diagnostics"] if d["code"] == "V115"]
    assert [d["card"] for d in banned] == [r01.BANNED]
    # with another card banned instead (Grove Tender, not in the deck) the deck is legal
    (cards / "formats.yml").write_text(r01.FORMATS.replace(r01.BANNED, "VZ01-031"), "utf-8")
    assert check_json(r01.DECK, cards)[0] == 0


@pytest.mark.parametrize("name", row("row01_formats_yml").NEAR_MISSES)
def test_row01_a_near_miss_formats_name_is_an_error(
    name: str, tmp_path: Path, private_cache: Path
) -> None:
    r01 = row("row01_formats_yml")
    cards = r01.write(tmp_path / "db", name)
    code, found = lint_json(cards)
    assert code == 1
    assert [(d["code"], Path(d["path"]).name) for d in found] == [("C007", name)]
    assert "did you mean formats.yaml" in found[0]["message"]
    code, _, output = check_json(r01.DECK, cards)
    assert code == 2
    assert "C007" in output


def test_row01_formats_yaml_and_formats_yml_together_are_an_error(
    tmp_path: Path, private_cache: Path
) -> None:
    r01 = row("row01_formats_yml")
    cards = r01.write(tmp_path / "db", "formats.yaml", "formats.yml")
    code, found = lint_json(cards)
    assert code == 1
    assert [(d["code"], Path(d["path"]).name) for d in found] == [("C007", "formats.yml")]
    assert check_json(r01.DECK, cards)[0] == 2


def test_row01_a_backup_beside_the_formats_file_is_left_alone(
    tmp_path: Path, private_cache: Path
) -> None:
    r01 = row("row01_formats_yml")
    cards = r01.write(tmp_path / "db", "formats.yaml", "formats.yaml.bak", "formats.yaml~")
    assert lint_json(cards) == (0, [])


def test_row01_formats_yml_says_which_game(tmp_path: Path, private_cache: Path) -> None:
    cards = row("row01_formats_yml").write_azuki(tmp_path / "azuki")
    assert lint_json(cards) == (0, [])
    deck = ROOT / "examples" / "azuki" / "stt01-raizan-lightning.yaml"
    assert check_json(deck, cards)[0] == 0


# --------------------------------------------------------------------------- row 2


def test_row02_the_cache_holds_the_bytes_that_were_linted(
    tmp_path: Path, bundled_db_path: Path, private_cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The card file changes between two reads (if the loader reads it twice): the edited
    content must not be cached under the original content's key."""
    r02 = row("row02_card_file_changes_while_read")
    cards = tmp_path / "db"
    shutil.copytree(bundled_db_path / "sets", cards / "sets")
    reads: dict[str, int] = {}
    real_read = discovery_module.read_bytes

    def changing_read(path: Path, limit: int) -> bytes:
        data = real_read(path, limit)
        if path.parent.parent == cards:
            reads[path.name] = reads.get(path.name, 0) + 1
            if path.name == r02.FILE and reads[path.name] > 1:
                return bytes(r02.edited(data))
        return data

    monkeypatch.setattr(discovery_module, "read_bytes", changing_read)
    first = open_database(cards)
    monkeypatch.setattr(discovery_module, "read_bytes", real_read)
    assert reads == {"pr.yaml": 1, "vz01.yaml": 1, "vz02.yaml": 1}  # each file read once
    assert first.lookup("Ember Imp")
    again = open_database(cards)  # the file on disk never changed: from the cache
    assert again.lookup("Ember Imp") and not again.lookup("Ember Impish")
    assert len(list(private_cache.glob("db-*.sqlite"))) == 1


# --------------------------------------------------------------------------- rows 6 and 7


# Runs the command as its own child and writes that child's CPU seconds and peak resident bytes
# to the file named first. The measuring process is small: Linux counts the image a child was
# forked from in its ru_maxrss, so a child forked straight from this (large) pytest process would
# report pytest's memory, not the command's.
_MEASURE = """
import os, resource, subprocess, sys
def limit():
    resource.setrlimit(resource.RLIMIT_AS, (2 << 30, 2 << 30))
    resource.setrlimit(resource.RLIMIT_CPU, (30, 30))
child = subprocess.Popen([sys.executable, "-m", "varz_deck", *sys.argv[2:]], preexec_fn=limit)
_, status, usage = os.wait4(child.pid, 0)
with open(sys.argv[1], "w") as out:
    out.write(f"{os.waitstatus_to_exitcode(status)} {usage.ru_utime + usage.ru_stime} "
              f"{usage.ru_maxrss * 1024}")
"""


def _measured(args: list[str]) -> tuple[int, str, float, int]:
    """Run the command line in a child (2 GiB of address space and 30 s of CPU at most, so a
    failure cannot take the machine down); its exit code, stdout, CPU seconds and peak resident
    bytes."""
    with tempfile.TemporaryDirectory() as folder:
        report = os.path.join(folder, "usage")
        runner = subprocess.Popen(
            [sys.executable, "-c", _MEASURE, report, *args],
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            env={**os.environ, "VARZ_DECK_NO_CACHE": "1"},
        )
        assert runner.stdout is not None
        try:
            out = runner.stdout.read(4 * MIB)
        finally:
            runner.stdout.close()
        runner.wait()
        with open(report, encoding="utf-8") as handle:
            code, cpu, peak = handle.read().split()
    return int(code), out.decode("utf-8", "replace"), float(cpu), int(peak)


@pytest.fixture(scope="module")
def baseline(tmp_path_factory: pytest.TempPathFactory) -> tuple[float, int]:
    """CPU seconds and peak memory of `cards lint` on a one-card database: what starting the
    command costs, taken off the hostile runs' time."""
    folder = tmp_path_factory.mktemp("one-card")
    (folder / "one.yaml").write_text(
        "cards:\n  - {id: VZ01-001, name: One, type: command, color: red, cost: 1}\n", "utf-8"
    )
    code, _, cpu, peak = _measured(["cards", "lint", str(folder), "--output", "json"])
    assert code == 0
    return cpu, peak


def _f002(output: str) -> tuple[str, int, int]:
    (found,) = [d for f in json.loads(output)["files"] for d in f["diagnostics"]]
    return found["code"], found["line"], found["column"]


def test_row06_merge_key_bomb_is_refused_in_under_a_second_and_200_mib(
    tmp_path: Path, baseline: tuple[float, int]
) -> None:
    r06 = row("row06_merge_key_bomb")
    path = r06.write(tmp_path / "db")
    assert 80_000 < path.stat().st_size < 100_000
    code, output, cpu, peak = _measured(["cards", "lint", str(path.parent), "--output", "json"])
    assert code == 1
    # each alias adds the mapping (1 node), its keys and values (2 nodes each): the first
    # alias past the budget is where it is refused
    size = 1 + 2 * r06.KEYS
    refused = strictyaml.ALIAS_NODE_BUDGET // size + 1
    assert _f002(output) == ("F002", r06.alias_line(refused), r06.COLUMN)
    assert cpu - baseline[0] < 1.0, f"{cpu:.2f} s of CPU (start-up {baseline[0]:.2f} s)"
    assert peak < 200 * MIB, f"{peak / MIB:.0f} MiB"
    deck = ROOT / "examples" / "red-kagura-festival.yaml"
    code, _, cpu, peak = _measured(["check", str(deck), "--cards", str(path.parent)])
    assert code == 2
    assert cpu - baseline[0] < 1.0 and peak < 200 * MIB


def test_row07_one_long_text_aliased_8000_times_is_refused(
    tmp_path: Path, baseline: tuple[float, int]
) -> None:
    r07 = row("row07_aliased_long_string")
    path = r07.write(tmp_path / "db")
    assert 900_000 < path.stat().st_size < 1_100_000
    code, output, cpu, peak = _measured(["cards", "lint", str(path.parent), "--output", "json"])
    assert code == 1
    refused = strictyaml.ALIAS_CHAR_BUDGET // r07.LENGTH + 1
    assert _f002(output) == ("F002", r07.alias_line(refused), r07.alias_column(refused))
    assert cpu - baseline[0] < 1.0 and peak < 200 * MIB
    deck = ROOT / "examples" / "red-kagura-festival.yaml"
    for command in (["check", str(deck)], ["sim", str(deck), "--games", "10"]):
        code, _, cpu, peak = _measured([*command, "--cards", str(path.parent)])
        assert code == 2, command
        assert cpu - baseline[0] < 1.0 and peak < 200 * MIB


def test_row07_aliases_within_the_budget_still_load() -> None:
    text = "a: &t " + "x" * 1000 + "\n" + "".join(f"k{i}: *t\n" for i in range(100))
    doc = strictyaml.load(text, aliases=True, node_cap=strictyaml.CARD_NODE_CAP)
    assert doc.data["k99"] == "x" * 1000


# --------------------------------------------------------------------------- row 9


@pytest.fixture(scope="module")
def big_database() -> Any:
    """100,000 cards (built in memory), with the look-up index every check builds first."""
    database = row("row09_unknown_names").database(100_000)
    assert len(database.index) >= 200_000  # ids and names
    return database


def _like(database: Any) -> Any:
    """A new database of the same cards, its look-up index built (as loading does), but not
    yet asked for any suggestion."""
    fresh = get_game("varz").make_database(list(database.cards.values()), None)
    assert len(fresh.index) == len(database.index)
    return fresh


def test_row09_a_1_mib_deck_of_unknown_names_checks_in_2_seconds(
    tmp_path: Path, big_database: Any
) -> None:
    """The deck's whole check, the suggestion index its unknown names need included (the
    better of two runs on fresh databases, so that a burst of load on a shared machine does not
    decide it)."""
    r09 = row("row09_unknown_names")
    deck = tmp_path / "unknown.txt"
    lines = r09.write_deck(deck, MIB)
    assert deck.stat().st_size <= MIB and lines > 55_000
    known = tmp_path / "known.txt"  # a check without unknown names first: the imports
    known.write_text(f"Hero: {r09.names(1)[0]}\n", "utf-8")
    check_deck(known, big_database, date=on_date())
    times = []
    for _ in range(2):
        database = _like(big_database)
        started = time.process_time()
        with cpu_limit(10.0):  # a slow check fails here instead of running for minutes
            report = check_deck(deck, database, date=on_date())
        times.append(time.process_time() - started)
        unknown = [d for d in report.diagnostics if d.code == "F005" and d.section == "spells"]
        assert len(unknown) == 201  # one each for the first 200, then one for the rest
        assert "more than 200 cards of this deck are unknown" in unknown[-1].message
        assert sum("did you mean" in d.message for d in unknown) <= 50
    assert min(times) <= 2.0, f"{times} s of CPU for {lines:,} unknown names"


def test_row09_suggestions_in_a_big_database_find_the_card_meant(big_database: Any) -> None:
    r09 = row("row09_unknown_names")
    meant = r09.names(100_000)[5_000:5_200]
    found = sum(
        name in big_database.suggestions(r09.typo(name, seed)) for seed, name in enumerate(meant)
    )
    assert found >= 190, f"{found} of 200 typos found their card"


def test_row09_suggestions_in_a_big_database_agree_with_a_full_search(
    big_database: Any,
) -> None:
    r09 = row("row09_unknown_names")
    everything = list({normalize(n) for n in r09.names(100_000)})
    for seed, name in enumerate(r09.names(100_000)[70_000:70_001]):
        wanted = normalize(r09.typo(name, seed))
        best = difflib.get_close_matches(wanted, everything, n=1, cutoff=0.6)
        ours = [normalize(s) for s in big_database.suggestions(wanted)]
        assert best[:1] == ours[:1], (wanted, best, ours)


def test_row09_only_the_first_unknown_cards_of_a_deck_get_suggestions(
    tmp_path: Path, bundled_db_path: Path
) -> None:
    database = open_database(bundled_db_path)
    deck = tmp_path / "typos.txt"
    deck.write_text("Hero: Hibiki Kagura\n\nSpells:\n" + "1 Ember Imq\n" * 120, "utf-8")
    report = check_deck(deck, database, date=on_date())
    messages = [d.message for d in report.diagnostics if d.code == "F005"]
    assert len(messages) == 120
    assert all("did you mean 'Ember Imp'" in m for m in messages[:50])
    assert not any("did you mean" in m for m in messages[50:])


# --------------------------------------------------------------------------- row 11


@pytest.mark.parametrize(
    ("schema_name", "sample", "path", "low", "high"), row("row11_huge_card_numbers").BOUNDED
)
def test_row11_card_numbers_are_bounded_and_both_checkers_agree(
    schema_name: str, sample: str, path: tuple[str, ...], low: int, high: int
) -> None:
    card = copy.deepcopy(row("row11_huge_card_numbers").SAMPLES[sample])
    document = schema(schema_name)
    fast = FastSchema(document)
    slow = detail_validator(document)
    for value, valid in (
        (low - 1, False),
        (low, True),
        (high, True),
        (high + 1, False),
        (10**23, False),
        (1e23, False),
        (float(high), True),
    ):
        target = card
        for key in path[:-1]:
            target = target[key]
        target[path[-1]] = value
        instance = {"cards": [card]}
        assert fast.is_valid(instance) == valid, (path, value)
        assert slow.is_valid(instance) == valid, (path, value)


def test_row11_a_cost_of_10_to_the_23_is_c001_and_sim_exits_2(
    tmp_path: Path, private_cache: Path
) -> None:
    r11 = row("row11_huge_card_numbers")
    cards = tmp_path / "db"
    line = r11.write(cards, "cost", str(10**23))
    code, found = lint_json(cards)
    assert code == 1
    assert [(d["code"], d["card"], d["line"]) for d in found] == [("C001", r11.CARD, line)]
    assert "from 0 to 99" in found[0]["message"]
    assert check_json(r11.DECK, cards)[0] == 2
    result = run("sim", r11.DECK, "--cards", cards, "--games", "10")
    assert result.exit_code == 2, result.output


# --------------------------------------------------------------------------- row 13


@pytest.mark.parametrize("case", sorted(row("row13_cache_wrong_shape").BODIES))
@pytest.mark.parametrize("header", [False, True], ids=["bare", "with-header"])
def test_row13_a_cache_file_of_the_wrong_shape_is_rebuilt(
    case: str, header: bool, tmp_path: Path, bundled_db_path: Path, private_cache: Path
) -> None:
    r13 = row("row13_cache_wrong_shape")
    cards = tmp_path / "db"
    shutil.copytree(bundled_db_path / "sets", cards / "sets")
    shutil.copy(bundled_db_path / "formats.yaml", cards)
    fresh = open_database(cards)
    (cached,) = private_cache.glob("db-*.sqlite")
    key = cached.name[len("db-") : -len(".sqlite")]
    body = r13.BODIES[case]
    cached.write_bytes(r13.with_header(body, key) if header else body)
    reopened = open_database(cards)
    assert sorted(reopened.cards) == sorted(fresh.cards)
    assert reopened.cards == fresh.cards
    assert reopened.formats == fresh.formats
    assert cached.read_bytes() != (r13.with_header(body, key) if header else body)  # rebuilt
    assert sorted(open_database(cards).cards) == sorted(fresh.cards)  # and read back


# --------------------------------------------------------------------------- row 17


@pytest.mark.parametrize("kind", row("row17_database_without_cards").KINDS)
def test_row17_a_database_without_cards_is_an_error(
    kind: str, tmp_path: Path, private_cache: Path
) -> None:
    cards = row("row17_database_without_cards").write(tmp_path / kind, kind)
    code, found = lint_json(cards)
    assert code == 1
    assert [d["code"] for d in found] == ["C006"]
    assert str(cards) in found[0]["message"]
    assert lint_database(cards).errors  # the core says so, not only the command line
    deck = ROOT / "examples" / "red-kagura-festival.yaml"
    code, _, output = check_json(deck, cards)
    assert code == 2
    assert str(cards) in output and "C006" in output and "--cards" in output
    assert "F005" not in output
