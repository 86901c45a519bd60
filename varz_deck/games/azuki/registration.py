"""Azuki registration: the game's `Layout` (hash header `azuki-deck-hash v1`, leader and gate,
main and ikz, `AZ1` deck codes, a card identified by its id with alias ids), reading its deck
codes, and its sheet (Leader, Gate, the 50-card main deck, the IKZ deck with the token).

The canonical form, hash, code bytes, diff and reports are the core's
(varz_deck/core/registration/); `REGISTRAR` is what `Azuki.registrar` gives the command line.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from varz_deck.core.cards import CardDatabase
from varz_deck.core.diagnostics import Diagnostic
from varz_deck.core.entries import Entry
from varz_deck.core.i18n import ENGLISH, CardName, Message, msg, term
from varz_deck.core.registration import code as codes
from varz_deck.core.registration import sheet as page
from varz_deck.core.registration.canonical import CanonicalDeck, Layout
from varz_deck.core.registration.canonical import canonicalize as canonical_form
from varz_deck.core.registration.register import ReadDeck, Registration, registration
from varz_deck.games.azuki.cards import HOME, AzukiDatabase
from varz_deck.games.azuki.check import check_parsed
from varz_deck.games.azuki.deck import SECTIONS, SLOTS, AzukiDeck, Pick, read_deck

HASH_HEADER = "azuki-deck-hash v1"
PREFIX = "AZ1"
MAIN_DECK = 50
IKZ_DECK = 11  # 10 IKZ and the IKZ Token (A104)


def _identity(card: Any) -> str:
    return str(card.id)  # alias ids (alternate art) are looked up to the card's own id


def _pick(database: CardDatabase, ref: str, slot: str) -> list[Any]:
    """A slot's reference: a name several cards share means the one of the slot's type
    ("Raizan" under leader: is the Leader), as the check reads it."""
    found = list(database.lookup(ref))
    if len(found) > 1:
        of_type = [card for card in found if HOME.get(card.type) == slot]
        if len(of_type) == 1:
            return of_type
    return found


_HEADINGS = {
    "main": msg("register", "main deck ({size})"),
    "ikz": msg("register", "IKZ deck ({size})"),
}


def _heading(canonical: CanonicalDeck, section: str) -> Message | None:
    return _HEADINGS[section](size=canonical.size(section))


LAYOUT = Layout(
    game="azuki",
    header=HASH_HEADER,
    slots=SLOTS,
    sections=SECTIONS,
    prefix=PREFIX,
    identity=_identity,
    slot_lines={
        "leader": msg("register", "leader: {leader}"),
        "gate": msg("register", "gate: {gate}"),
    },
    slot_moves={
        "leader": msg("register", "leader: {registered} → {presented}"),
        "gate": msg("register", "gate: {registered} → {presented}"),
    },
    slot_words={"leader": msg("register", "leader"), "gate": msg("register", "gate")},
    code_words={"leader": msg("F009", "leader"), "gate": msg("F009", "gate")},
    code_damaged={
        "leader": msg("F009", "its leader id is damaged"),
        "gate": msg("F009", "its gate id is damaged"),
    },
    code_trailing=msg("F009", "it has data after the IKZ deck; it is damaged"),
    pick=_pick,
    section_heading=_heading,
)


def _slots(deck: AzukiDeck) -> dict[str, str | None]:
    return {slot: pick.ref if (pick := deck.picks.get(slot)) else None for slot in SLOTS}


def canonicalize(
    deck: AzukiDeck, database: CardDatabase, format_key: str | None = None
) -> CanonicalDeck:
    """The canonical form of an Azuki deck that was read completely."""
    return canonical_form(
        LAYOUT,
        database,
        format=deck.format,
        slots=_slots(deck),
        entries=deck.entries,
        format_key=format_key,
    )


def is_code(path: Path) -> bool:
    return codes.is_code(path, LAYOUT)


def decode(code: str) -> codes.DecodedDeck:
    """Decode an Azuki deck code (`AZ1…`), or raise CodeError saying why."""
    return codes.decode(code, LAYOUT)


def read_code_argument(
    path: Path, shown: str | None = None
) -> tuple[AzukiDeck, list[Diagnostic]] | None:
    """The deck a DECK argument's code holds, or None when the argument is a path, not a code."""
    return read_code(str(path), shown) if is_code(path) else None


