"""`varz-deck complete`: every example deck with each section emptied in turn is completed into
a deck `check` passes, keeping what was written, the same on two runs; hand-checked decks; the
exact VARZ Portal Deck; the day's format (docs/guides/complete.md)."""

from __future__ import annotations

import datetime
import re
import shutil
from collections import Counter
from pathlib import Path

import pytest
import yaml
from typer.testing import CliRunner

from varz_deck.cli import app
from varz_deck.core.files.source import DeckSource
from varz_deck.core.game.complete import NoCompletion, complete
from varz_deck.core.game.writedeck import render
from varz_deck.games import get_game, open_database

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"
DAY = datetime.date(2026, 6, 1)
VARZ_DECKS = sorted(
    p for p in EXAMPLES.iterdir() if p.suffix in (".yaml", ".txt") and p.stem != "illegal"
)
AZUKI_DECKS = sorted((EXAMPLES / "azuki").glob("*.yaml"))
VARZ_SECTIONS = ("spells", "skills", "portals")
AZUKI_SECTIONS = ("main", "ikz")


def without(text: str, section: str) -> str:
    """A deck file's text with one section (its key or list header and its lines) taken out."""
    lines = text.splitlines()
    out: list[str] = []
    skipping = False
    for line in lines:
        head = re.match(r"([A-Za-z][\w ]*):", line)
        if head and not line.startswith((" ", "-")):
            skipping = head.group(1).strip().lower() == section
            if skipping:
                continue
        elif skipping and (line.startswith((" ", "-")) or re.match(r"\d", line)):
            continue
        out.append(line)
    return "\n".join(out) + "\n"


def run(game_key: str, name: str, text: str, day: datetime.date = DAY, fmt: str | None = None):
    game = get_game(game_key)
    database = open_database(game.card_data)
    done = complete(game, DeckSource(name, text), database, fmt, day, game.completion)
    return game, database, done


def counts(game_key: str, name: str, text: str, day: datetime.date = DAY):
    """Copies per card name and section, as `check` reads the deck (and whether it is legal)."""
    game = get_game(game_key)
    database = open_database(game.card_data)
    report = game.check_deck(DeckSource(name, text), database, None, day)
    assert report.view is not None
    found = {
        section: Counter(
            {card.name: n for card, n, _first in report.view.by_card(section).values()}
        )
        for section in game.sections
    }
    return report, found


CASES = [("varz", p, s) for p in VARZ_DECKS for s in VARZ_SECTIONS] + [
    ("azuki", p, s) for p in AZUKI_DECKS for s in AZUKI_SECTIONS
]


@pytest.mark.parametrize(
    ("game_key", "path", "section"), CASES, ids=[f"{p.stem}-{s}" for _g, p, s in CASES]
)
def test_each_example_with_a_section_emptied_completes_legal_and_keeps_what_is_left(
    game_key: str, path: Path, section: str
) -> None:
    text = without(path.read_text(encoding="utf-8"), section)
    name = path.name
    _report, before = counts(game_key, name, text)
    _game, _database, done = run(game_key, name, text)
    assert done.dropped == ()
    for output in ("yaml", "txt"):
        written = render(done, output, DAY)
        suffix = ".txt" if output == "txt" else ".yaml"
        report, after = counts(game_key, "done" + suffix, written)
        assert report.legal, (output, [d.message for d in report.diagnostics])
        for kept, cards in before.items():
            for card, n in cards.items():
                assert after[kept][card] >= n, (output, kept, card)
    again = run(game_key, name, text)[2]
    assert render(again, "yaml", DAY) == render(done, "yaml", DAY)


KAGURA = EXAMPLES / "red-kagura-festival.yaml"
RAIZAN = EXAMPLES / "azuki" / "stt01-raizan-lightning.yaml"


def added(done) -> dict[str, dict[str, int]]:
    out: dict[str, dict[str, int]] = {}
    for section, line in done.added():
        out.setdefault(section, {})[line.card.name] = line.added
    return out


