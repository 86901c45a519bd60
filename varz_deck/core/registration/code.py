"""Deck codes: a deck's canonical list as one compact, URL-safe, versioned string.

    code    = PREFIX base64url(payload crc16)         ; no "=" padding; crc16 big-endian
    payload = 0x01 str(format) str(slot)*S section*N   ; the game's slots and sections, in order
    section = varint(n) entry*n
    entry   = compact | literal
    compact = 1DDDDDCC  (one byte)  ; previous id's set, number + D+1 (same width); count C+1
    literal = byte(count 1..127) idref | 0x00 varint(count) idref
    idref   = varint(shared) str(rest)                ; id = previous id[:shared] + rest
    str     = varint(length) UTF-8 bytes               ; format "" = standard; slot "" = empty

Each game has its own prefix (its layout's `prefix`, e.g. `VZ1`), then its slots and sections in
the layout's order. "previous id" starts as the last slot's id and follows every entry. crc16 is
CRC-16/CCITT-FALSE of the payload (it catches every change of one character). README "Deck codes"
and docs/deck-hash.md have the details.
"""

from __future__ import annotations

import base64
import binascii
import re
from dataclasses import dataclass
from pathlib import Path

from varz_deck.core.decks.entries import looks_like_code
from varz_deck.core.messages.diagnostics import Diagnostic, Mark, diag
from varz_deck.core.messages.i18n import Message, Quoted, Term, msg
from varz_deck.core.registration.canonical import DEFAULT_FORMAT, CanonicalDeck, Layout

PAYLOAD_VERSION = 1
MAX_CODE_LENGTH = 4096
MAX_ENTRIES = 1000
MAX_COUNT = 65535
MAX_TEXT = 255  # bytes in a format key or a card id
SHOWN_LENGTH = 16
SHOWN_TAIL = 8
CODE_DIAGNOSTIC = "F009"
_ID = re.compile(r"[A-Z0-9]+-[A-Z0-9]+")
_ALPHABET = re.compile(r"[A-Za-z0-9_-]*")
_COMPACT = 0x80
_DELTAS = 32
_COUNTS = 4


_CUT_SHORT = msg("F009", "it is cut short; copy the whole code again")
_DAMAGED = msg("F009", "it is cut short or damaged; copy the whole code again")
_NOT_REBUILT = msg("F009", "it is damaged (a card id cannot be rebuilt)")
_SECTION_DAMAGED = msg("F009", "its {section} section is damaged")
_UNREADABLE = msg("F009", "it is damaged (its {part} cannot be read)")
_FORMAT = msg("F009", "format")
_LONG_NUMBER = msg("F009", "it is damaged (a number is too long)")
_UNKNOWN_REFERENCES = msg(
    "register", "it has unknown references (a card or format the card database does not know)"
)
_TOO_MANY_COPIES = msg(
    "register", "it has {n:,} copies of {card}; a deck code holds at most {most:,} of one card"
)
_TOO_MANY_CARDS = msg(
    "register", "its {section} section lists {n:,} different cards; a deck code holds {most:,}"
)
_TOO_LONG = msg(
    "register", "its code would be {length:,} characters; a deck code is at most {limit:,}"
)
_LONG_TEXT = msg("register", "{text} is longer than a deck code holds ({most} bytes)")
_UNREADABLE_CODE = msg("register", "its code would not decode ({reason})")


class CodeError(ValueError):
    """A deck code that cannot be decoded; the message says why, `column` where (1-based).

    `message` is translatable (varz_deck.core.messages.i18n); `str(error)` is its English text.
    """

    def __init__(self, message: Message, column: int | None = None) -> None:
        super().__init__(message.render())
        self.message = message
        self.column = column


class NoCode(ValueError):
    """A deck that has no deck code: the decoder could not read one back (too many copies or cards,
    too long) or a reference is unknown. `message` is translatable; `str(error)` its English."""

    def __init__(self, message: Message) -> None:
        super().__init__(message.render())
        self.message = message


@dataclass(frozen=True, slots=True)
class DecodedDeck:
    """What a code holds: format key, each slot's id ("" for none), (id, count) per section."""

    format: str
    slots: dict[str, str]
    sections: dict[str, tuple[tuple[str, int], ...]]


