"""The game registry in this process (varz_deck/games/__init__.py): its record, who a key and a
code belong to, and how a plugin's failure is kept to itself. Plugins are folders on sys.path
(tests/plugintools.py); each test reads the registry afresh, and the process's own is back after
it. tests/test_registry_hostile.py runs the same cases through the command line."""

from __future__ import annotations

import hashlib
import importlib
import json
import os
import sys
from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace

import pytest
from plugintools import distribution, reef, with_rules

import varz_deck.games as games
from varz_deck import __version__
from varz_deck.core.dates import on_date
from varz_deck.core.files.source import DeckSource
from varz_deck.games import GameUnavailable

ROOT = Path(__file__).resolve().parent.parent
OURS = f"varz-deck {__version__}"
VARZ_DECK = ROOT / "examples" / "red-kagura-festival.yaml"
AZUKI_DECK = ROOT / "examples" / "azuki" / "stt02-shao-water.yaml"


@pytest.fixture
def fresh(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Iterator[Path]:
    """A registry read again (its record in tmp_path/cache), the plugins' modules forgotten
    after the test; the process's registry is back afterwards. The cache folder."""
    monkeypatch.setattr(games, "_REGISTRY", None)
    monkeypatch.setenv("VARZ_DECK_CACHE", str(tmp_path / "cache"))
    before = set(sys.modules)
    yield tmp_path / "cache"
    for name in set(sys.modules) - before:
        if name.endswith("_game"):
            del sys.modules[name]


def _plug(monkeypatch: pytest.MonkeyPatch, *folders: Path) -> None:
    for folder in reversed(folders):
        monkeypatch.syspath_prepend(str(folder))


def _keys() -> tuple[str, ...]:
    """The installed games' keys but those of other packages installed here (the third game,
    say): the bundled games and these tests' own."""
    return tuple(k for k in games.game_keys() if k in {"varz", "azuki", "reef", "other", "zed"})


def _unavailable(key: str | None) -> str:
    with pytest.raises(GameUnavailable) as caught:
        games.get_game(key)
    return str(caught.value.message)


ATOLL = with_rules('{"Q101": PlainRule("Q101")}')
BODY_PLAIN_V101 = with_rules('{**super().rules(), "V101": PlainRule("V101", "crew", "no crew")}')


# --------------------------------------------------------------------------- claims


def test_a_distribution_name_is_compared_as_packaging_does() -> None:
    assert games._normal("Varz_Deck") == "varz-deck"
    assert games._normal("a.-_b__C") == "a-b-c"


def test_a_claim_knows_its_package() -> None:
    ours = games.Claim("varz", "m:G", "Varz_Deck", "0.2.0")
    theirs = games.Claim("reef", "reef_game:GAME", "reef-game", "1.0")
    here = games.Claim("toy", "toy:GAME", "", "")
    assert (ours.own, theirs.own, here.own) == (True, False, False)
    assert (ours.origin(), theirs.origin()) == ("Varz_Deck 0.2.0", "reef-game 1.0")
    assert games.Claim("x", "m:G", "bare", "").origin() == "bare"
    assert str(here.origin()) == "registered in this process"
    assert ours.rank() == (False, "varz", "varz-deck", "m:G")
    assert theirs.rank() == (True, "reef", "reef-game", "reef_game:GAME")


def test_claims_rank_ours_first_then_by_package_one_target_once() -> None:
    zeta = games.Claim("k", "a:G", "Zeta-Dist", "1")
    alpha = games.Claim("k", "a:G", "alpha_dist", "2")
    ours = games.Claim("k", "b:G", "varz-deck", "3")
    other = games.Claim("k", "c:G", "beta", "4")
    assert games._ranked({"k": [zeta, other, alpha, ours]}) == {"k": (ours, alpha, other)}


def test_a_package_that_says_nothing_names_none() -> None:
    assert games._package(SimpleNamespace(dist=None)) == ("", "")
    named = SimpleNamespace(dist=SimpleNamespace(name="x", version=None))
    assert games._package(named) == ("x", "")
    full = SimpleNamespace(dist=SimpleNamespace(name="x", version="2.0"))
    assert games._package(full) == ("x", "2.0")


# --------------------------------------------------------------------------- the record


def test_the_fingerprint_is_each_package_s_entry_points_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "a-1.0.dist-info").mkdir()
    points = tmp_path / "a-1.0.dist-info" / "entry_points.txt"
    points.write_text("[x]\n", encoding="utf-8")
    (tmp_path / "b.egg-info").mkdir()  # no entry points file
    (tmp_path / "c.txt").write_text("", encoding="utf-8")
    (tmp_path / "0-9.dist-info").mkdir()
    monkeypatch.setattr(sys, "path", [str(tmp_path / "missing"), str(tmp_path)])
    stat = os.stat(points)
    assert games._fingerprint() == [
        sys.executable,
        sys.version,
        f"{tmp_path}/0-9.dist-info@-",
        f"{tmp_path}/a-1.0.dist-info@{stat.st_mtime_ns}:{stat.st_size}",
        f"{tmp_path}/b.egg-info@-",
    ]
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys, "path", [""])
    assert games._fingerprint()[2:] == [
        "/0-9.dist-info@-",
        f"/a-1.0.dist-info@{stat.st_mtime_ns}:{stat.st_size}",
        "/b.egg-info@-",
    ]


def test_the_fingerprint_changes_when_the_file_does_and_not_the_folder(tmp_path: Path) -> None:
    info = tmp_path / "a-1.0.dist-info"
    info.mkdir()
    points = info / "entry_points.txt"
    points.write_text("[x]\n", encoding="utf-8")
    os.utime(points, ns=(10**18, 10**18))
    sys.path.append(str(tmp_path))
    try:
        first = games._fingerprint()
        held = os.stat(info)
        points.write_text("[x]\na = b:C\n", encoding="utf-8")
        os.utime(points, ns=(10**18, 10**18))  # the same time: the size tells
        os.utime(info, ns=(held.st_atime_ns, held.st_mtime_ns))
        assert games._fingerprint() != first
        os.utime(info, ns=(10**18 + 7, 10**18 + 7))  # the folder alone: nothing to read again
        second = games._fingerprint()
        os.utime(info, ns=(held.st_atime_ns, held.st_mtime_ns))
        assert games._fingerprint() == second
    finally:
        sys.path.remove(str(tmp_path))


