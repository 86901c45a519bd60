"""Time-bounded fuzzing of every command and output format (issue 11).

Hypothesis feeds deck texts (YAML and plain text, VARZ and Azuki, mutated from the examples or
made up), card files (a small database in a temporary folder with one fuzzed file), deck codes
(a valid code, mutated), hostile plugins (claiming a bundled key or each other's, declaring another
game's code or the core's, raising on import, in detection, in their rules or their check) and
damaged records of the registry of games. Every command runs in-process; none may raise or exit 3, and no output
may carry a raw control (C0 but newline and tab, DEL, C1) or bidi character.

CI runs about 90 seconds in all. FUZZ_EXAMPLES=N multiplies the number of examples by N for a
longer run (`FUZZ_EXAMPLES=20 pytest tests/test_fuzz_commands.py`); FUZZ_REPORT=1 prints how many
inputs each test tried.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import re
import shutil
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from plugintools import reef, with_rules

from varz_deck import __version__
from varz_deck.cli import main

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = sorted((ROOT / "examples").glob("*.yaml")) + sorted((ROOT / "examples").glob("*.txt"))
AZUKI = sorted((ROOT / "examples" / "azuki").glob("*.yaml"))
SCALE = max(1, int(os.environ.get("FUZZ_EXAMPLES", "1")))
RAW = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")
TRIED: dict[str, int] = {}

# Characters a hostile file likes: controls, escapes, bidi marks, YAML syntax, digits, CJK.
NASTY = (
    "\x00\x07\x08\x1b\x7f\x85\x9b\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e"
    "\u2066\u2067\u2068\u2069\ufeff\u3000:-[]{}#&*!|>'\"%@`,?\t\n 0123456789x×語"
)
nasty_text = st.text(alphabet=st.sampled_from(NASTY) | st.characters(), max_size=40)


def settings_for(examples: int) -> settings:
    return settings(
        max_examples=examples * SCALE,
        deadline=None,
        derandomize=SCALE == 1,  # CI: the same inputs every run; longer runs explore
        suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
        database=None,
    )


def run(*args: str) -> tuple[int, str]:
    """The app in-process: (exit status, stdout + stderr); raises on an escaped exception."""
    out, err = io.StringIO(), io.StringIO()
    code: int = 0
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            main(list(args))
        except SystemExit as done:
            code = done.code if isinstance(done.code, int) else (0 if done.code is None else 1)
    text = out.getvalue() + err.getvalue()
    assert code != 3, (args, text[-2000:])
    assert RAW.findall(text) == [], (args, RAW.findall(text)[:5], text[-2000:])
    return code, text


def mutate(data: st.DataObject, text: str) -> str:
    """Insert, delete or replace a few pieces of text anywhere."""
    for _ in range(data.draw(st.integers(0, 4))):
        i = data.draw(st.integers(0, len(text)))
        j = data.draw(st.integers(i, min(len(text), i + 12)))
        text = text[:i] + data.draw(nasty_text) + text[j:]
    return text


def count(name: str) -> None:
    TRIED[name] = TRIED.get(name, 0) + 1


@pytest.fixture(scope="module", autouse=True)
def _report() -> Iterator[None]:
    yield
    if os.environ.get("FUZZ_REPORT"):
        sys.__stderr__.write(f"\nfuzz inputs tried: {TRIED}\n")


@pytest.fixture(scope="module")
def work(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("fuzz")


@pytest.fixture(scope="module")
def valid_code() -> str:
    code, text = run("code", str(ROOT / "examples" / "blue-list.txt"))
    assert code == 0
    return text.strip().splitlines()[0]


# --------------------------------------------------------------------------- decks


@settings_for(10)
@given(data=st.data())
def test_fuzz_deck_every_command(data: st.DataObject, work: Path) -> None:
    source = data.draw(st.sampled_from(EXAMPLES + AZUKI))
    original = source.read_text(encoding="utf-8")
    text = mutate(data, original) if data.draw(st.booleans()) else data.draw(nasty_text)
    suffix = data.draw(st.sampled_from([".yaml", ".txt", source.suffix]))
    deck = work / f"deck{suffix}"
    deck.write_text(text, encoding="utf-8", errors="surrogatepass")
    count("deck")
    other = str(source)
    for output in ("text", "json", "github", "sarif"):
        run("check", "--output", output, str(deck))
    for output in ("text", "json"):
        run("sim", "--games", "200", "--output", output, str(deck))
    for output in ("text", "json", "csv"):
        run("register", "--output", output, str(deck))
    run("verify", "--hash", "v1-aaaaaaaaaaaa", str(deck))
    run("diff", str(deck), other)
    run("diff", "--output", "json", other, str(deck))
    run("code", str(deck))


# --------------------------------------------------------------------------- deck codes


@settings_for(15)
@given(data=st.data())
def test_fuzz_deck_codes(data: st.DataObject, valid_code: str) -> None:
    code = mutate(data, valid_code)
    if data.draw(st.booleans()):
        code = code[: data.draw(st.integers(0, len(code)))]
    if data.draw(st.booleans()):
        code += data.draw(st.sampled_from([".", ",", "。", " ", "\u202e", "\x1b[2J"]))
    if not code.strip() or "\x00" in code:
        code = valid_code + "."  # an argument cannot be empty or carry NUL
    count("code")
    for output in ("text", "json"):
        run("check", "--output", output, code)
    run("register", "--output", "json", code)
    run("diff", "--output", "json", valid_code, code)
    run("code", code)
    run("verify", "--hash", "v1-aaaaaaaaaaaa", code)


# --------------------------------------------------------------------------- card files


@pytest.fixture(scope="module")
def small_db(work: Path) -> Path:
    """A copy of the bundled VARZ database (without the nested Azuki one)."""
    db = work / "db"
    shutil.copytree(ROOT / "card_data" / "varz", db)
    return db


@settings_for(5)
@given(data=st.data())
def test_fuzz_card_files(data: st.DataObject, small_db: Path, work: Path) -> None:
    sets = sorted((small_db / "sets").glob("*.yaml"))
    target = data.draw(st.sampled_from([*sets, small_db / "formats.yaml"]))
    original = target.read_text(encoding="utf-8")
    try:
        target.write_text(mutate(data, original), encoding="utf-8", errors="surrogatepass")
        count("card file")
        for output in ("text", "json", "github", "sarif"):
            run("cards", "lint", str(small_db), "--output", output)
        deck = str(ROOT / "examples" / "blue-list.txt")
        run("check", "--cards", str(small_db), "--output", "json", deck)
        run("sim", "--cards", str(small_db), "--games", "200", deck)
        run("register", "--cards", str(small_db), deck)
        query = data.draw(nasty_text.filter(lambda q: q.strip() != "" and "\x00" not in q))
        run("cards", "show", "--cards", str(small_db), query)
        run("cards", "search", "--cards", str(small_db), query)
        run("cards", "show", "--cards", str(small_db), "VZ01-002")
    finally:
        target.write_text(original, encoding="utf-8")


@settings_for(6)
@given(query=nasty_text.filter(lambda q: q.strip() != "" and "\x00" not in q))
def test_fuzz_lookups(query: str) -> None:
    count("lookup")
    run("cards", "show", query)
    run("cards", "search", query)
    run("rules", query)
    run("rules")


# ------------------------------------------------- issue 24: verdicts that must not move

KAGURA = ROOT / "examples" / "red-kagura-festival.yaml"
SCORCH = "  Scorch Shot: 3\n"  # two printings in the bundled database: VZ01-010 and VZ02-063


def _full_width(text: str) -> str:
    return "".join(chr(ord(c) + 0xFEE0) if "!" <= c <= "~" else c for c in text)


id_spelling = st.sampled_from([str, str.lower, _full_width, lambda t: _full_width(t.lower())])


@settings_for(12)
@given(
    first=st.sampled_from(["VZ01-010", "VZ02-063", "Scorch Shot"]),
    second=st.sampled_from(["VZ01-010", "VZ02-063", "Scorch Shot", "スコーチショット"]),
    spell_first=id_spelling,
    spell_second=id_spelling,
    copies=st.integers(1, 2),
)
def test_fuzz_printings_one_rule_whatever_the_width(
    work: Path, first: str, second: str, spell_first: object, spell_second: object, copies: int
) -> None:
    """Two lines for Scorch Shot: legal only when they name its two printings by id, in any
    width or case; F003 when a name is one of them or both name one printing (SPEC §2)."""
    assert callable(spell_first) and callable(spell_second)
    lines = f"  {spell_first(first)}: {copies}\n  {spell_second(second)}: {3 - copies}\n"
    deck = work / "printings.yaml"
    deck.write_text(KAGURA.read_text(encoding="utf-8").replace(SCORCH, lines), encoding="utf-8")
    ids = {"VZ01-010", "VZ02-063"}
    expected_legal = first in ids and second in ids and first != second
    count("printings")
    code, text = run("check", "--output", "json", str(deck))
    assert (code == 0) == expected_legal, text
    if not expected_legal:
        assert '"code": "F003"' in text


def _forms(name: str) -> dict[str, str]:
    """The Kagura example with `name` in place of Scorch Shot, as a mapping, a YAML list and a
    .txt list."""
    import yaml

    deck = yaml.safe_load(KAGURA.read_text(encoding="utf-8"))
    deck["spells"] = {(name if k == "Scorch Shot" else k): v for k, v in deck["spells"].items()}
    sections = ("spells", "skills", "portals")
    head = f"hero: {deck['hero']}\nformat: {deck['format']}\n"
    mapping = head + "".join(
        f"{s}:\n" + "".join(f"  {json.dumps(k)}: {v}\n" for k, v in deck[s].items())
        for s in sections
    )
    listed = head + "".join(
        f"{s}:\n" + "".join(f"  - {json.dumps(f'{v} {k}')}\n" for k, v in deck[s].items())
        for s in sections
    )
    text = f"Hero: {deck['hero']}\nFormat: {deck['format']}\n" + "".join(
        f"{s}:\n" + "".join(f"{v} {k}\n" for k, v in deck[s].items()) for s in sections
    )
    return {"yaml": mapping, "list.yaml": listed, "txt": text}


@settings_for(8)
@given(lead=st.sampled_from(["X", "x", "×", "X-", "XX", "3x", "x3"]))
def test_fuzz_names_that_start_like_a_multiplier(small_db: Path, work: Path, lead: str) -> None:
    """`3 X Ronin` is three of the card `X Ronin`, in a .txt line and a YAML list item alike:
    the same deck code as the mapping form that names the card outright."""
    name = f"{lead} Ronin"
    cards = small_db / "sets" / "xx.yaml"
    cards.write_text(
        "set: {code: XX1, name: Letters, released: 2025-01-01}\ncards:\n"
        f"  - {{id: XX1-001, name: {json.dumps(name)}, type: spil, color: red, cost: 1, "
        "power: 2}\n",
        encoding="utf-8",
    )
    try:
        codes = set()
        for suffix, text in _forms(name).items():
            deck = work / f"x-names.{suffix}"
            deck.write_text(text, encoding="utf-8")
            status, out = run("code", "--cards", str(small_db), str(deck))
            assert status == 0, out
            codes.add(out.strip())
        count("x-names")
        assert len(codes) == 1, codes
    finally:
        cards.unlink()


@settings_for(4)
@given(lines=st.integers(1, 2_000), count_=st.integers(1, 99))
def test_fuzz_huge_repeated_counts_are_checked_fast(work: Path, lines: int, count_: int) -> None:
    """A .txt of one line repeated thousands of times: F003 for the repeats, an answer in
    seconds, never a crash (issue 24 rows 7 and 12 gave such decks to sim, tune and code)."""
    import time

    deck = work / "repeated.txt"
    deck.write_text("Hero: Hibiki Kagura\nSpells:\n" + f"{count_} Ember Imp\n" * lines, "utf-8")
    count("repeated")
    started = time.monotonic()
    status, out = run("check", "--output", "json", str(deck))
    assert status == 1, out[-500:]
    assert time.monotonic() - started < 20
    if lines > 1:
        assert '"code": "F003"' in out


# --------------------------------------------------------------------------- plugins and records

VARZ_DECK = ROOT / "examples" / "red-kagura-festival.yaml"
AZUKI_DECK = ROOT / "examples" / "azuki" / "stt02-shao-water.yaml"
VARZ_DB = ROOT / "card_data" / "varz"
_FAILS = 'class Failing(Reef):\n    def {0}(self, *args):\n        raise RuntimeError("{0}")\n\n\nGAME = Failing()\n'  # fmt: skip
BEHAVIOURS = {
    "works": "GAME = Reef()\n",
    "import": "raise RuntimeError('half installed')\n",
    "exit": "import sys\nsys.exit(0)\n",
    **{method: _FAILS.format(method) for method in ("owns_deck", "rules", "card_rules")},
    "check_deck": _FAILS.format("check_deck"),
    **{code: with_rules(f'{{**super().rules(), "{code}": PlainRule("{code}")}}') for code in ("V101", "A101", "F001")},
}  # fmt: skip
plugin_strategy = st.tuples(
    st.sampled_from(["varz", "azuki", "reef", "atoll"]),
    st.sampled_from(["alpha", "reef-game", "zeta"]),
    st.sampled_from(sorted(BEHAVIOURS)),
)


@contextlib.contextmanager
def installed(folders: list[Path], after: bool, cache: Path | None = None) -> Iterator[None]:
    """The plugin folders on the import path (first, or after the packages), the registry read
    afresh (its record in `cache` when given); everything as it was afterwards."""
    from varz_deck import games

    saved = list(sys.path), games._REGISTRY, set(sys.modules), os.environ.get("VARZ_DECK_CACHE")
    sys.path[:] = [*saved[0], *map(str, folders)] if after else [*map(str, folders), *saved[0]]
    games._REGISTRY = None
    if cache is not None:
        os.environ["VARZ_DECK_CACHE"] = str(cache)
    try:
        yield
    finally:
        sys.path[:] = saved[0]
        games._REGISTRY = saved[1]
        for name in set(sys.modules) - saved[2]:
            if name.endswith("_game"):
                del sys.modules[name]
        if saved[3] is not None:
            os.environ["VARZ_DECK_CACHE"] = saved[3]


@settings_for(20)
@given(plugins=st.lists(plugin_strategy, min_size=1, max_size=3), after=st.booleans())
def test_fuzz_hostile_plugins(plugins: list[tuple[str, str, str]], after: bool, work: Path) -> None:
    """Plugins claiming a bundled key or each other's, declaring another game's code or the
    core's, raising on import, exiting, raising in detection, in their rules or their check:
    never exit 3; a game no plugin claims keeps working; a failure names a package."""
    count("plugins")
    TRIED["plugin-examples"] = example = TRIED.get("plugin-examples", 0) + 1
    folders = []
    for i, (key, dist, behaviour) in enumerate(plugins):
        folder = work / "plugins" / f"{example}-{i}"
        module = f"fz{example}x{i}_game"
        folders.append(reef(folder, dist, BEHAVIOURS[behaviour], key=key, module=module))
    deck = work / "plugins" / f"{example}.reef.txt"
    deck.write_text("reef\nAZK01-122\n", encoding="utf-8")
    # a package installed twice: the first on the import path is the one (as for imports)
    seen = {dist: (key, behaviour) for key, dist, behaviour in reversed(plugins)}
    plugins = [(key, dist, behaviour) for dist, (key, behaviour) in seen.items()]
    claimed = {key for key, _, _ in plugins}
    with installed(folders, after):
        assert run("--version") == (0, f"varz-deck {__version__}\n")
        for game, args in (("varz", ["check", str(VARZ_DECK)]), ("varz", ["cards", "lint", str(VARZ_DB)]),
                           ("varz", ["schema", "card"]), ("azuki", ["check", "--game", "azuki", str(AZUKI_DECK)])):  # fmt: skip
            status, out = run(*args)
            if game in claimed:
                assert status == 2 and "registered by more than one package" in out, (args, out)
            else:
                assert status == 0, (args, out[-2000:])
        status, out = run("rules", "V101")
        untouched = "varz" not in claimed and all(b != "V101" for _, _, b in plugins)
        assert status == 0 if untouched else status in (0, 2), out
        for args in (["rules"], ["check", str(deck), str(VARZ_DECK)], ["check", str(AZUKI_DECK)]):
            status, out = run(*args)
            assert status in (0, 1, 2), (args, out)
            if status == 2:  # a package named, or a plugin's database (of no installed game)
                said = [f"{d} 1.0" for _, d, _ in plugins] + ["card database"]
                assert any(words in out for words in said), (args, out)


_leaves = st.none() | st.booleans() | st.integers() | st.text(max_size=10)
_json = st.recursive(_leaves, lambda inner: st.lists(inner) | st.dictionaries(st.text(max_size=8), inner), max_leaves=20)  # fmt: skip
# How to damage a record: mutate its text, put other JSON, nest deep, give a field another
# value, or edit its games (which are kept, their entry points swapped, which is the default).
damages = st.one_of(
    st.tuples(st.just("mutate"), st.lists(st.tuples(st.integers(0, 10**6), st.integers(0, 12), nasty_text), max_size=4)),
    st.tuples(st.just("json"), _json),
    st.tuples(st.just("nest"), st.sampled_from(["[", '{"a":']), st.sampled_from([1_000, 100_000, 1_000_000])),
    st.tuples(st.just("field"), st.integers(0, 9), st.sampled_from([None, 0, "", [], {}, 2, "varz"])),
    st.tuples(st.just("games"), st.lists(st.booleans(), max_size=6), st.booleans(), st.integers(-1, 5)),
)  # fmt: skip


def damaged(valid: str, damage: tuple) -> str:  # type: ignore[type-arg]
    """A valid record with a damage drawn from `damages`."""
    kind, *how = damage
    count(f"record-{kind}")
    if kind == "mutate":
        text = valid
        for at, length, piece in how[0]:
            i = at % (len(text) + 1)
            text = text[:i] + piece + text[i + length :]
        return text
    if kind == "json":
        return json.dumps(how[0])
    if kind == "nest":
        return how[0] * how[1]
    record = json.loads(valid)
    if kind == "field":
        record[sorted(record)[how[0] % len(record)]] = how[1]
        return json.dumps(record)
    keep, swap, default = how
    kept = [key for key, kept in zip(sorted(record["games"]), keep, strict=False) if kept]
    values = [record["games"][key] for key in kept]
    record["games"] = dict(zip(kept, reversed(values) if swap else values, strict=True))
    record["default"] = kept[default] if 0 <= default < len(kept) else None
    return json.dumps(record)


@settings_for(30)
@given(damage=damages)
@example(damage=("games", [], False, -1))  # no games at all
@example(damage=("games", [True, False], False, 0))  # azuki only, the default
@example(damage=("games", [True, True], True, 1))  # each other's entry point
@example(damage=("nest", "[", 100_000))
def test_fuzz_damaged_registry_records(damage: tuple, work: Path) -> None:  # type: ignore[type-arg]
    """Whatever the record of the registry holds, the installed games are read again: a VARZ deck
    is checked as VARZ, an Azuki deck as Azuki, and a good record is written back."""
    count("records")
    from varz_deck import games

    cache = work / "records"
    with installed([], after=True, cache=cache):
        games.game_keys()
    valid = (cache / "games.json").read_text(encoding="utf-8")
    text = damaged(valid, damage)
    (cache / "games.json").write_text(text, encoding="utf-8", errors="surrogateescape")
    with installed([], after=True, cache=cache):
        status, out = run("check", str(VARZ_DECK))
        assert status == 0, out[-2000:]
        status, out = run("check", "--output", "json", str(AZUKI_DECK))
        assert status == 0 and json.loads(out)["decks"][0]["legal"], out[-2000:]
    assert json.loads((cache / "games.json").read_text(encoding="utf-8")) == json.loads(valid)
