"""`varz-deck cards show REF` and `varz-deck cards search` (issue 7): card look-up for people."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from varz_deck.cli import app
from varz_deck.core.cards.cardinfo import CardNotFound, find_card
from varz_deck.core.cards.cardinfo import CardQuery as Query
from varz_deck.core.cards.model import CardDatabase
from varz_deck.games import open_database
from varz_deck.games.varz.cardinfo import format_status, search

ROOT = Path(__file__).resolve().parent.parent
BUNDLED = ROOT / "card_data" / "varz"


@pytest.fixture(autouse=True)
def _english(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("VARZ_DECK_LANG", "LC_ALL", "LC_MESSAGES", "LANG"):
        monkeypatch.delenv(name, raising=False)


@pytest.fixture(scope="module")
def db() -> CardDatabase:
    return open_database(BUNDLED)


def run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(app, ["cards", *args, "--cards", str(BUNDLED)])
    return result.exit_code, result.output


# --------------------------------------------------------------------------- find


@pytest.mark.parametrize(
    "ref",
    [
        "VZ01-010",
        "vz01-010",
        "Scorch Shot",
        "scorch  SHOT",
        "ｓｃｏｒｃｈ ｓｈｏｔ",
        "スコーチショット",
        "灼热射击",
    ],
)
def test_a_card_is_found_by_id_or_any_name_ignoring_case_and_width(
    db: CardDatabase, ref: str
) -> None:
    assert find_card(db, ref).name == "Scorch Shot"


def test_an_unknown_card_suggests_close_names(db: CardDatabase) -> None:
    with pytest.raises(CardNotFound) as err:
        find_card(db, "Scorch Shoot")
    assert str(err.value) == "no card 'Scorch Shoot'; did you mean 'Scorch Shot'?"
    assert (
        err.value.message.render("ja")
        == "カード「Scorch Shoot」はありません：「Scorch Shot」のことですか？"
    )


def test_nothing_close_points_to_search(db: CardDatabase) -> None:
    with pytest.raises(CardNotFound, match="cards search"):
        find_card(db, "zzzzzzzz")


# --------------------------------------------------------------------------- show


def test_show_prints_every_field_every_name_and_every_printing() -> None:
    code, out = run("show", "Scorch Shot")
    assert code == 0
    for text in (
        "Scorch Shot",
        "スコーチショット",
        "灼热射击",
        "VZ01-010",
        "VZ02-063",
        "cost",
        "Printings",
    ):
        assert text in out, text
    assert "not banned or restricted in any format" in out


def test_show_names_the_formats_that_ban_or_restrict_a_card(db: CardDatabase) -> None:
    banned = find_card(db, "VZ01-031")
    assert [(f.key, m.render()) for f, m in format_status(banned, db)] == [("standard", "banned")]
    restricted = find_card(db, "VZ01-040")
    assert [(f.key, m.render()) for f, m in format_status(restricted, db)] == [
        ("standard", "restricted to 1")
    ]
    code, out = run("show", "VZ01-031")
    assert code == 0 and "Standard" in out and "banned" in out


def test_show_says_when_a_format_leaves_out_every_printing(db: CardDatabase) -> None:
    promo_only = next(
        c for c in db.cards.values() if all(p.set == "PR" for p in db.printings[c.name])
    )
    statuses = [m.render() for _f, m in format_status(promo_only, db)]
    assert statuses == ["not in its sets (VZ01, VZ02)"]


def test_show_in_japanese_uses_the_rulebook_words() -> None:
    code, out = run("show", "VZ01-001", "--lang", "ja")
    assert code == 0
    for text in (
        "神楽 響 / Hibiki Kagura",
        "進化レベル",
        "メモリー",
        "スキルクラス",
        "《Fighter》",
        "赤",
        "収録",
    ):
        assert text in out, text


def test_show_in_chinese_for_a_portal() -> None:
    code, out = run("show", "Basic Gate (2)", "--lang", "zh")
    assert code == 0
    assert "护盾生命" in out and "传送门" in out


def test_show_of_an_unknown_card_exits_1_with_a_hint() -> None:
    code, out = run("show", "Scorch Shoot")
    assert code == 1
    assert "did you mean 'Scorch Shot'?" in out


# --------------------------------------------------------------------------- search


def test_search_matches_text_in_any_language_and_any_width(db: CardDatabase) -> None:
    for text in ("scorch", "ＳＣＯＲＣＨ", "スコーチ", "灼热"):
        assert [c.name for c in search(db, Query(text=text))] == ["Scorch Shot", "Scorch Shot"]


def test_search_filters_combine(db: CardDatabase) -> None:
    heroes = search(db, Query(type="hero"))
    assert heroes and all(c.type == "hero" for c in heroes)
    red_1 = search(db, Query(color="red", cost=1))
    assert red_1 and all(c.color == "red" and c.cost == 1 for c in red_1)
    fighters = search(db, Query(klass="Fighter"))
    assert fighters and all(
        "fighter" in (*c.skill_classes, *c.classes, c.skill_class) for c in fighters
    )
    hasty = search(db, Query(keyword="haste"))
    assert hasty and all("haste" in c.keywords for c in hasty)
    assert search(db, Query(text="imp", type="portal")) == []


def test_a_keyword_matches_without_its_number(db: CardDatabase) -> None:
    numbered = {k for c in db.cards.values() for k in c.keywords if k[-1].isdigit()}
    if not numbered:
        pytest.skip("no numbered keyword in the bundled data")
    keyword = sorted(numbered)[0]
    base = keyword.rstrip("0123456789").rstrip("+")
    assert search(db, Query(keyword=base))


def test_search_prints_a_table_and_a_count() -> None:
    code, out = run("search", "imp")
    assert code == 0
    assert "Ember Imp" in out and "VZ01-007" in out
    assert out.rstrip().splitlines()[-1].endswith("found")


def test_search_in_japanese_shows_both_names() -> None:
    code, out = run("search", "インプ", "--lang", "ja")
    assert code == 0
    assert "エンバー・インプ (Ember Imp)" in out
    assert "カードタイプ" in out
    assert "枚のカードが見つかりました" in out


def test_search_with_no_match_exits_1() -> None:
    code, out = run("search", "no such card anywhere")
    assert code == 1
    assert "0 cards found" in out


def test_search_and_show_escape_control_characters(tmp_path: Path) -> None:
    (tmp_path / "x.yaml").write_text(
        "cards:\n"
        "  - id: X1-001\n"
        '    name: "Evil\\e[2J Imp"\n'
        '    names: {ja: "悪\\u202eい"}\n'
        "    type: command\n"
        "    color: red\n"
        "    cost: 1\n",
        encoding="utf-8",
    )
    for args in (["search", "imp"], ["show", "X1-001"], ["show", "X1-001", "--lang", "ja"]):
        result = CliRunner().invoke(app, ["cards", *args, "--cards", str(tmp_path)])
        assert result.exit_code == 0, result.output
        assert "\x1b" not in result.output and "\u202e" not in result.output
        assert "\\x1b[2J" in result.output or "\\u202e" in result.output
