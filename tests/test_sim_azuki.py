"""Azuki's `sim --vs`, `sim --plot`, its 80-column text, and `cards show/search` for Azuki (issue 10,
"What to build" 4 and 5); the `--type`/`--color` vocabulary check for VARZ."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from math import comb
from pathlib import Path

import pytest
from rich.cells import cell_len
from typer.testing import CliRunner

from varz_deck.cli import app
from varz_deck.core.analysis.capabilities import SimRequest
from varz_deck.core.dates import on_date
from varz_deck.core.files.source import DeckSource
from varz_deck.games import get_game, open_database

src = DeckSource.from_path

ROOT = Path(__file__).resolve().parent.parent
AZUKI_DB = ROOT / "card_data" / "azuki"
RAIZAN = ROOT / "examples" / "azuki" / "stt01-raizan-lightning.yaml"
SHAO = ROOT / "examples" / "azuki" / "stt02-shao-water.yaml"
SVG_NS = "{http://www.w3.org/2000/svg}"


@pytest.fixture(autouse=True)
def _english(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("VARZ_DECK_LANG", "LC_ALL", "LC_MESSAGES", "LANG", "VARZ_DECK_CARDS"):
        monkeypatch.delenv(name, raising=False)


def run(*args: object) -> tuple[int, str, bytes]:
    result = CliRunner().invoke(app, [str(a) for a in args])
    return result.exit_code, result.output, result.stdout_bytes


def sim_json(*args: object) -> dict:
    code, out, _ = run("sim", "--game", "azuki", *args, "-o", "json")
    assert code == 0, out
    return json.loads(out)


def _deck_cards(path: Path) -> dict[str, int]:
    """Main-deck copies by id, read from the deck file without the tool's resolver."""
    import yaml

    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    main = data["main"]
    items = main.items() if isinstance(main, dict) else [(m["card"], m["count"]) for m in main]
    database = open_database(AZUKI_DB)
    out: dict[str, int] = {}
    for ref, count in items:
        (card,) = database.lookup(str(ref))
        out[card.id] = out.get(card.id, 0) + int(count)
    return out


def _p(total: int, copies: int, seen: int) -> float:
    return 1 - comb(total - copies, seen) / comb(total, seen)


# --------------------------------------------------------------------------- --vs


def test_vs_exact_differences_against_math_comb() -> None:
    doc = sim_json(RAIZAN, "--vs", SHAO, "--mulligan", "none", "--turns", "5")
    assert doc["vs"].endswith("stt02-shao-water.yaml")
    assert [d["deck"] for d in doc["decks"]] == [doc["deck"], doc["vs"]]
    diff = doc["difference"]
    assert diff["of"] == "vs - deck"
    assert diff["p_mulligan"] == 0.0 and diff["p_mulligan_se"] == 0.0
    a, b = _deck_cards(RAIZAN), _deck_cards(SHAO)
    cost = {c["id"]: c["cost"] for d in doc["decks"] for c in d["cards"]}
    for group in diff["costs"]:
        c = group["cost"]
        copies_a = sum(n for i, n in a.items() if cost[i] == c)
        copies_b = sum(n for i, n in b.items() if cost[i] == c)
        for t, (p, se) in enumerate(
            zip(group["p_castable_by_turn"], group["p_castable_by_turn_se"], strict=True), start=1
        ):
            seen = 7 + t - 1  # on the play
            payable = c <= min(t, 10)
            want = payable * (_p(50, copies_b, seen) - _p(50, copies_a, seen))
            assert p == pytest.approx(want, abs=1e-9)
            assert se == 0.0


def test_vs_sampled_has_standard_errors_and_same_seed_same_bytes() -> None:
    args = ("sim", "--game", "azuki", RAIZAN, "--vs", SHAO, "-n", "3000", "--seed", "7")
    first = run(*args, "-o", "json")
    again = run(*args, "-o", "json")
    assert first[0] == 0, first[1]
    assert first[2] == again[2]
    doc = json.loads(first[1])
    assert doc["games"] == 3000
    diff = doc["difference"]
    assert diff["p_mulligan_se"] >= 0.0
    sampled = [se for g in diff["costs"] for se in g["p_castable_by_turn_se"]]
    assert any(se > 0 for se in sampled)
    other_seed = run("sim", "--game", "azuki", RAIZAN, "--vs", SHAO, "-n", "3000", "-o", "json")
    assert other_seed[2] != first[2]


