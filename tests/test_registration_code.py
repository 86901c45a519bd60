"""Deck codes: round trips (hypothesis), corruption is an F009 diagnostic, never a traceback."""

from __future__ import annotations

import base64
import binascii
import re
from functools import cache
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from varz_decks import (
    REGISTRAR,
    SECTIONS,
    DeclaredDeck,
    Entry,
    decode,
    home,
    is_code_argument,
    new_deck,
    read_code,
    read_deck,
)

from varz_deck.core.cards.model import CardDatabase
from varz_deck.core.dates import on_date
from varz_deck.core.decks.view import Pick
from varz_deck.core.files.source import DeckSource
from varz_deck.core.registration.canonical import CanonicalDeck
from varz_deck.core.registration.code import CodeError, NoCode, display, encode
from varz_deck.games import check_deck, open_database
from varz_deck.games.varz.cards import BUILTIN_FORMATS, Card

canonicalize = REGISTRAR.canonicalize

src = DeckSource.from_path

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = sorted((ROOT / "examples").glob("*.*"))
ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"


@cache
def bundled() -> CardDatabase:
    return open_database(ROOT / "card_data" / "varz")


def example_code(path: Path) -> str:
    deck, _ = read_deck(src(path))
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
    deck, _ = read_deck(src(ROOT / "examples" / "blue-list.txt"))
    reordered = tmp_path / "blue.yaml"
    lines = [f"hero: {deck.pick('hero')}"]
    for section in reversed(SECTIONS):
        lines.append(f"{section}:")
        lines += [f"  - {e.count}x {e.ref.upper()}" for e in reversed(deck.entries[section])]
    reordered.write_text("\n".join(lines) + "\n", encoding="utf-8")
    assert example_code(reordered) == yaml


def test_encoding_a_deck_with_unknown_cards_is_refused() -> None:
    deck = new_deck(path="x.yaml", hero="Nobody")
    with pytest.raises(ValueError, match="unknown"):
        encode(canonicalize(deck, bundled()))


# ---- round trips -------------------------------------------------------------------------------


@st.composite
def random_decks(draw: st.DrawFn, db: CardDatabase) -> DeclaredDeck:
    """Any deck of known cards: random cards in random sections, counts 1..99, hero or none."""
    names = sorted(db.printings)
    deck = new_deck(path="random.yaml", format=draw(st.sampled_from(sorted(db.formats))))
    heroes = [n for n in names if db.printings[n][0].type == "hero"]
    if draw(st.integers(0, 9)):
        deck.picks["hero"] = Pick(draw(st.sampled_from(heroes)), None, None)
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
    deck = new_deck(path="x.yaml", hero=data.draw(st.sampled_from(["H-1", None])))
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
        from_file = check_deck(path, bundled(), date=on_date())
        code = example_code(path)
        from_code = check_deck(Path(code), bundled(), date=on_date())
        assert from_code.path == display(code)
        assert from_code.legal == from_file.legal, path
        assert from_code.counts == from_file.counts
        assert from_code.format == from_file.format
        assert from_code.lead_card == from_file.lead_card
        # The same problems (a code has no lines to point at, so places are left out).
        assert sorted(d.code for d in from_code.diagnostics) == sorted(
            d.code for d in from_file.diagnostics
        ), path
        decoded, _ = read_code(code)
        for section in SECTIONS:  # every card of the file, as its canonical id and total count
            listed = canonicalize(read_deck(src(path))[0], bundled()).sections[section]
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
    deck, _ = read_code(code, "x")
    assert deck.format == decoded.format
    assert deck.pick("hero") == (decoded.slots["hero"] or None)
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
    deck, problems = read_deck(src(Path("VZ1AQAJVloyLTAxMAqMggUFAkFBQ4P9ufBkMF")))
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
    assert src(Path(code)).argument is None  # a file: never taken for the code it is named like
    deck, problems = read_deck(src(Path(code)))
    assert deck.pick("hero") == "Nobody" and problems == []


@pytest.mark.parametrize("arg", ["VZ1abc.yaml", "decks/VZ1abc", "missing.yaml"])
def test_paths_are_not_codes(arg: str) -> None:
    assert not is_code_argument(arg)
    _, problems = read_deck(src(Path(arg)))
    assert [p.code for p in problems] == ["F001"]


