"""No English label is left in `--lang ja/zh` output (issue 12, item 7): every ASCII word of the
ja/zh golden outputs (tests/golden/width/*.ja.txt, *.zh.txt) must be something that is the same in
every language: a code, id, number, file path, option, format key, diagnostic name, card or deck
name from the data, or a term the Japanese and Chinese rulebooks themselves write in English
(class names 《Ninja》, Spil, VAZ, V-Sync, IKZ, keywords #Haste). `rules CODE --lang ja|zh` is
scanned for every code of every game, with only names allowed (its example sentences too)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from varz_deck.games import all_codes

ROOT = Path(__file__).resolve().parent.parent
GOLDEN = ROOT / "tests" / "golden" / "width"
WORD = re.compile(r"[A-Za-z][A-Za-z'’]*")

# Written in English by the Japanese and Chinese rulebooks themselves (shared/rules 001, 002):
# class names in 《》, the card type Spil, keywords as #Haste, and VAZ, V-Sync, IKZ.
RULEBOOK_TERMS = {"Spil", "Command", "Slash", "VAZ", "V", "Sync", "IKZ", "Holder", "SL", "Lv", "M"}
# Keys a deck file is written with (`spells:`, `cards:` lists), language codes, and a cited name.
KEYS = {"spells", "skills", "portals", "hero", "cards", "format", "leader", "gate", "main", "ikz"}
# the deck keys of the core codes' examples (D101, D103: a captain slot, a crew section)
KEYS |= {"captain", "crew"}
KEYS |= {"ja", "zh", "en", "Karsten"}
# formats.yaml keys of a dated change (SPEC §12) and a card file's `set.released`, shown as
# written in the rules' examples
KEYS |= {"date", "banned", "unbanned", "restricted", "unrestricted", "sets", "changes", "released"}
# Fragments of `formats.yml`, `Formats.yaml` and `SPEC` folded by the rules table's narrow summary
# column (a CJK cell wraps by width, not by word: issue 30's phrase-boundary wrapping).
FRAGMENTS = {"forma", "y", "Formats", "SPE"}
# Units and marks that are not words of a language: T3 (turn 3), ± figures, JSON, YAML, UTF, ID.
SYMBOLS = {"T", "YAML", "UTF", "ID", "JSON", "CSV", "SPEC", "CRC", "v", "x"}
# The glossary's symbols (P(open), P(cast), P(on curve), P(hand ≤T8)), --mulligan's values, and
# the commands a footer names (varz-deck explain TERM, varz-deck tune): written as typed.
SYMBOLS |= {"P", "open", "cast", "on", "curve", "hand", "auto", "none"}
SYMBOLS |= {"varz", "deck", "explain", "tune", "sim", "stats", "report", "TERM"}
# Card names the rules' examples use that the bundled databases do not hold (V101's hero, V107's
# effect portal, the core's D101 and D103 captain and crew card): names, shown as written in every
# language.
EXAMPLE_CARDS = {"Matsuri", "Shrine", "Mara", "Vell", "Rigger", "Finn"}


def data_words(*, card_text: bool = True, code_names: bool = True) -> set[str]:
    """Words of names the card databases and the example decks hold (card, deck, format and
    class names, keywords), and of the diagnostics' names: data, shown as written. With
    `card_text`, the words of the cards' rules text and flavour too (what `cards show` prints)."""
    from varz_deck.games import game_keys, open_database
    from varz_deck.games.library import bundled_root

    words: set[str] = set()
    for key in game_keys():
        database = open_database(bundled_root(key))
        for card in database.cards.values():
            texts = (
                card.name,
                card.id,
                getattr(card, "set", ""),
                getattr(card, "rarity", "") or "",
            )
            if card_text:
                texts += tuple(
                    getattr(card, f, "") or "" for f in ("text", "flavor", "v_sync_name")
                )
                texts += tuple(str(v) for v in (getattr(card, "v_sync", None) or {}).values())
            for value in texts:
                words |= set(WORD.findall(str(value)))
            for field in ("skill_classes", "classes", "keywords", "traits"):
                for value in getattr(card, field, ()) or ():
                    words |= set(WORD.findall(str(value)))
                    words |= {w.capitalize() for w in WORD.findall(str(value))}
            for value in (getattr(card, "skill_class", None),):
                if value:
                    words |= {value, value.capitalize()}
        for fmt in database.formats:
            words |= set(WORD.findall(fmt))
    for info in all_codes().values():
        words |= set(WORD.findall(info.name)) if code_names else set()
    for deck in (ROOT / "examples").rglob("*.yaml"):
        for line in deck.read_text(encoding="utf-8").splitlines():
            for key in ("name:", "player:", "event:"):
                if line.startswith(key):  # what the player wrote: data
                    words |= set(WORD.findall(line[len(key) :].split("#")[0]))
    return words


