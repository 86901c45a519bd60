"""The game registry meets hostile plugins and a damaged record: a clash of keys or codes is
refused naming both distributions, whatever the order the packages are found in; a game that
fails (on import, in detection, in its rules) fails only the commands that need it, with exit 2
naming it; a record of the registry that cannot be right is read again. Each plugin is a folder
with a `.dist-info` on the import path of `varz-deck` run as a subprocess (tests/plugintools.py)."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from plugintools import distribution, reef, varz_deck, with_rules

from varz_deck import __version__

ROOT = Path(__file__).resolve().parent.parent
VARZ_DECK = ROOT / "examples" / "red-kagura-festival.yaml"
AZUKI_DECK = ROOT / "examples" / "azuki" / "stt02-shao-water.yaml"
VARZ_DB = ROOT / "card_data" / "varz"
OURS = f"varz-deck {__version__}"
ORDERS = ["before", "after"]  # the plugins first on the import path, or behind the packages


def _place(order: str, *folders: Path) -> dict[str, list[Path]]:
    """The folders before the installed packages, or after them in the reverse order."""
    return {"before": list(folders)} if order == "before" else {"after": list(reversed(folders))}


@pytest.fixture
def reef_deck(tmp_path: Path) -> Path:
    deck = tmp_path / "deck.reef.txt"
    deck.write_text("reef\nAZK01-122\n", encoding="utf-8")
    return deck


# --------------------------------------------------------------------------- a damaged record


def _check(cache: Path, *args: str, env: dict[str, str] | None = None) -> tuple[int, str, str]:
    done = varz_deck("check", *args, cache=cache, env=env)
    return done.returncode, done.stdout, done.stderr


@pytest.mark.parametrize(
    "content", ["{}", "[1, 2]", '{"games": 3, "default": "x", "fingerprint": []}', "\x00\xff", ""]
)
def test_a_damaged_registry_cache_is_read_again(tmp_path: Path, content: str) -> None:
    (tmp_path / "games.json").write_text(content, encoding="utf-8", errors="surrogateescape")
    code, _, err = _check(tmp_path, str(VARZ_DECK))
    assert (code, err) == (0, "")
    assert set(json.loads((tmp_path / "games.json").read_text())["games"]) >= {"varz", "azuki"}


def _no_games(record: dict) -> None:
    record["games"], record["default"] = {}, None


def _without_varz(record: dict) -> None:
    del record["games"]["varz"]
    record["default"] = "azuki"


def _swapped(record: dict) -> None:
    record["games"]["varz"], record["games"]["azuki"] = (
        record["games"]["azuki"],
        record["games"]["varz"],
    )


@pytest.mark.parametrize("damage", [_no_games, _without_varz, _swapped], ids=lambda f: f.__name__)
def test_a_record_that_cannot_be_right_is_read_again(tmp_path: Path, damage) -> None:
    """The record of the registry, edited (its fingerprint still right): read again from the
    installed packages, never trusted to check a VARZ deck as Azuki or to exit 3."""
    assert _check(tmp_path, str(VARZ_DECK))[0] == 0
    record = json.loads((tmp_path / "games.json").read_text(encoding="utf-8"))
    damage(record)
    (tmp_path / "games.json").write_text(json.dumps(record), encoding="utf-8")
    code, out, err = _check(tmp_path, str(VARZ_DECK), "--output", "json")
    assert (code, err) == (0, "")
    assert [d["legal"] for d in json.loads(out)["decks"]] == [True]
    again = json.loads((tmp_path / "games.json").read_text(encoding="utf-8"))
    assert set(again["games"]) >= {"varz", "azuki"} and again["default"] == "varz"


@pytest.mark.parametrize("depth", [100_000, 2_000_000])
def test_a_deeply_nested_record_is_read_again(tmp_path: Path, depth: int) -> None:
    (tmp_path / "games.json").write_text("[" * depth + "]" * depth, encoding="utf-8")
    code, _, err = _check(tmp_path, str(VARZ_DECK))
    assert (code, err) == (0, "")
    assert "Traceback" not in err


def test_cache_clear_removes_the_record(tmp_path: Path) -> None:
    assert _check(tmp_path, str(VARZ_DECK))[0] == 0
    assert (tmp_path / "games.json").is_file()
    done = varz_deck("cache", "clear", cache=tmp_path)
    assert done.returncode == 0, done.stderr
    assert not (tmp_path / "games.json").exists()
    assert _check(tmp_path, str(VARZ_DECK))[0] == 0  # and it is made again


def test_a_reinstall_of_the_same_version_is_seen(tmp_path: Path) -> None:
    """A plugin author adds an entry point and reinstalls the same version: the metadata
    folder's own time may not change (its file is rewritten in place), the record must."""
    plugin = reef(tmp_path / "plugin")
    cache = tmp_path / "cache"
    done = varz_deck("check", "--game", "nosuch", VARZ_DECK, cache=cache, before=[plugin])
    assert "known: varz, azuki, reef\n" in done.stderr
    info = plugin / "reef_game-1.0.dist-info"
    held = os.stat(info)
    points = info / "entry_points.txt"
    points.write_text(points.read_text() + "atoll = reef_game:GAME\n", encoding="utf-8")
    later = os.stat(points).st_mtime_ns + 5_000_000_000
    os.utime(points, ns=(later, later))
    os.utime(info, ns=(held.st_atime_ns, held.st_mtime_ns))
    done = varz_deck("check", "--game", "nosuch", VARZ_DECK, cache=cache, before=[plugin])
    assert "known: varz, atoll, azuki, reef\n" in done.stderr


