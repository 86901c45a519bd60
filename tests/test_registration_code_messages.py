"""Deck codes, branch by branch: every refusal's exact words (in English, and translated in
Japanese), where it points, and the encoder's edge cases (issue 24: the mutants that the
round-trip properties alone let through; mutmut's runs leave out the hypothesis tests)."""

from __future__ import annotations

import base64
import binascii
from functools import cache
from pathlib import Path

import pytest
from varz_decks import LAYOUT, REGISTRAR, DeclaredDeck, Entry, decode, new_deck

from varz_deck.core.cards.model import CardDatabase
from varz_deck.core.messages.i18n import Message, Term
from varz_deck.core.registration.code import CodeError, NoCode, display, encode, read_code
from varz_deck.games import open_database
from varz_deck.games.varz.cards import BUILTIN_FORMATS, Card

canonicalize = REGISTRAR.canonicalize

ROOT = Path(__file__).resolve().parent.parent


def wrap(payload: bytes) -> str:
    crc = binascii.crc_hqx(payload, 0xFFFF).to_bytes(2, "big")
    return "VZ1" + base64.urlsafe_b64encode(payload + crc).decode().rstrip("=")


@cache
def catalogue() -> set[tuple[str, str]]:
    """(context, msgid) of every Japanese translation, read off the .po file."""
    from babel.messages.pofile import read_po

    found = set()
    for path in sorted((ROOT / "varz_deck").glob("**/locale/ja/LC_MESSAGES/*.po")):
        with path.open("rb") as handle:
            found |= {(m.context or "", m.id) for m in read_po(handle) if m.id and m.string}
    return found


def translated(value: object) -> None:
    """A message, and every message and game word inside it, has a Japanese translation."""
    if isinstance(value, Message):
        assert (value.context, value.msgid) in catalogue(), value
        for _, arg in value.args:
            translated(arg)
    elif isinstance(value, Term):
        assert (value.group, value.value) in catalogue(), value


def said(message: Message | None, english: str) -> None:
    """The message in English, word for word, and translated all the way down in Japanese."""
    assert message is not None
    assert message.render("en") == english
    translated(message)
    japanese = message.render("ja")
    assert japanese != english and "None" not in japanese and "XX" not in japanese


def refused(code: str) -> CodeError:
    with pytest.raises(CodeError) as caught:
        decode(code)
    return caught.value


def db_of(*ids: str) -> CardDatabase:
    cards = [Card(id=i, name=f"Card {i}", type="spil", set=i.split("-")[0]) for i in ids]
    return CardDatabase(
        [*cards, Card(id="H-1", name="Hero", type="hero", set="H")], BUILTIN_FORMATS
    )


def deck_of(hero: str | None, **sections: list[tuple[str, int]]) -> DeclaredDeck:
    deck = new_deck(path="x", hero=hero)
    for section, items in sections.items():
        deck.entries[section] = [Entry(section, ref, n, None) for ref, n in items]
    return deck


BUNDLED = open_database(ROOT / "card_data" / "varz")
EMPTY = b"\x01\x00\x00\x00\x00\x00"  # version 1, standard, no hero, three empty sections


# ---- decode: the code as text ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("code", "english"),
    [
        ("XY1AQAAAAAA", "a deck code starts with VZ1"),
        ("VZ2AQAAAAAA", "it is a version 2 code; this varz-deck reads version 1"),
        ("VZ1" + "A" * 5000, "it is 5,003 characters; a deck code is at most 4,096"),
        ("VZ1AAAAA", "it is cut short or has extra characters; copy the whole code again"),
        ("VZ1" + "A" * 4093, "it is cut short or has extra characters; copy the whole code again"),
        ("VZ1AQAAAAB", "it is cut short or damaged; copy the whole code again"),  # stray bits
        (
            "VZ1AQAAAAAAAAA",
            "its checksum does not match: it is damaged or cut short; copy it again",
        ),
    ],
)
def test_each_refusal_of_the_text_says_why(code: str, english: str) -> None:
    said(refused(code).message, english)


def test_a_bad_character_is_pointed_at() -> None:
    error = refused("VZ1abc!def")
    said(error.message, "'!' is not a deck-code character (A-Z, a-z, 0-9, - and _)")
    assert error.column == 7
    assert refused("VZ1ab c!def").column is None  # white space inside: no column to point at
    deck, shown, problems = read_code("VZ1abc!def", LAYOUT)
    (problem,) = problems
    assert deck is None and shown == "VZ1abc!def" and problem.code == "F009"
    assert (problem.line, problem.column, problem.file) == (1, 7, "VZ1abc!def")
    assert problem.message == (
        "deck code cannot be decoded: '!' is not a deck-code character (A-Z, a-z, 0-9, - and _)"
    )
    assert problem.text is not None
    translated(problem.text)
    _, shown, problems = read_code("VZ1 abc!def", LAYOUT, shown="pasted.txt")
    assert shown == "pasted.txt" and problems[0].file == "pasted.txt"
    assert problems[0].line is None and problems[0].column is None