def test_a_code_longer_than_a_file_name_is_still_read() -> None:
    db = synthetic_db([f"LONGSET{i}-{i:03}" for i in range(200)])
    deck = new_deck(path="x", hero="H-1")
    deck.entries["spells"] = [Entry("spells", f"LONGSET{i}-{i:03}", 2, None) for i in range(200)]
    code = encode(canonicalize(deck, db))
    assert len(code) > 255
    decoded, problems = read_deck(src(Path(code)))
    assert problems == [] and len(decoded.entries["spells"]) == 200


def test_misplaced_cards_survive_the_round_trip() -> None:
    db = bundled()
    deck = new_deck(path="x", hero="Hibiki Kagura")
    deck.entries["spells"] = [Entry("spells", "Crimson Gate", 2, None)]  # a portal: F008
    canonical = canonicalize(deck, db)
    again = canonical_from_code(encode(canonical), db)
    assert again.hash() == canonical.hash()
    types = {home(c.card.type) for c in again.sections["spells"] if c.card}
    assert types == {"portals"}


# ---- the README's codes, pinned (issue 24) ------------------------------------------------------

README = ROOT / "docs" / "guides" / "organiser.md"  # the deck codes section, once in README.md
# The README's two VARZ codes, copied by hand. The short one is the README's byte-by-byte example;
# the long one is `varz-deck code aoi.yaml` (examples/red-kagura-festival.yaml).
README_SHORT = "VZ1AQAIVlowMS0wMDECloIBBAYCOTQBp608"
README_KAGURA = (
    "VZ1AQAIVlowMS0wMDENloKCgoGCgYCAAwMFMi0wMDSBgYEGAQMFMS0wNjeAgIDfAQMFMi0wNDMEAgMFMS0xMDGLlIhgxw"
)
# The README's short example, read off its walk-through: hero VZ01-001; VZ01-007 ×3, VZ01-008 ×3;
# VZ01-094 ×4; VZ01-104 ×4 (standard).
SHORT_DECK = (
    "standard",
    "VZ01-001",
    {
        "spells": [("VZ01-007", 3), ("VZ01-008", 3)],
        "skills": [("VZ01-094", 4)],
        "portals": [("VZ01-104", 4)],
    },
)
# examples/red-kagura-festival.yaml by hand (each card's smallest printing id, sorted; the same list
# as tests/test_registration_cli.py's KAGURA_CANONICAL).
KAGURA_DECK = (
    "standard",
    "VZ01-001",
    {
        "spells": [
            ("VZ01-007", 3), ("VZ01-008", 3), ("VZ01-009", 3), ("VZ01-010", 3), ("VZ01-011", 2),
            ("VZ01-012", 3), ("VZ01-013", 2), ("VZ01-014", 1), ("VZ01-015", 1), ("VZ02-004", 3),
            ("VZ02-005", 2), ("VZ02-006", 2), ("VZ02-007", 2),
        ],
        "skills": [
            ("VZ01-067", 1), ("VZ01-068", 1), ("VZ01-069", 1), ("VZ01-070", 1), ("VZ01-094", 4),
            ("VZ02-043", 1),
        ],
        "portals": [("VZ01-101", 2), ("VZ01-104", 4), ("VZ01-110", 1), ("VZ01-113", 1)],
    },
)  # fmt: skip


def _leb128(value: int) -> bytes:
    out = bytearray()
    while True:
        low, value = value & 0x7F, value >> 7
        out.append(low | (0x80 if value else 0))
        if not value:
            return bytes(out)