# --------------------------------------------------------------------------- a clash of keys


def test_a_plugin_claiming_a_bundled_key_is_refused_naming_both(tmp_path: Path) -> None:
    """A package registering another game under `varz` never replaces the bundled game
    unnoticed: the key is refused, naming both packages, whichever is found first."""
    plugin = distribution(tmp_path / "p", "evil-varz", {"varz": "varz_deck.games.azuki:GAME"}, {})
    plugin_info = plugin / "evil_varz-1.0.dist-info"
    plugin_info.rename(plugin / "evil_varz-6.6.dist-info")
    text = (plugin / "evil_varz-6.6.dist-info" / "METADATA").read_text()
    (plugin / "evil_varz-6.6.dist-info" / "METADATA").write_text(text.replace("1.0", "6.6"))
    want = (
        "varz-deck: the game varz is registered by more than one package: "
        f"{OURS} (varz_deck.games.varz:GAME), evil-varz 6.6 (varz_deck.games.azuki:GAME); "
        "uninstall all but one of them\n"
    )
    for order in ORDERS:
        done = varz_deck("check", VARZ_DECK, cache=tmp_path / order, **_place(order, plugin))
        assert (done.returncode, done.stderr) == (2, want), order
        done = varz_deck(
            "check", "--game", "azuki", AZUKI_DECK, cache=tmp_path / order, **_place(order, plugin)
        )
        assert (done.returncode, done.stderr) == (0, ""), order  # the other games are untouched


def test_two_plugins_claiming_one_key_are_both_refused_whatever_the_order(tmp_path: Path) -> None:
    beta = distribution(tmp_path / "b", "beta-dist", {"zeta": "varz_deck.games.azuki:GAME"})
    alpha = distribution(tmp_path / "a", "alpha-dist", {"zeta": "varz_deck.games.varz:GAME"})
    want = (
        "varz-deck: the game zeta is registered by more than one package: "
        "alpha-dist 1.0 (varz_deck.games.varz:GAME), beta-dist 1.0 (varz_deck.games.azuki:GAME); "
        "uninstall all but one of them\n"
    )
    for order in ORDERS:
        for folders in ((alpha, beta), (beta, alpha)):
            cache = tmp_path / f"{order}-{folders[0].name}"
            done = varz_deck(
                "check", "--game", "zeta", VARZ_DECK, cache=cache, **_place(order, *folders)
            )
            assert (done.returncode, done.stderr) == (2, want), (order, folders)


def test_the_same_game_registered_twice_is_no_clash(tmp_path: Path) -> None:
    plugin = distribution(tmp_path / "p", "echo-dist", {"varz": "varz_deck.games.varz:GAME"})
    for order in ORDERS:
        done = varz_deck("check", VARZ_DECK, cache=tmp_path / order, **_place(order, plugin))
        assert (done.returncode, done.stderr) == (0, ""), order


# --------------------------------------------------------------------------- a broken import

BROKEN = """
from pathlib import Path

Path(__file__).with_name("imported").touch()
raise RuntimeError("half installed")
"""
BROKEN_SAYS = (
    "varz-deck: the game broken (broken-game 1.0) cannot be loaded from its entry point "
    "broken_game:GAME (RuntimeError: half installed); reinstall the package that provides it, "
    "or uninstall it\n"
)


