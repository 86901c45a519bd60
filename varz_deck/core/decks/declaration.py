"""A game as a declaration: its card types and fields, its deck's single-card slots (the lead card
first) and sections with their sizes and copy limits, its deck files' words, and the codes its
declared checks report under.

The core reads a declared game's decks, checks their construction and their format's legality,
and makes its JSON Schemas and its registrar from the declaration alone (core/decks/view.py,
construction.py, legality.py; core/game/declared.py). A game writes Python only for what no
declaration can say. docs/reference/plugin.md documents every name.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from varz_deck.core.messages.code import Severity
from varz_deck.core.messages.i18n import CardName, Message

ENGLISH = "en"
META_KEYS = ("name", "format", "player", "event")  # a deck file's keys every game shares


def and_list(words: tuple[str, ...] | list[str]) -> str:
    """ "a, b and c" (English: the deck schema's messages and a few others a game may translate
    whole in its catalogue)."""
    words = list(words)
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def named(names: Mapping[str, str]) -> CardName:
    """Words given in several languages (`{"en": ..., "ja": ...}`) as a message value that
    shows in the reader's language (English when the language is not given)."""
    english = names.get(ENGLISH) or next(iter(names.values()), "")
    others = tuple(sorted((lang, text) for lang, text in names.items() if lang != ENGLISH))
    return CardName(english, others, quote=False)


@dataclass(frozen=True)
class CardField:
    """One field of a game's cards, beyond `id`, `name`, `names` and `type`.

    `kind`: "integer" (with `minimum`/`maximum`), "text" (any string), "word" (one of `words`),
    "words" (a list of `words`, at most `most` of them), "flag" (true or false). A field with
    `common` may be on a card of any type (e.g. `text`, `flavor`); other fields only on the types
    that name them. A `printing` field (flavor text, rarity, art) may differ between printings of
    one card; every other field makes the card what it is (two printings must agree: C003).
    """

    kind: str
    words: tuple[str, ...] = ()
    minimum: int | None = None
    maximum: int | None = None
    most: int | None = None
    common: bool = False
    printing: bool = False


@dataclass(frozen=True)
class CardType:
    """A card type: where its cards go in a deck (a slot's or a section's key), the fields it
    must have (`needs`) and may have (`may`, besides the common ones)."""

    goes: str
    needs: tuple[str, ...] = ()
    may: tuple[str, ...] = ()


@dataclass(frozen=True)
class CheckCode:
    """The code a declared check reports under, with what the game says in its words.

    Left out, each part is the core's: its name (kebab case), rulebook section, docs (a title
    line, then `Legal:`/`Illegal:` or `Fine:`/`Warning:` examples), fix, and messages (by the
    check's variants: see each check's MESSAGES in core/decks/construction.py and legality.py).
    """

    id: str
    name: str | None = None
    section: str | None = None
    doc: str | None = None
    fix: str | None = None
    messages: Mapping[str, Message] = field(default_factory=dict)
    severity: Severity | None = None


@dataclass(frozen=True)
class Size:
    """How many cards a section holds: exactly `exact`, or between `minimum` and `maximum`."""

    exact: int | None = None
    minimum: int | None = None
    maximum: int | None = None

    def target(self, size: int) -> int | None:
        """The nearest allowed size when `size` is not allowed (None: it is)."""
        if self.exact is not None:
            return None if size == self.exact else self.exact
        if self.minimum is not None and size < self.minimum:
            return self.minimum
        if self.maximum is not None and size > self.maximum:
            return self.maximum
        return None


@dataclass(frozen=True)
class Copies:
    """A copy limit: at most `limit` copies of one card (all its printings together) in a
    section; `None` for any number. The first limit of a section whose `where` a card matches
    is the card's: `where` maps a card field to the values it may have (`True` for a flag, or
    `"*"` for any non-empty value)."""

    limit: int | None
    where: Mapping[str, tuple[object, ...]] = field(default_factory=dict)
    code: CheckCode | None = None

    def matches(self, card: object) -> bool:
        for name, values in self.where.items():
            value = getattr(card, name, None)
            if "*" in values:
                if not value:
                    return False
            elif value not in values:
                return False
        return True