def test_vs_common_random_numbers_make_a_deck_against_itself_exactly_zero() -> None:
    doc = sim_json(RAIZAN, "--vs", RAIZAN, "-n", "2000")
    for card in doc["difference"]["cards"]:
        assert card["copies"] == 0
        assert card["p_in_opening_hand"] == 0.0 and card["p_in_opening_hand_se"] == 0.0
        assert set(card["p_castable_by_turn"]) == {0.0}
    assert len(doc["difference"]["cards"]) == len(doc["decks"][0]["cards"])


def test_vs_common_random_numbers_shrink_the_error_of_a_small_change(tmp_path: Path) -> None:
    """One copy of a card swapped for another: the differences of the cards the two decks share
    are far more precise than two independent runs would give."""
    text = RAIZAN.read_text(encoding="utf-8")
    assert "  Tenshin: 3\n" in text and "  Lightning Shuriken: 3\n" in text
    other = tmp_path / "other.yaml"
    other.write_text(
        text.replace("  Tenshin: 3\n", "  Tenshin: 2\n").replace(
            "  Lightning Shuriken: 3\n", "  Lightning Shuriken: 4\n"
        ),
        encoding="utf-8",
    )
    doc = sim_json(RAIZAN, "--vs", other, "-n", "4000", "--seed", "3")
    a, b = ({c["id"]: c for c in d["cards"]} for d in doc["decks"])
    checked = 0
    for card in doc["difference"]["cards"]:
        if card["copies"]:
            continue
        for t, se in enumerate(card["p_castable_by_turn_se"]):
            independent = (
                a[card["id"]]["p_castable_by_turn_se"][t] ** 2
                + b[card["id"]]["p_castable_by_turn_se"][t] ** 2
            ) ** 0.5
            if independent:
                assert se < 0.5 * independent
                checked += 1
    assert checked > 20


def test_single_deck_exact_figures_against_math_comb() -> None:
    doc = sim_json(RAIZAN, "--mulligan", "none", "--on", "draw", "--turns", "4")
    copies = _deck_cards(RAIZAN)
    for card in doc["cards"]:
        n = copies[card["id"]]
        assert card["copies"] == n
        assert card["p_in_opening_hand"] == pytest.approx(_p(50, n, 7), abs=1e-9)
        for t, p in enumerate(card["p_castable_by_turn"], start=1):
            payable = card["cost"] <= min(t, 10) + 1  # the IKZ token on the draw
            assert p == pytest.approx(payable * _p(50, n, 7 + t), abs=1e-9)
        assert set(card["p_castable_by_turn_se"]) == {0.0}


@pytest.mark.parametrize("on", ["play", "draw"])
def test_every_exact_figure_past_the_ikz_cap_against_math_comb(on: str) -> None:
    """12 turns: the IKZ stop growing at 10 (+1 token on the draw); every per-card and per-cost
    figure, and its zero standard error, from math.comb."""
    turns, draw = 12, int(on == "draw")
    doc = sim_json(RAIZAN, "--mulligan", "none", "--on", on, "--turns", turns)
    ikz = [min(t, 10) + draw for t in range(1, turns + 1)]
    assert doc["turns"] == [{"turn": t, "ikz": ikz[t - 1]} for t in range(1, turns + 1)]
    seen = [7 + t - 1 + draw for t in range(1, turns + 1)]
    copies = _deck_cards(RAIZAN)
    assert sorted(c["id"] for c in doc["cards"]) == sorted(copies)
    by_cost: dict[int, int] = {}
    for card in doc["cards"]:
        n, cost = copies[card["id"]], card["cost"]
        by_cost[cost] = by_cost.get(cost, 0) + n
        drawn = [_p(50, n, s) for s in seen]
        assert card["p_in_opening_hand"] == pytest.approx(_p(50, n, 7), abs=1e-9)
        assert card["p_drawn_by_turn"] == pytest.approx(drawn, abs=1e-9)
        castable = [p * (cost <= i) for p, i in zip(drawn, ikz, strict=True)]
        assert card["p_castable_by_turn"] == pytest.approx(castable, abs=1e-9)
        assert card["p_in_opening_hand_se"] == 0.0
        assert card["p_drawn_by_turn_se"] == [0.0] * turns
        assert card["p_castable_by_turn_se"] == [0.0] * turns
    assert [(g["cost"], g["copies"]) for g in doc["costs"]] == sorted(by_cost.items())
    for group in doc["costs"]:
        want = [
            _p(50, group["copies"], s) * (group["cost"] <= i)
            for s, i in zip(seen, ikz, strict=True)
        ]
        assert group["p_castable_by_turn"] == pytest.approx(want, abs=1e-9)
        assert group["p_castable_by_turn_se"] == [0.0] * turns
    assert (doc["p_mulligan"], doc["p_mulligan_se"]) == (0.0, 0.0)