@pytest.fixture
def broken(tmp_path: Path) -> Path:
    return distribution(
        tmp_path / "broken", "broken-game", {"broken": "broken_game:GAME"}, {"broken_game": BROKEN}
    )


def test_a_broken_plugin_game_is_named_with_exit_2(tmp_path: Path, broken: Path) -> None:
    deck = tmp_path / "deck.yaml"
    deck.write_text("hero: Nobody\n", encoding="utf-8")
    done = varz_deck("check", "--game", "broken", deck, cache=tmp_path / "cache", before=[broken])
    assert (done.returncode, done.stderr) == (2, BROKEN_SAYS)


@pytest.mark.parametrize(
    "args",
    [
        ["--version"],
        ["--help"],
        ["rules", "V101"],
        ["rules", "A105"],
        ["cards", "lint", str(VARZ_DB)],
        ["cards", "lint", "--output", "sarif", str(VARZ_DB)],
        ["cache", "info"],
        ["schema", "card"],
        ["check", str(VARZ_DECK)],
        ["check", str(AZUKI_DECK)],  # not the default game's: every game is asked whose it is
        ["check", "--help"],
        ["sim", str(AZUKI_DECK), "--games", "50"],
    ],
    ids=" ".join,
)
def test_a_broken_plugin_fails_only_the_commands_that_need_it(
    tmp_path: Path, broken: Path, args: list[str]
) -> None:
    for order in ORDERS:
        done = varz_deck(*args, cache=tmp_path / order, **_place(order, broken))
        assert (done.returncode, done.stderr) == (0, ""), (order, done.stderr)


@pytest.mark.parametrize("args", [["--version"], ["--help"]], ids=" ".join)
def test_version_and_help_import_no_plugin(tmp_path: Path, broken: Path, args: list[str]) -> None:
    done = varz_deck(*args, cache=tmp_path, before=[broken])
    assert done.returncode == 0
    assert not (broken / "imported").exists()


def test_rules_lists_the_other_games_and_names_the_broken_one(tmp_path: Path, broken: Path) -> None:
    done = varz_deck("rules", cache=tmp_path, before=[broken])
    assert (done.returncode, done.stderr) == (2, BROKEN_SAYS)
    assert {"F001", "C001", "V101", "W202", "A101", "A201"} <= set(done.stdout.split())


def test_a_deck_no_working_game_claims_names_the_broken_one(tmp_path: Path, broken: Path) -> None:
    """It may be the broken game's deck: said so, not a cascade of another game's errors."""
    deck = tmp_path / "deck.yaml"
    deck.write_text("nobody: here\n", encoding="utf-8")
    done = varz_deck("check", deck, cache=tmp_path / "cache", before=[broken])
    assert (done.returncode, done.stderr) == (2, BROKEN_SAYS)


def test_an_unknown_code_may_be_the_broken_game_s(tmp_path: Path, broken: Path) -> None:
    done = varz_deck("rules", "Q123", cache=tmp_path, before=[broken])
    assert done.returncode == 2
    assert done.stderr.startswith("varz-deck: unknown code 'Q123'")
    assert done.stderr.endswith(BROKEN_SAYS)


# --------------------------------------------------------------------------- a clash of codes

V101 = '{**super().rules(), "V101": PlainRule("V101", "crew-missing", "a ship has no crew")}'
LISTS_V101 = with_rules(V101)
DECLARES_V101 = with_rules(  # on import, as a Rulebook does
    V101,
    'from varz_deck.core.messages.code import Code, declare\ndeclare(Code("V101", "crew-missing", "x"))',
)
CLASH_SAYS = (
    "varz-deck: the game reef (reef-game 1.0) is not used: its code V101 already belongs to the "
    f"game varz ({OURS}); ask its authors for codes of their own, or uninstall it\n"
)