def _sum(fingerprint: list[str], found: object, default: object) -> str:
    text = json.dumps([2, fingerprint, found, default], sort_keys=True)
    return hashlib.blake2b(text.encode(), digest_size=16).hexdigest()


GAMES = {
    "varz": [["varz_deck.games.varz:GAME", "varz-deck", "0.2.0"]],
    "reef": [["reef_game:GAME", "reef-game", "1.0"], ["other:GAME", "other", "2"]],
}


def _record(**changes: object) -> dict[str, object]:
    record: dict[str, object] = {"layout": 2, "fingerprint": ["fp"], "games": GAMES}
    record["default"] = "varz"
    record.update(changes)
    found, default = record["games"], record["default"]
    record.setdefault("sum", _sum(record["fingerprint"], found, default))  # type: ignore[arg-type]
    return record


def test_a_record_is_read_with_its_claims(tmp_path: Path) -> None:
    path = tmp_path / "games.json"
    path.write_text(json.dumps(_record()), encoding="utf-8")
    claims, default = games._read_record(path, ["fp"])
    assert default == "varz"
    assert claims == {
        "varz": (games.Claim("varz", "varz_deck.games.varz:GAME", "varz-deck", "0.2.0"),),
        "reef": (
            games.Claim("reef", "reef_game:GAME", "reef-game", "1.0"),
            games.Claim("reef", "other:GAME", "other", "2"),
        ),
    }
    path.write_text(json.dumps(_record(default=None)), encoding="utf-8")
    assert games._read_record(path, ["fp"]) == (claims, None)


@pytest.mark.parametrize(
    "record",
    [
        _record(layout=1),
        {**_record(), "layout": None},
        _record(fingerprint=["other"]),
        _record(games=[]),
        _record(games={}),
        _record(games={"varz": []}),
        _record(games={"varz": "x"}),
        _record(games={"varz": [["a", "b"]]}),
        _record(games={"varz": [["a", "b", "c", "d"]]}),
        _record(games={"varz": [["a", "b", 3]]}),
        _record(games={"varz": ["abc"]}),
        _record(games={"varz": [["a", "b", "c"]], "reef": [["a", "b", "c"], 1]}),
        _record(default="azuki"),
        _record(default={"a": 1}),
        _record(default=["varz"]),
        _record(sum="0" * 32),
        {**_record(), "sum": None},
        {k: v for k, v in _record().items() if k != "sum"},
        [_record()],
    ],
    ids=lambda r: json.dumps(r)[:60],
)
def test_a_record_that_cannot_be_right_is_none(tmp_path: Path, record: object) -> None:
    path = tmp_path / "games.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    assert games._read_record(path, ["fp"]) is None


@pytest.mark.parametrize(
    "raw",
    [b"", b"{", b"\xff\xfe", b"[" * 100_000 + b"]" * 100_000, b"nul"],
    ids=["empty", "cut", "not UTF-8", "nested", "not JSON"],
)
def test_a_record_that_is_no_json_is_none(tmp_path: Path, raw: bytes) -> None:
    path = tmp_path / "games.json"
    path.write_bytes(raw)
    assert games._read_record(path, ["fp"]) is None
    assert games._read_record(tmp_path / "missing.json", ["fp"]) is None
    assert games._read_record(tmp_path, ["fp"]) is None  # a folder


def test_a_record_too_large_is_none(tmp_path: Path) -> None:
    record = json.dumps(_record())
    path = tmp_path / "games.json"
    path.write_text(record + " " * (games._RECORD_LIMIT - len(record)), encoding="utf-8")
    assert games._read_record(path, ["fp"]) is not None  # exactly the limit
    path.write_text(record + " " * (games._RECORD_LIMIT - len(record) + 1), encoding="utf-8")
    assert games._read_record(path, ["fp"]) is None


def test_the_record_is_written_once_and_read_back(fresh: Path) -> None:
    keys = games.game_keys()
    record = json.loads((fresh / "games.json").read_text(encoding="utf-8"))
    fingerprint = games._fingerprint()
    assert record["layout"] == 2 and record["fingerprint"] == fingerprint
    assert record["games"]["varz"] == [["varz_deck.games.varz:GAME", "varz-deck", __version__]]
    assert record["default"] == "varz"
    assert record["sum"] == _sum(fingerprint, record["games"], "varz")
    assert [p.name for p in fresh.iterdir()] == ["games.json"]  # no temporary file left
    os.utime(fresh / "games.json", ns=(1, 1))
    games._REGISTRY = None
    assert games.game_keys() == keys
    assert os.stat(fresh / "games.json").st_mtime_ns == 1  # read, not written again


def test_a_record_that_cannot_be_right_is_written_again(fresh: Path) -> None:
    games.game_keys()
    path = fresh / "games.json"
    record = json.loads(path.read_text(encoding="utf-8"))
    del record["games"]["varz"]
    record["default"] = "azuki"
    path.write_text(json.dumps(record), encoding="utf-8")
    games._REGISTRY = None
    assert games.default_game() == "varz"
    assert "varz" in json.loads(path.read_text(encoding="utf-8"))["games"]


def test_without_a_cache_no_record(monkeypatch: pytest.MonkeyPatch, fresh: Path) -> None:
    monkeypatch.setenv("VARZ_DECK_NO_CACHE", "1")
    assert games.default_game() == "varz"
    assert not fresh.exists()


