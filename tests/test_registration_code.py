"""Deck codes: round trips (hypothesis), corruption is an F009 diagnostic, never a traceback."""

from __future__ import annotations

import base64
import binascii
from functools import cache
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from varz_deck.core.cards import CardDatabase
from varz_deck.core.registration.canonical import CanonicalDeck
from varz_deck.core.registration.code import CodeError, display, encode
from varz_deck.games import check_deck, open_database
from varz_deck.games.varz.cards import BUILTIN_FORMATS, SECTION_OF_TYPE, SECTIONS, Card
from varz_deck.games.varz.deck import Deck, Entry, read_code, read_deck, to_deck
from varz_deck.games.varz.layout import decode, is_code
from varz_deck.games.varz.registration import canonicalize

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = sorted((ROOT / "examples").glob("*.*"))
ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"


@cache
def bundled() -> CardDatabase:
    return open_database(ROOT / "card_data")


def example_code(path: Path) -> str:
    deck, _ = read_deck(path)
    return encode(canonicalize(deck, bundled()))


def canonical_from_code(code: str, db: CardDatabase) -> CanonicalDeck:
    deck, problems = read_code(code)
    assert problems == []
    return canonicalize(deck, db)


# ---- the format ------------------------------------------------------------------------------


def test_code_shape_and_size() -> None:
    for path in EXAMPLES:
        code = example_code(path)
        assert code.startswith("VZ1")
        assert set(code[3:]) <= set(ALPHABET)  # URL-safe, no padding
        assert len(code) <= 130, (path, len(code))


def test_payload_starts_with_the_version_and_ends_with_crc16() -> None:
    code = example_code(ROOT / "examples" / "red-kagura-festival.yaml")
    raw = base64.urlsafe_b64decode(code[3:] + "=" * (-len(code[3:]) % 4))
    assert raw[0] == 1
    assert binascii.crc_hqx(raw[:-2], 0xFFFF).to_bytes(2, "big") == raw[-2:]


def test_code_of_a_deck_is_independent_of_how_it_is_written(tmp_path: Path) -> None:
    yaml = example_code(ROOT / "examples" / "blue-list.txt")
    deck, _ = read_deck(ROOT / "examples" / "blue-list.txt")
    reordered = tmp_path / "blue.yaml"
    lines = [f"hero: {deck.hero}"]
    for section in reversed(SECTIONS):
        lines.append(f"{section}:")
        lines += [f"  - {e.count}x {e.ref.upper()}" for e in reversed(deck.entries[section])]
    reordered.write_text("\n".join(lines) + "\n", encoding="utf-8")
    assert example_code(reordered) == yaml


def test_encoding_a_deck_with_unknown_cards_is_refused() -> None:
    deck = Deck(path="x.yaml", hero="Nobody")
    with pytest.raises(ValueError, match="unknown"):
        encode(canonicalize(deck, bundled()))


# ---- round trips -------------------------------------------------------------------------------


@st.composite
def random_decks(draw: st.DrawFn, db: CardDatabase) -> Deck:
    """Any deck of known cards: random cards in random sections, counts 1..99, hero or none."""
    names = sorted(db.printings)
    deck = Deck(path="random.yaml", format=draw(st.sampled_from(sorted(db.formats))))
    heroes = [n for n in names if db.printings[n][0].type == "hero"]
    if draw(st.integers(0, 9)):
        deck.hero = draw(st.sampled_from(heroes))
    for section in SECTIONS:
        chosen = draw(st.lists(st.sampled_from(names), unique=True, max_size=40))
        for name in chosen:
            printing = draw(st.sampled_from(db.printings[name]))
            deck.entries[section].append(
                Entry(section, printing.id, draw(st.integers(1, 99)), None)
            )
    return deck


@settings(max_examples=300, deadline=None)
@given(data=st.data())
def test_code_to_deck_to_code_is_the_identity(data: st.DataObject) -> None:
    db = bundled()
    canonical = canonicalize(data.draw(random_decks(db)), db)
    code = encode(canonical)
    again = canonical_from_code(code, db)
    assert encode(again) == code
    assert again.hash() == canonical.hash()
    assert again.text() == canonical.text()