# --------------------------------------------------------------------------- --plot


@pytest.mark.parametrize("vs", [(), ("--vs", SHAO)])
def test_plot_writes_a_valid_svg(tmp_path: Path, vs: tuple[object, ...]) -> None:
    out = tmp_path / "az.svg"
    code, text, _ = run("sim", "--game", "azuki", RAIZAN, *vs, "-n", "500", "--plot", out)
    assert code == 0, text
    root = ET.parse(out).getroot()
    assert root.tag == f"{SVG_NS}svg"
    words = [t.text or "" for t in root.iter(f"{SVG_NS}text")]
    assert any("Cost curve by element" in w for w in words)
    assert any("castable by turn t" in w for w in words)
    assert sum("Cost curve" in w for w in words) == (2 if vs else 1)
    assert "lightning" in words


def test_plot_svg_in_japanese(tmp_path: Path) -> None:
    out = tmp_path / "az.svg"
    code, text, _ = run(
        "sim", "--game", "azuki", RAIZAN, "--mulligan", "none", "--lang", "ja", "--plot", out
    )
    assert code == 0, text
    words = [t.text or "" for t in ET.parse(out).getroot().iter(f"{SVG_NS}text")]
    assert "雷" in words


def test_plot_writes_a_png(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    out = tmp_path / "az.png"
    code, text, _ = run("sim", "--game", "azuki", RAIZAN, "--vs", SHAO, "-n", "500", "--plot", out)
    assert code == 0, text
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


# --------------------------------------------------------------------------- text


@pytest.mark.parametrize("lang", ["en", "ja"])
@pytest.mark.parametrize("mulligan", ["none", "auto"])
@pytest.mark.parametrize("vs", [None, SHAO])
def test_text_fits_80_columns(lang: str, mulligan: str, vs: Path | None) -> None:
    game = get_game("azuki")
    database = open_database(AZUKI_DB)
    request = SimRequest(src(RAIZAN), 1000, 1, 8, "play", mulligan, vs and src(vs), date=on_date())
    text = game.goldfish.simulate(request, database).render_text(color=False, width=80, lang=lang)
    lines = text.splitlines()
    assert len(lines) > 8
    assert max(cell_len(line) for line in lines) <= 80
    figures = text.strip().rsplit("\n\n", 1)[0]  # all but the footnote
    assert ("±" in figures) == (mulligan == "auto")


def test_text_labels_its_columns_and_marks_exact_figures() -> None:
    code, out, _ = run("sim", "--game", "azuki", RAIZAN, "--mulligan", "none")
    assert code == 0, out
    for heading in ("Card", "Copies", "Cost", "P(open)", "T1", "IKZ"):
        assert heading in out
    assert "exact" in out
    code, out, _ = run("sim", "--game", "azuki", RAIZAN, "-n", "1000")
    assert code == 0
    assert "±" in out and "1,000 games" in out


def _over_the_copy_limit(tmp_path: Path) -> Path:
    """RAIZAN with 5 copies of one card: one problem (over 4 copies, 51 cards: two)."""
    text = RAIZAN.read_text(encoding="utf-8")
    assert "  Crate Rat Kurobo: 4\n" in text
    illegal = tmp_path / "illegal.yaml"
    illegal.write_text(text.replace("  Crate Rat Kurobo: 4\n", "  Crate Rat Kurobo: 5\n"), "utf-8")
    return illegal


@pytest.mark.parametrize(
    ("lang", "said"),
    [("en", "deck is not legal (2 problems; run varz-deck check); simulating anyway"),
     ("ja", "デッキが適正ではありません（問題 2 件。varz-deck check で確認できます）")],
)  # fmt: skip
def test_an_illegal_deck_is_simulated_with_a_warning(tmp_path: Path, lang: str, said: str) -> None:
    illegal = _over_the_copy_limit(tmp_path)
    args = ["sim", "--game", "azuki", str(illegal), "--lang", lang, "-o", "json"]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    assert result.stderr.count(said) == 1, result.stderr
    assert result.stderr.startswith(("warning: ", "警告")), result.stderr
    assert json.loads(result.stdout)["legal"] is False


def test_vs_warns_of_each_illegal_deck_and_of_no_legal_one(tmp_path: Path) -> None:
    illegal = _over_the_copy_limit(tmp_path)
    result = CliRunner().invoke(app, ["sim", "--game", "azuki", str(illegal), "--vs", str(RAIZAN)])
    assert result.exit_code == 0, result.output
    assert result.stderr.count("deck is not legal") == 1
    assert f"{illegal}: deck is not legal" in result.stderr
    result = CliRunner().invoke(app, ["sim", "--game", "azuki", str(RAIZAN), "--vs", str(SHAO)])
    assert result.exit_code == 0 and result.stderr == ""


def test_text_escapes_card_names(tmp_path: Path) -> None:
    from varz_deck.games.azuki.sim.report import render_text

    document = {
        "deck": "d.yaml",
        "name": None,
        "leader": None,
        "main_deck": 50,
        "mulligan": "none",
        "on": "play",
        "games": 0,
        "seed": 1,
        "turns": [{"turn": 1, "ikz": 1}],
        "costs": [
            {"cost": 1, "copies": 50, "p_castable_by_turn": [1.0], "p_castable_by_turn_se": [0.0]}
        ],
        "cards": [
            {
                "id": "X-1",
                "name": "Evil\x1b[31mRed",
                "copies": 50,
                "cost": 1,
                "p_in_opening_hand": 1.0,
                "p_in_opening_hand_se": 0.0,
                "p_drawn_by_turn": [1.0],
                "p_drawn_by_turn_se": [0.0],
                "p_castable_by_turn": [1.0],
                "p_castable_by_turn_se": [0.0],
            }
        ],
    }
    text = render_text(document, {}, width=80)
    assert "\x1b" not in text
    assert "Evil" in text


# --------------------------------------------------------------------------- cards


def _ids(out: str) -> list[str]:
    """The card ids that start the rows of a search table (a long row wraps onto more lines)."""
    import re

    return [m.group(0) for m in re.finditer(r"^[A-Z]+[0-9]*-[0-9]+\b", out, re.MULTILINE)]


def test_cards_show_an_azuki_card() -> None:
    code, out, _ = run("cards", "show", "STT01-001", "--game", "azuki")
    assert code == 0, out
    assert "Raizan" in out and "lightning" in out and "20" in out


def test_cards_show_an_ambiguous_azuki_name_exits_1() -> None:
    code, out, _ = run("cards", "show", "Raizan", "--game", "azuki")
    assert code == 1
    assert "STT01-001" in out and "STT01-011" in out


def test_cards_show_an_unknown_azuki_card_suggests() -> None:
    code, out, _ = run("cards", "show", "Raizn", "--cards", AZUKI_DB)
    assert code == 1
    assert "did you mean" in out and "Raizan" in out


def test_cards_search_azuki_filters() -> None:
    database = open_database(AZUKI_DB)
    want = sorted(
        c.id
        for c in database.cards.values()
        if "lightning" in c.elements and c.type == "entity" and c.cost == 2
    )
    assert want
    code, out, _ = run(
        "cards", "search", "--game", "azuki", "--color", "lightning", "--type", "entity",
        "--cost", "2",
    )  # fmt: skip
    assert code == 0, out
    assert _ids(out) == want
    assert f"{len(want)} cards found" in out


def test_cards_search_azuki_class_is_a_trait() -> None:
    database = open_database(AZUKI_DB)
    want = {c.id for c in database.cards.values() if "Black Jade" in c.traits}
    code, out, _ = run("cards", "search", "--game", "azuki", "--class", "black jade")
    assert code == 0, out
    assert set(_ids(out)) == want


def test_cards_search_azuki_no_match_exits_1() -> None:
    code, out, _ = run("cards", "search", "zzzzzz", "--game", "azuki")
    assert code == 1
    assert "0 cards found" in out


@pytest.mark.parametrize(
    ("args", "close"),
    [
        (("--type", "spell"), "'spil'"),
        (("--color", "rouge"), "red"),
        (("--class", "ninj"), "'ninja'"),
    ],
)
def test_varz_unknown_filter_values_are_usage_errors(args: tuple[str, ...], close: str) -> None:
    code, out, _ = run("cards", "search", *args)
    assert code == 2
    assert "did you mean" in out and close in out
    assert "VARZ" in out


def test_azuki_unknown_element_is_a_usage_error() -> None:
    code, out, _ = run("cards", "search", "--game", "azuki", "--color", "lightnin")
    assert code == 2
    assert "Azuki TCG" in out and "'lightning'" in out
