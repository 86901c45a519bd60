"""`varz-deck tune` (SPEC §11, issue 14): every exact figure against brute force, against the Monte
Carlo engine, properties, legality of every suggested swap (the real checker), the CLI."""

from __future__ import annotations

import itertools
import json
from collections.abc import Sequence
from dataclasses import replace
from fractions import Fraction
from math import comb, sqrt
from pathlib import Path
from typing import Any

import numpy as np
import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rich.cells import cell_len
from typer.testing import CliRunner

from varz_deck.cli import app
from varz_deck.core.analysis.tuning import DeckTooLarge
from varz_deck.core.dates import on_date
from varz_deck.core.files.source import DeckSource
from varz_deck.games import check_deck, get_game, open_database
from varz_deck.games.varz import tune as vt
from varz_deck.games.varz.sim import montecarlo as mc
from varz_deck.games.varz.sim.model import Model, SpellCard

VARZ = get_game("varz")
TUNER = VARZ.tuner

src = DeckSource.from_path

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = sorted(p for p in (ROOT / "examples").glob("*.yaml") if p.name != "illegal.yaml")
AZUKI = sorted((ROOT / "examples" / "azuki").glob("*.yaml"))
SPLASH = ROOT / "examples" / "yellow-amane-red-splash.yaml"


@pytest.fixture(scope="module")
def db() -> Any:
    return open_database(ROOT / "card_data" / "varz")


# --------------------------------------------------------------------------- brute force
# SPEC §6 written out again, independently of sim/exact.py: 5-card hand, 1 card a turn (none on
# turn 1 on the play), the Holder holds min(2t, S) skills on the play and min(2t + 1, S) on the draw.


def _seen(t: int, on: str, n: int) -> int:
    return min(5 + t - 1 + (on == "draw"), n)


def _held(t: int, on: str, s: int) -> int:
    return min(2 * t + (on == "draw"), s)


def _orders(counts: Sequence[int]) -> list[tuple[int, ...]]:
    """Every distinct ordering of a multiset (kind k repeated counts[k] times)."""
    items = [k for k, c in enumerate(counts) for _ in range(c)]
    return sorted(set(itertools.permutations(items)))


def _pays_in(order: tuple[int, ...], held: int, card: SpellCard) -> bool:
    holder = order[:held]
    if card.cost > held:
        return False
    return card.cls == 0 or sum(1 for c in holder if c == card.cls) >= card.cost


def _brute(model: Model, on: str, mulligan: str) -> list[tuple[Fraction, Fraction | None]]:
    """Per spell (P(on curve), E[delay]) by enumerating every spell order and skill order."""
    n, s = model.n_spells, model.n_skills
    spells = _orders([c.copies for c in model.cards])
    skills = _orders(list(model.skills))
    horizon = 40
    # P(the Holder on turn 1 pays it) >= 1/2: an opener, for the `auto` mulligan
    opener = [
        2 * sum(_pays_in(o, _held(1, on, s), c) for o in skills) >= len(skills) for c in model.cards
    ]

    def first_seen(order: tuple[int, ...], k: int) -> int:
        """The first turn card k is among the cards held (horizon + 1: never)."""
        for t in range(1, horizon + 1):
            if k in order[: _seen(t, on, n)]:
                return t
        return horizon + 1

    # distribution of the first turn each card is held, over the spell shuffle (and mulligan)
    dist: list[dict[int, Fraction]] = [dict() for _ in model.cards]
    weight = Fraction(1, len(spells))
    for order in spells:
        hand = order[:5]
        keep = mulligan != "auto" or any(opener[c] for c in hand)
        for k in range(len(model.cards)):
            if keep:
                t = first_seen(order, k)
                dist[k][t] = dist[k].get(t, Fraction(0)) + weight
            else:  # the hand goes back: the cards held are the first of a new shuffle
                for again in spells:
                    t = first_seen(again, k)
                    dist[k][t] = dist[k].get(t, Fraction(0)) + weight / len(spells)
    out = []
    for k, card in enumerate(model.cards):
        t0 = next((t for t in range(1, horizon) if _held(t, on, s) >= card.cost), None)
        assert t0 is not None
        p = Fraction(0)
        delay = Fraction(0)
        never = Fraction(0)
        for skill_order in skills:
            pays_from = next(
                (t for t in range(1, horizon) if _pays_in(skill_order, _held(t, on, s), card)),
                None,
            )
            for t_seen, w in dist[k].items():
                w = w / len(skills)
                if pays_from is None or t_seen > horizon:
                    never += w
                    continue
                first = max(t0, t_seen, pays_from)
                if first == t0:
                    p += w
                delay += w * (first - t0)
        out.append((p, None if never else delay))
    return out


