"""`complete`: a half-built deck filled into a legal one, from the game's declaration.

Each section is filled to its declared size with cards playable in the deck's format on the day
(`Legality`), within every copy limit, keeping the cards the player wrote; a card that cannot be
kept (banned, unreleased, over a limit, against one of the game's rules) is said so and replaced.
A game adds Python only for its own constraints (`Completion`: which cards a deck admits, a
section it chooses whole). The result is checked by the game's own rulebook before it is
returned. docs/guides/complete.md is the player's guide.
"""

from __future__ import annotations

import datetime
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Generic

from varz_deck.core.cards.formats import Legality
from varz_deck.core.cards.model import CardDatabase, CardRecord, CardT, Format
from varz_deck.core.decks.check import DeckReport
from varz_deck.core.decks.declaration import Declaration, Section
from varz_deck.core.decks.entries import Entry
from varz_deck.core.decks.view import DeclaredDeck, resolve
from varz_deck.core.files.source import DeckSource
from varz_deck.core.messages.diagnostics import Diagnostic
from varz_deck.core.messages.i18n import CardName, Message, msg

ROUNDS = 8  # a check's findings refine the candidates at most this many times

# What orders the cards added (shown with the deck): the game's declared cost, else card order.
BY_COST = msg("complete", "cards added by the cost curve: the cheapest first, then in card order")
IN_ORDER = msg("complete", "cards added in card order (the game declares no cost)")
# Why one card was added (--explain): its cost, or its place in card order.
WHY_COST = msg("complete", "cost {cost}, the cheapest playable card not yet in {section}")
WHY_ORDER = msg("complete", "the first playable card not yet in {section}, in card order")
WHY_NO_COST = msg("complete", "no cost: after the cards that have one, in card order")


@dataclass
class Line(Generic[CardT]):
    """One line of a section: its card, how many, and the entry the player wrote (None: added)."""

    card: CardT
    count: int
    entry: Entry | None = None
    why: Message | None = None
    added: int = 0  # of `count`, the copies added


@dataclass
class Draft(Generic[CardT]):
    """The deck while it is completed: its slots' cards, each section's lines, its format on the
    day, and what that format allows (a game's `Completion` reads it)."""

    declaration: Declaration
    database: CardDatabase[CardT]
    format: Format
    legality: Legality
    picked: Mapping[str, CardT | None]
    lines: dict[str, list[Line[CardT]]]
    excluded: set[str] = field(default_factory=set)  # cards a check ruled out
    pool: dict[str, list[CardT]] | None = None  # each section's playable cards, read once

    @property
    def lead(self) -> CardT | None:
        lead = self.declaration.lead
        return self.picked.get(lead.key) if lead is not None else None

    def size(self, section: str) -> int:
        return sum(line.count for line in self.lines[section])

    def copies(self, section: str, card: CardT) -> int:
        key = self.database.card_key(card)
        return sum(
            line.count for line in self.lines[section] if self.database.card_key(line.card) == key
        )

    def room(self, section: Section, card: CardT) -> int | None:
        """How many more copies of a card the section and the format allow (None: any)."""
        limits = []
        copies = section.copies_of(card)
        if copies is not None and copies.limit is not None:
            limits.append(copies.limit)
        restricted = self.legality.limits.get(self.database.card_key(card))
        if restricted is not None:
            limits.append(restricted.copies)
        if not limits:
            return None
        return max(0, min(limits) - self.copies(section.key, card))

    def candidates(self, section: str) -> Iterator[CardT]:
        """Each card that goes in a section and is playable on the day (its playable
        printing), in card order (by that printing's id: the same whatever the database has
        read first), but those a check ruled out."""
        if self.pool is None:
            self.pool = playable(self.declaration, self.database, self.legality)
        key = self.database.card_key
        return (card for card in self.pool.get(section, ()) if key(card) not in self.excluded)

    def add(self, section: str, card: CardT, count: int, why: Message | None = None) -> None:
        """Copies of a card added to a section (on its line when it has one: a card is listed
        once)."""
        key = self.database.card_key(card)
        for line in self.lines[section]:
            if self.database.card_key(line.card) == key:
                line.count += count
                line.added += count
                line.why = line.why or why
                return
        self.lines[section].append(Line(card, count, None, why, count))


