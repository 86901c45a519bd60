"""`varz-deck cards diff OLD NEW [DECK...]` (issue 28, SPEC §12): what a card-data change changes.

OLD is a copy of the bundled database; NEW differs from it by one card's cost (and its Japanese
name), one ban, and one removed card. The expected lines are written by hand from those edits.
"""

from __future__ import annotations

import datetime
import json
import re
import shutil
from pathlib import Path
from typing import Any

import pytest
from gittools import crafted_commit
from gittools import git as _git

from varz_deck.cli import main
from varz_deck.core.dates import on_date
from varz_deck.core.messages.diagnostics import Diagnostic
from varz_deck.core.report.carddiff import FieldChange, diff_values, list_items

ROOT = Path(__file__).resolve().parent.parent
BUNDLED = ROOT / "card_data" / "varz"
EXAMPLES = ROOT / "examples"
HOSTILE = ROOT / "tests" / "hostile"
TODAY = "2026-12-01"  # tests/conftest.py's today (VARZ_DECK_TODAY), the day decks are checked as of
RAW = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")

EMBER_OLD = (
    "    color: red\n    cost: 1\n    power: 2\n    classes: [fighter]\n    keywords: [haste]"
)
EMBER_NEW = EMBER_OLD.replace("cost: 1", "cost: 2")
MASCOT = re.compile(r"  - id: PR-001\n.*?(?=\n\n  # ---- Reprints)", re.S)


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    """The app in-process: (exit status, stdout, stderr)."""
    try:
        main(list(args))
        code = 0
    except SystemExit as done:
        code = done.code if isinstance(done.code, int) else (0 if done.code is None else 1)
    out, err = capsys.readouterr()
    return code, out, err


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert text.count(old) == 1, old
    path.write_text(text.replace(old, new), encoding="utf-8")


def write_new(new: Path) -> None:
    """NEW: Ember Imp costs 2 and is renamed in Japanese, Scorch Shot is banned, Festival
    Mascot is gone."""
    vz01 = new / "sets" / "vz01.yaml"
    edit(vz01, "{ja: エンバー・インプ,", "{ja: エンバーインプ,")
    edit(vz01, EMBER_OLD, EMBER_NEW)
    edit(new / "formats.yaml", "banned: [VZ01-031]", "banned: [VZ01-031, VZ01-010]")
    pr = new / "sets" / "pr.yaml"
    text = pr.read_text(encoding="utf-8")
    assert MASCOT.search(text)
    pr.write_text(MASCOT.sub("", text), encoding="utf-8")


@pytest.fixture
def dbs(tmp_path: Path) -> tuple[Path, Path]:
    old, new = tmp_path / "old", tmp_path / "new"
    shutil.copytree(BUNDLED, old)
    shutil.copytree(BUNDLED, new)
    write_new(new)
    return old, new


@pytest.fixture
def decks(tmp_path: Path) -> Path:
    folder = tmp_path / "decks"
    folder.mkdir()
    for name in ("red-kagura-festival.yaml", "blue-minase-tide.yaml", "illegal.yaml"):
        shutil.copy2(EXAMPLES / name, folder / name)
    return folder


CARD_LINES = [
    "cards: 0 added, 1 removed, 1 changed",
    "  - PR-001 Festival Mascot (sets/pr.yaml)",
    "  ~ VZ01-007 Ember Imp (sets/vz01.yaml)",
    "      cost: 1 → 2",
    '      names.ja: "エンバー・インプ" → "エンバーインプ"',
    "formats: 0 added, 0 removed, 1 changed",
    "  ~ standard (Standard)",
    "      banned: + VZ01-010 Scorch Shot",
]


# --------------------------------------------------------------------------- databases only


def test_cards_and_formats_are_compared_field_by_field(
    capsys: pytest.CaptureFixture[str], dbs: tuple[Path, Path]
) -> None:
    old, new = dbs
    code, out, err = run(capsys, "cards", "diff", str(old), str(new))
    assert (code, err) == (0, "")
    assert out.splitlines() == [f"{old} → {new}", *CARD_LINES]


def test_the_same_database_twice_has_no_change(
    capsys: pytest.CaptureFixture[str], dbs: tuple[Path, Path]
) -> None:
    old, _ = dbs
    code, out, _ = run(capsys, "cards", "diff", str(old), str(old))
    assert code == 0
    assert out.splitlines()[1:] == [
        "cards: 0 added, 0 removed, 0 changed",
        "formats: 0 added, 0 removed, 0 changed",
    ]


def test_the_reverse_diff_adds_what_was_removed(
    capsys: pytest.CaptureFixture[str], dbs: tuple[Path, Path]
) -> None:
    old, new = dbs
    code, out, _ = run(capsys, "cards", "diff", str(new), str(old))
    assert code == 0
    lines = out.splitlines()
    assert "cards: 1 added, 0 removed, 1 changed" in lines
    assert "  + PR-001 Festival Mascot (sets/pr.yaml)" in lines
    assert "      cost: 2 → 1" in lines
    assert "      banned: - VZ01-010 Scorch Shot" in lines


# --------------------------------------------------------------------------- with decks