def test_an_unwritable_cache_is_no_failure(fresh: Path) -> None:
    fresh.parent.mkdir(exist_ok=True)
    fresh.write_text("a file where the folder should be", encoding="utf-8")
    assert games.default_game() == "varz"


def test_no_game_installed_writes_no_record(fresh: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(games, "_scan", lambda: ({}, None))
    assert games.game_keys() == ()
    with pytest.raises(LookupError, match="no game is installed"):
        games.default_game()
    assert not (fresh / "games.json").exists()


# --------------------------------------------------------------------------- keys


def test_our_default_game_wins_over_a_plugin_s(
    fresh: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _plug(monkeypatch, reef(tmp_path / "p", default="reef_game:GAME"))
    assert _keys() == ("varz", "azuki", "reef")
    assert games.default_game() == "varz"
    assert games.game_origin("reef") == "reef-game 1.0"
    assert games.game_origin("varz") == OURS


def test_a_plugin_s_default_is_taken_when_ours_names_no_game(
    fresh: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _plug(monkeypatch, reef(tmp_path / "p", default="reef_game:GAME"))
    claims, _ = games._scan()
    monkeypatch.setattr(
        games, "_ranked", lambda found: {k: v for k, v in claims.items() if k != "varz"}
    )
    assert games._scan() == ({k: v for k, v in claims.items() if k != "varz"}, "reef")
    monkeypatch.setattr(games, "_ranked", lambda found: {"azuki": claims["azuki"]})
    assert games._scan() == ({"azuki": claims["azuki"]}, None)


def test_a_key_two_packages_claim_is_refused_naming_both(
    fresh: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    plugin = distribution(tmp_path / "p", "evil-varz", {"varz": "varz_deck.games.azuki:GAME"})
    _plug(monkeypatch, plugin)
    assert _keys() == ("varz", "azuki")
    said = (
        "the game varz is registered by more than one package: "
        f"{OURS} (varz_deck.games.varz:GAME), evil-varz 1.0 (varz_deck.games.azuki:GAME); "
        "uninstall all but one of them"
    )
    assert _unavailable(None) == said
    assert _unavailable("varz") == said  # kept: said again, not loaded again
    assert games.get_game("azuki").key == "azuki"


def test_an_unknown_key_is_a_key_error(fresh: Path) -> None:
    with pytest.raises(KeyError):
        games.get_game("chess")
    with pytest.raises(KeyError):
        games.game_origin("chess")


def test_register_and_unregister_a_game(fresh: Path) -> None:
    games.register_game("other", "varz_deck.games.azuki")
    assert games.game_origin("other") == ""
    assert _keys() == ("varz", "azuki", "other")
    assert _unavailable("other") == (  # one game under two keys: its codes twice
        "the game other (registered in this process) is not used: its code A101 already "
        f"belongs to the game azuki ({OURS}); ask its authors for codes of their own, or "
        "uninstall it"
    )
    games.unregister_game("azuki")
    assert games.get_game("other").key == "azuki"  # its codes are no one else's now
    games.unregister_game("other")
    assert _keys() == ("varz",)
    games.unregister_game("varz")
    games.register_game("aaa", "varz_deck.games.azuki")
    assert games.default_game() == "aaa"  # none named: the first by key
    games.unregister_game("nothing")


def test_registering_forgets_every_verdict(
    fresh: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    plugin = reef(tmp_path / "p", body=BODY_PLAIN_V101)
    _plug(monkeypatch, plugin)
    assert "its code V101" in _unavailable("reef")
    games.register_game("varz", "varz_deck.games.azuki:GAME")  # V101 is no one's now
    assert games.get_game("reef").key == "reef"
    assert "varz" not in games._registry().codes or "V101" not in games._registry().codes["varz"]


# --------------------------------------------------------------------------- loading


def test_a_plugin_that_cannot_be_imported_is_named(
    fresh: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    count = tmp_path / "count"
    broken = f"""
    with open({str(count)!r}, "a") as counted:
        counted.write("x")
    raise RuntimeError("half installed")
    """
    plugin = distribution(
        tmp_path / "p", "broken-game", {"broken": "broken_game:GAME"}, {"broken_game": broken}
    )
    _plug(monkeypatch, plugin)
    said = (
        "the game broken (broken-game 1.0) cannot be loaded from its entry point "
        "broken_game:GAME (RuntimeError: half installed); reinstall the package that provides "
        "it, or uninstall it"
    )
    assert _unavailable("broken") == said
    assert _unavailable("broken") == said
    assert count.read_text() == "x"  # tried once


@pytest.mark.parametrize(
    ("source", "error"),
    [
        ("import sys\nsys.exit(0)\n", "SystemExit: 0"),
        ("GAME = 1\n", "AttributeError: module 'odd_game' has no attribute 'NOPE'"),
    ],
)
def test_a_plugin_exiting_or_missing_on_import_is_named(
    fresh: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, source: str, error: str
) -> None:
    plugin = distribution(tmp_path / "p", "odd", {"odd": "odd_game:NOPE"}, {"odd_game": source})
    _plug(monkeypatch, plugin)
    assert f"({error});" in _unavailable("odd")


def test_a_target_with_attributes_is_followed(
    fresh: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    plugin = reef(tmp_path / "p", body="class Box:\n    GAME = Reef()\n")
    info = next(plugin.glob("*.dist-info"))
    (info / "entry_points.txt").write_text(
        "[varz_deck.games]\nreef = reef_game:Box.GAME\n", encoding="utf-8"
    )
    _plug(monkeypatch, plugin)
    assert games.get_game("reef").key == "reef"


def test_a_plugin_loads_the_games_before_it_first(
    fresh: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _plug(monkeypatch, reef(tmp_path / "r"), reef(tmp_path / "z", "zed-game", key="zed"))
    assert games.get_game("varz").key == "varz"
    assert games._registry().codes == {}  # our own games: nothing to check
    assert games.get_game("reef").key == "reef"
    codes = games._registry().codes
    assert sorted(codes) == ["azuki", "reef", "varz"]  # not zed, ranked after reef
    assert "V101" in codes["varz"] and "C004" in codes["varz"]  # deck and card rules
    assert list(codes["reef"]) == ["R101"]


def test_a_plugin_listing_a_varz_code_is_refused(
    fresh: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _plug(monkeypatch, reef(tmp_path / "p", body=BODY_PLAIN_V101))
    said = (
        "the game reef (reef-game 1.0) is not used: its code V101 already belongs to the "
        f"game varz ({OURS}); ask its authors for codes of their own, or uninstall it"
    )
    with pytest.raises(GameUnavailable) as caught:
        games.get_game("reef")
    assert (str(caught.value.message), caught.value.codes, caught.value.key) == (
        said,
        frozenset({"V101"}),
        "reef",
    )
    assert games.get_game("varz").key == "varz"


def test_a_plugin_declaring_a_code_on_import_is_refused_naming_its_owner(
    fresh: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    body = """
    from varz_deck.core.messages.code import Code, declare

    declare(Code("A101", "crew-missing", "a ship has no crew"))
    GAME = Reef()
    """
    _plug(monkeypatch, reef(tmp_path / "p", body=body))
    assert _unavailable("reef") == (
        "the game reef (reef-game 1.0) is not used: its code A101 already belongs to the "
        f"game azuki ({OURS}); ask its authors for codes of their own, or uninstall it"
    )


def test_a_clash_declared_on_import_with_no_known_owner_is_a_load_failure(
    fresh: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from varz_deck.core.messages.code import Code, declare

    declare(Code("Q901", "somebody", "declared outside every game"))
    body = """
    from varz_deck.core.messages.code import Code, declare

    declare(Code("Q901", "mine", "the plugin's own"))
    GAME = Reef()
    """
    _plug(monkeypatch, reef(tmp_path / "p", body=body))
    assert "(CodeClash: code Q901 declared twice)" in _unavailable("reef")


@pytest.mark.parametrize("code", ["F001", "C001"])
def test_a_plugin_with_another_core_code_is_refused(
    fresh: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, code: str
) -> None:
    body = with_rules(f'{{"{code}": PlainRule("{code}", "mine", "a plugin of its own")}}')
    _plug(monkeypatch, reef(tmp_path / "p", body=body))
    assert _unavailable("reef") == (
        f"the game reef (reef-game 1.0) is not used: its code {code} is one of varz-deck's own "
        "codes; ask its authors for codes of their own, or uninstall it"
    )


def test_a_plugin_may_take_a_core_code_as_it_is(
    fresh: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    body = """
    from varz_deck.core.messages.filecodes import F001


    class Taker(Reef):
        def rules(self):
            return {**super().rules(), "F001": F001}


    GAME = Taker()
    """
    _plug(monkeypatch, reef(tmp_path / "p", body=body))
    assert games.get_game("reef").key == "reef"


def test_of_two_plugins_the_first_by_key_keeps_a_code(
    fresh: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    body = with_rules('{"X101": PlainRule("X101")}')
    _plug(
        monkeypatch,
        reef(tmp_path / "r", body=body),
        reef(tmp_path / "a", "atoll", body, key="atoll"),
    )
    assert _unavailable("reef") == (
        "the game reef (reef-game 1.0) is not used: its code X101 already belongs to the game "
        "atoll (atoll 1.0); ask its authors for codes of their own, or uninstall it"
    )
    assert games.get_game("atoll").key == "reef"  # the Reef game, registered as atoll


@pytest.mark.parametrize("order", ["atoll first", "reef first"])
def test_of_two_plugins_declaring_one_prefix_the_first_by_key_keeps_it(
    fresh: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, order: str
) -> None:
    atoll = reef(tmp_path / "a", "atoll", ATOLL, key="atoll", prefix="Q")  # Q101: codes apart
    mine = reef(tmp_path / "r", prefix="Q")  # R101
    _plug(monkeypatch, *((atoll, mine) if order == "atoll first" else (mine, atoll)))
    assert _unavailable("reef") == (
        "the game reef (reef-game 1.0) is not used: its code prefix Q is already the game "
        "atoll's (atoll 1.0); ask its authors for a prefix of their own, or uninstall it"
    )
    assert games.game_prefix(games.get_game("atoll")) == "Q"


def test_a_plugin_declaring_a_bundled_game_s_prefix_is_refused(
    fresh: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _plug(monkeypatch, reef(tmp_path / "r", prefix="V"))
    assert _unavailable("reef") == (
        "the game reef (reef-game 1.0) is not used: its code prefix V is already the game "
        f"varz's ({OURS}); ask its authors for a prefix of their own, or uninstall it"
    )
    assert games.get_game("varz").key == "varz"


def test_each_bundled_game_declares_a_prefix_of_its_own(fresh: Path) -> None:
    assert {k: games.game_prefix(games.get_game(k)) for k in ("varz", "azuki")} == {
        "varz": "V",
        "azuki": "A",
    }


def test_a_refused_game_owns_no_code(
    fresh: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """atoll loses V101 to VARZ; reef, after it, may then keep R101, which atoll lists too."""
    first = with_rules('{**super().rules(), "V101": PlainRule("V101")}')
    _plug(monkeypatch, reef(tmp_path / "a", "atoll", first, key="atoll"), reef(tmp_path / "r"))
    assert games.get_game("reef").key == "reef"
    assert "its code V101" in _unavailable("atoll")


@pytest.mark.parametrize("method", ["rules", "card_rules"])
def test_a_plugin_whose_rules_raise_is_refused(
    fresh: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, method: str
) -> None:
    body = f"""
    class Raising(Reef):
        def {method}(self):
            raise RuntimeError("no rulebook")


    GAME = Raising()
    """
    _plug(monkeypatch, reef(tmp_path / "p", body=body))
    assert _unavailable("reef") == (
        f"the game reef (reef-game 1.0) failed in {method} (RuntimeError: no rulebook); "
        "report it to its authors, or uninstall it"
    )


@pytest.mark.parametrize(
    ("rules", "error"),
    [
        ("{5: PlainRule('R5')}", "TypeError: the code 5 is not text"),
        ("{'R5': PlainRule(5)}", "TypeError: the code 5 is not text"),
        ("[PlainRule('R5')]", "AttributeError: 'list' object has no attribute 'items'"),
        ("{'R5': object()}", "AttributeError: 'object' object has no attribute 'code'"),
    ],
)
def test_a_plugin_whose_rules_are_not_codes_is_refused(
    fresh: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, rules: str, error: str
) -> None:
    body = with_rules(rules)
    _plug(monkeypatch, reef(tmp_path / "p", body=body))
    assert f"failed in rules ({error});" in _unavailable("reef")


def test_a_code_is_known_by_its_listing_and_by_its_own_id(
    fresh: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    body = with_rules('{"R7": PlainRule("R8")}')
    _plug(monkeypatch, reef(tmp_path / "p", body=body))
    games.get_game("reef")
    assert sorted(games._registry().codes["reef"]) == ["R7", "R8"]


def test_a_game_without_rules_declares_no_code(
    fresh: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    plugin = distribution(
        tmp_path / "p", "bare", {"bare": "bare_game:GAME"}, {"bare_game": "GAME = object()\n"}
    )
    _plug(monkeypatch, plugin)
    games.get_game("bare")
    assert games._registry().codes["bare"] == {}


# --------------------------------------------------------------------------- a game's methods


def _raising(tmp_path: Path, method: str) -> Path:
    body = f"""
    class Raising(Reef):
        def {method}(self, *args, **kwargs):
            raise RuntimeError("{method} went wrong " + "x" * 300)


    GAME = Raising()
    """
    return reef(tmp_path / "p", body=body)


def test_a_plugin_s_exception_in_a_method_is_its_failure(
    fresh: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _plug(monkeypatch, _raising(tmp_path, "check_deck"))
    database = games.open_database(games.get_game("reef").card_data)
    with pytest.raises(GameUnavailable) as caught:
        games.check_deck(DeckSource.from_text("deck.txt", "reef\n"), database, date=on_date())
    said = str(caught.value.message)
    cut = "check_deck went wrong " + "x" * (199 - len("check_deck went wrong ")) + "…"
    assert said == (
        f"the game reef (reef-game 1.0) failed in check_deck (RuntimeError: {cut}); "
        "report it to its authors, or uninstall it"
    )
    assert games.get_game("reef").key == "reef"  # a failure of one deck, not kept


def test_our_own_game_s_exception_is_a_bug_left_alone(
    fresh: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    varz = games.get_game("varz")
    monkeypatch.setattr(type(varz), "owns_deck", lambda self, text: 1 / 0)
    with pytest.raises(ZeroDivisionError):
        games.detect_game(DeckSource.from_path(AZUKI_DECK), "varz")


def test_a_guard_lets_a_game_s_failure_and_an_unknown_key_through(fresh: Path) -> None:
    from varz_deck.core.messages.i18n import Message

    with pytest.raises(ZeroDivisionError), games._guard("gone", "rules"):
        raise ZeroDivisionError
    failure = GameUnavailable("x", Message("cli", "x"))
    with pytest.raises(GameUnavailable) as caught, games._guard("varz", "rules"):
        raise failure
    assert caught.value is failure


def test_what_an_exception_says() -> None:
    class Mute(Exception):
        def __str__(self) -> str:
            raise ValueError("no")

    assert games._said(RuntimeError("x")) == "RuntimeError: x"
    assert games._said(RuntimeError()) == "RuntimeError"
    assert games._said(Mute()) == "Mute"
    assert games._said(RuntimeError("y" * 200)) == "RuntimeError: " + "y" * 200
    assert games._said(RuntimeError("y" * 201)) == "RuntimeError: " + "y" * 199 + "…"


# --------------------------------------------------------------------------- detection


def test_a_raising_owns_deck_owns_nothing(
    fresh: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _plug(monkeypatch, _raising(tmp_path, "owns_deck"))
    assert games.detect_game(DeckSource.from_path(AZUKI_DECK), "varz") == "azuki"
    assert games.detect_game(DeckSource.from_path(VARZ_DECK), "varz") == "varz"
    assert games.detect_game(DeckSource.from_path(VARZ_DECK), "reef") == "varz"
    with pytest.raises(GameUnavailable) as caught:
        games.detect_game(DeckSource.from_text("deck.txt", "reef\n"), "varz")
    assert "failed in owns_deck (RuntimeError: owns_deck went wrong" in str(caught.value.message)
    with pytest.raises(GameUnavailable):
        games.detect_game(DeckSource.from_text("deck.txt", "reef\n"), "reef")


def test_a_broken_game_owns_nothing_and_a_deck_no_one_owns_may_be_its(
    fresh: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    plugin = distribution(
        tmp_path / "p", "broken", {"broken": "broken_game:GAME"}, {"broken_game": "1 / 0\n"}
    )
    _plug(monkeypatch, plugin)
    assert games.detect_game(DeckSource.from_path(AZUKI_DECK), "varz") == "azuki"
    with pytest.raises(GameUnavailable, match="broken"):
        games.detect_game(DeckSource.from_text("deck.yaml", "nobody: here\n"), "varz")


def test_detection_without_failures(
    fresh: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _plug(monkeypatch, reef(tmp_path / "r"), reef(tmp_path / "a", "atoll", ATOLL, key="atoll"))
    unread = DeckSource.from_bytes("deck.yaml", b"too long", limit=3)
    assert games.detect_game(unread, "azuki") == "azuki"
    assert games.detect_game(DeckSource.from_text("d.yaml", "nobody: here\n"), "varz") is None
    assert games.detect_game(DeckSource.from_text("d.txt", "reef\n"), "varz") is None  # two own it
    assert games.detect_game(DeckSource.from_text("d.txt", "reef\n"), "reef") == "reef"
    assert games.detect_game(DeckSource.from_path(AZUKI_DECK), "reef") == "azuki"


# --------------------------------------------------------------------------- every code


def test_every_code_of_the_games_that_can_be_used(
    fresh: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _plug(
        monkeypatch,
        reef(tmp_path / "p", body=BODY_PLAIN_V101),
        reef(tmp_path / "a", "atoll", key="atoll"),
    )
    failures: list[GameUnavailable] = []
    codes = games.all_codes(failures=failures)
    assert [f.key for f in failures] == ["reef"]
    assert {"F001", "C001", "V101", "A101", "R101", "C004"} <= set(codes)
    assert codes["V101"].name == "hero-missing"
    assert "R101" in games.all_codes()  # without a list: the failure is left out
    assert list(games.all_codes(["atoll"])).count("R101") == 1
    assert "V101" not in games.all_codes(["azuki"])


def test_a_database_of_an_unknown_game_is_the_default_game_s(fresh: Path, tmp_path: Path) -> None:
    (tmp_path / "formats.yaml").write_text("game: chess\nformats: {}\n", encoding="utf-8")
    assert games.database_game(tmp_path).key == "varz"
    assert games._database_key(tmp_path) == "varz"
    (tmp_path / "formats.yaml").write_text("game: azuki\nformats: {}\n", encoding="utf-8")
    assert games._database_key(tmp_path) == "azuki"
    (tmp_path / "formats.yaml").write_text("formats: {}\n", encoding="utf-8")
    assert games._database_key(tmp_path) == "varz"


def test_the_lint_store_is_told_the_game_s_package(
    fresh: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from varz_deck.core.lint import database

    seen: list[tuple[str, str]] = []
    real = database.lint_database

    def spy(root, game, progress=None, **kwargs):  # type: ignore[no-untyped-def]
        seen.append((game.key, kwargs["origin"]))
        return real(root, game, progress, **kwargs)

    monkeypatch.setattr(database, "lint_database", spy)
    plugin = reef(tmp_path / "p")
    _plug(monkeypatch, plugin)
    assert games.lint_database(plugin / "reef_data").diagnostics == []
    games.lint_database(ROOT / "card_data" / "azuki")
    assert seen == [("reef", "reef-game 1.0"), ("azuki", OURS)]


def test_a_database_s_unsaved_formats_file_names_its_game(
    fresh: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An editor's buffer of formats.yaml says the game, not the file as saved; the buffers
    are what is linted."""
    (tmp_path / "formats.yaml").write_text("game: chess\nformats: {}\n", encoding="utf-8")
    saved = [d.code for d in games.lint_database(tmp_path).diagnostics]
    assert "C001" in saved  # an unknown game, as saved
    buffers = {tmp_path / "formats.yaml": "game: azuki\nformats: {}\n"}
    assert games._database_key(tmp_path, buffers) == "azuki"
    from varz_deck.core.lint import database

    seen: list[tuple[str, object]] = []
    real = database.lint_database

    def spy(root, game, progress=None, **kwargs):  # type: ignore[no-untyped-def]
        seen.append((game.key, kwargs["buffers"]))
        return real(root, game, progress, **kwargs)

    monkeypatch.setattr(database, "lint_database", spy)
    edited = games.lint_database(tmp_path, buffers=buffers).diagnostics
    assert "C001" not in [d.code for d in edited]
    assert seen == [("azuki", buffers)]


def test_a_plugin_s_card_rule_raising_in_a_lint_is_its_failure(
    fresh: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    head = """
    from varz_deck.core.messages.code import Scope
    from varz_deck.core.messages.rulebook import Rulebook

    CARDS = Rulebook(Scope.CARDS)


    def sinks(view):
        \"\"\"a card check that fails\"\"\"
        raise RuntimeError("sank")


    CARDS.rule("R301", "sinks", "-")(sinks)
    """
    body = with_rules("{**super().rules(), **CARDS.rules}", head)
    body = body.replace(
        "class Other(Reef):", "class Other(Reef):\n    card_rules = lambda self: CARDS.rules\n"
    )
    plugin = reef(tmp_path / "p", body=body)
    _plug(monkeypatch, plugin)
    with pytest.raises(GameUnavailable) as caught:
        games.lint_database(plugin / "reef_data")
    assert str(caught.value.message) == (
        "the game reef (reef-game 1.0) failed in card_rules (RuntimeError: sank); "
        "report it to its authors, or uninstall it"
    )


def test_the_record_is_written_in_a_cache_folder_not_made_yet(
    fresh: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    deep = fresh / "a" / "b"
    monkeypatch.setenv("VARZ_DECK_CACHE", str(deep))
    games.game_keys()
    assert (deep / "games.json").is_file()


def test_a_game_registered_here_is_said_so_in_the_language_asked() -> None:
    origin = games.Claim("toy", "toy:GAME", "", "").origin()
    assert not isinstance(origin, str)
    assert origin.render("ja") == "このプロセスで登録"
    assert origin.render("zh") == "在本进程中注册"


# --------------------------------------------------------------------------- the command line


def _cli(*args: str) -> tuple[int, str, str]:
    """The command line in this process: (exit status, stdout, stderr)."""
    import contextlib
    import io

    from varz_deck.cli import main

    out, err = io.StringIO(), io.StringIO()
    status = 0
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            main(list(args))
        except SystemExit as done:
            status = done.code if isinstance(done.code, int) else 1
    return status, out.getvalue(), err.getvalue()


@pytest.fixture
def broken(fresh: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    """A plugin that cannot be imported, installed; what the command line says of it."""
    plugin = distribution(
        tmp_path / "b", "broken-game", {"broken": "broken_game:GAME"}, {"broken_game": "1 / 0\n"}
    )
    _plug(monkeypatch, plugin)
    return (
        "varz-deck: the game broken (broken-game 1.0) cannot be loaded from its entry point "
        "broken_game:GAME (ZeroDivisionError: division by zero); reinstall the package that "
        "provides it, or uninstall it\n"
    )


def test_a_game_that_cannot_be_used_is_said_in_the_language_asked(
    broken: str, tmp_path: Path
) -> None:
    deck = tmp_path / "deck.yaml"
    deck.write_text("hero: Nobody\n", encoding="utf-8")
    assert _cli("check", "--game", "broken", str(deck)) == (2, "", broken)
    status, _, err = _cli("check", "--game", "broken", str(deck), "--lang", "ja")
    assert status == 2
    assert err.startswith("varz-deck: ゲーム broken（broken-game 1.0）をエントリポイント")
    with pytest.raises(GameUnavailable):  # --debug: the plugin's author sees the traceback
        _cli("check", "--game", "broken", str(deck), "--debug")


def test_rules_lists_what_it_can_and_names_what_it_cannot(broken: str) -> None:
    status, out, err = _cli("rules")
    assert (status, err) == (2, broken)
    assert {"F001", "V101", "A101", "C004"} <= set(out.split())
    assert _cli("rules", "a105")[0] == 0


def test_rules_of_an_unknown_code_names_the_games_that_cannot_say(broken: str) -> None:
    status, _, err = _cli("rules", "Q123")
    assert (status, err) == (
        2,
        "varz-deck: unknown code 'Q123'; `varz-deck rules` lists them\n" + broken,
    )
    status, _, err = _cli("rules", "V1O1")
    assert status == 2
    assert err.startswith("varz-deck: unknown code 'V1O1'; did you mean V1")
    assert err.endswith(broken)


def test_rules_of_an_unknown_code_without_failures(fresh: Path) -> None:
    assert _cli("rules", "Q123") == (
        2,
        "",
        "varz-deck: unknown code 'Q123'; `varz-deck rules` lists them\n",
    )
    assert _cli("rules", "V1O1")[2] == (
        "varz-deck: unknown code 'V1O1'; did you mean V118, V117, V116?\n"
    )
    assert _cli("rules", "Q123", "--lang", "ja")[2] == (
        "varz-deck: 不明なコード 'Q123' です：`varz-deck rules` で一覧を確認できます\n"
    )
    assert _cli("rules", "V1O1", "--lang", "ja")[2] == (
        "varz-deck: 不明なコード 'V1O1' です：V118, V117, V116 のことですか？\n"
    )
    assert _cli("rules")[::2] == (0, "")


def test_rules_of_a_code_two_games_declare_names_the_clash(
    fresh: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _plug(monkeypatch, reef(tmp_path / "p", body=BODY_PLAIN_V101))
    said = (
        "varz-deck: the game reef (reef-game 1.0) is not used: its code V101 already belongs to "
        f"the game varz ({OURS}); ask its authors for codes of their own, or uninstall it\n"
    )
    assert _cli("rules", "v101") == (2, "", said)
    status, _, err = _cli("rules", "V101", "--lang", "ja")
    assert status == 2
    assert err.startswith(
        "varz-deck: ゲーム reef（reef-game 1.0）は使われません：そのコード V101 は"
    )
    status, out, err = _cli("rules", "V102")
    assert (status, err) == (0, "")
    assert out.startswith("V102 ")
    status, out, err = _cli("rules")
    assert (status, err) == (2, said)


def test_one_failure_is_said_once(capsys: pytest.CaptureFixture[str]) -> None:
    import typer

    from varz_deck.cli.common import fail_games
    from varz_deck.core.messages.i18n import Message

    failure = GameUnavailable("x", Message("cli", "it failed"))
    other = GameUnavailable("y", Message("cli", "it failed too"))
    with pytest.raises(typer.Exit) as exited:
        fail_games([failure, failure, other], "en")
    assert exited.value.exit_code == 2
    assert capsys.readouterr().err == "varz-deck: it failed\nvarz-deck: it failed too\n"
    fail_games([], "en")  # nothing to say: no exit


def test_a_failure_is_said_in_the_language_asked(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    import typer

    from varz_deck.cli.common import fail, fail_games, say
    from varz_deck.core.messages.i18n import msg

    monkeypatch.setenv("VARZ_DECK_LANG", "zh")
    said = msg("cli", "registered in this process")
    say(said, "ja")
    say("plain \x1b[31mtext", "ja")  # text as it is, made safe
    say(said, None)  # no language asked: the environment's
    with pytest.raises(typer.Exit):
        fail(said, lang="ja")
    with pytest.raises(typer.Exit):
        fail_games([GameUnavailable("x", said)], "ja")
    assert capsys.readouterr().err.splitlines() == [
        "varz-deck: このプロセスで登録",
        "varz-deck: plain \\x1b[31mtext",
        "varz-deck: 在本进程中注册",
        "varz-deck: このプロセスで登録",
        "varz-deck: このプロセスで登録",
    ]


def test_schema_names_the_game_that_cannot_say(broken: str) -> None:
    status, out, err = _cli("schema", "card")
    assert (status, err) == (0, "")
    assert json.loads(out)["$schema"].startswith("https://json-schema.org/")
    status, _, err = _cli("schema", "broken-card")
    assert status == 2
    assert err.startswith("Usage: varz-deck schema [OPTIONS] NAME\n")
    assert "Error: Invalid value for 'NAME': 'broken-card' is not one of" in err
    assert "'broken-card' is not one of 'card', 'deck', 'formats', 'azuki-card'" in err
    assert err.rstrip().endswith(
        "the game broken (broken-game 1.0) cannot be loaded from its entry point "
        "broken_game:GAME (ZeroDivisionError: division by zero); reinstall the package that "
        "provides it, or uninstall it"
    )


def test_schema_of_an_unknown_name_without_failures(fresh: Path) -> None:
    status, _, err = _cli("schema", "nothing")
    assert status == 2
    assert err.startswith("Usage: varz-deck schema [OPTIONS] NAME\n")
    assert (
        "Error: Invalid value for 'NAME': 'nothing' is not one of 'card', 'deck', 'formats', "
        "'azuki-card', 'azuki-deck'"
    ) in err
    assert "cannot be loaded" not in err
    status, _, err = _cli("schema", "CARD")  # names as written
    assert status == 2 and "Invalid value for 'NAME': 'CARD' is not one of" in err


def test_the_schema_names_are_read_when_asked_for(fresh: Path) -> None:
    import varz_deck.cli.rules as rules

    choice = rules._SchemaChoice()
    assert choice._names is None
    assert choice.choices[:5] == ("card", "deck", "formats", "azuki-card", "azuki-deck")
    choice.choices = ("ignored",)
    assert choice.choices[0] == "card"
    assert [m.value for m in rules.SchemaName][:3] == ["card", "deck", "formats"]
    with pytest.raises(AttributeError):
        rules.NotThere  # noqa: B018


def test_version_is_said_with_no_command_tree(fresh: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    cli = importlib.import_module("varz_deck.cli.main")

    def no_tree(*args: object) -> None:
        raise AssertionError("the command tree was built")

    monkeypatch.setattr(cli, "_command_for", no_tree)
    assert _cli("--version") == (0, f"varz-deck {__version__}\n", "")
    assert games._REGISTRY is None  # nor the registry


def test_help_is_of_the_command_named(fresh: Path) -> None:
    cli = importlib.import_module("varz_deck.cli.main")

    tree = cli.whole_app()
    import typer

    command = typer.main.get_command(tree)
    lint = command.commands["cards"].commands["lint"]  # type: ignore[attr-defined]
    assert cli._helped(command, ["cards", "lint", "--help"]) is lint
    assert cli._helped(command, ["cards", "--help"]) is command.commands["cards"]  # type: ignore[attr-defined]
    assert cli._helped(command, ["--help"]) is command
    assert cli._helped(command, ["nothing", "lint"]) is command
    assert cli._helped(command, []) is command


def test_the_tree_s_help_reads_no_database_and_imports_no_game(
    broken: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    cli = importlib.import_module("varz_deck.cli.main")

    opened: list[str] = []
    monkeypatch.setattr(cli, "_bundled_formats", lambda: opened.append("formats") or ["x"])
    status, out, _ = _cli("--help")
    assert status == 0 and "Usage: varz-deck" in out
    assert opened == []
    assert "broken_game" not in sys.modules
    status, out, _ = _cli("cards", "--help")
    assert (status, opened) == (0, [])
    status, out, _ = _cli("check", "--help")
    assert (status, opened) == (0, ["formats"])
    assert "(x)" in " ".join(out.split())


def test_schema_help_lists_the_choices_only_when_helped(fresh: Path) -> None:
    status, out, _ = _cli("schema", "--help")
    assert status == 0
    assert "NAME:\n    card\n    deck\n    formats\n    azuki-card\n" in out
    status, out, _ = _cli("--help")
    assert "azuki-card" not in out


def test_format_help_lists_the_games_that_can_be_used(broken: str) -> None:
    cli = importlib.import_module("varz_deck.cli.main")
    from varz_deck.games.library import bundled_root

    want: dict[str, None] = {}
    for key in games.game_keys():  # the bundled games, and any other installed here
        if key != "broken":
            want.update(dict.fromkeys(sorted(games.open_database(bundled_root(key)).formats)))
    assert cli._bundled_formats() == list(want)
    assert {"standard", "pioneer"} <= set(want)


def test_a_key_registered_again_is_loaded_from_its_new_target(fresh: Path) -> None:
    games.unregister_game("azuki")
    games.register_game("other", "varz_deck.games.azuki")
    assert games.get_game("other").key == "azuki"
    games.unregister_game("varz")
    games.register_game("other", "varz_deck.games.varz")  # not the game loaded before
    assert games.get_game("other").key == "varz"


def test_a_database_s_game_is_read_from_its_unsaved_formats_file(
    fresh: Path, tmp_path: Path
) -> None:
    formats = tmp_path / "formats.yaml"
    formats.write_text("game: varz\nformats: {}\n", encoding="utf-8")
    buffers = {formats: "game: azuki\nformats: {}\n"}
    assert games.database_game(tmp_path).key == "varz"
    assert games.database_game(tmp_path, buffers).key == "azuki"


def test_a_database_whose_game_yaml_declares_no_game_lints_to_its_problems(
    fresh: Path, tmp_path: Path
) -> None:
    cards = tmp_path / "cards"
    cards.mkdir()
    (cards / "game.yaml").write_text("key: [\n", encoding="utf-8")
    found = games.lint_database(cards)
    assert found.unusable and found.root == cards
    ((path, said),) = found.files.items()
    assert Path(path).name == "game.yaml" and said, found.files


def test_rules_prints_a_codes_text_as_written(fresh: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A code's text is a plugin author's: rich's markup, emoji codes and highlighting never
    touch it (`[bold]` stays, `:smile:` stays)."""
    from varz_deck.core.messages.code import Code

    written = "Keep [bold]one[/bold] :smile: copy, 12 at most."
    code = Code("Q901", "odd-text", written, doc=written)
    monkeypatch.setattr(games, "all_codes", lambda failures=None: {"Q901": code})
    monkeypatch.setenv("FORCE_COLOR", "1")  # highlighting would colour the number
    status, out, _ = _cli("rules", "Q901", "--lang", "en")
    assert status == 0
    assert out.splitlines()[-1] == written