def playable(
    declaration: Declaration, database: CardDatabase[CardT], legality: Legality
) -> dict[str, list[CardT]]:
    """Each section's cards playable on the day, in card order (only the cards of the sections'
    types in the format's sets are read)."""
    sections = set(declaration.section_keys)
    types = [name for name, kind in declaration.types.items() if kind.goes in sections]
    found: dict[str, list[CardT]] = {}
    for key, card in legality.candidates(types):
        home = declaration.home(database.printings[key][0].type)
        if home in sections:
            found.setdefault(home, []).append(card)
    return {home: sorted(cards, key=lambda card: str(card.id)) for home, cards in found.items()}


class NoCompletion(Exception):
    """No legal completion: the rule (its code) that rules it out, and why (`said`: the line
    that tells the player)."""

    def __init__(self, code: str, message: Message) -> None:
        super().__init__(code)
        self.code = code
        self.message = message

    @property
    def said(self) -> Message:
        return NO_LEGAL(code=self.code, why=self.message)


class Completion(Generic[CardT]):
    """A game's own constraints for `complete` (the default: none beyond the declaration).

    `admits`: whether a card may be added to a section of the deck as it stands;
    `choose`: a section the game fills whole (the lines to add, or None for the core's filling;
    raise `NoCompletion` when none fits); `measure`: what orders the cards added, and
    `order` the candidates in it, each with why it was chosen.
    """

    def __init__(self, cost: str | None = "cost") -> None:
        self.cost = cost

    def admits(self, draft: Draft[CardT], section: Section, card: CardT) -> bool:
        return True

    def choose(
        self, draft: Draft[CardT], section: Section, candidates: Sequence[CardT], need: int
    ) -> list[tuple[CardT, int, Message]] | None:
        return None

    def improve(
        self, draft: Draft[CardT], view: Any, view_of: Callable[[Draft[CardT]], Any]
    ) -> bool:
        """Change the cards added to a legal completion (their `lines`) for better ones by the
        game's own measure (`view_of(draft)`: the deck as it then stands, checked); True when
        it changed any. The result is checked again; an illegal one is undone."""
        return False

    def measure(self, draft: Draft[CardT]) -> Message:
        return BY_COST if self._costs(draft) else IN_ORDER

    def order(
        self, draft: Draft[CardT], section: Section, candidates: Sequence[CardT]
    ) -> list[tuple[CardT, Message]]:
        """The candidates, the first to add first, with why (by cost when the game has one)."""
        name = section.title
        field = self.cost or ""
        if not self._costs(draft) or all(
            not isinstance(getattr(c, field, None), int) for c in candidates
        ):
            return [(card, WHY_ORDER(section=name)) for card in candidates]
        costed = []
        for place, card in enumerate(candidates):
            cost = getattr(card, field, None)
            if isinstance(cost, int):
                costed.append(((0, cost, place), card, WHY_COST(cost=cost, section=name)))
            else:
                costed.append(((1, 0, place), card, WHY_NO_COST()))
        return [(card, why) for _key, card, why in sorted(costed, key=lambda c: c[0])]

    def _costs(self, draft: Draft[CardT]) -> bool:
        return self.cost is not None


@dataclass(frozen=True)
class Dropped(Generic[CardT]):
    """Copies of a card the player wrote that could not be kept, and the rule (code) why."""

    section: str
    card: CardT
    count: int
    code: str


@dataclass(frozen=True)
class Completed(Generic[CardT]):
    """A completed deck: as a deck file reads it, its lines per section, the cards that could
    not be kept, what ordered the additions, and the check of the result."""

    deck: DeclaredDeck
    draft: Draft[CardT]
    dropped: tuple[Dropped[CardT], ...]
    measure: Message
    report: DeckReport

    def added(self) -> Iterator[tuple[str, Line[CardT]]]:
        for section, lines in self.draft.lines.items():
            for line in lines:
                if line.added:
                    yield section, line


class DeckNotUsable(Exception):
    """The deck cannot be completed as written: the diagnostics say why (unreadable, an unknown
    card or format, a card in the wrong place)."""

    def __init__(self, diagnostics: Sequence[Diagnostic]) -> None:
        super().__init__("deck not usable")
        self.diagnostics = tuple(diagnostics)