def read_code(code: str, shown: str | None = None) -> tuple[AzukiDeck, list[Diagnostic]]:
    """An AzukiDeck from a code, as `read_deck` gives one from a file; F009 when it cannot be
    decoded."""
    decoded, shown, problems = codes.read_code(code, LAYOUT, shown)
    if decoded is None:
        return AzukiDeck(path=shown, readable=False), problems
    return to_deck(decoded, shown), []


def to_deck(decoded: codes.DecodedDeck, shown: str) -> AzukiDeck:
    """The AzukiDeck a decoded code stands for; its references are card ids."""
    deck = AzukiDeck(path=shown, format=decoded.format)
    for slot in SLOTS:
        if decoded.slots[slot]:
            deck.picks[slot] = Pick(decoded.slots[slot], None, None)
    for section in SECTIONS:
        items = decoded.sections[section]
        deck.entries[section] = [Entry(section, ref, count, None) for ref, count in items]
        if items:
            deck.section_marks[section] = None
    return deck


def register_deck(
    path: Path,
    database: CardDatabase,
    *,
    player: str | None = None,
    event: str | None = None,
    format_key: str | None = None,
) -> Registration:
    """Read (a file or a deck code), check and canonicalise one Azuki deck."""
    assert isinstance(database, AzukiDatabase)
    deck, problems = read_deck(path)
    report = check_parsed(deck, problems, database, format_key)
    read = ReadDeck(
        path=deck.path,
        readable=deck.readable,
        problems=problems,
        format=deck.format,
        slots=_slots(deck),
        entries=deck.entries,
        player=deck.player,
        event=deck.event,
    )
    return registration(
        LAYOUT,
        read,
        report,
        database,
        player=player,
        event=event,
        format_key=format_key,
        is_code=is_code(path),
    )


# ----------------------------------------------------------------------------- the sheet

_LEADER = msg("sheet", "Leader")
_GATE = msg("sheet", "Gate")
_TITLES = {"main": msg("sheet", "Main deck"), "ikz": msg("sheet", "IKZ deck")}
_TARGETS = {"main": MAIN_DECK, "ikz": IKZ_DECK}


def render_sheet(reg: Registration, lang: str = ENGLISH) -> str:
    """One Azuki registration as a complete HTML document, its words in a language."""
    return page.render_sheet(reg, PARTS, lang)


def _sheet_slots(canonical: CanonicalDeck | None, lang: str) -> Sequence[tuple[Message, str]]:
    return [(_LEADER, _slot(canonical, "leader", lang)), (_GATE, _slot(canonical, "gate", lang))]


def _slot(canonical: CanonicalDeck | None, slot: str, lang: str) -> str:
    picked = canonical.slots.get(slot) if canonical is not None else None
    if picked is None:
        return ""
    card = picked.card
    if card is None:
        return page.unknown_slot(picked, lang)
    facts = [" / ".join(term("element", e, lang) for e in card.elements)]
    if slot == "leader" and card.health is not None:
        facts.append(msg("sheet", "Health {health}")(health=card.health).render(lang))
    details = " · ".join(f for f in facts if f)
    name = CardName.of(card, quote=False).in_language(lang)
    return f"{page.e(name)} <small>{page.e(card.id)}{' · ' + page.e(details) if details else ''}</small>"


def _lists(reg: Registration, canonical: CanonicalDeck, lang: str) -> str:
    return "\n".join(
        [
            '<div class="lists"><div>',
            _table(canonical, "main", lang),
            "</div><div>",
            _table(canonical, "ikz", lang),
            "</div></div>",
        ]
    )


def _table(canonical: CanonicalDeck, section: str, lang: str) -> str:
    return page.card_table(
        canonical, section, _TITLES[section], target=_TARGETS[section], lang=lang
    )


PARTS = page.SheetParts(slots=_sheet_slots, lists=_lists)


class AzukiRegistrar:
    """`register`, `verify`, `diff`, `code` for Azuki decks."""

    layout = LAYOUT

    def is_code(self, path: Path) -> bool:
        return is_code(path)

    def register(
        self,
        path: Path,
        database: CardDatabase,
        *,
        player: str | None = None,
        event: str | None = None,
        format_key: str | None = None,
    ) -> Registration:
        return register_deck(path, database, player=player, event=event, format_key=format_key)

    def encode(self, canonical: CanonicalDeck) -> str:
        return codes.encode(canonical)

    def render_sheet(self, registration: Registration, lang: str) -> str:
        return render_sheet(registration, lang)


REGISTRAR = AzukiRegistrar()