@pytest.mark.parametrize("body", [DECLARES_V101, LISTS_V101], ids=["declared", "listed"])
def test_a_plugin_declaring_a_varz_code_is_refused_whatever_the_order(
    tmp_path: Path, reef_deck: Path, body: str
) -> None:
    plugin = reef(tmp_path / "plugin", body=body)
    cache = tmp_path / "cache"
    for decks in ((reef_deck, VARZ_DECK), (VARZ_DECK, reef_deck)):
        done = varz_deck("check", *decks, cache=cache, before=[plugin])
        assert (done.returncode, done.stderr) == (2, CLASH_SAYS), decks
    done = varz_deck("rules", cache=cache, before=[plugin])
    assert (done.returncode, done.stderr) == (2, CLASH_SAYS)
    assert "V101" in done.stdout.split()
    done = varz_deck("rules", "V101", cache=cache, before=[plugin])
    assert (done.returncode, done.stderr) == (2, CLASH_SAYS)
    for args in (["check", VARZ_DECK], ["rules", "A101"], ["check", AZUKI_DECK]):
        done = varz_deck(*args, cache=cache, before=[plugin])
        assert (done.returncode, done.stderr) == (0, ""), args  # VARZ keeps its code


def test_a_plugin_declaring_a_core_code_is_refused(tmp_path: Path, reef_deck: Path) -> None:
    body = with_rules(
        '{**super().rules(), "F001": PlainRule("F001", "mine", "the F001 of a plugin")}'
    )
    plugin = reef(tmp_path / "plugin", body=body)
    done = varz_deck("check", reef_deck, cache=tmp_path / "cache", before=[plugin])
    assert (done.returncode, done.stderr) == (
        2,
        "varz-deck: the game reef (reef-game 1.0) is not used: its code F001 is one of "
        "varz-deck's own codes; ask its authors for codes of their own, or uninstall it\n",
    )


def test_of_two_plugins_declaring_one_code_the_first_by_key_keeps_it(tmp_path: Path) -> None:
    body = with_rules('{"X101": PlainRule("X101")}')
    first = reef(tmp_path / "a", "atoll-game", body, key="atoll")
    second = reef(tmp_path / "r", "reef-game", body)
    want = (
        "varz-deck: the game reef (reef-game 1.0) is not used: its code X101 already belongs to "
        "the game atoll (atoll-game 1.0); ask its authors for codes of their own, or uninstall it\n"
    )
    for order in ORDERS:
        for folders in ((first, second), (second, first)):
            cache = tmp_path / f"{order}-{folders[0].name}"
            done = varz_deck("rules", cache=cache, **_place(order, *folders))
            assert (done.returncode, done.stderr) == (2, want), (order, folders)
            assert "X101" in done.stdout.split()


# --------------------------------------------------------------------------- a raising game

RAISING = """
class Raising(Reef):
    def {method}(self, *args, **kwargs):
        raise RuntimeError("{words}")


GAME = Raising()
"""


def _raising(folder: Path, method: str, words: str) -> Path:
    return reef(folder, body=RAISING.format(method=method, words=words))


def _failed(method: str, words: str) -> str:
    return (
        f"varz-deck: the game reef (reef-game 1.0) failed in {method} (RuntimeError: {words}); "
        "report it to its authors, or uninstall it\n"
    )


def test_a_raising_owns_deck_fails_only_the_decks_it_may_own(
    tmp_path: Path, reef_deck: Path
) -> None:
    plugin = _raising(tmp_path / "plugin", "owns_deck", "cannot tell")
    cache = tmp_path / "cache"
    for args in (
        ["check", AZUKI_DECK],
        ["check", VARZ_DECK, AZUKI_DECK],
        ["sim", AZUKI_DECK, "--games", "50"],
    ):
        done = varz_deck(*args, cache=cache, before=[plugin])
        assert (done.returncode, done.stderr) == (0, ""), args
    done = varz_deck("check", reef_deck, cache=cache, before=[plugin])
    assert (done.returncode, done.stderr) == (2, _failed("owns_deck", "cannot tell"))


def test_a_raising_rules_fails_only_its_game(tmp_path: Path, reef_deck: Path) -> None:
    plugin = _raising(tmp_path / "plugin", "rules", "no rulebook")
    cache = tmp_path / "cache"
    done = varz_deck("rules", cache=cache, before=[plugin])
    assert (done.returncode, done.stderr) == (2, _failed("rules", "no rulebook"))
    assert {"V101", "A101"} <= set(done.stdout.split())
    for args in (["rules", "V101"], ["check", VARZ_DECK], ["check", AZUKI_DECK]):
        done = varz_deck(*args, cache=cache, before=[plugin])
        assert (done.returncode, done.stderr) == (0, ""), args
    done = varz_deck("check", reef_deck, VARZ_DECK, cache=cache, before=[plugin])
    assert (done.returncode, done.stderr) == (2, _failed("rules", "no rulebook"))