@dataclass(frozen=True)
class Section:
    """A section of a deck: its key in deck files, its names (every language), its size and
    copy limits, and the headers of a plain-text list that open it (lower case).

    `unless` skips the section's checks in a format with one of these field values
    (`{"pool": ("shared",)}`: a section shared at the table is not the player's to bring), and the section
    may then be left out.
    """

    key: str
    names: Mapping[str, str]
    size: Size
    copies: tuple[Copies, ...] = ()
    headers: tuple[str, ...] = ()
    size_code: CheckCode | None = None
    unless: Mapping[str, tuple[object, ...]] = field(default_factory=dict)
    about: str = ""  # what the section holds, for the deck schema's message ("the 8 currents")

    @property
    def title(self) -> CardName:
        return named(self.names)

    def copies_of(self, card: object) -> Copies | None:
        """The copy limit a card has in this section (None: any number)."""
        return next((c for c in self.copies if c.matches(card)), None)


@dataclass(frozen=True)
class Slot:
    """A single-card slot of a deck (the lead card: a captain, say; or another). A
    required slot left empty is its `code`'s diagnostic (the core's D101)."""

    key: str
    names: Mapping[str, str]
    required: bool = True
    code: CheckCode | None = None
    example: str = ""  # a card to name in it, for the deck schema's message ("Mara Vell")
    # The slot's own F008 wording (None: the core's, core/decks/view.py): "named", a card of
    # another type named in the slot (values: card, type, slot, key); "listed", a card of the
    # slot's type listed in a section (card, type, section, home).
    misplaced: Mapping[str, Message] = field(default_factory=dict)

    @property
    def title(self) -> CardName:
        return named(self.names)


@dataclass(frozen=True)
class FormatCodes:
    """The codes a game's format checks report under: bans, restrictions, a format's sets,
    release days and announced changes (None: the core's D115-D118 and D203)."""

    banned: CheckCode | None = None
    restricted: CheckCode | None = None
    sets: CheckCode | None = None
    released: CheckCode | None = None
    announced: CheckCode | None = None


@dataclass(frozen=True)
class Declaration:
    """Everything the core needs to read, check and register a game's decks.

    - `key` (the entry point's name and `game:` in formats.yaml), `name` shown to people;
    - `prefix`: the first letter of the game's own codes (`T` for T101...), unique among games;
    - `code_family`: the deck codes' letters (`TW` for TW1...), unique among games;
    - `types` and `fields`: the cards; `identity` "name" (printings of one name are one card)
      or "id";
    - `slots` (the lead card first, if the game has one) and `sections`;
    - `formats`: the formats a database without formats.yaml has;
    - `format_codes`: the codes of the format checks;
    - `rulebook`: the rulebook section the declared checks cite.
    """

    key: str
    name: str
    prefix: str
    code_family: str
    types: Mapping[str, CardType]
    sections: tuple[Section, ...]
    slots: tuple[Slot, ...] = ()
    fields: Mapping[str, CardField] = field(default_factory=dict)
    identity: str = "name"
    lead_required: bool = True
    formats: Mapping[str, str] = field(default_factory=lambda: {"standard": "Standard"})
    format_codes: FormatCodes = field(default_factory=FormatCodes)
    rulebook: str = "deck building"
    hash_header: str = ""
    list_example: str = ""

    @property
    def lead(self) -> Slot | None:
        """The slot of the deck's lead card (None: the game has none)."""
        return self.slots[0] if self.slots else None

    @property
    def section_keys(self) -> tuple[str, ...]:
        return tuple(s.key for s in self.sections)

    @property
    def slot_keys(self) -> tuple[str, ...]:
        return tuple(s.key for s in self.slots)

    def section(self, key: str) -> Section:
        return next(s for s in self.sections if s.key == key)

    def home(self, card_type: str) -> str | None:
        """The slot or section a card of this type goes in."""
        kind = self.types.get(card_type)
        return kind.goes if kind is not None else None

    def game_fields(self) -> tuple[str, ...]:
        """The fields every printing of a card must agree on (C003)."""
        return ("type", *(n for n, f in self.fields.items() if not f.printing))