def test_a_deck_that_changes_verdict_exits_1_and_shows_both(
    capsys: pytest.CaptureFixture[str], dbs: tuple[Path, Path], decks: Path
) -> None:
    old, new = dbs
    code, out, err = run(capsys, "cards", "diff", str(old), str(new), str(decks))
    assert (code, err) == (1, "")
    lines = out.splitlines()
    assert lines[1 : 1 + len(CARD_LINES)] == CARD_LINES
    rest = lines[1 + len(CARD_LINES) :]
    kagura, illegal = decks / "red-kagura-festival.yaml", decks / "illegal.yaml"
    # three decks checked, in the folder's order; kagura goes from legal to illegal (Scorch Shot, line 12, is banned),
    # illegal.yaml stays illegal with one more error; the blue deck plays none of the changes
    assert rest[0] == f"decks on {TODAY}: 2 of 3 changed, 1 changed verdict"
    assert rest[1] == f"  ✗ {illegal}: illegal → illegal"
    assert rest[2].startswith(f"      + {illegal}:12:3: V115 error: ")
    assert rest[3] == f"  ✗ {kagura}: legal → illegal"
    assert rest[4].startswith(f"      + {kagura}:12:3: V115 error: ")
    assert "Scorch Shot" in rest[4]
    assert len(rest) == 5
    assert "blue-minase-tide" not in out


def test_decks_untouched_by_the_change_exit_0(
    capsys: pytest.CaptureFixture[str], dbs: tuple[Path, Path]
) -> None:
    old, new = dbs
    blue = EXAMPLES / "blue-minase-tide.yaml"
    code, out, _ = run(capsys, "cards", "diff", str(old), str(new), str(blue))
    assert code == 0
    assert out.splitlines()[-1] == f"decks on {TODAY}: 0 of 1 changed, 0 changed verdict"


def test_a_deck_that_only_changes_diagnostics_exits_0(
    capsys: pytest.CaptureFixture[str], dbs: tuple[Path, Path]
) -> None:
    old, new = dbs
    code, out, _ = run(capsys, "cards", "diff", str(old), str(new), str(EXAMPLES / "illegal.yaml"))
    assert code == 0
    assert f"decks on {TODAY}: 1 of 1 changed, 0 changed verdict" in out.splitlines()


def test_a_removed_card_a_deck_plays_changes_its_verdict(
    capsys: pytest.CaptureFixture[str], dbs: tuple[Path, Path], tmp_path: Path
) -> None:
    old, new = dbs
    kagura = (EXAMPLES / "red-kagura-festival.yaml").read_text(encoding="utf-8")
    deck = tmp_path / "mascot.yaml"
    deck.write_text(
        kagura.replace("format: standard", "format: pioneer").replace(
            "  Meteor Lance: 2", "  Meteor Lance: 1\n  PR-001: 1"
        ),
        encoding="utf-8",
    )
    code, out, _ = run(capsys, "cards", "diff", str(old), str(new), str(deck))
    assert code == 1
    lines = out.splitlines()
    assert f"  ✗ {deck}: legal → illegal" in lines
    assert any(line.startswith(f"      + {deck}:22:3: F005 error: ") for line in lines)


# --------------------------------------------------------------------------- JSON


def test_json_carries_every_change_and_both_reports(
    capsys: pytest.CaptureFixture[str], dbs: tuple[Path, Path], decks: Path
) -> None:
    old, new = dbs
    code, out, _ = run(capsys, "cards", "diff", str(old), str(new), str(decks), "-o", "json")
    assert code == 1
    doc = json.loads(out)
    assert list(doc) == [
        "version", "tool", "old", "new", "git", "date", "cards", "formats", "decks", "summary"
    ]  # fmt: skip
    assert doc["version"] == 1
    assert (doc["old"], doc["new"], doc["git"]) == (str(old), str(new), None)
    assert doc["date"] is None  # no --date: today, which each deck's entry names
    assert (
        {d["old"]["date"] for d in doc["decks"]}
        == {d["new"]["date"] for d in doc["decks"]}
        == {TODAY}
    )
    cards = doc["cards"]
    assert [c["id"] for c in cards["removed"]] == ["PR-001"]
    assert cards["removed"][0]["name"] == "Festival Mascot"
    assert cards["removed"][0]["cost"] == 2 and cards["removed"][0]["file"] == "sets/pr.yaml"
    assert "line" not in cards["removed"][0]
    assert cards["added"] == []
    assert cards["changed"] == [
        {
            "id": "VZ01-007",
            "name": "Ember Imp",
            "file": "sets/vz01.yaml",
            "fields": [
                {"path": ["cost"], "old": 1, "new": 2},
                {"path": ["names", "ja"], "old": "エンバー・インプ", "new": "エンバーインプ"},
            ],
        }
    ]
    assert doc["formats"] == {
        "added": [],
        "removed": [],
        "changed": [
            {
                "key": "standard",
                "name": "Standard",
                "fields": [
                    {
                        "path": ["banned"],
                        "old": ["VZ01-031"],
                        "new": ["VZ01-031", "VZ01-010"],
                    }
                ],
            }
        ],
    }
    paths = [d["path"] for d in doc["decks"]]
    assert paths == [str(decks / "illegal.yaml"), str(decks / "red-kagura-festival.yaml")]
    illegal, kagura = doc["decks"]
    assert (illegal["verdict_changed"], kagura["verdict_changed"]) == (False, True)
    assert (kagura["old"]["legal"], kagura["new"]["legal"]) == (True, False)
    assert kagura["old"]["diagnostics"] == []
    assert [d["code"] for d in kagura["new"]["diagnostics"]] == ["V115"]
    assert doc["summary"] == {
        "cards_added": 0,
        "cards_removed": 1,
        "cards_changed": 1,
        "formats_added": 0,
        "formats_removed": 0,
        "formats_changed": 1,
        "decks": 3,
        "decks_changed": 2,
        "verdicts_changed": 1,
    }