def synthetic_db(ids: list[str]) -> CardDatabase:
    """A database whose ids have unusual shapes: letters, widths, numbers at a width's end."""
    cards = [Card(id=i, name=f"Card {i}", type="spil", set=i.split("-")[0]) for i in ids]
    hero = Card(id="H-1", name="Hero", type="hero", set="H")
    return CardDatabase([*cards, hero], BUILTIN_FORMATS)


_ID_PART = st.text("ABCXYZ0123456789", min_size=1, max_size=6)
_NUMBERS = st.integers(0, 1200).map(str) | st.integers(0, 1200).map(lambda n: f"{n:04}")


@settings(max_examples=300, deadline=None)
@given(
    ids=st.lists(
        st.builds(lambda s, n: f"{s}-{n}", st.sampled_from(["VZ01", "A", "PR", "X9"]), _NUMBERS)
        | st.builds(lambda s, n: f"{s}-{n}", _ID_PART, _ID_PART),
        min_size=1,
        max_size=60,
        unique=True,
    ),
    data=st.data(),
)
def test_round_trip_with_any_id_shapes(ids: list[str], data: st.DataObject) -> None:
    db = synthetic_db(ids)
    deck = Deck(path="x.yaml", hero=data.draw(st.sampled_from(["H-1", None])))
    for card_id in ids:
        section = data.draw(st.sampled_from(SECTIONS))
        count = data.draw(st.sampled_from([1, 2, 3, 4, 5, 99, 127, 128, 300]))
        deck.entries[section].append(Entry(section, card_id, count, None))
    canonical = canonicalize(deck, db)
    code = encode(canonical)
    again = canonical_from_code(code, db)
    assert again.text() == canonical.text()
    assert encode(again) == code


def test_decoded_deck_checks_like_the_file() -> None:
    for path in EXAMPLES:
        from_file = check_deck(path, bundled())
        code = example_code(path)
        from_code = check_deck(Path(code), bundled())
        assert from_code.path == display(code)
        assert from_code.legal == from_file.legal, path
        assert from_code.counts == from_file.counts
        assert from_code.format == from_file.format
        assert from_code.hero == from_file.hero
        # The same problems (a code has no lines to point at, so places are left out).
        assert sorted(d.code for d in from_code.diagnostics) == sorted(
            d.code for d in from_file.diagnostics
        ), path
        decoded, _ = read_code(code)
        for section in SECTIONS:  # every card of the file, as its canonical id and total count
            listed = canonicalize(read_deck(path)[0], bundled()).sections[section]
            assert [(e.ref, e.count) for e in decoded.entries[section]] == [
                (c.key, c.count) for c in listed
            ]


# ---- damaged codes: F009, never a traceback -----------------------------------------------------


def test_every_single_character_change_is_detected() -> None:
    """CRC-16 catches every burst of up to 16 bits; one base64 character is at most 6."""
    code = example_code(ROOT / "examples" / "red-kagura-festival.yaml")
    for i in range(3, len(code)):
        for ch in ALPHABET:
            if ch != code[i]:
                with pytest.raises(CodeError):
                    decode(code[:i] + ch + code[i + 1 :])


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.name)
def test_every_truncation_is_detected(path: Path) -> None:
    code = example_code(path)
    for end in range(len(code)):
        with pytest.raises(CodeError):
            decode(code[:end])


def test_whitespace_inside_a_pasted_code_is_ignored() -> None:
    code = example_code(ROOT / "examples" / "red-kagura-festival.yaml")
    broken = f"  {code[:40]}\n{code[40:80]} {code[80:]}\n"
    assert decode(broken) == decode(code)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("VZ1", "cut short"),
        ("VZ1A", "cut short"),
        ("VZ1AAAA", "cut short"),
        ("VZ1AQAJVloyLTAxMAqMggUFAkFBQ4P9ufBkMF", "damaged"),
        ("VZ2AQAAAAAA", "version 2"),
        ("VZ1abc!def", "not a deck-code character"),
        ("VZ1" + "A" * 5000, "at most"),
    ],
)
def test_damaged_codes_say_why(text: str, message: str) -> None:
    with pytest.raises(CodeError, match=message):
        decode(text)