def test_kagura_without_portals_gets_the_first_set_in_card_order_adding_up_to_20() -> None:
    # Hand-worked: red hero, Standard (2 effect portals), card order VZ01-100 Basic Gate (1) SL1,
    # -101 (2) SL2, -102 (3) SL3, -103 (4) SL4, ...: 4×SL1 leaves 4 portals for 16 -> none of
    # (2)/(3)/(4) alone; (3)×1 + (4)×2 = 11 leaves 1 portal for 5: Rainbow Bridge (SL5).
    done = run("varz", "k.yaml", without(KAGURA.read_text(encoding="utf-8"), "portals"))[2]
    assert added(done) == {
        "portals": {"Basic Gate (1)": 4, "Basic Gate (3)": 1, "Basic Gate (4)": 2,
                    "Rainbow Bridge": 1},
    }  # fmt: skip
    assert 4 * 1 + 1 * 3 + 2 * 4 + 5 == 20


def test_kagura_without_skills_gets_five_skills_of_its_classes_then_its_vaz() -> None:
    # Hibiki Kagura: Memory 5, fighter/samurai, red. In card order the first five fighter,
    # samurai or generic skills, then red VAZ skills for the 4 left (any number of a VAZ).
    done = run("varz", "k.yaml", without(KAGURA.read_text(encoding="utf-8"), "skills"))[2]
    assert added(done) == {
        "skills": {"Iron Fist": 1, "Burning Knuckle": 1, "Iaido Flash": 1, "Blade Oath": 1,
                   "Focus": 1, "Crimson VAZ": 4},
    }  # fmt: skip


def test_raizan_without_its_ikz_deck_gets_10_ikz_and_1_token() -> None:
    done = run("azuki", "r.yaml", without(RAIZAN.read_text(encoding="utf-8"), "ikz"))[2]
    assert added(done) == {"ikz": {"IKZ": 10, "IKZ Token": 1}}


def test_a_deck_missing_its_lead_names_the_slot_rule() -> None:
    text = re.sub(r"(?m)^hero:.*\n", "", KAGURA.read_text(encoding="utf-8"))
    with pytest.raises(NoCompletion) as found:
        run("varz", "k.yaml", without(text, "spells"))
    assert found.value.code == "V101"


# --------------------------------------------------------------- the Portal Deck, exactly

PORTALS = [f"VZ01-{n}" for n in range(100, 117)] + ["VZ02-057", "VZ02-058", "VZ02-059"]


def database_with(tmp_path: Path, allowed: tuple[str, ...]) -> Path:
    """The bundled database with a format `only` banning every portal but `allowed`."""
    root = tmp_path / "cards"
    shutil.copytree(get_game("varz").card_data, root)
    banned = ", ".join(p for p in PORTALS if p not in allowed)
    formats = root / "formats.yaml"
    formats.write_text(
        formats.read_text(encoding="utf-8")
        + f"  only:\n    name: Only\n    max_effect_portals: 2\n    sets: [VZ01, VZ02]\n"
        f"    banned: [{banned}]\n",
        encoding="utf-8",
    )
    return root


def test_the_only_portal_set_adding_up_to_20_is_found(tmp_path: Path) -> None:
    # Left: Basic Gate (1) SL1 and Basic Gate (4) SL4 (basic: 4 each), Akihabara Arcade SL3
    # (an effect: 1), Azure Gate SL3 (blue: not for a red hero). a+b+c = 8, a+4b+3c = 20 ->
    # 3b+2c = 12: b=4, c=0 (b=2 needs c=3 > 1); without the colour rule a=3, b=2, azure=3 fits.
    cards = database_with(tmp_path, ("VZ01-100", "VZ01-103", "VZ01-111", "VZ01-105"))
    deck = tmp_path / "k.yaml"
    deck.write_text(without(KAGURA.read_text(encoding="utf-8"), "portals"), encoding="utf-8")
    result = CliRunner().invoke(
        app,
        ["complete", str(deck), "--cards", str(cards), "--format", "only", "--date", "2026-06-01"],
    )
    assert result.exit_code == 0, result.output
    portals = result.stdout.split("portals:\n", 1)[1]
    assert portals == "  Basic Gate (1): 4\n  Basic Gate (4): 4\n"