# --------------------------------------------------------------------------- usage errors


def test_a_missing_or_invalid_database_is_a_usage_error_naming_it(
    capsys: pytest.CaptureFixture[str], dbs: tuple[Path, Path], tmp_path: Path
) -> None:
    old, new = dbs
    code, out, err = run(capsys, "cards", "diff", str(tmp_path / "nope"), str(new))
    assert (code, out) == (2, "")
    assert f"card database {tmp_path / 'nope'} does not exist" in err
    pr = new / "sets" / "pr.yaml"
    pr.write_text(pr.read_text(encoding="utf-8").replace("PR-002", "VZ01-007"), encoding="utf-8")
    code, out, err = run(capsys, "cards", "diff", str(old), str(new))
    assert (code, out) == (2, "")
    assert f"card database {new} is invalid" in err and "C002" in err
    code, _, err = run(capsys, "cards", "diff", str(old))
    assert code == 2 and "OLD and NEW" in err


def test_databases_of_two_games_are_a_usage_error(
    capsys: pytest.CaptureFixture[str], dbs: tuple[Path, Path]
) -> None:
    old, _ = dbs
    other = ROOT / "card_data" / "azuki"
    code, out, err = run(capsys, "cards", "diff", str(old), str(other))
    assert (code, out) == (2, "")
    assert "two games" in err


# --------------------------------------------------------------------------- hostile input


