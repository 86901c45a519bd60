"""One glossary for every figure (core/analysis/glossary.py), and `varz-deck explain` that shows it."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from varz_deck.cli.main import build_app
from varz_deck.core.analysis.glossary import GLOSSARY_HINT, entries, find
from varz_deck.core.messages.i18n import LANGUAGES
from varz_deck.games import game_keys, get_game

ROOT = Path(__file__).resolve().parent.parent
KAGURA = ROOT / "examples" / "red-kagura-festival.yaml"
RAIZAN = ROOT / "examples" / "azuki" / "stt01-raizan-lightning.yaml"
app = build_app()
runner = CliRunner()


def run(*args: object) -> Any:
    return runner.invoke(app, [str(a) for a in args])


@pytest.mark.parametrize("key", ["varz", "azuki"])
def test_no_two_terms_of_a_game_share_a_name_in_any_language(key: str) -> None:
    glossary = entries(get_game(key))
    for lang in LANGUAGES:
        names = [e.name.render(lang) for e in glossary.values()]
        assert len(names) == len(set(names)), (lang, sorted(names))
        definitions = [e.definition.render(lang) for e in glossary.values()]
        assert len(definitions) == len(set(definitions)), lang


def test_keys_are_kebab_case_ascii_and_see_only_known_keys() -> None:
    for key in game_keys():
        glossary = entries(get_game(key))
        for e in glossary.values():
            assert re.fullmatch(r"[a-z0-9]+(-[a-z0-9]+)*", e.key), e.key
            assert set(e.see) <= set(glossary), (e.key, e.see)


def test_the_two_on_curve_figures_have_distinct_names_that_say_the_difference() -> None:
    glossary = entries(get_game("varz"))
    castable, cast = glossary["castable-on-curve"], glossary["cast-on-curve"]
    assert castable.name.render("en") == "castable on curve"
    assert cast.name.render("en") == "cast on curve in a goldfish game"
    assert castable.kind == "exact" and cast.kind == "sampled"
    assert "castable-on-curve" in cast.see and "cast-on-curve" in castable.see
    assert "another card" in cast.definition.render("en")


def _path(document: Any, path: str) -> bool:
    """Whether a JSON key path like `cards[].p_cast_on_curve` or `tables[].rows[].by_turn` exists."""
    head, _, rest = path.partition(".")
    many = head.endswith("[]")
    name = head[:-2] if many else head
    if not isinstance(document, dict) or name not in document:
        return False
    value = document[name]
    if not rest:
        return True
    if many:
        return bool(value) and all(_path(item, rest) for item in value)
    return _path(value, rest)


@pytest.mark.parametrize("key,deck", [("varz", KAGURA), ("azuki", RAIZAN)])
def test_every_json_key_the_glossary_names_is_in_that_commands_json(key: str, deck: Path) -> None:
    documents = {}
    for command in ("sim", "tune"):
        args = [command, deck, "-o", "json"] + (["--games", "500"] if command == "sim" else [])
        result = run(*args)
        assert result.exit_code == 0, result.output
        documents[command] = json.loads(result.stdout)
    # a splash deck has the colour tables the skills-needed entry documents
    splash = run("tune", ROOT / "examples" / "yellow-amane-red-splash.yaml", "-o", "json")
    for e in entries(get_game(key)).values():
        for where in e.json:
            command, _, path = where.partition(": ")
            document = documents[command]
            if path.startswith("tables[]") or path == "swaps[]":
                if key == "azuki":
                    continue  # Azuki's IKZ deck is fixed: no swaps, no tables (said in its text)
                document = json.loads(splash.stdout)
            assert _path(document, path.replace("[]", "[]", 1)), f"{key}: {where}"


def test_find_takes_the_key_or_the_name_in_any_language() -> None:
    glossary = entries(get_game("varz"))
    assert find(glossary, "castable-on-curve") is glossary["castable-on-curve"]
    assert find(glossary, "Castable on Curve") is glossary["castable-on-curve"]
    assert find(glossary, "カーブターンに使用可能", LANGUAGES) is glossary["castable-on-curve"]
    assert find(glossary, "曲线回合可施放", LANGUAGES) is glossary["castable-on-curve"]
    assert find(glossary, "castable") is None


def test_explain_lists_every_term_and_explains_one() -> None:
    listed = run("explain", "--lang", "en")
    assert listed.exit_code == 0
    for key in entries(get_game("varz")):
        assert f"\n{key}: " in listed.stdout
    one = run("explain", "cast-on-curve", "--lang", "en")
    assert one.exit_code == 0
    assert one.stdout.splitlines()[0] == "cast on curve in a goldfish game  (P(cast))"
    assert "Figures: sampled, with ±" in one.stdout
    assert "JSON: sim: cards[].p_cast_on_curve" in one.stdout
    assert "castable on curve (castable-on-curve)" in one.stdout.replace("\n", " ")
    assert max(len(line) for line in listed.stdout.splitlines()) <= 80


def test_explain_in_japanese_and_for_azuki() -> None:
    ja = run("explain", "curve-turn", "--lang", "ja")
    assert ja.exit_code == 0 and ja.stdout.startswith("カーブターン")
    azuki = run("explain", "curve-turn", "--game", "azuki", "--lang", "en")
    assert "IKZ area" in azuki.stdout


def test_explain_an_unknown_term_is_a_usage_error_with_a_suggestion() -> None:
    result = run("explain", "castble-on-curve", "--lang", "en")
    assert result.exit_code == 2
    assert "unknown term 'castble-on-curve'; did you mean castable-on-curve" in result.output
    nothing = run("explain", "zzzz", "--lang", "en")
    assert nothing.exit_code == 2 and "`varz-deck explain` lists them" in nothing.output


def test_explain_never_prints_a_control_character() -> None:
    result = run("explain", "\x1b[31mred\u202e", "--lang", "en")
    assert result.exit_code == 2
    assert "\x1b" not in result.output and "\u202e" not in result.output


def test_explain_json_and_markdown() -> None:
    document = json.loads(run("explain", "-o", "json").stdout)
    assert document["version"] == 1 and document["game"] == "varz"
    keys = [t["key"] for t in document["terms"]]
    assert keys == list(entries(get_game("varz")))
    markdown = run("explain", "-o", "markdown", "--lang", "en").stdout
    assert "### castable on curve { #castable-on-curve }" in markdown
    assert "[cast on curve in a goldfish game](#cast-on-curve)" in markdown


@pytest.mark.parametrize(
    "args",
    [
        ("sim", KAGURA, "--games", "300"),
        ("tune", KAGURA),
        ("stats", KAGURA),
        ("sim", RAIZAN, "--games", "300"),
        ("tune", RAIZAN),
        ("stats", RAIZAN),
        ("sim", KAGURA, "--vs", ROOT / "examples" / "red-homura-pioneer.yaml", "--games", "300"),
        ("sim", RAIZAN, "--vs", ROOT / "examples" / "azuki" / "stt04-zero-fire.yaml", "-n", "300"),
    ],
    ids=lambda a: " ".join(str(x) for x in a[:2]) if isinstance(a, tuple) else str(a),
)
def test_every_analysis_footer_links_the_glossary(args: tuple[object, ...]) -> None:
    for lang in LANGUAGES:
        result = run(*args, "--lang", lang)
        assert result.exit_code == 0, result.output
        hint = GLOSSARY_HINT.render(lang)
        assert hint in result.stdout.replace("\n", " " if lang == "en" else ""), lang


def test_the_shared_glossary_and_what_a_game_drops() -> None:
    from varz_deck.core.analysis.glossary import SHARED

    assert list(entries()) == [e.key for e in SHARED]
    azuki = entries(get_game("azuki"))
    assert "cast-on-curve" not in azuki and "cast-on-curve" in entries(get_game("varz"))
    assert azuki["castable-on-curve"].see == ("curve-turn",)  # no link to a dropped term
    assert azuki["curve-turn"].definition.render("en").startswith("The first turn the IKZ")


def test_find_folds_width_case_hyphens_and_spaces() -> None:
    glossary = entries(get_game("varz"))
    want = glossary["castable-on-curve"]
    for term in (
        "CASTABLE-ON-CURVE",
        "  castable on curve ",
        "castable-on curve",
        "ｃａｓｔａｂｌｅ－ｏｎ－ｃｕｒｖｅ",
    ):
        assert find(glossary, term) is want, term
    assert find(glossary, "castable_on_curve") is None


def test_a_suggestion_names_each_term_once() -> None:
    """A term whose key and English name are the same word ("sampled") is suggested once."""
    result = run("explain", "sampld", "--lang", "en")
    assert result.exit_code == 2
    assert "did you mean sampled, swap?" in result.output