def test_no_portal_set_adding_up_to_20_is_exit_1_naming_v105(tmp_path: Path) -> None:
    cards = database_with(tmp_path, ("VZ01-100", "VZ01-101"))  # at most 4×1 + 4×2 = 12
    deck = tmp_path / "k.yaml"
    deck.write_text(without(KAGURA.read_text(encoding="utf-8"), "portals"), encoding="utf-8")
    result = CliRunner().invoke(
        app,
        ["complete", str(deck), "--cards", str(cards), "--format", "only", "--date", "2026-06-01"],
    )
    assert result.exit_code == 1
    assert "V105" in result.stderr
    assert result.stdout == ""


# --------------------------------------------------------------- the day's format


def test_before_a_sets_release_nothing_of_it_is_added() -> None:
    day = datetime.date(2025, 11, 30)  # VZ02 is released 2025-12-01
    text = without(KAGURA.read_text(encoding="utf-8"), "spells")
    _game, database, done = run("varz", "k.yaml", text, day)
    for _section, line in done.added():
        sets = {p.set for p in database.printings[line.card.name]}
        assert "VZ01" in sets, line.card.name
    report, _found = counts("varz", "k.yaml", render(done, "yaml", day), day)
    assert report.legal
    later = run("varz", "k.yaml", text, datetime.date(2026, 6, 1))[2]
    assert any(line.card.id.startswith("VZ02") for _s, line in later.added())


def test_a_banned_card_is_never_added_and_a_written_one_is_said_and_replaced() -> None:
    green = (EXAMPLES / "green-moriya-stampede.yaml").read_text(encoding="utf-8")
    text = without(green, "spells") + "spells:\n  Grove Tender: 2\n"  # banned in Standard
    _game, _database, done = run("varz", "g.yaml", text)
    assert [(d.card.name, d.count, d.code) for d in done.dropped] == [("Grove Tender", 2, "V115")]
    assert all(line.card.name != "Grove Tender" for _s, line in done.added())
    assert "Grove Tender" not in render(done, "yaml", DAY)


def test_explain_says_each_card_added_in_the_language_asked(tmp_path: Path) -> None:
    deck = tmp_path / "k.yaml"
    deck.write_text(without(KAGURA.read_text(encoding="utf-8"), "portals"), encoding="utf-8")
    for lang, word in (("en", "Shield Life"), ("ja", "シールドライフ"), ("zh", "护盾生命")):
        result = CliRunner().invoke(
            app, ["complete", str(deck), "--explain", "--lang", lang, "--date", "2026-06-01"]
        )
        assert result.exit_code == 0, result.output
        lines = [line for line in result.stderr.splitlines() if word in line and "+" in line]
        assert len(lines) == 4, result.stderr  # one per card added


def test_json_output_lists_the_cards_added() -> None:
    import json

    result = CliRunner().invoke(
        app, ["complete", str(RAIZAN), "-o", "json", "--date", "2026-06-01"]
    )
    assert result.exit_code == 0, result.output
    document = json.loads(result.stdout)
    assert document["legal"] is True
    assert document["game"] == "azuki"
    assert sum(line["count"] for line in document["sections"]["main"]) == 50


def test_kagura_without_spells_gets_the_cheapest_red_or_colorless_spells() -> None:
    # Hand-worked from the card data: Standard allows VZ01 and VZ02 (Festival Mascot is only in
    # PR); red or colorless, by cost then id: Portal Shard (0); Ember Imp, Scorch Shot, Stray
    # Veast (VZ01-061), Neon Firefly, Emergency Broadcast (1); Cinder Hound, Blaze Rush, Wandering
    # Kodama, Rift Scavenger (2): 10 cards × 3 = 30.
    done = run("varz", "k.yaml", without(KAGURA.read_text(encoding="utf-8"), "spells"))[2]
    names = ["Portal Shard", "Stray Veast", "Ember Imp", "Scorch Shot", "Neon Firefly",
             "Emergency Broadcast", "Cinder Hound", "Blaze Rush", "Wandering Kodama",
             "Rift Scavenger"]  # fmt: skip
    assert added(done) == {"spells": dict.fromkeys(names, 3)}