def test_hostile_names_never_reach_the_screen_raw(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    import importlib.util

    path = next(HOSTILE.glob("row03*.py"))
    spec = importlib.util.spec_from_file_location(path.stem, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    old_db, deck = module.write(tmp_path)
    new_db = tmp_path / "new"
    shutil.copytree(old_db, new_db)
    cards = new_db / "cards.yaml"
    text = cards.read_text(encoding="utf-8")
    text = text.replace("cost: 1, power: 1", "cost: 2, power: 1")  # errata on hostile names
    text = text.replace('name: "Big Gate"', 'name: "Big \\u202e Gate\\e[0m"')
    cards.write_text(text, encoding="utf-8")
    for output in ("text", "json"):
        code, out, err = run(
            capsys, "cards", "diff", str(old_db), str(new_db), str(deck), "-o", output
        )
        assert code in (0, 1), err
        assert not RAW.search(out + err)
        if output == "json":
            doc = json.loads(out)
            assert doc["summary"]["cards_changed"] >= 3


def test_list_items_and_nested_fields() -> None:
    change = FieldChange(("banned",), ["A", "B"], ["B", "C"])
    assert list_items(change) == (["C"], ["A"])
    assert list_items(FieldChange(("sets",), ["A", "B"], ["B", "A"])) is None
    assert list_items(FieldChange(("sets",), None, ["A"])) is None
    found = diff_values({"a": {"x": 1, "y": 2}, "b": 3}, {"a": {"x": 1, "y": 5}, "c": 4})
    assert found == [
        FieldChange(("a", "y"), 2, 5),
        FieldChange(("b",), 3, None),
        FieldChange(("c",), None, 4),
    ]


# --------------------------------------------------------------------------- --git REV


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    if shutil.which("git") is None:
        pytest.skip("needs git")
    repo = tmp_path / "repo"
    shutil.copytree(BUNDLED, repo / "card_data")
    (repo / "README").write_text("not card data\n", encoding="utf-8")
    _git(repo, "init", "-q")
    _git(repo, "add", "-A")
    _git(repo, "commit", "-q", "--no-gpg-sign", "-m", "cards")
    write_new(repo / "card_data")
    return repo


def test_git_diffs_the_folder_against_a_revision(
    capsys: pytest.CaptureFixture[str], repo: Path, tmp_path: Path
) -> None:
    before = sorted(p.relative_to(tmp_path) for p in tmp_path.rglob("*"))
    folder = repo / "card_data"
    code, out, err = run(capsys, "cards", "diff", "--git", "HEAD", str(folder))
    assert (code, err) == (0, "")
    assert out.splitlines() == [f"{folder} at HEAD → {folder}", *CARD_LINES]
    assert sorted(p.relative_to(tmp_path) for p in tmp_path.rglob("*")) == before
    code, out, _ = run(capsys, "cards", "diff", "--git", "HEAD", str(folder), "-o", "json")
    assert code == 0
    assert json.loads(out)["git"] == "HEAD"


def test_git_with_a_deck_reports_its_change(capsys: pytest.CaptureFixture[str], repo: Path) -> None:
    deck = repo / "kagura.yaml"
    shutil.copy2(EXAMPLES / "red-kagura-festival.yaml", deck)
    code, out, _ = run(capsys, "cards", "diff", "--git", "HEAD", str(repo / "card_data"), str(deck))
    assert code == 1
    assert f"  ✗ {deck}: legal → illegal" in out.splitlines()


@pytest.mark.parametrize("rev", ["no-such-rev", "--output=json", "HEAD~5"])
def test_git_with_a_bad_revision_is_a_usage_error(
    capsys: pytest.CaptureFixture[str], repo: Path, rev: str
) -> None:
    code, out, err = run(capsys, "cards", "diff", "--git", rev, str(repo / "card_data"))
    assert (code, out) == (2, "")
    assert "not a revision" in err


def test_git_outside_a_repository_is_a_usage_error(
    capsys: pytest.CaptureFixture[str], dbs: tuple[Path, Path]
) -> None:
    if shutil.which("git") is None:
        pytest.skip("needs git")
    _, new = dbs
    code, out, err = run(capsys, "cards", "diff", "--git", "HEAD", str(new))
    assert (code, out) == (2, "")
    assert "not in a git repository" in err


def test_git_with_a_folder_added_since_diffs_against_nothing(
    capsys: pytest.CaptureFixture[str], repo: Path
) -> None:
    shutil.copytree(BUNDLED, repo / "more")
    code, out, err = run(capsys, "cards", "diff", "--git", "HEAD", str(repo / "more"))
    assert code == 0, err
    ids = sum(p.read_text(encoding="utf-8").count("\n  - id: ") for p in BUNDLED.rglob("*.yaml"))
    lines = out.splitlines()
    assert lines[1] == f"{repo / 'more'} did not exist at HEAD: every card is new"
    assert lines[2] == f"cards: {ids} added, 0 removed, 0 changed"
    # a folder without formats.yaml has the built-in formats (SPEC §1): the sample ban is new
    assert "      banned: + VZ01-031 Grove Tender" in lines


def test_git_head_before_the_first_commit_diffs_against_nothing(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    if shutil.which("git") is None:
        pytest.skip("needs git")
    repo = tmp_path / "fresh"
    shutil.copytree(BUNDLED, repo / "card_data")
    _git(repo, "init", "-q")
    code, out, err = run(capsys, "cards", "diff", "--git", "HEAD", str(repo / "card_data"))
    assert code == 0, err
    assert out.splitlines()[1] == f"{repo / 'card_data'} did not exist at HEAD: every card is new"
    code, _, err = run(capsys, "cards", "diff", "--git", "main~1", str(repo / "card_data"))
    assert code == 2 and "not a revision" in err


def test_a_list_of_mappings_shows_each_item_added_or_removed() -> None:
    """Dated changes (or any list of mappings a format gains) are compared over to_json: one
    line per change added or removed, written as formats.yaml writes it, empty values left out."""
    from varz_deck.core.cards.model import CardDatabase, Format, FormatChange
    from varz_deck.core.report.carddiff import diff_databases, render_text

    ban = FormatChange(datetime.date(2027, 1, 15), banned=("X-1",))
    unban = FormatChange(datetime.date(2027, 3, 1), unbanned=("X-2",))
    old: CardDatabase[Any] = CardDatabase(
        [], {"standard": Format("standard", "Standard", changes=(unban,))}
    )
    new_format = Format("standard", "Standard", extra={"max": 2}, changes=(ban,))
    new: CardDatabase[Any] = CardDatabase([], {"standard": new_format})
    found = diff_databases(old, new, ("a", "b"), (Path("a"), Path("b")), day=TODAY)
    assert render_text(found).splitlines() == [
        "a → b",
        "cards: 0 added, 0 removed, 0 changed",
        "formats: 0 added, 0 removed, 1 changed",
        "  ~ standard (Standard)",
        "      changes:",
        "        + {date: 2027-01-15, banned: [X-1]}",
        "        - {date: 2027-03-01, unbanned: [X-2]}",
        "      max: null → 2",
    ]


def test_only_regular_files_inside_the_folder_are_taken_from_git() -> None:
    """`ls-tree -r -l -z` entries: a symlink, a submodule, a path with `..` or `.git`, and a
    file below the root that is not YAML are left out; a root file of any name is kept (a
    misnamed formats file is reported, C007)."""
    from varz_deck.core.cards.gitfolder import _wanted

    entries = [
        b"100644 blob aaa      12\tsets/a.yaml",
        b"100755 blob bbb       3\tformats.yml",
        b"100644 blob ccc       5\tFormats.yaml.txt",
        b"120000 blob ddd       9\tsets/link.yaml",
        b"160000 commit eee       -\tvendor",
        b"100644 blob fff       1\tsets/../../escape.yaml",
        b"100644 blob ggg       1\t.git/x.yaml",
        b"100644 blob hhh       1\tsets/art.png",
        b"100644 blob iii      99\tsets/B.YML",
    ]
    assert _wanted(b"\0".join(entries) + b"\0") == [
        (b"aaa", 12, b"sets/a.yaml"),
        (b"bbb", 3, b"formats.yml"),
        (b"ccc", 5, b"Formats.yaml.txt"),
        (b"iii", 99, b"sets/B.YML"),
    ]


LONG_NAME = "x" * 295 + ".yaml"  # 300 bytes: more than a file name may have (255 on Linux)
MISSING = "1" * 40  # an object the repository does not have


@pytest.mark.parametrize(
    ("entry", "shown", "problem"),
    [
        ("100644 blob {pr}\tpr.yaml", "sets/pr.yaml", "is in the tree twice"),
        ("100755 blob {pr}\tpr.yaml", "sets/pr.yaml", "is in the tree twice"),
        (f"100644 blob {{pr}}\t{LONG_NAME}", f"sets/{'x' * 60}", "cannot be written to a folder"),
        (f"100644 blob {MISSING}\tzz.yaml", "sets/zz.yaml", "is missing from the repository"),
    ],
    ids=["twice", "twice, another mode", "a 300-byte name", "a missing blob"],
)
def test_git_with_a_tree_git_would_not_write_names_the_entry(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    repo: Path,
    entry: str,
    shown: str,
    problem: str,
) -> None:
    """Trees made with git's plumbing: a name twice, a name no file system takes, a blob the
    repository has not got. Each is exit 2 naming the entry, never a traceback (exit 3) or a
    file read as 16 MiB of nothing."""
    pr = _git(repo, "rev-parse", "HEAD:card_data/sets/pr.yaml")
    commit = crafted_commit(repo, "card_data/sets", entry.format(pr=pr))
    monkeypatch.chdir(repo)  # a short path: a long one is cut in the message
    folder = Path("card_data")
    code, out, err = run(capsys, "cards", "diff", "--git", commit, str(folder))
    assert (code, out) == (2, ""), err
    assert err.startswith(f"varz-deck: '{folder}' at '{commit}' cannot be read: its entry '")
    assert shown in err and problem in err
    assert "16,777,217" not in err


def test_git_with_a_file_where_a_folder_must_go_names_the_entry(
    capsys: pytest.CaptureFixture[str], repo: Path
) -> None:
    """A root file named `sets` beside the folder `sets`: one of them cannot be written."""
    pr = _git(repo, "rev-parse", "HEAD:card_data/sets/pr.yaml")
    commit = crafted_commit(repo, "card_data", f"100644 blob {pr}\tsets")
    code, out, err = run(capsys, "cards", "diff", "--git", commit, str(repo / "card_data"))
    assert (code, out) == (2, ""), err
    assert "cannot be written to a folder" in err and "its entry 'sets/" in err


def test_a_blob_missing_by_the_time_cat_file_reads_it_is_said_so(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`cat-file --batch` answers `<object> missing` (a header, no content): said so, and the
    objects after it are not read from the wrong place."""
    from varz_deck.core.cards import gitfolder

    answer = b"aaa blob 3\nab\n\nbbb missing\n"
    monkeypatch.setattr(gitfolder, "_git", lambda *args, **kwargs: answer)
    wanted = [(b"aaa", 3, b"sets/a.yaml"), (b"bbb", 3, b"sets/b.yaml")]
    with pytest.raises(gitfolder._BadEntry) as found:
        gitfolder._write("git", tmp_path, wanted, tmp_path / "out", tmp_path, "HEAD")
    assert found.value.path == b"sets/b.yaml"
    assert "missing" in found.value.problem.render()
    assert (tmp_path / "out" / "sets" / "a.yaml").read_bytes() == b"ab\n"


def test_a_blob_without_a_size_in_the_listing_is_missing() -> None:
    from varz_deck.core.cards import gitfolder

    with pytest.raises(gitfolder._BadEntry) as found:
        gitfolder._wanted(b"100644 blob aaa -\tsets/a.yaml\0")
    assert found.value.path == b"sets/a.yaml"
    assert "missing" in found.value.problem.render()


def test_a_folder_or_file_that_is_no_database_is_a_usage_error(
    capsys: pytest.CaptureFixture[str], dbs: tuple[Path, Path], tmp_path: Path
) -> None:
    old, _ = dbs
    file = tmp_path / "cards.yaml"
    file.write_text("cards: []\n", encoding="utf-8")
    code, out, err = run(capsys, "cards", "diff", str(old), str(file))
    assert (code, out) == (2, "")
    assert f"card database {file} is not a folder" in err
    empty = tmp_path / "empty"
    empty.mkdir()
    code, out, err = run(capsys, "cards", "diff", str(empty), str(old))
    assert (code, out) == (2, "")
    assert f"card database {empty} is invalid" in err and "C006" in err


def test_a_deck_that_cannot_be_read_is_no_change(
    capsys: pytest.CaptureFixture[str], dbs: tuple[Path, Path], tmp_path: Path
) -> None:
    old, new = dbs
    junk = tmp_path / "junk.yaml"
    junk.write_bytes(b"\xff\xfe\x00 not a deck: [")
    code, out, _ = run(capsys, "cards", "diff", str(old), str(new), str(junk), str(tmp_path / "x"))
    assert code == 0
    assert out.splitlines()[-1] == f"decks on {TODAY}: 0 of 2 changed, 0 changed verdict"


def test_git_with_an_invalid_database_at_the_revision_names_it(
    capsys: pytest.CaptureFixture[str], repo: Path
) -> None:
    folder = repo / "card_data"
    pr = folder / "sets" / "pr.yaml"
    pr.write_text(pr.read_text(encoding="utf-8").replace("PR-002", "VZ01-007"), encoding="utf-8")
    _git(repo, "commit", "-q", "--no-gpg-sign", "-am", "a duplicate id")
    pr.write_text(pr.read_text(encoding="utf-8").replace("VZ01-007", "PR-002"), encoding="utf-8")
    code, out, err = run(capsys, "cards", "diff", "--git", "HEAD", str(folder))
    assert (code, out) == (2, "")
    assert err.startswith(
        f"varz-deck: card database {folder} at HEAD is invalid: 1 problem (first: "
    )
    assert f"{folder} at HEAD/sets/" in err and "C002" in err
    assert "git worktree add" in err


def test_on_a_terminal_long_lines_wrap_with_a_hanging_indent(
    capsys: pytest.CaptureFixture[str],
    dbs: tuple[Path, Path],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from rich.cells import cell_len

    monkeypatch.chdir(dbs[0].parent)
    kagura = EXAMPLES / "red-kagura-festival.yaml"
    for lang in ("en", "ja", "zh"):
        monkeypatch.setenv("COLUMNS", "60")
        code, out, _ = run(capsys, "cards", "diff", "old", "new", str(kagura), "--lang", lang)
        assert code == 1
        assert all(cell_len(line) <= 60 for line in out.splitlines())
        monkeypatch.delenv("COLUMNS")
        _, piped, _ = run(capsys, "cards", "diff", "old", "new", str(kagura), "--lang", lang)
        assert any(cell_len(line) > 60 for line in piped.splitlines())  # piped: one line each
        assert "".join(out.split()) == "".join(piped.split())  # the same text, wrapped


# --------------------------------------------------------------------------- dated changes


def test_a_dated_ban_changes_a_verdict_from_its_day(
    capsys: pytest.CaptureFixture[str], dbs: tuple[Path, Path]
) -> None:
    """Counterwave (VZ01-018, three in the blue deck) banned from 2027-01-15 in NEW: on the
    14th the deck stays legal but is warned (W203); on the 15th it is illegal (V115)."""
    old, new = dbs
    edit(
        new / "formats.yaml",
        "    restricted: {VZ01-040: 1}",
        "    restricted: {VZ01-040: 1}\n    changes:\n      - date: 2027-01-15\n"
        "        banned: [VZ01-018]",
    )
    blue = EXAMPLES / "blue-minase-tide.yaml"
    code, out, err = run(
        capsys, "cards", "diff", str(old), str(new), str(blue), "--date", "2027-01-14"
    )
    assert (code, err) == (0, "")
    lines = out.splitlines()
    assert lines[7:12] == [
        "  ~ standard (Standard)",
        "      banned: + VZ01-010 Scorch Shot",
        "      changes:",
        "        + {date: 2027-01-15, banned: [VZ01-018 Counterwave]}",
        "decks on 2027-01-14: 1 of 1 changed, 0 changed verdict",
    ]
    assert lines[12] == f"  ✓ {blue}: legal → legal"
    # Counterwave is the deck's line 9 ("  Counterwave: 3"), its name at column 3
    ban = "'Counterwave' is banned from 2027-01-15, in 1 day"
    assert lines[13:] == [f"      + {blue}:9:3: W203 warning: {ban}"]
    code, out, _ = run(
        capsys, "cards", "diff", str(old), str(new), str(blue), "--date", "2027-01-15"
    )
    assert code == 1
    lines = out.splitlines()
    assert "decks on 2027-01-15: 1 of 1 changed, 1 changed verdict" in lines
    assert f"  ✗ {blue}: legal → illegal" in lines
    banned = "'Counterwave' is banned in Standard since 2027-01-15; replace it"
    assert lines[-1] == f"      + {blue}:9:3: V115 error: {banned}"
    code, out, _ = run(
        capsys, "cards", "diff", str(old), str(new), str(blue), "--date", "2027-01-15", "-o", "json"
    )
    doc = json.loads(out)
    assert doc["date"] == "2027-01-15"
    assert doc["decks"][0]["new"]["date"] == "2027-01-15"
    fields = doc["formats"]["changed"][0]["fields"]
    assert {"path": ["changes"], "old": [], "new": [
        {"date": "2027-01-15", "banned": ["VZ01-018"], "unbanned": [], "restricted": {},
         "unrestricted": [], "sets": None}
    ]} in fields  # fmt: skip


def test_a_malformed_date_is_a_usage_error(
    capsys: pytest.CaptureFixture[str], dbs: tuple[Path, Path]
) -> None:
    old, new = dbs
    code, out, err = run(capsys, "cards", "diff", str(old), str(new), "--date", "2027-02-30")
    assert (code, out) == (2, "")
    assert "2027-02-30" in err


def test_the_reverse_diff_with_decks_and_formats_added_and_removed(
    capsys: pytest.CaptureFixture[str], dbs: tuple[Path, Path]
) -> None:
    """NEW -> OLD: the ban is lifted (kagura becomes legal, its V115 goes), the removed card
    comes back; and a format added and one removed."""
    old, new = dbs
    edit(old / "formats.yaml", "  pioneer:\n    name: Pioneer", "  legacy:\n    name: Legacy")
    kagura = EXAMPLES / "red-kagura-festival.yaml"
    code, out, _ = run(capsys, "cards", "diff", str(new), str(old), str(kagura))
    assert code == 1
    lines = out.splitlines()
    assert lines[1:4] == [
        "cards: 1 added, 0 removed, 1 changed",
        "  + PR-001 Festival Mascot (sets/pr.yaml)",
        "  ~ VZ01-007 Ember Imp (sets/vz01.yaml)",
    ]
    assert lines[6:11] == [
        "formats: 1 added, 1 removed, 1 changed",
        "  + legacy (Legacy)",
        "  - pioneer (Pioneer)",
        "  ~ standard (Standard)",
        "      banned: - VZ01-010 Scorch Shot",
    ]
    assert lines[11:13] == [
        f"decks on {TODAY}: 1 of 1 changed, 1 changed verdict",
        f"  ✓ {kagura}: illegal → legal",
    ]
    assert lines[13].startswith(f"      - {kagura}:12:3: V115 error: ")
    assert len(lines) == 14
    code, out, _ = run(capsys, "cards", "diff", str(new), str(old), "-o", "json")
    doc = json.loads(out)
    added = doc["cards"]["added"]
    assert [(c["id"], c["file"], c["cost"]) for c in added] == [("PR-001", "sets/pr.yaml", 2)]
    formats = doc["formats"]
    assert [(f["key"], f["name"]) for f in formats["added"]] == [("legacy", "Legacy")]
    assert [(f["key"], f["name"]) for f in formats["removed"]] == [("pioneer", "Pioneer")]
    assert formats["added"][0]["portals"] == "pooled"  # a game's own field, as formats.yaml has it


def test_text_in_japanese(capsys: pytest.CaptureFixture[str], dbs: tuple[Path, Path]) -> None:
    old, new = dbs
    kagura = EXAMPLES / "red-kagura-festival.yaml"
    code, out, _ = run(capsys, "cards", "diff", str(old), str(new), str(kagura), "--lang", "ja")
    assert code == 1
    lines = out.splitlines()
    assert lines[1] == "カード：追加 0、削除 1、変更 1"
    assert lines[2] == "  - PR-001 お祭りマスコット（sets/pr.yaml）"
    assert "  ~ standard（スタンダード）" in lines
    assert f"デッキ（{TODAY} 時点）：1 個中 1 個が変化、1 個で判定が変化" in lines
    assert "      banned: + VZ01-010 スコーチショット" in lines
    assert f"  ✗ {kagura}：使用可能 → 使用不可" in lines
    assert lines[-1].startswith(f"      + {kagura}:12:3: V115 エラー: ")


def test_a_diagnostic_without_a_place_is_shown_with_its_file() -> None:
    from varz_deck.core.messages.diagnostics import Severity
    from varz_deck.core.report.carddiff import _diagnostic_line

    d = Diagnostic("F001", Severity.ERROR, "cannot be read", file="decks/x.yaml")
    assert _diagnostic_line(d, "en") == "decks/x.yaml: F001 error: cannot be read"
    d = Diagnostic("V105", Severity.WARNING, "short", file="x.yaml", line=3)
    assert _diagnostic_line(d, "en") == "x.yaml:3:1: V105 warning: short"


def test_the_readme_dated_database_is_the_bundled_one_with_one_dated_ban(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """tests/data/dated_ban (the README's worked example) differs from the bundled database by
    Scorch Shot's ban from 2027-01-15 alone: the red deck, three Scorch Shots on its line 12,
    is warned on the 10th (5 days ahead) and illegal from the 15th."""
    dated = ROOT / "tests" / "data" / "dated_ban"
    kagura = EXAMPLES / "red-kagura-festival.yaml"
    head = [
        f"{BUNDLED} → {dated}",
        "cards: 0 added, 0 removed, 0 changed",
        "formats: 0 added, 0 removed, 1 changed",
        "  ~ standard (Standard)",
        "      changes:",
        "        + {date: 2027-01-15, banned: [VZ01-010 Scorch Shot]}",
    ]
    code, out, _ = run(
        capsys, "cards", "diff", str(BUNDLED), str(dated), str(kagura), "--date", "2027-01-10"
    )
    assert code == 0
    assert out.splitlines() == [
        *head,
        "decks on 2027-01-10: 1 of 1 changed, 0 changed verdict",
        f"  ✓ {kagura}: legal → legal",
        f"      + {kagura}:12:3: W203 warning: 'Scorch Shot' is banned from 2027-01-15, in 5 days",
    ]
    code, out, _ = run(
        capsys, "cards", "diff", str(BUNDLED), str(dated), str(kagura), "--date", "2027-01-15"
    )
    assert code == 1
    assert out.splitlines() == [
        *head,
        "decks on 2027-01-15: 1 of 1 changed, 1 changed verdict",
        f"  ✗ {kagura}: legal → illegal",
        f"      + {kagura}:12:3: V115 error: 'Scorch Shot' is banned in Standard since 2027-01-15; "
        "replace it",
    ]


def test_the_day_shown_is_the_day_given_else_the_date_else_today() -> None:
    """diff_databases called without the CLI: the decks line names `day`, else `date` (--date),
    else today (tests/conftest.py's)."""
    from varz_deck.core.report.carddiff import diff_databases, render_text
    from varz_deck.games import check_decks, open_database

    db = open_database(BUNDLED)
    reports = check_decks([EXAMPLES / "blue-minase-tide.yaml"], db, date=on_date())
    both, pair = (reports, reports), (BUNDLED, BUNDLED)

    def last_line(found: Any) -> str:
        return str(render_text(found).splitlines()[-1])

    given = diff_databases(db, db, ("a", "b"), pair, both, day="2027-01-14", date="2027-01-15")
    assert (given.date, given.day) == ("2027-01-15", "2027-01-14")
    assert last_line(given) == "decks on 2027-01-14: 0 of 1 changed, 0 changed verdict"
    today = diff_databases(db, db, ("a", "b"), pair, both, day=TODAY)  # no --date: the CLI's day
    assert today.date is None
    assert last_line(today) == f"decks on {TODAY}: 0 of 1 changed, 0 changed verdict"


def test_values_nested_past_the_limit_are_compared_and_shown_whole() -> None:
    """Past 16 levels (MAX_DEPTH) a mapping is one value: compared whole, and shown as JSON."""
    from varz_deck.core.cards.model import CardDatabase
    from varz_deck.core.report.carddiff import _item, diff_databases

    def deep(levels: int, leaf: Any) -> Any:
        return leaf if levels == 0 else {"k": deep(levels - 1, leaf)}

    assert diff_values(deep(20, 1), deep(20, 2)) == [
        FieldChange(("k",) * 16, deep(4, 1), deep(4, 2))
    ]
    empty: CardDatabase[Any] = CardDatabase([], {})
    found = diff_databases(empty, empty, ("a", "b"), (Path("a"), Path("b")), day=TODAY)
    shown = "{k: " * 16 + '{"k": {"k": {"k": {"k": "x"}}}}' + "}" * 16
    assert _item(deep(20, "x"), found, "en") == shown


@pytest.mark.parametrize("step", ["ls-tree", "cat-file"])
def test_git_failing_to_list_or_read_the_tree_names_the_folder_the_revision_and_the_step(
    repo: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, step: str
) -> None:
    """git answering the revision and the tree's type, then failing at `step`: a usage error
    naming what could not be read."""
    from varz_deck.core.cards import gitfolder

    real = gitfolder._git
    stop = ("ls-tree",) if step == "ls-tree" else ("cat-file", "--batch")

    def failing(git: str, cwd: Path, *args: str, stdin: bytes | None = None) -> bytes | None:
        return None if args[: len(stop)] == stop else real(git, cwd, *args, stdin=stdin)

    monkeypatch.setattr(gitfolder, "_git", failing)
    monkeypatch.chdir(repo)  # a short path: a long one is cut in the message
    folder = Path("card_data")
    with pytest.raises(gitfolder.GitError) as raised:
        gitfolder.export(folder, "HEAD", tmp_path / "out")
    assert str(raised.value) == f"git could not read '{folder}' at 'HEAD': {step}"


def test_git_outside_a_repository_names_the_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    if shutil.which("git") is None:
        pytest.skip("needs git")
    from varz_deck.core.cards import gitfolder

    (tmp_path / "cards").mkdir()
    monkeypatch.chdir(tmp_path)  # a short path: a long one is cut in the message
    with pytest.raises(gitfolder.GitError) as raised:
        gitfolder.export(Path("cards"), "HEAD", tmp_path / "out")
    assert str(raised.value) == "'cards' is not in a git repository; --git needs one"


def test_a_file_of_exactly_the_card_file_limit_is_read_not_replaced(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """16 MiB exactly is within the limit: its bytes are written as git gives them (a file one
    byte over is written as that many bytes of nothing)."""
    from varz_deck.core.cards import gitfolder

    limit = 16 * 1024 * 1024
    content = b"a" * limit
    answer = b"aaa blob %d\n" % limit + content + b"\n"
    monkeypatch.setattr(gitfolder, "_git", lambda *args, **kwargs: answer)
    out = tmp_path / "out"
    gitfolder._write("git", tmp_path, [(b"aaa", limit, b"a.yaml")], out, tmp_path, "HEAD")
    assert (out / "a.yaml").read_bytes() == content


def test_a_path_through_dot_dot_dot_or_git_is_not_read() -> None:
    from varz_deck.core.cards import gitfolder

    listing = b"".join(
        b"100644 blob %s 3\t%s\0" % (obj, path)
        for obj, path in [
            (b"aaa", b"sets/./a.yaml"),
            (b"bbb", b"./b.yaml"),
            (b"ccc", b"sets/../c.yaml"),
            (b"ddd", b".git/d.yaml"),
            (b"eee", b"sets//e.yaml"),
            (b"fff", b"sets/f.yaml"),
        ]
    )
    assert gitfolder._wanted(listing) == [(b"fff", 3, b"sets/f.yaml")]