def readme_code(deck: tuple[str, str, dict[str, list[tuple[str, int]]]]) -> str:
    """A VARZ code built from the README's grammar alone (its "Deck codes" section)."""
    fmt, hero, sections = deck

    def text(s: str) -> bytes:
        data = s.encode("utf-8")
        return _leb128(len(data)) + data

    out = bytearray([1]) + text("" if fmt == "standard" else fmt) + text(hero)
    previous = hero
    for name in ("spells", "skills", "portals"):
        out += _leb128(len(sections[name]))
        for card_id, count in sections[name]:
            head, _, number = previous.partition("-")
            new_head, _, new_number = card_id.partition("-")
            same = head == new_head and number.isdigit() and new_number.isdigit()
            step = int(new_number) - int(number) if same and len(number) == len(new_number) else 0
            if 1 <= step <= 32 and 1 <= count <= 4:
                out.append(0x80 | (step - 1) << 2 | (count - 1))
            else:
                out += bytes([count]) if count < 128 else b"\x00" + _leb128(count)
                shared = next(
                    (i for i, (a, b) in enumerate(zip(previous, card_id, strict=False)) if a != b),
                    min(len(previous), len(card_id)),
                )
                out += _leb128(shared) + text(card_id[shared:])
            previous = card_id
    crc = binascii.crc_hqx(bytes(out), 0xFFFF).to_bytes(2, "big")
    return "VZ1" + base64.urlsafe_b64encode(bytes(out) + crc).decode("ascii").rstrip("=")


def test_the_readme_codes_are_pinned() -> None:
    found = set(re.findall(r"\b(?:VZ|AZ)1[A-Za-z0-9_-]{8,}", README.read_text(encoding="utf-8")))
    assert found == {README_SHORT, README_KAGURA}  # a new code in the README gets pinned here
    assert readme_code(SHORT_DECK) == README_SHORT
    assert readme_code(KAGURA_DECK) == README_KAGURA
    assert example_code(ROOT / "examples" / "red-kagura-festival.yaml") == README_KAGURA


@pytest.mark.parametrize(
    ("code", "deck"), [(README_SHORT, SHORT_DECK), (README_KAGURA, KAGURA_DECK)]
)
def test_the_readme_codes_decode_to_the_readme_decks(
    code: str, deck: tuple[str, str, dict[str, list[tuple[str, int]]]]
) -> None:
    fmt, hero, sections = deck
    decoded = decode(code)
    assert decoded.format == fmt and decoded.slots == {"hero": hero}
    assert decoded.sections == {k: tuple(v) for k, v in sections.items()}
    assert encode(canonical_from_code(code, bundled())) == code


def test_the_readme_walk_through_bytes() -> None:
    """The README spells the short example's payload out byte by byte."""
    raw = base64.urlsafe_b64decode(README_SHORT[3:] + "=" * (-len(README_SHORT[3:]) % 4))
    assert raw.hex(" ") == (
        "01 00 08 56 5a 30 31 2d 30 30 31 02 96 82 01 04 06 02 39 34 01 a7 ad 3c"
    )


# ---- over-long varints (issue 24) ---------------------------------------------------------------


def wrap(payload: bytes, prefix: str = "VZ1") -> str:
    crc = binascii.crc_hqx(payload, 0xFFFF).to_bytes(2, "big")
    return prefix + base64.urlsafe_b64encode(payload + crc).decode().rstrip("=")


EMPTY_DECK = b"\x01\x00\x00\x00\x00\x00"  # version 1, standard, no hero, three empty sections


@pytest.mark.parametrize(
    "payload",
    [
        b"\x01\x80\x00\x00\x00\x00\x00",  # the format's length 0 in two bytes
        b"\x01\x00\x00\x80\x00\x00\x00",  # spells: 0 entries in two bytes
        b"\x01\x00\x00\x00\x00\xff\x80\x80\x80\x00",  # portals: 127 in five bytes
        b"\x01\x00\x00\x01\x00\x83\x00\x00\x08VZ01-007\x00\x00",  # count 3 as 0x83 0x00
        b"\x01\x00\x00\x01\x03\x80\x00\x08VZ01-007\x00\x00",  # shared 0 as 0x80 0x00
    ],
)
def test_an_over_long_varint_is_f009(payload: bytes) -> None:
    assert decode(wrap(EMPTY_DECK)).sections == {"spells": (), "skills": (), "portals": ()}
    with pytest.raises(CodeError, match="damaged"):
        decode(wrap(payload))


def test_minimal_varints_of_every_length_still_decode() -> None:
    for count in (1, 127, 128, 300, 16383, 16384, 65535):
        payload = b"\x01\x00\x00\x01\x00" + _leb128(count) + b"\x00\x08VZ01-007\x00\x00"
        assert decode(wrap(payload)).sections["spells"] == (("VZ01-007", count),)