def test_a_valid_checksum_over_a_bad_payload_is_still_an_error() -> None:
    def wrap(payload: bytes) -> str:
        crc = binascii.crc_hqx(payload, 0xFFFF).to_bytes(2, "big")
        return "VZ1" + base64.urlsafe_b64encode(payload + crc).decode().rstrip("=")

    with pytest.raises(CodeError, match="version 7"):
        decode(wrap(b"\x07"))
    with pytest.raises(CodeError, match="cut short"):
        decode(wrap(b"\x01\x00\x00\x05"))
    with pytest.raises(CodeError, match="after the portals"):
        decode(wrap(b"\x01\x00\x00\x00\x00\x00\x00"))
    with pytest.raises(CodeError, match="hero"):
        decode(wrap(b"\x01\x00\x03a b\x00\x00\x00"))


@settings(max_examples=500, deadline=None)
@given(payload=st.binary(max_size=80))
def test_any_payload_with_a_valid_checksum_decodes_or_is_a_code_error(payload: bytes) -> None:
    crc = binascii.crc_hqx(payload, 0xFFFF).to_bytes(2, "big")
    code = "VZ1" + base64.urlsafe_b64encode(payload + crc).decode().rstrip("=")
    try:
        decoded = decode(code)
    except CodeError:
        return
    deck = to_deck(decoded, "x")
    assert deck.format == decoded.format
    assert deck.hero == (decoded.slots["hero"] or None)
    for section in SECTIONS:
        assert [(e.ref, e.count) for e in deck.entries[section]] == list(decoded.sections[section])
    canonical = canonicalize(deck, bundled())  # unknown ids are fine: the check reports F005
    for section in SECTIONS:
        assert canonical.size(section) == sum(n for _, n in decoded.sections[section])


@settings(max_examples=300, deadline=None)
@given(text=st.text(max_size=60))
def test_any_text_after_the_prefix_is_a_deck_or_f009(text: str) -> None:
    deck, problems = read_code("VZ1" + text)
    assert all(p.code == "F009" for p in problems)
    assert deck.readable == (not problems)


def test_read_deck_reads_a_code_and_reports_f009() -> None:
    deck, problems = read_deck(Path("VZ1AQAJVloyLTAxMAqMggUFAkFBQ4P9ufBkMF"))
    assert not deck.readable
    assert [p.code for p in problems] == ["F009"]
    code = "VZ1AQAJVloyLTAxMAqMggUFAkFBQ4P9ufBkMF"
    assert problems[0].file == code[:16] + "…" + code[-8:]
    assert "cannot be decoded" in problems[0].message


def test_a_file_named_like_a_code_is_read_as_a_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    code = example_code(ROOT / "examples" / "red-kagura-festival.yaml")
    Path(code).write_text("hero: Nobody\n", encoding="utf-8")
    assert not is_code(Path(code))
    deck, problems = read_deck(Path(code))
    assert deck.hero == "Nobody" and problems == []


@pytest.mark.parametrize("arg", ["VZ1abc.yaml", "decks/VZ1abc", "missing.yaml"])
def test_paths_are_not_codes(arg: str) -> None:
    assert not is_code(Path(arg))
    _, problems = read_deck(Path(arg))
    assert [p.code for p in problems] == ["F001"]


def test_a_code_longer_than_a_file_name_is_still_read() -> None:
    db = synthetic_db([f"LONGSET{i}-{i:03}" for i in range(200)])
    deck = Deck(path="x", hero="H-1")
    deck.entries["spells"] = [Entry("spells", f"LONGSET{i}-{i:03}", 2, None) for i in range(200)]
    code = encode(canonicalize(deck, db))
    assert len(code) > 255
    decoded, problems = read_deck(Path(code))
    assert problems == [] and len(decoded.entries["spells"]) == 200


def test_misplaced_cards_survive_the_round_trip() -> None:
    db = bundled()
    deck = Deck(path="x", hero="Hibiki Kagura")
    deck.entries["spells"] = [Entry("spells", "Crimson Gate", 2, None)]  # a portal: F008
    canonical = canonicalize(deck, db)
    again = canonical_from_code(encode(canonical), db)
    assert again.hash() == canonical.hash()
    types = {SECTION_OF_TYPE[c.card.type] for c in again.sections["spells"] if c.card}
    assert types == {"portals"}