def complete(
    game: Any,
    source: DeckSource,
    database: CardDatabase[Any],
    format_key: str | None,
    date: datetime.date,
    completion: Completion | None = None,
) -> Completed:
    """The deck `source` completed on a day (a declared game: `game.declaration`). Raises
    `DeckNotUsable` when it cannot be read or resolved, `NoCompletion` when no legal deck
    keeps what must be kept."""
    declaration: Declaration = game.declaration
    rules = completion or Completion(getattr(game, "cost", "cost"))
    deck, problems = game.read_deck(source)
    errors = [d for d in problems if d.is_error]
    if not deck.readable or errors:
        raise DeckNotUsable(errors or problems)
    day = date
    view, resolved = resolve(declaration, deck, database, format_key, day, game.view_class)
    errors = [d for d in resolved if d.is_error]
    if errors:
        raise DeckNotUsable(errors)
    for slot in declaration.slots:
        if slot.required and view.picked.get(slot.key) is None:
            code = slot.code.id if slot.code is not None else "D101"
            raise NoCompletion(code, NO_SLOT(slot=slot.title, key=slot.key))
    legality = Legality(view.format, database, day)
    written = {
        section.key: [Line(card, entry.count, entry) for card, entry in view.resolved(section.key)]
        for section in declaration.sections
    }
    pool = playable(declaration, database, legality)
    refused: list[Dropped] = []  # the player's cards a check flagged
    excluded: set[str] = set()
    for _round in range(ROUNDS):
        dropped = list(refused)
        draft = Draft(
            declaration,
            database,
            view.format,
            legality,
            view.picked,
            {
                key: [Line(x.card, x.count, x.entry) for x in lines]
                for key, lines in written.items()
            },
            set(excluded),
            pool,
        )
        for section in declaration.sections:
            if _skipped(view.format, section):
                continue
            dropped += _keep(draft, section)
            _fill(draft, section, rules)
        completed = _deck(deck, draft)
        report = game.check_parsed(completed, [], database, format_key, day)
        errors = [d for d in report.diagnostics if d.is_error]
        if not errors:
            better = _improve(game, deck, draft, rules, report, format_key, day)
            if better is not None:
                report, completed = better
            return Completed(completed, draft, tuple(dropped), rules.measure(draft), report)
        if not _refine(draft, errors, written, excluded, refused):
            break
    raise NoCompletion(errors[0].code, _said(errors[0]))


def _improve(
    game: Any,
    deck: DeclaredDeck,
    draft: Draft,
    rules: Completion,
    first: DeckReport,
    format_key: str | None,
    day: datetime.date,
) -> tuple[DeckReport, DeclaredDeck] | None:
    """A legal completion made better by the game's own measure (None: unchanged)."""

    def checked(state: Draft) -> DeckReport:
        found: DeckReport = game.check_parsed(
            _deck(deck, state), [], draft.database, format_key, day
        )
        return found

    before = {key: [replace(line) for line in lines] for key, lines in draft.lines.items()}
    if not rules.improve(draft, first.view, lambda state: checked(state).view):
        return None
    completed = _deck(deck, draft)
    report = checked(draft)
    if any(d.is_error for d in report.diagnostics):
        draft.lines = before
        return None
    return report, completed


NO_SLOT = msg("complete", "no {slot}: name one (`{key}: NAME`); the rest is filled around it")
NO_LEGAL = msg("complete", "no legal completion: {code} {why}")


def _said(found: Diagnostic) -> Message:
    return found.text if found.text is not None else Message("complete", found.message)


def _skipped(fmt: Format, section: Section) -> bool:
    """Whether the format exempts a section (one shared at the table): left as written."""
    return any(fmt.extra.get(name) in values for name, values in section.unless.items())