def _model(
    copies: Sequence[int], costs: Sequence[int], cls: Sequence[int], skills: Sequence[int]
) -> Model:
    colors = ("red", "blue")[: len(skills) - 1]
    cards = tuple(
        SpellCard(
            id=f"X-{k}",
            name=f"card {k}",
            copies=c,
            cost=cost,
            color="yellow" if kind == 0 else colors[kind - 1],
            cls=kind,
        )
        for k, (c, cost, kind) in enumerate(zip(copies, costs, cls, strict=True))
    )
    return Model(
        path="x",
        name=None,
        hero_id="H",
        hero_name="H",
        hero_color="yellow",
        evolution_level=6,
        cards=cards,
        colors=colors,
        skills=tuple(skills),
    )


SMALL = [
    # copies, costs, classes (0 hero colour, 1 red, 2 blue), skills by class
    ((2, 3, 2), (1, 2, 3), (0, 1, 2), (2, 2, 1)),
    ((1, 2, 4), (2, 1, 3), (1, 0, 1), (3, 2)),
    ((3, 1, 3), (4, 1, 2), (0, 2, 1), (1, 3, 1)),
]


@pytest.mark.parametrize("case", SMALL)
@pytest.mark.parametrize("on", ["play", "draw"])
@pytest.mark.parametrize("mulligan", ["none", "auto"])
def test_on_curve_and_delay_match_enumeration(case: Any, on: str, mulligan: str) -> None:
    model = _model(*case)
    odds = vt.spell_odds(model, on, vt.draw_curves(model, on, mulligan))
    for (p, delay), got in zip(_brute(model, on, mulligan), odds, strict=True):
        assert got.p_on_curve == p
        assert got.expected_delay == delay


def test_a_spell_that_can_never_be_paid_has_no_delay() -> None:
    model = _model((2, 3), (1, 3), (0, 1), (3, 2))  # a red 3-drop with 2 red VAZ: never
    odds = vt.spell_odds(model, "play", vt.draw_curves(model, "play", "none"))
    assert odds[1].p_on_curve == 0 and odds[1].expected_delay is None
    assert odds[0].expected_delay is not None


@pytest.mark.parametrize("on", ["play", "draw"])
def test_vaz_table_matches_enumeration_of_holders(on: str) -> None:
    """The fewest VAZ of a colour among 9 skills so that the Holder of turn T holds C of them,
    by counting every set of Holder positions."""
    for target in (Fraction(1, 2), Fraction(9, 10), Fraction(99, 100)):
        for turn in range(1, 9):
            held = _held(turn, on, 9)
            holders = list(itertools.combinations(range(9), held))
            for cost in range(1, 10):
                want = None
                for n in range(10):  # the first n positions of the skill deck are the colour's
                    hits = sum(1 for h in holders if sum(1 for i in h if i < n) >= cost)
                    if Fraction(hits, len(holders)) >= target:
                        want = n
                        break
                assert vt.vaz_needed(cost, turn, on, target) == want, (cost, turn, on, target)


# --------------------------------------------------------------------------- Monte Carlo


@pytest.mark.parametrize("deck", EXAMPLES, ids=lambda p: p.stem)
@pytest.mark.parametrize("on,mulligan", [("play", "none"), ("draw", "auto")])
def test_exact_on_curve_agrees_with_the_monte_carlo_engine(
    db: Any, deck: Path, on: str, mulligan: str
) -> None:
    loaded = vt.load(VARZ, src(deck), db, date=on_date())
    model = vt.model_of(loaded, deck)
    odds = vt.spell_odds(model, on, vt.draw_curves(model, on, mulligan))
    games = 20_000
    options = mc.Options(games=games, seed=7, turns=8, on=on, mulligan=mulligan)
    plan = mc.plan(model, options)
    spell_u, skill_u = mc.uniforms(options.seed, 0, games, options.turns)
    played = mc.run_chunk(plan, spell_u, skill_u)
    for k, (card, o) in enumerate(zip(model.cards, odds, strict=True)):
        t0 = o.on_curve_turn
        assert t0 is not None and t0 <= 8
        drawn = played.first[k] <= t0
        if card.cls == 0:
            pays = np.ones(games, dtype=bool)
        else:
            pays = played.held[card.cls - 1, t0 - 1] >= card.cost
        hits = drawn & pays
        p = float(o.p_on_curve)
        se = sqrt(max(p * (1 - p), 1e-12) / games)
        assert abs(float(hits.mean()) - p) <= 4 * se + 1e-12, (card.name, hits.mean(), p)


# --------------------------------------------------------------------------- properties