def test_display() -> None:
    assert display(" VZ1ab\ncd ") == "VZ1abcd"
    exact = "VZ1" + "A" * 22  # 25 characters: shown whole
    assert display(exact) == exact
    longer = "VZ1" + "B" * 15 + "C" * 8  # 26: the first 16, "…", the last 8
    assert display(longer) == "VZ1" + "B" * 13 + "…" + "C" * 8


# ---- decode: the payload ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("payload", "english"),
    [
        (b"\x07", "it holds a version 7 deck; this varz-deck reads version 1"),
        (b"\x01\x01\x01\x00\x00\x00\x00", "its format name is damaged"),
        (b"\x01\x05ab", "it is damaged (its format cannot be read)"),
        (b"\x01\x01\xff\x00\x00\x00\x00", "it is damaged (its format cannot be read)"),
        (b"\x01\x80\x02" + b"f" * 256 + b"\x00\x00\x00\x00", "it is damaged (its format cannot be read)"),
        (b"\x01\x00\x05VZ", "it is damaged (its hero cannot be read)"),
        (b"\x01\x00\x00\xe9\x07", "its spells section is damaged"),  # 1,001 entries
        (b"\x01\x00\x00\x01\x01\x05\x01A\x00\x00", "its spells section is damaged"),  # shared 5 of ""
        (b"\x01\x00\x00\x01\x01\x00\x05A-", "it is damaged (its spells cannot be read)"),
        (b"\x01\x00\x00\x01\x01\x00\x02AB\x00\x00", "its spells section is damaged"),  # no "-"
        (b"\x01\x00\x00\x01\x00\x80\x80\x80\x80\x01\x00\x03A-1\x00\x00", "its spells section is damaged"),  # 2**28
        (b"\x01\x00\x00\x01\x00\x80\x80\x80\x80\x80\x01", "it is damaged (a number is too long)"),
        (b"\x01\x00\x03A-9\x01\x80\x00\x00", "it is damaged (a card id cannot be rebuilt)"),  # A-9 + 1
        (b"\x01\x00\x03A-X\x01\x80\x00\x00", "it is damaged (a card id cannot be rebuilt)"),
        (b"\x01\x00\x00\x00\x00\x00\x00", "it has data after the portals; it is damaged"),
    ],
)  # fmt: skip
def test_each_refusal_of_the_payload_says_why(payload: bytes, english: str) -> None:
    said(refused(wrap(payload)).message, english)


def test_the_longest_format_key_and_the_widest_number_still_decode() -> None:
    assert decode(wrap(b"\x01\x7f" + b"f" * 127 + b"\x00\x00\x00\x00")).format == "f" * 127
    longest = b"\x01\xff\x01" + b"f" * 255 + b"\x00\x00\x00\x00"
    assert decode(wrap(longest)).format == "f" * 255
    four_bytes = b"\x01\x00\x00\x01\x00\xff\xff\x03\x00\x03A-1\x00\x00"  # 65,535 in 3 bytes
    assert decode(wrap(four_bytes)).sections["spells"] == (("A-1", 65_535),)


# ---- encode ------------------------------------------------------------------------------------


def test_a_deck_without_a_hero_round_trips() -> None:
    canonical = canonicalize(deck_of(None, spells=[("Ember Imp", 2)]), BUNDLED)
    code = encode(canonical)
    assert code == wrap(EMPTY[:3] + b"\x01\x02\x00\x08VZ01-007\x00\x00")
    assert decode(code).slots == {"hero": ""}


@pytest.mark.parametrize("count", [4, 5, 127, 128, 129, 65_535])
def test_counts_at_each_form_s_edge(count: int) -> None:
    canonical = canonicalize(deck_of("H-1", spells=[("A-1", count)]), db_of("A-1"))
    # A-1 is no step past H-1 (another set), so the literal form even for a count up to 4
    head = bytes([count]) if count < 128 else b"\x00" + _leb128(count)
    assert encode(canonical) == wrap(b"\x01\x00\x03H-1\x01" + head + b"\x00\x03A-1\x00\x00")
    assert decode(encode(canonical)).sections["spells"] == (("A-1", count),)


def _leb128(value: int) -> bytes:
    out = bytearray()
    while True:
        low, value = value & 0x7F, value >> 7
        out.append(low | (0x80 if value else 0))
        if not value:
            return bytes(out)