def english_words(text: str, allowed: set[str]) -> list[str]:
    left: list[str] = []
    for line in text.splitlines():
        # file paths, options, deck hashes and codes, card ids: not words of a language
        line = re.sub(r"\S*[/\\]\S*|\S+\.(?:ya?ml|txt|dek)\b|--?[a-z][\w-]*", " ", line)
        line = re.sub(r"\bv1-\w+|\b[A-Z]+\d+[A-Z]?\d*-?\w*|\b[A-Z]\d{3}\b", " ", line)
        left += [w for w in WORD.findall(line) if w not in allowed]
    return left


@pytest.fixture(scope="module")
def allowed() -> set[str]:
    return data_words() | RULEBOOK_TERMS | SYMBOLS | KEYS | FRAGMENTS


@pytest.fixture(scope="module")
def allowed_in_rules() -> set[str]:
    """For `rules CODE`: names only, not the words of card texts (which hold most of English)."""
    names = data_words(card_text=False, code_names=False)
    return names | RULEBOOK_TERMS | SYMBOLS | KEYS | EXAMPLE_CARDS


GOLDENS = sorted(p.name for p in GOLDEN.glob("*.*.ja.txt")) + sorted(
    p.name for p in GOLDEN.glob("*.*.zh.txt")
)


def test_there_are_ja_and_zh_goldens_to_scan() -> None:
    assert len(GOLDENS) >= 2 * 2 * 10


@pytest.mark.parametrize("name", GOLDENS)
def test_no_english_word_is_left_in_japanese_or_chinese_output(
    name: str, allowed: set[str]
) -> None:
    left = english_words((GOLDEN / name).read_text(encoding="utf-8"), allowed)
    assert not left, f"{name}: English words left: {sorted(set(left))}"


def test_the_scan_finds_an_english_label() -> None:
    """The scan is not vacuous: an English label in Japanese output is found."""
    assert english_words("Legal: 4 × Basic Gate (3)", {"Basic", "Gate"}) == ["Legal"]
    assert english_words("ルールブック: 2.1, examples/illegal.yaml V105", set()) == []


@pytest.mark.parametrize("lang", ["ja", "zh"])
@pytest.mark.parametrize("code", list(all_codes()))
def test_no_english_word_is_left_in_a_rule_explanation(
    code: str, lang: str, allowed_in_rules: set[str]
) -> None:
    """`varz-deck rules CODE --lang ja|zh` for every code of every game: the summary, the labels
    and each example sentence are translated (wide enough that no word is folded)."""
    from typer.testing import CliRunner

    from varz_deck.cli import app

    name = all_codes()[code].name
    result = CliRunner().invoke(app, ["rules", code, "--lang", lang], env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.output
    assert result.output.startswith(f"{code} {name} (")
    # the first line's diagnostic name (spell-deck-size-wrong) is an identifier, as in English
    left = english_words(result.output.replace(name, " ", 1), allowed_in_rules)
    assert not left, f"rules {code} --lang {lang}: English words left: {sorted(set(left))}"


def test_the_rules_have_examples_to_scan() -> None:
    """The scan above reads examples: every VARZ and Azuki rule has a legal and a failing one."""
    for code, info in all_codes().items():
        if code[0] in "VWA":
            labels = {label for label, _ in info.examples}
            assert labels & {"Legal", "Fine"} and labels & {"Illegal", "Warning"}, (code, labels)