def test_raizan_without_its_main_deck_gets_the_cheapest_lightning_or_neutral_cards() -> None:
    # Raizan is lightning: neutral or lightning cards, none of cost 0; of cost 1 in card order
    # 12 cards × 4 = 48, then 2 of the 13th (Lightning Orb) = 50.
    done = run("azuki", "r.yaml", without(RAIZAN.read_text(encoding="utf-8"), "main"))[2]
    names = ["Penny", "Healing Flutter", "Black Jade Courier", "Alley Thug", "The Red Bean",
             "Sleight of Hand", "Elder Hoshin", "Hidden Dagger", "Crate Rat Kurobo",
             "Black Jade Recruit", "Lightning Shuriken", "Black Jade Dagger"]  # fmt: skip
    assert added(done) == {"main": {**dict.fromkeys(names, 4), "Lightning Orb": 2}}


def test_raizan_with_a_card_over_its_limit_keeps_4_and_says_so() -> None:
    # 6 Crate Rat Kurobo in place of its 4: 2 over A106's 4 are cut, said, and the main deck is
    # 50 again with the first lightning-or-neutral card of cost 1 not at its limit (Penny).
    text = RAIZAN.read_text(encoding="utf-8").replace("Crate Rat Kurobo: 4", "Crate Rat Kurobo: 6")
    text = text.replace("  Lightning Orb: 4\n", "  Lightning Orb: 2\n")
    done = run("azuki", "r.yaml", text)[2]
    assert [(d.card.name, d.count, d.code) for d in done.dropped] == [
        ("Crate Rat Kurobo", 2, "A106")
    ]
    assert added(done) == {"main": {"Penny": 2}}