@st.composite
def models(draw: Any) -> Model:
    kinds = draw(st.integers(1, 5))
    copies = [draw(st.integers(1, 3)) for _ in range(kinds)]
    filler = 30 - sum(copies)
    costs = [draw(st.integers(0, 6)) for _ in range(kinds)]
    reds = draw(st.integers(0, 9))
    cls = [draw(st.integers(0, 1)) for _ in range(kinds)]
    model = _model([*copies, filler], [*costs, 2], [*cls, 0], [9 - reds, reds])
    return model


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(models(), st.sampled_from(["play", "draw"]), st.sampled_from(["none", "auto"]))
def test_probabilities_are_probabilities(model: Model, on: str, mulligan: str) -> None:
    for o in vt.spell_odds(model, on, vt.draw_curves(model, on, mulligan)):
        assert 0 <= o.p_on_curve <= 1 and 0 <= o.p_drawn <= 1 and 0 <= o.p_pays <= 1
        assert o.expected_delay is None or o.expected_delay >= 0


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(models(), st.sampled_from(["play", "draw"]))
def test_one_more_vaz_of_a_colour_never_lowers_its_spells(model: Model, on: str) -> None:
    """A skill that is not a red VAZ swapped for a red VAZ: no red spell's odds go down."""
    if model.skills[0] == 0:
        return
    more = replace(model, skills=(model.skills[0] - 1, model.skills[1] + 1))
    before = vt.spell_odds(model, on, vt.draw_curves(model, on, "none"))
    after = vt.spell_odds(more, on, vt.draw_curves(more, on, "none"))
    for card, a, b in zip(model.cards, before, after, strict=True):
        if card.cls == 1:
            assert b.p_on_curve >= a.p_on_curve


def _rewrite(
    deck: Path, db: Any, tmp: Path, *, lang: str | None = None, swap: tuple[str, str] | None = None
) -> Path:
    """The deck written again: names in `lang` (when the database has them), optionally with
    one skill swapped (out name, in name)."""
    checked = check_deck(deck, db, date=on_date())
    view = checked.view
    raw = yaml.safe_load(deck.read_text(encoding="utf-8"))

    def name(card: Any) -> str:
        return card.names.get(lang, card.name) if lang else card.name

    out: dict[str, Any] = {"name": raw.get("name"), "format": raw.get("format", "standard")}
    out["hero"] = name(view.hero)
    for section in ("spells", "skills", "portals"):
        counts = {n: c for n, (_card, c, _) in view.by_name(section).items()}
        cards = {n: card for n, (card, _, _) in view.by_name(section).items()}
        if section == "skills" and swap is not None:
            gone, new = swap
            counts[gone] -= 1
            if not counts[gone]:
                del counts[gone]
            counts[new] = counts.get(new, 0) + 1
            cards.setdefault(new, db.canonical(new))
        out[section] = {name(cards[n]): c for n, c in counts.items()}
    target = tmp / deck.name
    target.write_text(yaml.safe_dump(out, allow_unicode=True, sort_keys=False), encoding="utf-8")
    return target


def _without_path(document: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in document.items() if k != "deck"}