# ---- a code is printed only when it decodes (issue 24, row 12) ----------------------------------


def test_a_count_over_what_a_code_holds_is_refused_not_encoded() -> None:
    """700 lines of `99 Ember Imp` add up to 69,300 copies; the decoder holds at most 65,535."""
    deck = new_deck(path="x.txt", hero="Hibiki Kagura")
    deck.entries["spells"] = [Entry("spells", "Ember Imp", 99, None) for _ in range(700)]
    canonical = canonicalize(deck, bundled())
    assert canonical.size("spells") == 69_300
    with pytest.raises(NoCode) as caught:
        encode(canonical)
    assert "69,300" in str(caught.value) and "65,535" in str(caught.value)


def test_the_most_a_code_holds_still_encodes() -> None:
    deck = new_deck(path="x.txt", hero="Hibiki Kagura")
    deck.entries["spells"] = [Entry("spells", "Ember Imp", 65_535, None)]
    code = encode(canonicalize(deck, bundled()))
    assert decode(code).sections["spells"] == (("VZ01-007", 65_535),)


def test_more_different_cards_than_a_code_holds_is_refused() -> None:
    ids = [f"A-{i:04}" for i in range(1001)]
    db = synthetic_db(ids)
    deck = new_deck(path="x", hero="H-1")
    deck.entries["spells"] = [Entry("spells", i, 1, None) for i in ids]
    with pytest.raises(NoCode, match="1,001"):
        encode(canonicalize(deck, db))
    deck.entries["spells"].pop()
    assert len(decode(encode(canonicalize(deck, db))).sections["spells"]) == 1000


def test_a_code_longer_than_the_decoder_reads_is_refused() -> None:
    ids = [f"S{i}{'X' * 60}-{'Y' * 60}{i}" for i in range(40)]  # no two share much: long codes
    db = synthetic_db(ids)
    deck = new_deck(path="x", hero="H-1")
    deck.entries["spells"] = [Entry("spells", i, 1, None) for i in ids]
    with pytest.raises(NoCode, match="4,096"):
        encode(canonicalize(deck, db))


def test_an_id_longer_than_a_code_holds_is_refused() -> None:
    long_id = "A-" + "7" * 300
    db = synthetic_db([long_id])
    deck = new_deck(path="x", hero="H-1")
    deck.entries["skills"] = [Entry("skills", long_id, 1, None)]
    with pytest.raises(NoCode, match="255"):
        encode(canonicalize(deck, db))


_ANY_ID = st.builds(
    lambda s, n: f"{s}-{n}",
    st.text("ABZ09", min_size=1, max_size=4),
    st.text("0123456789AZ", min_size=1, max_size=4) | st.just("9" * 300),
)


@settings(max_examples=150, deadline=None)
@given(
    ids=st.lists(_ANY_ID, min_size=1, max_size=30, unique=True),
    counts=st.lists(
        st.integers(1, 99) | st.integers(100, 70_000) | st.sampled_from([65_535, 65_536]),
        min_size=1,
        max_size=30,
    ),
    lines=st.integers(1, 800),
    data=st.data(),
)
def test_any_code_that_is_printed_decodes_to_the_same_deck(
    ids: list[str], counts: list[int], lines: int, data: st.DataObject
) -> None:
    """The property of row 12: encode either refuses (NoCode) or gives a code that decodes, with
    no F009, to exactly the canonical list; a card may be listed on many lines (F003)."""
    db = synthetic_db(ids)
    deck = new_deck(path="x", hero=data.draw(st.sampled_from(["H-1", None])))
    for card_id, count in zip(ids, counts, strict=False):
        section = data.draw(st.sampled_from(SECTIONS))
        repeat = data.draw(st.sampled_from([1, 2, lines]))
        deck.entries[section] += [Entry(section, card_id, count, None)] * repeat
    canonical = canonicalize(deck, db)
    try:
        code = encode(canonical)
    except NoCode as err:
        assert str(err)
        return
    decoded, problems = read_code(code)
    assert problems == [] and decoded.readable
    again = decode(code)
    assert again.slots["hero"] == (deck.pick("hero") or "")
    for section in SECTIONS:
        assert again.sections[section] == tuple(
            (c.key, c.count) for c in canonical.sections[section]
        )