def encode(canonical: CanonicalDeck) -> str:
    """The deck code of a canonical list, or NoCode when it has none: an unknown reference, or more
    than a code holds (the decoder's limits). A code given out always decodes to the same list."""
    if not canonical.complete:
        raise NoCode(_UNKNOWN_REFERENCES)
    layout = canonical.layout
    out = bytearray([PAYLOAD_VERSION])
    _put_str(out, "" if canonical.format == DEFAULT_FORMAT else canonical.format)
    previous = ""
    for slot in layout.slots:
        card = canonical.slots.get(slot)
        previous = card.key if card else ""
        _put_str(out, previous)
    for section in layout.sections:
        cards = canonical.sections[section]
        if len(cards) > MAX_ENTRIES:
            raise NoCode(
                _TOO_MANY_CARDS(section=Term("section", section), n=len(cards), most=MAX_ENTRIES)
            )
        _put_varint(out, len(cards))
        for item in cards:
            if item.count > MAX_COUNT:
                raise NoCode(_TOO_MANY_COPIES(card=Quoted(item.name), n=item.count, most=MAX_COUNT))
            step = _step(previous, item.key)
            if step is not None and item.count <= _COUNTS:
                out.append(_COMPACT | (step - 1) << 2 | (item.count - 1))
            else:
                if item.count < _COMPACT:
                    out.append(item.count)
                else:
                    out.append(0)
                    _put_varint(out, item.count)
                shared = _shared(previous, item.key)
                _put_varint(out, shared)
                _put_str(out, item.key[shared:])
            previous = item.key
    payload = bytes(out)
    crc = binascii.crc_hqx(payload, 0xFFFF).to_bytes(2, "big")
    code = layout.prefix + base64.urlsafe_b64encode(payload + crc).decode("ascii").rstrip("=")
    if len(code) > MAX_CODE_LENGTH:
        raise NoCode(_TOO_LONG(length=len(code), limit=MAX_CODE_LENGTH))
    _read_back(code, canonical)
    return code


def _read_back(code: str, canonical: CanonicalDeck) -> None:
    """NoCode unless the code decodes to the canonical list: no code the decoder rejects, or reads
    as another deck, is ever given out (an id or a format key the decoder does not accept)."""
    layout = canonical.layout
    try:
        decoded = decode(code, layout)
    except CodeError as err:
        raise NoCode(_UNREADABLE_CODE(reason=err.message)) from None
    expected = DecodedDeck(
        canonical.format,
        {slot: (card.key if card else "") for slot, card in canonical.slots.items()},
        {s: tuple((c.key, c.count) for c in canonical.sections[s]) for s in layout.sections},
    )
    if decoded != expected:
        raise NoCode(_UNREADABLE_CODE(reason=_NOT_REBUILT))


def decode(code: str, layout: Layout) -> DecodedDeck:
    """Decode a game's deck code (whitespace inside is ignored), or raise CodeError saying why."""
    prefix, family = layout.prefix, layout.family
    text = "".join(code.split())
    exact = text == code
    if not text.startswith(prefix):
        version = text[len(family) : len(family) + 1] if text.startswith(family) else ""
        if version.isdigit():
            raise CodeError(
                msg("F009", "it is a version {version} code; this varz-deck reads version 1")(
                    version=version
                )
            )
        raise CodeError(msg("F009", "a deck code starts with {prefix}")(prefix=prefix))
    if len(text) > MAX_CODE_LENGTH:
        raise CodeError(
            msg("F009", "it is {length:,} characters; a deck code is at most {limit:,}")(
                length=len(text), limit=MAX_CODE_LENGTH
            )
        )
    body = text[len(prefix) :]
    bad = _ALPHABET.match(body)
    end = bad.end() if bad else 0
    if end < len(body):
        raise CodeError(
            msg("F009", "{character} is not a deck-code character (A-Z, a-z, 0-9, - and _)")(
                character=Quoted(body[end])
            ),
            len(prefix) + end + 1 if exact else None,
        )
    if len(body) % 4 == 1:
        raise CodeError(
            msg("F009", "it is cut short or has extra characters; copy the whole code again")
        )
    try:
        raw = base64.urlsafe_b64decode(body + "=" * (-len(body) % 4))
    except (binascii.Error, ValueError):
        raise CodeError(_DAMAGED) from None
    if base64.urlsafe_b64encode(raw).decode("ascii").rstrip("=") != body or len(raw) < 3:
        raise CodeError(_DAMAGED)
    payload, crc = raw[:-2], raw[-2:]
    if binascii.crc_hqx(payload, 0xFFFF).to_bytes(2, "big") != crc:
        raise CodeError(
            msg("F009", "its checksum does not match: it is damaged or cut short; copy it again")
        )
    return _parse(payload, layout)


def display(code: str) -> str:
    """How a code is shown where a file path would be: its first 16 characters, "…" and its last
    8, which hold the checksum: codes of one format and lead card share their start, so the start
    alone named several decks alike (the `path` column of `register --output csv`)."""
    text = "".join(code.split())
    if len(text) <= SHOWN_LENGTH + SHOWN_TAIL + 1:
        return text
    return text[:SHOWN_LENGTH] + "…" + text[-SHOWN_TAIL:]


def is_code_argument(arg: str, layout: Layout) -> bool:
    """Whether a DECK argument that is not an existing file is meant as this game's deck code."""
    return looks_like_code(arg, layout.family) and not any(ch in arg for ch in "./\\")


def is_code(path: Path, layout: Layout) -> bool:
    """Whether a DECK argument is read as a deck code: it looks like one and is no file."""
    if not is_code_argument(str(path), layout):
        return False
    try:
        return not path.exists()
    except (OSError, ValueError):
        return True  # a name too long for a file: it can only be a code