@settings(
    max_examples=8, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(st.sampled_from(EXAMPLES), st.sampled_from(["ja", "zh"]), st.sampled_from(["play", "draw"]))
def test_the_same_deck_in_another_language_tunes_the_same(
    db: Any, tmp_path_factory: pytest.TempPathFactory, deck: Path, lang: str, on: str
) -> None:
    tmp = tmp_path_factory.mktemp("lang")
    english = _rewrite(deck, db, tmp_path_factory.mktemp("en"))
    other = _rewrite(deck, db, tmp, lang=lang)
    assert other.read_text(encoding="utf-8") != english.read_text(encoding="utf-8")
    a = TUNER.tune(src(english), db, target=0.9, on=on, mulligan="none", date=on_date()).to_json()
    b = TUNER.tune(src(other), db, target=0.9, on=on, mulligan="none", date=on_date()).to_json()
    assert _without_path(a) == _without_path(b)


# --------------------------------------------------------------------------- legality


def _splash_with_one_red_vaz(tmp: Path) -> Path:
    raw = yaml.safe_load(SPLASH.read_text(encoding="utf-8"))
    raw["skills"] = {
        "Amber VAZ": 5,
        "Crimson VAZ": 1,
        "Holy Ward": 1,
        "Quick Draw": 1,
        "Heavy Round": 1,
    }
    raw["spells"]["Crimson Gunslinger"] = 3
    target = tmp / "one-red.yaml"
    target.write_text(yaml.safe_dump(raw, sort_keys=False), encoding="utf-8")
    return target


def test_every_suggested_swap_is_a_legal_deck(db: Any, tmp_path: Path) -> None:
    decks = [*EXAMPLES, _splash_with_one_red_vaz(tmp_path)]
    tried = 0
    for deck in decks:
        assert check_deck(deck, db, date=on_date()).legal, deck
        document = TUNER.tune(
            src(deck), db, target=0.9, on="play", mulligan="none", date=on_date()
        ).to_json()
        assert document["swaps"], deck
        for i, swap in enumerate(document["swaps"]):
            where = tmp_path / f"{deck.stem}-{i}"
            where.mkdir()
            swapped = _rewrite(deck, db, where, swap=(swap["out"]["name"], swap["in"]["name"]))
            report = check_deck(swapped, db, date=on_date())
            assert report.legal, (deck.name, swap["out"], swap["in"], report.diagnostics)
            tried += 1
    assert tried > 100


def test_the_last_vaz_of_a_splash_colour_is_never_swapped_out(db: Any, tmp_path: Path) -> None:
    deck = _splash_with_one_red_vaz(tmp_path)
    document = TUNER.tune(
        src(deck), db, target=0.9, on="play", mulligan="none", date=on_date()
    ).to_json()
    outs = {s["out"]["name"] for s in document["swaps"] if s["in"]["name"] != "Crimson VAZ"}
    assert "Crimson VAZ" not in outs


def test_swap_figures_are_the_rewritten_decks_figures(db: Any, tmp_path: Path) -> None:
    """Each swap's odds equal those of the deck written out with the swap, read and modelled from
    scratch (the whole pipeline, not the swap arithmetic)."""
    document = TUNER.tune(
        src(SPLASH), db, target=0.9, on="draw", mulligan="auto", date=on_date()
    ).to_json()
    base = {s["name"]: (s["id"], s["p_on_curve"]) for s in document["spells"]}
    for i, swap in enumerate(document["swaps"][:: max(1, len(document["swaps"]) // 12)]):
        where = tmp_path / str(i)
        where.mkdir()
        swapped = _rewrite(SPLASH, db, where, swap=(swap["out"]["name"], swap["in"]["name"]))
        again = TUNER.tune(
            src(swapped), db, target=0.9, on="draw", mulligan="auto", date=on_date()
        ).to_json()
        for spell in again["spells"]:
            card_id, p = base[spell["name"]]  # by name: a reprint id is written as its name
            assert spell["p_on_curve"] == pytest.approx(p + swap["delta"][card_id], abs=1e-8)
        assert again["mean_p_on_curve"] == pytest.approx(swap["mean_p_on_curve"], abs=1e-9)


def test_swaps_are_ranked_lowest_first_then_mean(db: Any) -> None:
    document = TUNER.tune(
        src(SPLASH), db, target=0.9, on="play", mulligan="none", date=on_date()
    ).to_json()
    spells = document["spells"]
    keys = []
    for sw in document["swaps"]:
        after = sorted(s["p_on_curve"] + sw["delta"][s["id"]] for s in spells)
        keys.append((after, sw["mean_p_on_curve"]))
    rounded = [([round(x, 7) for x in lo], round(m, 7)) for lo, m in keys]
    assert rounded == sorted(rounded, reverse=True)
    best = document["swaps"][0]
    assert best["in"]["name"] == "Crimson VAZ"  # the splash's odds rise only with red VAZ
    assert best["min_p_on_curve"] > document["min_p_on_curve"]


# --------------------------------------------------------------------------- CLI


runner = CliRunner()


def _run(*args: str) -> Any:
    return runner.invoke(app, list(args))


def test_tune_json_shape(db: Any) -> None:
    result = _run("tune", str(SPLASH), "--output", "json")
    assert result.exit_code == 0, result.output
    doc = json.loads(result.stdout)
    assert {"version", "deck", "on", "mulligan", "target", "spells", "swaps", "tables"} <= set(doc)
    assert doc["version"] == 1 and doc["on"] == "play" and doc["target"] == 0.9
    for spell in doc["spells"]:
        assert {
            "id",
            "name",
            "cost",
            "color",
            "copies",
            "on_curve_turn",
            "p_on_curve",
            "expected_delay",
            "exact",
        } <= set(spell)
        assert spell["exact"] is True
    ids = {s["id"] for s in doc["spells"]}
    for swap in doc["swaps"]:
        assert {"out", "in", "min_p_on_curve", "mean_p_on_curve", "delta"} <= set(swap)
        assert set(swap["delta"]) == ids
    colors = [t["color"] for t in doc["tables"]]
    assert colors == ["red", "blue", "green", "purple", "silver"]  # every colour but yellow
    for t in doc["tables"]:
        assert [row["cost"] for row in t["rows"]] == list(range(1, 10))
        assert all(len(row["by_turn"]) == 8 for row in t["rows"])
    red = next(t for t in doc["tables"] if t["color"] == "red")
    assert red["deck_vaz"] == 3


@pytest.mark.parametrize(
    "args,code",
    [
        (["tune", str(SPLASH)], 0),
        (["tune", str(SPLASH), "--on", "draw", "--mulligan", "auto", "--target", "0.8"], 0),
        (["tune", "no-such-deck.yaml"], 1),
        (["tune", str(SPLASH), "--target", "1.5"], 2),
        (["tune", str(SPLASH), "--on", "sideways"], 2),
        (["tune", str(SPLASH), "--plot", "out.gif"], 2),
        (["tune", str(AZUKI[0]), "--mulligan", "auto"], 2),
        (["tune", str(AZUKI[0]), "--target", "0.5"], 2),
        (["tune", str(AZUKI[0])], 0),
        (["tune", str(ROOT / "examples" / "illegal.yaml")], 0),
        (["stats", str(SPLASH)], 0),
        (["stats", "no-such-deck.yaml"], 1),
    ],
)
def test_exit_codes(args: list[str], code: int) -> None:
    result = _run(*args)
    assert result.exit_code == code, result.output


@pytest.mark.parametrize("deck", [*EXAMPLES, *AZUKI], ids=lambda p: p.stem)
@pytest.mark.parametrize("lang", ["en", "ja"])
def test_text_fits_80_columns(deck: Path, lang: str) -> None:
    for command in ("tune", "stats"):
        result = _run(command, str(deck), "--lang", lang)
        assert result.exit_code == 0, result.output
        lines = result.stdout.splitlines()
        assert len(lines) > 5
        assert max(cell_len(line) for line in lines) <= 80, (command, lang)


def test_azuki_says_there_are_no_swaps() -> None:
    result = _run("tune", str(AZUKI[0]), "--output", "json")
    doc = json.loads(result.stdout)
    assert doc["swaps"] == [] and doc["tables"] == [] and "no swaps" in doc["no_swaps"]
    text = _run("tune", str(AZUKI[0])).stdout
    assert "no swaps" in text


def test_azuki_on_curve_is_hypergeometric(db: Any) -> None:
    doc = json.loads(_run("tune", str(AZUKI[0]), "--output", "json", "--on", "draw").stdout)
    n = sum(c["copies"] for c in doc["spells"])
    for card in doc["spells"]:
        t0 = card["cost"] - 1 if card["cost"] > 1 else 1  # IKZ t + 1 (the token) on the draw
        assert card["on_curve_turn"] == t0
        seen = 7 + t0
        p = 1 - Fraction(comb(n - card["copies"], seen), comb(n, seen))
        assert card["p_on_curve"] == pytest.approx(float(p), abs=1e-9)
        # E[first turn it is held] - t0, summed over turns until every card is seen
        delay = sum(
            float(Fraction(comb(n - card["copies"], min(7 + t, n)), comb(n, min(7 + t, n))))
            for t in range(t0, n)
        )
        assert card["expected_delay"] == pytest.approx(delay, abs=1e-9)


def test_plot_svg(tmp_path: Path) -> None:
    target = tmp_path / "tune.svg"
    result = _run("tune", str(SPLASH), "--plot", str(target))
    assert result.exit_code == 0, result.output
    svg = target.read_text(encoding="utf-8")
    assert svg.startswith("<svg") or "<svg" in svg[:200]
    assert "Crimson VAZ" in svg


@pytest.mark.parametrize("command", ["tune", "stats"])
def test_readme_shows_the_real_output(command: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """The player's guide's tuning section (once the README's) pastes the tool's output."""
    monkeypatch.chdir(ROOT)
    readme = (ROOT / "docs" / "guides" / "player.md").read_text(encoding="utf-8")
    prompt = f"$ varz-deck {command} examples/yellow-amane-red-splash.yaml\n"
    shown = readme.split(prompt, 1)[1].split("```", 1)[0]
    result = runner.invoke(app, [command, str(SPLASH.relative_to(ROOT))])
    assert result.exit_code == 0
    assert shown == result.stdout


# --------------------------------------------------------------------------- issue 24


def _uncached(model: Model, out: Any, into: Any, on: str, mulligan: str) -> Any:
    skills = list(model.skills)
    skills[vt.skill_class_of(model, out)] -= 1
    skills[vt.skill_class_of(model, into)] += 1
    swapped = replace(model, skills=tuple(skills))
    return swapped, vt.spell_odds(swapped, on, vt.draw_curves(swapped, on, mulligan))


def test_the_draw_cache_follows_the_openers(db: Any) -> None:
    """On the play with the auto mulligan, some swaps of the splash deck change which spells are
    openers, so their draw curves differ: every swap's figures are those computed from scratch."""
    loaded = vt.load(VARZ, src(SPLASH), db, date=on_date())
    model = vt.model_of(loaded, SPLASH)
    swaps = vt.sweep(loaded.view, model, "play", "auto", vt.DrawCache())
    openers = set()
    for swap in swaps:
        swapped, odds = _uncached(model, swap.out, swap.into, "play", "auto")
        openers.add(vt.openers(swapped, "play", "auto"))
        assert swap.odds == odds, (swap.out.name, swap.into.name)
    assert len(openers) >= 2  # the cache is really used with more than one key


def test_one_draw_cache_across_a_change_of_openers_side_and_mulligan(db: Any) -> None:
    """A cache keyed by the openers alone would hand the curves of one setting to another."""
    loaded = vt.load(VARZ, src(SPLASH), db, date=on_date())
    model = vt.model_of(loaded, SPLASH)
    cache = vt.DrawCache()
    seen = {}
    for on, mulligan in [("play", "auto"), ("draw", "auto"), ("play", "none"), ("draw", "none")]:
        got = cache(model, on, mulligan)
        assert got == vt.draw_curves(model, on, mulligan)
        seen[on, mulligan] = got
    assert len(set(seen.values())) == 4  # the four settings really differ
    fewer = replace(model, cards=(replace(model.cards[0], copies=1), *model.cards[1:]))
    assert cache(fewer, "play", "auto") == vt.draw_curves(fewer, "play", "auto")


def _restricting_database(tmp: Path) -> Path:
    """The bundled cards plus a promo reprint of Crimson VAZ (PR-094), and a format `capped`
    that restricts Crimson VAZ to 3 copies by that reprint's id and Amber VAZ to 4: no bundled
    format restricts a skill (issue 24)."""
    import shutil

    folder = tmp / "cards"
    shutil.copytree(ROOT / "card_data" / "varz", folder)
    promo = folder / "sets" / "pr.yaml"
    promo.write_text(
        promo.read_text(encoding="utf-8")
        + "  - id: PR-094\n    name: Crimson VAZ\n    names: {ja: 紅蓮の VAZ, zh: 赤红 VAZ}\n"
        "    type: skill\n    color: red\n    skill_class: generic\n    vaz: true\n"
        '    text: "Sync: Make 1 red VAZ or 1 VAZ of your Hero\'s colour."\n    rarity: C\n'
        "  - id: PR-900\n    name: Zero Amane\n    type: hero\n    color: yellow\n    life: 10\n"
        "    power: 3\n    skill_classes: [cleric, gunner]\n    evolution_level: 4\n"
        "    memory: 0\n",
        encoding="utf-8",
    )
    formats = folder / "formats.yaml"
    formats.write_text(
        formats.read_text(encoding="utf-8")
        + "  capped:\n    name: Capped\n    sets: [VZ01, VZ02, PR]\n"
        "    restricted: {PR-094: 3, VZ01-098: 4}\n    banned: [VZ01-091, VZ01-097]\n",
        encoding="utf-8",
    )
    return folder


def test_tune_never_suggests_a_swap_over_a_restricted_count(tmp_path: Path) -> None:
    restricted_db = open_database(_restricting_database(tmp_path))
    deck = tmp_path / "capped.yaml"
    deck.write_text(
        SPLASH.read_text(encoding="utf-8").replace("format: standard", "format: capped"), "utf-8"
    )
    assert check_deck(
        deck, restricted_db, date=on_date()
    ).legal  # 3 Crimson VAZ, 3 Amber VAZ: at the caps
    standard = TUNER.tune(
        src(SPLASH), restricted_db, target=0.9, on="play", mulligan="none", date=on_date()
    )
    assert "Crimson VAZ" in {s.into.name for s in standard.swaps}  # uncapped, it is suggested
    result = TUNER.tune(
        src(deck), restricted_db, target=0.9, on="play", mulligan="none", date=on_date()
    )
    ins = {s.into.name for s in result.swaps}
    assert "Crimson VAZ" not in ins  # a 4th would be over the restriction (3)
    assert "Amber VAZ" in ins  # a 4th Amber VAZ is at its restriction (4): allowed
    assert {"Focus", "Violet VAZ"} <= {s.into.name for s in standard.swaps}  # banned in capped
    assert not {"Focus", "Violet VAZ"} & ins
    for i, swap in enumerate(result.swaps):  # and every suggested deck passes V116
        where = tmp_path / str(i)
        where.mkdir()
        swapped = _rewrite(deck, restricted_db, where, swap=(swap.out.name, swap.into.name))
        report = check_deck(swapped, restricted_db, date=on_date())
        assert "V116" not in {d.code for d in report.diagnostics}, (swap.out.name, swap.into.name)
        assert report.legal


def test_a_capped_candidate_is_skipped_and_the_later_ones_still_tried(tmp_path: Path) -> None:
    """Swapping Amber VAZ out: a 4th Crimson VAZ is over its restriction (3), and the candidates
    after it in name order (Verdant VAZ) are still offered; no non-VAZ skill fits Memory 3."""
    restricted_db = open_database(_restricting_database(tmp_path))
    deck = tmp_path / "capped.yaml"
    deck.write_text(
        SPLASH.read_text(encoding="utf-8").replace("format: standard", "format: capped"), "utf-8"
    )
    loaded = vt.load(VARZ, src(deck), restricted_db, date=on_date())
    model = vt.model_of(loaded, str(deck))
    pairs = vt.swap_candidates(loaded.view, model)
    assert [i.name for o, i in pairs if o.name == "Amber VAZ"] == [
        "Argent VAZ",
        "Azure VAZ",
        "Verdant VAZ",
    ]


def test_odds_of_a_spell_with_a_curve_turn_and_of_one_without() -> None:
    from varz_deck.games.varz.sim.exact import p_pays

    model = _model((2, 30), (2, 10), (0, 0), (5, 4))  # 9 skills: a cost of 10 never has a turn
    for on, seen in (("play", 5), ("draw", 6)):
        odds = vt.spell_odds(model, on, vt.draw_curves(model, on, "none"))
        assert odds[1] == vt.SpellOdds(None, Fraction(0), Fraction(0), Fraction(0), None)
        first = odds[0]
        assert first.on_curve_turn == 1  # 2 skills in turn 1's Holder, either side
        assert first.p_pays == p_pays(model, model.cards[0], 1, on) == 1  # any colour pays it
        assert first.p_drawn == 1 - Fraction(comb(30, seen), comb(32, seen))
        assert first.p_on_curve == first.p_drawn


def test_vaz_needed_at_the_target_exactly() -> None:
    # On the play, turn 1's Holder holds 2 of the 9 skills: P(at least 1 of 3 VAZ) = 1 - C(6,2)/C(9,2)
    exactly = 1 - Fraction(comb(6, 2), comb(9, 2))
    assert exactly == Fraction(7, 12)
    assert vt.vaz_needed(1, 1, "play", exactly) == 3  # "with at least the target": 3 reaches it
    assert vt.vaz_needed(1, 1, "play", exactly + Fraction(1, 10**9)) == 4


def test_an_illegal_deck_is_tuned_with_a_warning(db: Any, tmp_path: Path) -> None:
    result = TUNER.tune(src(ROOT / "examples" / "illegal.yaml"), db, target=0.9, on="play",
                           mulligan="none", date=on_date())  # fmt: skip
    (warning,) = result.warnings
    path = str(ROOT / "examples" / "illegal.yaml")
    assert warning.render() == (
        f"{path}: deck is not legal (4 problems; run varz-deck check); using it anyway"
    )
    big = tmp_path / "big.txt"
    big.write_text("Hero: Hibiki Kagura\nSpells:\n" + "99 Ember Imp\n" * 2, encoding="utf-8")
    with pytest.raises(DeckTooLarge) as caught:
        TUNER.tune(src(big), db, target=0.9, on="play", mulligan="none", date=on_date())
    assert caught.value.message is not None
    assert caught.value.message.render().startswith(f"{big}: its spells section has 198 cards")


def test_no_swap_goes_over_the_hero_s_memory(db: Any, tmp_path: Path) -> None:
    """Kohaku Amane has Memory 3; with a 4th non-VAZ skill (V112) no swap may keep 4, and a hero
    with Memory 0 takes no non-VAZ skill at all."""
    text = SPLASH.read_text(encoding="utf-8")
    over = tmp_path / "over.yaml"
    over.write_text(text.replace("  Amber VAZ: 3\n", "  Amber VAZ: 2\n  Focus: 1\n"), "utf-8")
    assert "V112" in {d.code for d in check_deck(over, db, date=on_date()).diagnostics}
    swaps = TUNER.tune(src(over), db, target=0.9, on="play", mulligan="none", date=on_date()).swaps
    assert swaps and all(s.into.is_vaz for s in swaps)
    zero_db = open_database(_restricting_database(tmp_path))
    zero = tmp_path / "zero.yaml"
    skills = "skills:\n  Amber VAZ: 6\n  Crimson VAZ: 3\nportals:"
    body = text.replace("hero: Kohaku Amane", "hero: Zero Amane")
    body = body[: body.index("skills:")] + skills + body.split("portals:", 1)[1]
    zero.write_text(body, "utf-8")
    swaps = TUNER.tune(
        src(zero), zero_db, target=0.9, on="play", mulligan="none", date=on_date()
    ).swaps
    assert swaps and all(s.into.is_vaz for s in swaps)


def test_a_deck_without_a_hero_has_no_swaps(db: Any, tmp_path: Path) -> None:
    deck = tmp_path / "h.yaml"
    deck.write_text(SPLASH.read_text(encoding="utf-8").replace("hero: Kohaku Amane\n", ""), "utf-8")
    loaded = vt.load(VARZ, src(deck), db, date=on_date())
    model = vt.model_of(vt.load(VARZ, src(SPLASH), db, date=on_date()), str(SPLASH))
    assert loaded.view.hero is None and vt.swap_candidates(loaded.view, model) == []


def test_small_pieces_of_the_odds(db: Any, tmp_path: Path) -> None:
    one = _model((1, 2), (1, 3), (0, 0), (9,))
    single = replace(one, cards=one.cards[:1])  # one copy of one spell
    odds = vt.spell_odds(single, "play", vt.draw_curves(single, "play", "none"))
    assert vt.mean_on_curve(single, odds) == odds[0].p_on_curve == 1  # seen at once, paid
    three = vt.spell_odds(one, "draw", vt.draw_curves(one, "draw", "none"))
    assert three[1].on_curve_turn == 1  # cost 3: the draw side's Holder holds 3 on turn 1
    assert vt.spell_odds(one, "play", vt.draw_curves(one, "play", "none"))[1].on_curve_turn == 2
    two_colours = _model((1, 1, 1), (1, 1, 1), (0, 1, 2), (3, 3, 3))
    blue = db.canonical("Azure VAZ")
    assert two_colours.colors == ("red", "blue") and vt.skill_class_of(two_colours, blue) == 2
    assert vt.skill_class_of(two_colours, db.canonical("Crimson VAZ")) == 1
    assert vt.skill_class_of(two_colours, db.canonical("Amber VAZ")) == 0


def test_tune_reads_a_deck_with_a_card_on_two_lines_and_refuses_a_damaged_code(
    db: Any, tmp_path: Path
) -> None:
    txt = tmp_path / "twice.txt"
    txt.write_text("Hero: Kohaku Amane\nSpells:\n2 Lantern Acolyte\n1 Lantern Acolyte\n", "utf-8")
    result = TUNER.tune(src(txt), db, target=0.9, on="play", mulligan="none", date=on_date())
    assert result.model.cards[0].copies == 3 and result.warnings  # F003: not legal, still tuned
    from varz_deck.core.analysis.capabilities import DeckUnusable

    with pytest.raises(DeckUnusable) as caught:
        TUNER.tune(
            src(Path("VZ1AAAAAAAAA")), db, target=0.9, on="play", mulligan="none", date=on_date()
        )
    assert [d.code for d in caught.value.diagnostics] == ["F009"]


def test_a_deck_with_a_count_out_of_range_is_still_tuned(db: Any, tmp_path: Path) -> None:
    """F004 (a count of 100) leaves the deck readable: tune works on it, with the warning."""
    deck = tmp_path / "f004.yaml"
    text = (ROOT / "examples" / "red-kagura-festival.yaml").read_text(encoding="utf-8")
    deck.write_text(text.replace("Ember Imp: 3", "Ember Imp: 100"), encoding="utf-8")
    result = TUNER.tune(src(deck), db, target=0.9, on="play", mulligan="none", date=on_date())
    assert result.swaps and len(result.warnings) == 1


def test_the_last_vaz_of_a_splash_colour_may_go_for_another_of_its_colour(
    tmp_path: Path,
) -> None:
    """A second red VAZ skill (PR-095 Scarlet VAZ, in a format `splashy` with PR): the deck's one
    Crimson VAZ may be swapped for it, and for nothing else (V114); the candidates that fail
    V114 before it in name order do not hide it. Only skills are read for the swaps."""
    import shutil

    folder = tmp_path / "cards"
    shutil.copytree(ROOT / "card_data" / "varz", folder)
    promo = folder / "sets" / "pr.yaml"
    promo.write_text(
        promo.read_text(encoding="utf-8")
        + "  - id: PR-095\n    name: Scarlet VAZ\n    type: skill\n    color: red\n"
        "    skill_class: generic\n    vaz: true\n"
        '    text: "Sync: Make 1 red VAZ or 1 VAZ of your Hero\'s colour."\n    rarity: C\n',
        encoding="utf-8",
    )
    formats = folder / "formats.yaml"
    formats.write_text(
        formats.read_text(encoding="utf-8")
        + "  splashy:\n    name: Splashy\n    sets: [VZ01, VZ02, PR]\n",
        encoding="utf-8",
    )
    open_database(folder)  # builds the index in the cache
    database = open_database(folder)  # opened from it, read as asked
    deck = _splash_with_one_red_vaz(tmp_path)
    deck.write_text(
        deck.read_text(encoding="utf-8").replace("format: standard", "format: splashy"), "utf-8"
    )
    loaded = vt.load(VARZ, src(deck), database, date=on_date())
    pairs = vt.swap_candidates(loaded.view, vt.model_of(loaded, str(deck)))
    assert [i.name for o, i in pairs if o.name == "Crimson VAZ"] == ["Scarlet VAZ"]
    assert {i.name for _o, i in pairs} >= {"Scarlet VAZ", "Azure VAZ"}
    read = {printings[0].type for printings in dict.values(database.printings)}
    assert "spil" in read  # the deck's own spells
    heroes = {k for k, v in dict.items(database.printings) if v[0].type == "hero"}
    assert heroes == {"Kohaku Amane"}  # the deck's hero, no other