def _keep(draft: Draft, section: Section) -> list[Dropped]:
    """The player's lines of a section cut to what may be kept: no card the format does not
    allow on the day, no copies over a limit, no more cards than the section holds."""
    out: list[Dropped] = []
    legality = draft.legality
    codes = draft.declaration.format_codes
    kept: list[Line] = []
    for line in draft.lines[section.key]:
        key = draft.database.card_key(line.card)
        code: str | None = None
        if key in draft.excluded:
            code = "excluded"
        elif key in legality.banned:
            code = codes.banned.id if codes.banned else "D115"
        elif not legality.allowed(key):
            code = codes.sets.id if codes.sets else "D117"
        elif legality.playable(key) is None:
            code = codes.released.id if codes.released else "D118"
        if code is not None:
            if code != "excluded":
                out.append(Dropped(section.key, line.card, line.count, code))
            continue
        draft.lines[section.key] = kept
        room = draft.room(section, line.card)
        if room is not None and line.count > room:
            out.append(
                Dropped(
                    section.key,
                    line.card,
                    line.count - room,
                    _limit_code(draft, section, line.card),
                )
            )
            line.count = room
        if line.count:
            kept.append(line)
    draft.lines[section.key] = kept
    most = section.size.exact if section.size.exact is not None else section.size.maximum
    if most is not None:
        over = draft.size(section.key) - most
        code = section.size_code.id if section.size_code else "D102"
        for line in reversed(kept):
            if over <= 0:
                break
            cut = min(over, line.count)
            line.count -= cut
            over -= cut
            out.append(Dropped(section.key, line.card, cut, code))
        draft.lines[section.key] = [line for line in kept if line.count]
    return out


def _limit_code(draft: Draft[CardT], section: Section, card: CardT) -> str:
    restricted = draft.legality.limits.get(draft.database.card_key(card))
    copies = section.copies_of(card)
    if (
        copies is not None
        and copies.limit is not None
        and (restricted is None or copies.limit <= restricted.copies)
    ):
        return copies.code.id if copies.code else "D103"
    codes = draft.declaration.format_codes
    return codes.restricted.id if codes.restricted else "D116"


def _need(draft: Draft, section: Section) -> int:
    size = section.size
    want = size.exact if size.exact is not None else size.minimum
    return max(0, (want or 0) - draft.size(section.key))


def _fill(draft: Draft, section: Section, rules: Completion) -> None:
    need = _need(draft, section)
    candidates = list(draft.candidates(section.key))
    chosen = rules.choose(draft, section, candidates, need)
    if chosen is not None:
        for card, count, why in chosen:
            draft.add(section.key, card, count, why)
        return
    for card, why in rules.order(draft, section, candidates):
        if need <= 0:
            return
        if not rules.admits(draft, section, card):
            continue
        room = draft.room(section, card)
        count = need if room is None else min(need, room)
        if count > 0:
            draft.add(section.key, card, count, why)
            need -= count


def _refine(
    draft: Draft,
    errors: Iterable[Diagnostic],
    written: dict[str, list[Line]],
    excluded: set[str],
    dropped: list[Dropped],
) -> bool:
    """Learn from a failed check: a card added that a rule flags is ruled out; a card the
    player wrote that a rule flags cannot be kept. False: nothing left to change."""
    changed = False
    for found in errors:
        if found.card is None or found.section not in written:
            return False
        card = draft.database.cards.get(found.card)
        if card is None:
            return False
        key = draft.database.card_key(card)
        lines = written[found.section]
        mine = [line for line in lines if draft.database.card_key(line.card) == key]
        if mine:
            written[found.section] = [line for line in lines if line not in mine]
            dropped += [Dropped(found.section, x.card, x.count, found.code) for x in mine]
        if key not in excluded:
            excluded.add(key)
            changed = True
        changed = changed or bool(mine)
    return changed


def _deck(deck: DeclaredDeck, draft: Draft) -> DeclaredDeck:
    """The completed deck as a deck file reads it: the player's lines (their counts cut to what
    is kept), then the cards added, by name (by id where the name is shared)."""
    out = DeclaredDeck(
        path=deck.path,
        sections=deck.sections,
        name=deck.name,
        format=deck.format,
        format_mark=deck.format_mark,
        player=deck.player,
        event=deck.event,
        picks=dict(deck.picks),
        section_marks=dict(deck.section_marks),
        uncounted=set(),
    )
    for section, lines in draft.lines.items():
        entries = []
        for line in lines:
            if line.entry is not None:
                entries.append(Entry(section, line.entry.ref, line.count, line.entry.mark))
            elif line.count:
                entries.append(Entry(section, ref_of(draft.database, line.card), line.count, None))
        out.entries[section] = entries
        if entries:
            out.section_marks.setdefault(section, None)
    return out


def ref_of(database: CardDatabase[CardT], card: CardT) -> str:
    """How a deck file names a card: its name when that means it alone, else its id."""
    found = database.lookup(card.name)
    if len(found) == 1 and database.card_key(found[0]) == database.card_key(card):
        return str(card.name)
    return str(card.id)


def card_name(card: CardRecord) -> CardName:
    return CardName.of(card)