def test_steps_of_1_to_32_are_one_byte_and_33_is_not() -> None:
    db = db_of("A-01", "A-33", "A-66")
    canonical = canonicalize(deck_of("H-1", spells=[("A-01", 1), ("A-33", 2), ("A-66", 1)]), db)
    # A-01 literal; A-33 is A-01 + 32: 1 11111 01; A-66 is 33 past: literal, sharing "A-"
    payload = b"\x01\x00\x03H-1\x03\x01\x00\x04A-01" + bytes([0b11111101]) + b"\x01\x02\x0266"
    assert encode(canonical) == wrap(payload + b"\x00\x00")


def test_ids_of_one_set_in_two_widths_are_written_in_full() -> None:
    db = db_of("A-1", "A-10")
    canonical = canonicalize(deck_of(None, spells=[("A-1", 1), ("A-10", 1)]), db)
    payload = b"\x01\x00\x00\x02\x01\x00\x03A-1\x01\x03\x010\x00\x00"  # A-10 shares "A-1"
    assert encode(canonical) == wrap(payload)


def test_a_code_that_ends_in_x_keeps_it() -> None:
    canonical = canonicalize(
        deck_of("Hibiki Kagura", spells=[("Ember Imp", 6), ("Scorch Shot", 1)]), BUNDLED
    )
    expected = wrap(b"\x01\x00\x08VZ01-001\x02\x06\x07\x01\x37\x88\x00\x00")
    assert expected.endswith("X")
    assert encode(canonical) == expected


def test_no_code_messages() -> None:
    canonical = canonicalize(deck_of("Hibiki Kagura", spells=[("Ember Imp", 70_000)]), BUNDLED)
    with pytest.raises(NoCode) as caught:
        encode(canonical)
    said(
        caught.value.message,
        "it has 70,000 copies of 'Ember Imp'; a deck code holds at most 65,535 of one card",
    )
    ids = [f"A-{i:04}" for i in range(1001)]
    with pytest.raises(NoCode) as caught:
        encode(canonicalize(deck_of(None, skills=[(i, 1) for i in ids]), db_of(*ids)))
    said(
        caught.value.message,
        "its skills section lists 1,001 different cards; a deck code holds 1,000",
    )
    assert "スキルデッキ" in caught.value.message.render("ja")
    long_id = "A-" + "7" * 254  # 256 bytes
    with pytest.raises(NoCode) as caught:
        encode(canonicalize(deck_of(None, spells=[(long_id, 1)]), db_of(long_id)))
    said(caught.value.message, f"'{long_id[:79]}…' is longer than a deck code holds (255 bytes)")
    with pytest.raises(NoCode) as caught:
        encode(canonicalize(deck_of("Nobody"), BUNDLED))
    said(
        caught.value.message,
        "it has unknown references (a card or format the card database does not know)",
    )


def test_the_longest_id_still_encodes() -> None:
    longest = "A-" + "7" * 253  # 255 bytes
    code = encode(canonicalize(deck_of(None, spells=[(longest, 1)]), db_of(longest)))
    assert decode(code).sections["spells"] == ((longest, 1),)


def test_ids_the_decoder_cannot_read_back_are_refused() -> None:
    lower = "a-1"
    with pytest.raises(NoCode) as caught:
        encode(canonicalize(deck_of(None, spells=[(lower, 1)]), db_of(lower)))
    said(caught.value.message, "its code would not decode (its spells section is damaged)")
    arabic = "A-\u0663"  # ٣: a digit, not an ASCII one
    with pytest.raises(NoCode) as caught:
        encode(canonicalize(deck_of(None, spells=[("A-1", 1), (arabic, 1)]), db_of("A-1", arabic)))
    said(caught.value.message, "its code would not decode (its spells section is damaged)")


def test_a_code_that_would_read_as_another_deck_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    """The encoder reads every code back; were the decoder ever to read another deck from it
    (no form the encoder writes does today), no code is given out."""
    from varz_deck.core.registration import code as codes

    canonical = canonicalize(deck_of("Hibiki Kagura", spells=[("Ember Imp", 2)]), BUNDLED)
    real = codes.decode

    def misread(code: str, layout: object) -> codes.DecodedDeck:
        decoded = real(code, LAYOUT)
        return codes.DecodedDeck(decoded.format, {"hero": "VZ01-002"}, decoded.sections)

    monkeypatch.setattr(codes, "decode", misread)
    with pytest.raises(NoCode) as caught:
        encode(canonical)
    said(
        caught.value.message,
        "its code would not decode (it is damaged (a card id cannot be rebuilt))",
    )