def test_a_raising_check_is_its_game_s_failure(tmp_path: Path, reef_deck: Path) -> None:
    plugin = _raising(tmp_path / "plugin", "check_deck", "sank")
    cache = tmp_path / "cache"
    done = varz_deck("check", VARZ_DECK, reef_deck, cache=cache, before=[plugin])
    assert (done.returncode, done.stderr) == (2, _failed("check_deck", "sank"))
    done = varz_deck("check", VARZ_DECK, cache=cache, before=[plugin])
    assert (done.returncode, done.stderr) == (0, "")


def test_a_working_plugin_works(tmp_path: Path, reef_deck: Path) -> None:
    plugin = reef(tmp_path / "plugin")
    done = varz_deck("check", reef_deck, VARZ_DECK, cache=tmp_path, before=[plugin])
    assert (done.returncode, done.stderr) == (0, "")
    done = varz_deck("rules", "R101", cache=tmp_path, before=[plugin])
    assert (done.returncode, done.stderr) == (0, "")


# --------------------------------------------------------------------------- the lint store

CARD_RULE = """
from varz_deck.core.messages.code import Scope
from varz_deck.core.messages.diagnostics import diag
from varz_deck.core.messages.rulebook import Rulebook

CARDS = Rulebook(Scope.CARDS)


def {name}(view):
    \"\"\"{title}\"\"\"
    for entry in view.entries:
        if {flags}:
            yield diag("{code}", "{title}", file=entry.file, card=entry.id)


CARDS.rule("{code}", "{name}", "-")({name})


class Strict(Reef):
    def card_rules(self):
        return CARDS.rules

    def rules(self):
        return {{**super().rules(), **CARDS.rules}}


GAME = Strict()
"""


def _upgrade(folder: Path, version: str, **rule: str) -> None:
    """Install the reef game again at `version` in folder, its card rule as given."""
    for old in folder.glob("*.dist-info"):
        for file in old.iterdir():
            file.unlink()
        old.rmdir()
    for name in ("reef_game.py",):
        (folder / name).unlink(missing_ok=True)
    data = folder / "reef_data"
    for file in data.iterdir():
        file.unlink()
    data.rmdir()
    reef(folder, body=CARD_RULE.format(**rule), version=version)


@pytest.mark.parametrize(
    ("version", "rule", "says"),
    [
        ("1.1", {"name": "gates", "title": "no gate here", "code": "R201"}, "R201 error: no gate"),
        ("1.0", {"name": "fires", "title": "no fire here", "code": "R202"}, "R202 error: no fire"),
    ],
    ids=["a new version, the same code", "a new code"],
)
def test_a_plugin_upgrade_that_changes_its_card_rules_lints_again(
    tmp_path: Path, version: str, rule: dict[str, str], says: str
) -> None:
    """The lint store keeps each file's result by its content and what checks it: the plugin's
    card rule flags nothing; its new version's (the same code, or a new one) flags the card,
    and is not answered from the store."""
    folder = tmp_path / "plugin"
    first = {"name": "gates", "title": "no gate here", "code": "R201", "flags": "False"}
    reef(folder, body=CARD_RULE.format(**first))
    cache = tmp_path / "cache"
    done = varz_deck("cards", "lint", folder / "reef_data", cache=cache, before=[folder])
    assert (done.returncode, done.stderr) == (0, ""), done.stdout
    _upgrade(folder, version, **rule, flags="True")
    done = varz_deck("cards", "lint", folder / "reef_data", cache=cache, before=[folder])
    assert done.returncode == 1
    assert f"cards.yaml: {says} here\n" in done.stdout


def test_a_failing_game_is_said_in_the_language_asked(tmp_path: Path, broken: Path) -> None:
    deck = tmp_path / "deck.yaml"
    deck.write_text("hero: Nobody\n", encoding="utf-8")
    args = ("check", "--game", "broken", deck, "--lang", "ja")
    done = varz_deck(*args, cache=tmp_path / "cache", before=[broken])
    assert done.returncode == 2
    assert done.stderr.startswith(
        "varz-deck: ゲーム broken（broken-game 1.0）をエントリポイント broken_game:GAME から読み込めません"
    )