def test_the_players_guide_shows_the_real_output(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    guide = (ROOT / "docs" / "guides" / "player.md").read_text(encoding="utf-8")
    prompt = "$ varz-deck complete docs/first-deck/half-built.yaml --explain\n"
    shown = guide.split(prompt, 1)[1].split("```", 1)[0]
    deck = ROOT / "docs" / "first-deck" / "half-built.yaml"
    result = CliRunner().invoke(app, ["complete", str(deck.relative_to(ROOT)), "--explain"])
    assert result.exit_code == 0, result.output
    assert shown == result.stderr + result.stdout


SPLASH = EXAMPLES / "yellow-amane-red-splash.yaml"


@pytest.mark.parametrize("path", [KAGURA, SPLASH], ids=lambda p: p.stem)
def test_no_single_swap_of_tune_raises_the_odds_of_the_skills_added(path: Path) -> None:
    """The completed deck's skills are where `tune`'s one-card swaps stop: none of an added skill
    raises the castable-on-curve odds (the lowest first, then the mean)."""
    from varz_deck.games.varz.sim.model import build_model
    from varz_deck.games.varz.tune.odds import DrawCache, mean_on_curve, spell_odds
    from varz_deck.games.varz.tune.swaps import sweep

    _game, _database, done = run("varz", path.name, without(path.read_text("utf-8"), "skills"))
    view = done.report.view
    model = build_model(view)
    cache = DrawCache()
    odds = spell_odds(model, "play", cache(model, "play", "auto"))
    now = (tuple(sorted(o.p_on_curve for o in odds)), mean_on_curve(model, odds))
    added = {line.card.name for _s, line in done.added()}
    for swap in sweep(view, model, "play", "auto", cache):
        if swap.out.name in added:
            assert swap.rank_key() <= now, (swap.out.name, swap.into.name)


def test_a_splash_without_skills_gets_vaz_of_its_splash_colour() -> None:
    # Kohaku Amane is yellow and the spells splash red: the red spells need red VAZ (V114), and
    # `tune`'s swaps then trade the rest for more red VAZ while the lowest odds (red) rise.
    done = run("varz", "s.yaml", without(SPLASH.read_text(encoding="utf-8"), "skills"))[2]
    skills = added(done)["skills"]
    assert skills.get("Crimson VAZ", 0) >= 3
    assert sum(skills.values()) == 9


def test_eight_portals_written_short_of_20_is_exit_1_naming_v105(tmp_path: Path) -> None:
    text = KAGURA.read_text(encoding="utf-8").replace("Basic Gate (2): 2", "Basic Gate (1): 2")
    deck = tmp_path / "k.yaml"
    deck.write_text(text, encoding="utf-8")  # 2+2+12+2 = 18 Shield Life in 8 portals
    result = CliRunner().invoke(app, ["complete", str(deck)])
    assert result.exit_code == 1
    assert "V105" in result.stderr and "18 Shield Life" in result.stderr


ALTDB = ROOT / "tests" / "data" / "altdb"
DATED = ROOT / "tests" / "cases" / "W203" / "ok_restricted_at_count.yaml"


@pytest.mark.parametrize(
    ("day", "code"),
    [("2027-01-14", None), ("2027-01-15", "V115")],  # altdb's dated: Inferno Drake banned 01-15
)
def test_a_card_banned_on_the_day_is_replaced_and_none_is_added(
    tmp_path: Path, day: str, code: str | None
) -> None:
    text = without(DATED.read_text(encoding="utf-8"), "spells") + "spells:\n  Inferno Drake: 2\n"
    deck = tmp_path / "d.yaml"
    deck.write_text(text, encoding="utf-8")
    args = ["complete", str(deck), "--cards", str(ALTDB), "--date", day, "-o", "txt"]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    if code is None:
        assert "2 Inferno Drake\n" in result.stdout
        assert "cannot be kept" not in result.stderr
    else:
        assert "Inferno Drake" not in result.stdout
        assert f"2 × 'Inferno Drake' cannot be kept ({code}): replaced" in result.stderr
    whole = tmp_path / "whole.txt"
    whole.write_text(result.stdout, encoding="utf-8")
    checked = CliRunner().invoke(app, ["check", str(whole), "--cards", str(ALTDB), "--date", day])
    assert checked.exit_code == 0, checked.stdout


def test_a_card_of_a_set_rotated_out_is_replaced(tmp_path: Path) -> None:
    # altdb's dated format drops QZ2 on 2027-03-01: Starfall Oni (QZ2-001) goes, said as V117.
    text = without(DATED.read_text(encoding="utf-8"), "spells") + "spells:\n  Starfall Oni: 3\n"
    deck = tmp_path / "d.yaml"
    deck.write_text(text, encoding="utf-8")
    for day, kept in (("2027-02-28", True), ("2027-03-01", False)):
        args = ["complete", str(deck), "--cards", str(ALTDB), "--date", day]
        result = CliRunner().invoke(app, args)
        assert result.exit_code == 0, result.output
        assert ("Starfall Oni: 3" in result.stdout) is kept
        assert ("(V117)" in result.stderr) is not kept


def test_an_over_full_section_is_cut_from_its_last_lines_and_said() -> None:
    # 31 spells: Overheat moved to the end with one copy more; the last line gives the one over.
    text = KAGURA.read_text(encoding="utf-8").replace("  Overheat: 2\n", "")
    text = text.replace("  Meteor Lance: 2\n", "  Meteor Lance: 2\n  Overheat: 3\n")
    done = run("varz", "k.yaml", text)[2]
    assert [(d.card.name, d.count, d.code) for d in done.dropped] == [("Overheat", 1, "V102")]


# --------------------------------------------------------------------------- a game declared in YAML

LANTERN = EXAMPLES / "yaml-game" / "card_data"
HERON = "Patron: River Heron\nFormat: {fmt}\nCourt:\n3 Pond Kappa\n"


@pytest.mark.parametrize(
    ("fmt", "day", "court"),
    [
        # written by hand from sets/lc01.yaml, lc02.yaml and formats.yaml: 24 court cards, 3
        # copies but of basic lanterns, the cheapest first (ties in card order), no-cost after
        (
            "standard",
            "2026-12-07",
            {"Pond Kappa": 3, "Night Wisp": 3, "Paper Crane": 3, "Incense": 3, "Moon Hare": 3,
             "Ember Fox": 3, "Amber Lantern": 6},
        ),
        (  # LC02 released: Plum Blossom (cost 2) after Incense (LC01-012 before LC02-001)
            "standard",
            "2027-02-10",
            {"Pond Kappa": 3, "Night Wisp": 3, "Paper Crane": 3, "Incense": 3, "Plum Blossom": 3,
             "Moon Hare": 3, "Ember Fox": 3, "Amber Lantern": 3},
        ),
        (  # First Light bans Ember Fox: the basic lantern takes the rest
            "first-light",
            "2026-12-07",
            {"Pond Kappa": 3, "Night Wisp": 3, "Paper Crane": 3, "Incense": 3, "Moon Hare": 3,
             "Amber Lantern": 9},
        ),
    ],
)  # fmt: skip
def test_the_yaml_declared_game_completes_by_its_cost_curve(
    tmp_path: Path, fmt: str, day: str, court: dict[str, int]
) -> None:
    deck = tmp_path / "heron.txt"
    deck.write_text(HERON.format(fmt=fmt), encoding="utf-8")
    done = CliRunner().invoke(app, ["complete", str(deck), "--cards", str(LANTERN), "--date", day])
    assert done.exit_code == 0, done.output
    written = yaml.safe_load(done.stdout)
    assert written == {"format": fmt, "patron": "River Heron", "court": court}
    whole = tmp_path / "whole.yaml"
    whole.write_text(done.stdout, encoding="utf-8")
    checked = CliRunner().invoke(app, ["check", str(whole), "--cards", str(LANTERN), "--date", day])
    assert checked.exit_code == 0, checked.output


@pytest.mark.parametrize("path", sorted((EXAMPLES / "yaml-game" / "decks").glob("legal-*")))
@pytest.mark.parametrize("section", ["Court", "Wishes"])
def test_each_yaml_game_deck_with_a_section_emptied_completes_legal(
    tmp_path: Path, path: Path, section: str
) -> None:
    lines = path.read_text(encoding="utf-8").splitlines()
    kept, skipping = [], False
    for line in lines:  # the section's heading kept, its cards dropped
        if ":" in line and not line.startswith(" "):  # a top-level key or a list's heading
            skipping = line.split(":")[0].lower() == section.lower()
        elif skipping:
            continue
        kept.append(line)
    assert len(kept) < len(lines)
    deck = tmp_path / path.name
    deck.write_text("\n".join(kept) + "\n", encoding="utf-8")
    done = CliRunner().invoke(app, ["complete", str(deck), "--cards", str(LANTERN)])
    assert done.exit_code == 0, done.output
    whole = tmp_path / "whole.yaml"
    whole.write_text(done.stdout, encoding="utf-8")
    checked = CliRunner().invoke(app, ["check", str(whole), "--cards", str(LANTERN)])
    assert checked.exit_code == 0, checked.output
    again = CliRunner().invoke(app, ["complete", str(deck), "--cards", str(LANTERN)])
    assert again.stdout == done.stdout


def _with_a_set_outside_standard(tmp_path: Path, n: int = 300) -> Path:
    """The bundled VARZ cards and a set ZZ01 of `n` red spells of cost 0 (the cheapest: by the
    cost curve they would be added first) that no bundled format but pioneer's lists."""
    root = tmp_path / "db"
    shutil.copytree(ROOT / "card_data" / "varz", root)
    lines = ["set:", "  code: ZZ01", "  name: Filler", '  released: "2020-01-01"', "cards:"]
    for i in range(1, n + 1):
        lines += [
            f"  - id: ZZ01-{i:03d}",
            f"    name: Filler Imp {i}",
            "    type: spil",
            "    color: red",
            "    cost: 0",
            "    power: 1",
            "    classes: [fighter]",
            "    rarity: C",
        ]
    (root / "sets" / "zz01.yaml").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return root


def test_complete_and_tune_read_only_the_cards_of_the_formats_sets(tmp_path: Path) -> None:
    """The card index answers which cards are candidates (`keys_in`): a completion in
    Standard reads no card of a set Standard does not list, nor any card of a type it adds
    nothing of."""
    from varz_deck.core.cards import cardindex
    from varz_deck.games.varz.sim.model import build_model
    from varz_deck.games.varz.tune.swaps import swap_candidates

    root = _with_a_set_outside_standard(tmp_path)
    game = get_game("varz")
    open_database(root)  # builds the index in the cache
    database = open_database(root)  # opened from it, read as asked
    assert isinstance(database.printings, cardindex._Lazy)
    text = without(KAGURA.read_text(encoding="utf-8"), "spells")
    done = complete(game, DeckSource("k.yaml", text), database, "standard", DAY, game.completion)
    assert done.report.legal
    read = [*dict.keys(database.printings), *dict.keys(database.cards)]
    assert read and not [key for key in read if "Filler" in key or key.startswith("ZZ01")]
    fillers = {line.card.name for _section, line in done.added() if "Filler" in line.card.name}
    assert fillers == set()
    view = done.report.view
    swap_candidates(view, build_model(view))
    read = [*dict.keys(database.printings), *dict.keys(database.cards)]
    assert not [key for key in read if "Filler" in key]


def test_a_format_listing_the_set_adds_its_cheapest_cards(tmp_path: Path) -> None:
    """The same database in a format that lists ZZ01: its cost-0 red spells come first (the
    filter above is the format's, not a blind spot)."""
    root = _with_a_set_outside_standard(tmp_path)
    formats = root / "formats.yaml"
    formats.write_text(
        formats.read_text(encoding="utf-8").replace(
            "sets: [VZ01, VZ02]", "sets: [VZ01, VZ02, ZZ01]", 1
        ),
        encoding="utf-8",
    )
    game = get_game("varz")
    database = open_database(root)
    text = without(KAGURA.read_text(encoding="utf-8"), "spells")
    done = complete(game, DeckSource("k.yaml", text), database, "standard", DAY, game.completion)
    spells = added(done)["spells"]
    fillers = [name for name in spells if name.startswith("Filler")]
    assert fillers[:3] == ["Filler Imp 1", "Filler Imp 2", "Filler Imp 3"]
    assert all(spells[name] == 3 for name in fillers)


HEROES = {  # card_data/varz by hand: VZ01-001 to -006, VZ02-001 and -002
    "Hibiki Kagura", "Shizuku Minase", "Wakaba Moriya", "Yoru Kurosaki", "Kohaku Amane",
    "Rei Shirogane", "Homura Tendo", "Mio Sagiri",
}  # fmt: skip


def test_playable_is_each_sections_cards_by_the_id_of_the_printing_played(
    tmp_path: Path,
) -> None:
    """VZ01 not out yet: Scorch Shot (VZ01-010 first in the database) is played as VZ02-063,
    so it comes among VZ02's spells; no hero (the lead, in no section) is read."""
    from varz_deck.core.cards import cardindex
    from varz_deck.core.cards.formats import Legality
    from varz_deck.core.cards.model import Format
    from varz_deck.core.game.complete import playable

    root = tmp_path / "db"
    shutil.copytree(ROOT / "card_data" / "varz", root)
    open_database(root)  # builds the index in the cache
    database = open_database(root)  # opened from it, read as asked
    assert isinstance(database.printings, cardindex._Lazy)
    fmt = Format("s", "S", sets=("VZ01", "VZ02"), released={"VZ01": datetime.date(2027, 3, 1)})
    legality = Legality(fmt, database, datetime.date(2027, 2, 1))
    found = playable(get_game("varz").declaration, database, legality)
    assert set(found) == {"spells", "skills", "portals"}
    for cards in found.values():
        ids = [card.id for card in cards]
        assert ids == sorted(ids) and all(i.startswith("VZ02-") for i in ids)
    assert "Scorch Shot" in [card.name for card in found["spells"]]
    read = set(dict.keys(database.printings))
    assert read and not read & HEROES


# --------------------------------------------------------------- --format


def test_format_is_read_as_the_database_spells_it_or_exit_2_with_did_you_mean() -> None:
    args = ["complete", str(KAGURA), "--date", "2026-06-01", "--lang", "en", "--format"]
    result = CliRunner().invoke(app, [*args, "standrd"])
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == "varz-deck: VARZ has no --format 'standrd'; did you mean 'standard'?\n"
    spelled = CliRunner().invoke(app, [*args, "STANDARD"])
    assert spelled.exit_code == 0, spelled.output
    assert spelled.stdout == CliRunner().invoke(app, [*args, "standard"]).stdout