def read_code(
    code: str, layout: Layout, shown: str | None = None
) -> tuple[DecodedDeck | None, str, list[Diagnostic]]:
    """A code's content and how it is shown; F009 (and None) when it cannot be decoded."""
    shown = shown if shown is not None else display(code)
    try:
        decoded = decode(code, layout)
    except CodeError as err:
        mark = Mark(1, err.column) if err.column else None
        message = msg("F009", "deck code cannot be decoded: {reason}")(reason=err.message)
        return None, shown, [diag(CODE_DIAGNOSTIC, message, mark, file=shown)]
    return decoded, shown, []


def _parse(payload: bytes, layout: Layout) -> DecodedDeck:
    reader = _Reader(payload)
    version = reader.byte()
    if version != PAYLOAD_VERSION:
        raise CodeError(
            msg("F009", "it holds a version {version} deck; this varz-deck reads version 1")(
                version=version
            )
        )
    fmt = reader.text(_FORMAT) or DEFAULT_FORMAT
    if not fmt.isprintable():
        raise CodeError(msg("F009", "its format name is damaged"))
    slots: dict[str, str] = {}
    previous = ""
    for slot in layout.slots:
        previous = slots[slot] = reader.text(layout.code_words[slot])
        if previous and not _ID.fullmatch(previous):
            raise CodeError(layout.code_damaged[slot])
    sections: dict[str, tuple[tuple[str, int], ...]] = {}
    for section in layout.sections:
        n = reader.varint()
        if n > MAX_ENTRIES:
            raise CodeError(_SECTION_DAMAGED(section=Term("section", section)))
        items: list[tuple[str, int]] = []
        for _ in range(n):
            head = reader.byte()
            if head & _COMPACT:
                card_id = _advance(previous, ((head >> 2) & (_DELTAS - 1)) + 1)
                count = (head & (_COUNTS - 1)) + 1
            else:
                count = head or reader.varint()
                shared = reader.varint()
                if shared > len(previous):
                    raise CodeError(_SECTION_DAMAGED(section=Term("section", section)))
                card_id = previous[:shared] + reader.text(Term("section", section))
            if not 1 <= count <= MAX_COUNT or not _ID.fullmatch(card_id):
                raise CodeError(_SECTION_DAMAGED(section=Term("section", section)))
            items.append((card_id, count))
            previous = card_id
        sections[section] = tuple(items)
    if not reader.done:
        raise CodeError(layout.code_trailing)
    return DecodedDeck(fmt, slots, sections)


def _split(card_id: str) -> tuple[str, str]:
    head, _, number = card_id.partition("-")
    return head, number


def _step(previous: str, card_id: str) -> int | None:
    """D+1 when card_id is the previous id's set with its number D+1 higher (same width)."""
    head, number = _split(previous)
    new_head, new_number = _split(card_id)
    if not (head == new_head and number.isdigit() and new_number.isdigit()):
        return None
    if len(number) != len(new_number) or not number.isascii() or not new_number.isascii():
        return None
    step = int(new_number) - int(number)
    return step if 1 <= step <= _DELTAS else None


def _advance(previous: str, step: int) -> str:
    head, number = _split(previous)
    if not (number.isdigit() and number.isascii()):
        raise CodeError(_NOT_REBUILT)
    advanced = str(int(number) + step).zfill(len(number))
    if len(advanced) != len(number):
        raise CodeError(_NOT_REBUILT)
    return f"{head}-{advanced}"


def _shared(a: str, b: str) -> int:
    n = 0
    for x, y in zip(a, b, strict=False):
        if x != y:
            break
        n += 1
    return n


def _put_varint(out: bytearray, value: int) -> None:
    while True:
        low, value = value & 0x7F, value >> 7
        if value:
            out.append(low | 0x80)
        else:
            out.append(low)
            return


def _put_str(out: bytearray, text: str) -> None:
    data = text.encode("utf-8")
    if len(data) > MAX_TEXT:
        raise NoCode(_LONG_TEXT(text=Quoted(text), most=MAX_TEXT))
    _put_varint(out, len(data))
    out += data


class _Reader:
    """Reads a payload front to back; running out of bytes is a CodeError."""

    def __init__(self, data: bytes) -> None:
        self.data = data
        self.pos = 0

    @property
    def done(self) -> bool:
        return self.pos == len(self.data)

    def byte(self) -> int:
        if self.pos >= len(self.data):
            raise CodeError(_CUT_SHORT)
        value = self.data[self.pos]
        self.pos += 1
        return value

    def varint(self) -> int:
        """An unsigned LEB128 number in its shortest form: a longer one (a last byte of 0 after
        others) would give one deck two codes, so it is damage, as is one of over 5 bytes."""
        value = shift = 0
        while True:
            b = self.byte()
            value |= (b & 0x7F) << shift
            if not b & 0x80:
                if b == 0 and shift:
                    raise CodeError(_LONG_NUMBER)
                return value
            shift += 7
            if shift > 28:
                raise CodeError(_LONG_NUMBER)

    def text(self, what: object) -> str:
        length = self.varint()
        if length > MAX_TEXT or self.pos + length > len(self.data):
            raise CodeError(_UNREADABLE(part=what))
        chunk = self.data[self.pos : self.pos + length]
        self.pos += length
        try:
            return chunk.decode("utf-8")
        except UnicodeDecodeError:
            raise CodeError(_UNREADABLE(part=what)) from None
