"""A game made from its declaration (core/decks/declaration.py): `DeclaredGame` implements the
`Game` protocol with the core's deck reader (YAML mapping or list, plain-text lists, deck codes,
standard input), resolver, construction and format checks, registrar and sheet, card look-up,
`stats`, and the JSON Schemas of its card and deck files.

A plugin passes its declaration, its bundled card data and whatever Python rules no declaration
can say; a game declared in a `game.yaml` (core/game/yamlgame.py) passes none.
"""

from __future__ import annotations

import datetime
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from functools import cached_property, partial
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

from varz_deck.core.cards.model import CardDatabase, CardRecord, CardT, Format
from varz_deck.core.decks.check import LEAD_JSON, DeckReport, DeckWords
from varz_deck.core.decks.construction import construction_checks
from varz_deck.core.decks.declaration import Declaration, and_list
from varz_deck.core.decks.entries import (
    Entry,
    ListWords,
    looks_like_code,
    parse_text,
    read_yaml_deck,
    top_level_words,
)
from varz_deck.core.decks.legality import declared_codes, legality_checks
from varz_deck.core.decks.view import DeckView, DeclaredDeck, Pick, resolve
from varz_deck.core.files.deckfiles import is_text_list
from varz_deck.core.files.resources import register_made_schema, register_schemas
from varz_deck.core.files.schemahints import deck_hints, register
from varz_deck.core.files.source import DeckSource, LoadError
from varz_deck.core.messages.code import Code
from varz_deck.core.messages.diagnostics import Diagnostic, Mark, diag
from varz_deck.core.messages.i18n import Joined, Message, msg
from varz_deck.core.messages.rulebook import Rule, Rulebook

if TYPE_CHECKING:  # what `check` needs not: imported on first use (it starts faster)
    from varz_deck.core.analysis.capabilities import Goldfish, Tuner
    from varz_deck.core.analysis.glossary import Entry as GlossaryEntry
    from varz_deck.core.cards.cardinfo import CardLookup
    from varz_deck.core.game.cards import DeclaredCard
    from varz_deck.core.game.complete import Completion
    from varz_deck.core.lint._base import CardFile
    from varz_deck.core.registration.canonical import Layout
    from varz_deck.core.registration.registrar import Registrar
    from varz_deck.core.registration.sheet import SheetParts

View = DeckView[Any]


def _lead_known(view: View) -> bool:
    return view.lead is not None


def _format_known(view: View) -> bool:
    return view.format_known


def _chain(checks: Sequence[Callable[[View], Iterator[Diagnostic]]]) -> Callable[..., Any]:
    def check(view: View) -> Iterator[Diagnostic]:
        for one in checks:
            yield from one(view)

    return check


class _Declared(NamedTuple):
    """The rules the declaration makes, before the game's own are added."""

    code: Code
    checks: tuple[Callable[[View], Iterator[Diagnostic]], ...]
    when: Callable[[View], bool]


def declared_rules(declaration: Declaration) -> list[Rule[View]]:
    """A Rule per code of the declared checks (checks sharing a code run as one rule)."""
    grouped: dict[str, _Declared] = {}
    found = [(code, check, _always) for code, check in construction_checks(declaration)]
    found += [(code, check, _format_known) for code, check in legality_checks(declaration)]
    for code, check, when in found:
        known = grouped.get(code.id)
        checks = (*known.checks, check) if known is not None else (check,)
        grouped[code.id] = _Declared(code, checks, when)
    return [Rule(d.code, _chain(d.checks), d.when) for d in grouped.values()]


def _always(view: View) -> bool:
    return True


class DeclaredGame:
    """A game from its declaration (the `Game` protocol).

    `card_data`: the bundled card database (a folder); `rules`: the game's own Python rules (a
    `Rulebook` of `DeckView`s, or of the `view_class` they read: a subclass of DeckView);
    `catalogue`: a folder of the game's gettext catalogues. The capabilities a game has beyond
    the declaration (a `goldfish`, a `tuner`, a `glossary`, a `completion`) are given here too, or left to the
    core's (no simulator; `stats` with counts only). `schemas`: the game's own schema files
    (`KEY-card`, `KEY-deck` -> file) in place of those made from the declaration; the game then
    registers their messages (core/files/schemahints.py).
    """

    def __init__(
        self,
        declaration: Declaration,
        card_data: Path,
        *,
        rules: Rulebook[Any] | None = None,
        card_rules: Mapping[str, Rule[CardFile]] | None = None,
        format_fields: Mapping[str, Mapping[str, object]] | None = None,
        goldfish: Goldfish | None = None,
        tuner: Tuner | None = None,
        glossary: Sequence[GlossaryEntry] = (),
        colours: tuple[str, ...] = (),
        cost: str | None = "cost",
        schemas: Mapping[str, Path] | None = None,
        view_class: type[DeckView[Any]] = DeckView,
        completion: Completion | None = None,
    ) -> None:
        self.declaration = declaration
        self.key = declaration.key
        self.name = declaration.name
        self._card_data = card_data
        self._rules = rules
        self._card_rules = dict(card_rules or {})
        self.format_fields: Mapping[str, Mapping[str, object]] = dict(format_fields or {})
        self._goldfish = goldfish
        self._tuner = tuner
        self._glossary = tuple(glossary)
        self.colours = colours
        self.cost = cost if cost in declaration.fields else None
        self.sections = declaration.section_keys
        self.slots = declaration.slot_keys
        self.lead = declaration.lead.key if declaration.lead is not None else ""
        self.view_class = view_class
        self._completion = completion
        self.card_schema = f"{declaration.key}-card"
        self.deck_schema = f"{declaration.key}-deck"
        self.schemas: Mapping[str, Path | dict[str, object]]
        if schemas is not None:
            self.schemas = dict(schemas)
            register_schemas(schemas)
        else:
            from varz_deck.core.game.cards import card_schema, deck_schema

            self.schemas = {
                self.card_schema: card_schema(declaration),
                self.deck_schema: deck_schema(declaration),
            }
            for name, document in self.schemas.items():
                if isinstance(document, dict):
                    register_made_schema(name, document)
            register(self.deck_schema, _hints(declaration))
        lead = declaration.lead
        self.words = DeckWords(
            lead_named=Message("report", f"{lead.key} {{name}}")
            if lead
            else msg("report", "{name}"),
            lead_title=Message("page", lead.names.get("en", lead.key))
            if lead
            else msg("page", "Lead"),
            lead_json=LEAD_JSON,
        )

    # -- cards ---------------------------------------------------------------------------------

    @property
    def card_data(self) -> Path:
        return self._card_data

    @property
    def section_sizes(self) -> Mapping[str, int]:
        """Each section's most cards (its exact size, else its maximum): `sim`, `tune` and the
        registration server refuse a section of more than 4 times as many."""
        sizes = ((s.key, s.size.exact or s.size.maximum) for s in self.declaration.sections)
        return {key: n for key, n in sizes if n}

    @cached_property
    def card_class(self) -> type[DeclaredCard]:
        from varz_deck.core.game.cards import DeclaredCard

        return DeclaredCard

    @cached_property
    def _database_class(self) -> type[CardDatabase[Any]]:
        from varz_deck.core.game.cards import database_class

        return database_class(self.declaration)

    def make_card(
        self, raw: Mapping[str, Any], set_code: str | None, file: str, line: int
    ) -> DeclaredCard:
        from varz_deck.core.game.cards import make_card

        return make_card(self.declaration, self.card_class, raw, set_code, file, line)

    def card_from_json(self, data: Mapping[str, Any]) -> DeclaredCard:
        return self.card_class.from_json(data)

    def make_database(
        self, cards: list[Any], formats: Mapping[str, Format] | None
    ) -> CardDatabase[Any]:
        return self._database_class(cards, formats)

    def builtin_formats(self) -> dict[str, Format]:
        from varz_deck.core.game.cards import builtin_formats

        return builtin_formats(self.declaration)

    def identity(self, card: CardRecord) -> str:
        return str(card.id if self.declaration.identity == "id" else card.name)

    def game_fields(self, card: Any) -> dict[str, object]:  # a game narrows it to its card
        return {
            "type": card.type,
            **{n: getattr(card, n) for n in self.declaration.game_fields()[1:]},
        }

    def section_of(self, card: CardRecord) -> str | None:
        return self.declaration.home(card.type)

    def colours_of(self, card: object) -> tuple[str, ...]:
        for name in self.colours:
            value = getattr(card, name, None)
            if value:
                return tuple(value) if isinstance(value, tuple) else (str(value),)
        return ()

    def card_rules(self) -> Mapping[str, Rule[CardFile]]:
        return self._card_rules

    # -- decks ---------------------------------------------------------------------------------

    @cached_property
    def list_words(self) -> ListWords:
        sections: dict[str, str] = {}
        for section in self.declaration.sections:
            for header in (section.key, *section.headers, section.names.get("en", "")):
                if header:
                    sections.setdefault(" ".join(header.lower().split()), section.key)
        return ListWords(
            sections=sections,
            slots=self.slots,
            outside=msg("F004", "{line} is outside a section; put it under {headers}"),
            set_slot=_set_pick,
            example=self.declaration.list_example,
            headers=Joined(
                tuple(f"{s.names.get('en', s.key)}:" for s in self.declaration.sections), " or "
            ),
        )

    @cached_property
    def _own_words(self) -> frozenset[str]:
        return frozenset((*self.slots, *self.sections))

    def owns_deck(self, text: str) -> bool:
        return looks_like_code(text, self.declaration.code_family) or bool(
            top_level_words(text) & self._own_words
        )

    def read_deck(self, source: DeckSource) -> tuple[DeclaredDeck, list[Diagnostic]]:
        """Read one deck: a file, a buffer, standard input, or a deck code given as the
        argument; the diagnostics say what could not be read."""
        if source.argument is not None and _is_code(self, source.argument):
            shown = None if source.name == source.argument else source.name
            return self.read_code(source.argument, shown)
        deck = DeclaredDeck(path=source.name, sections=self.sections)
        if source.text is None:
            deck.readable = False
            err = source.problem or LoadError("F001", msg("F001", "no such file; check the path"))
            return deck, [diag(err.code, err.message, err.mark, file=source.name)]
        if is_text_list(source.name, source.text):
            return deck, parse_text(source.text, deck, self.list_words)
        parts = and_list([*self.slots, *self.sections])
        empty = Message("F004", f"the deck file is empty; it needs {parts}")
        doc, data, problems = read_yaml_deck(
            source.text,
            deck,
            schema=self.deck_schema,
            slots=self.slots,
            sections=self.sections,
            empty=empty,
        )
        if doc is not None and data is not None:
            for slot in self.slots:
                if slot in data:
                    value = data[slot]
                    ref = value.strip() if isinstance(value, str) and value.strip() else None
                    deck.picks[slot] = Pick(ref, doc.mark((slot,)), doc.key_mark((slot,)))
        return deck, problems

    def read_code(
        self, code: str, shown: str | None = None
    ) -> tuple[DeclaredDeck, list[Diagnostic]]:
        from varz_deck.core.registration.code import read_code as read_code_of

        decoded, shown, problems = read_code_of(code, self.layout, shown)
        if decoded is None:
            return DeclaredDeck(path=shown, sections=self.sections, readable=False), problems
        deck = DeclaredDeck(path=shown, sections=self.sections, format=decoded.format)
        for slot in self.slots:
            if decoded.slots[slot]:
                deck.picks[slot] = Pick(decoded.slots[slot], None, None)
        for section in self.sections:
            items = decoded.sections[section]
            deck.entries[section] = [Entry(section, ref, count, None) for ref, count in items]
            if items:
                deck.section_marks[section] = None
        return deck, []

    def check_deck(
        self,
        source: DeckSource,
        database: CardDatabase[Any],
        format_key: str | None,
        date: datetime.date,
    ) -> DeckReport:
        deck, problems = self.read_deck(source)
        return self.check_parsed(deck, problems, database, format_key, date)

    def check_parsed(
        self,
        deck: DeclaredDeck,
        problems: list[Diagnostic],
        database: CardDatabase[Any],
        format_key: str | None,
        date: datetime.date,
    ) -> DeckReport:
        """Check a deck already read (its reading problems given) on a day."""
        written = format_key or deck.format or "standard"
        day = date
        view: View | None = None
        found = list(problems)
        if deck.readable:
            view, resolved = resolve(
                self.declaration, deck, database, format_key, day, self.view_class
            )
            found += resolved
            found += self.rulebook.run(view)
        return DeckReport(
            deck.path,
            deck.name,
            written,
            view.lead if view is not None else None,
            self.counts(view),
            tuple(sorted(found, key=Diagnostic.sort_key)),
            view,
            places=(*self.slots, *self.sections),
            game=self.key,
            words=self.words,
            date=day,
        )

    def counts(self, view: View | None) -> dict[str, int]:
        """`check`'s counts of a deck: each section's size."""
        return {s: view.size(s) if view is not None else 0 for s in self.sections}

    @cached_property
    def rulebook(self) -> Rulebook[View]:
        """The declared checks and the game's own rules, one rulebook (its rules are listed
        together, in code order: core/report/codes.py groups them by book)."""
        book: Rulebook[View] = Rulebook()
        for one in declared_rules(self.declaration):
            book.rules[one.code] = Rule(one.info, one.check, one.when, book)
        for code, own in (self._rules.rules if self._rules is not None else {}).items():
            if code in book.rules:
                raise ValueError(f"{self.key}: rule {code} is both declared and written")
            book.rules[code] = Rule(own.info, own.check, own.when, book)
        return book

    def rules(self) -> Mapping[str, Rule[Any]]:
        """The codes the game owns (its own and those its declaration maps); the core's codes
        of the declared checks it reports under are listed with the core's."""
        core = {code.id for code in declared_codes()}
        own = {code: one for code, one in self.rulebook.rules.items() if code not in core}
        return {**own, **self.card_rules()}

    # -- capabilities --------------------------------------------------------------------------

    @property
    def goldfish(self) -> Goldfish | None:
        return self._goldfish

    @cached_property
    def tuner(self) -> Tuner | None:
        if self._tuner is not None:
            return self._tuner
        from varz_deck.core.game.stats import DeclaredStats

        return DeclaredStats(self)

    @property
    def glossary(self) -> Sequence[GlossaryEntry]:
        return self._glossary

    @cached_property
    def completion(self) -> Completion:
        """`varz-deck complete`: the game's own constraints on a completed deck (the core's
        default: none beyond the declaration; cards added by the declared cost)."""
        if self._completion is not None:
            return self._completion
        from varz_deck.core.game.complete import Completion

        return Completion(self.cost)

    @cached_property
    def lookup(self) -> CardLookup[Any]:
        from varz_deck.core.game.lookup import DeclaredLookup

        return DeclaredLookup(self)

    @cached_property
    def layout(self) -> Layout[Any]:
        from varz_deck.core.registration.canonical import Layout

        d = self.declaration
        last = d.sections[-1].key if d.sections else "cards"
        return Layout(
            game=d.key,
            header=d.hash_header or f"{d.key}-deck-hash v1",
            slots=d.slot_keys,
            sections=d.section_keys,
            prefix=f"{d.code_family}1",
            identity=self.identity,
            slot_lines={s: Message("register", f"{s}: {{{s}}}") for s in d.slot_keys},
            slot_moves={
                s: Message("register", f"{s}: {{registered}} → {{presented}}") for s in d.slot_keys
            },
            slot_words={s: Message("register", s) for s in d.slot_keys},
            code_words={s: Message("F009", s) for s in d.slot_keys},
            code_damaged={s: Message("F009", f"its {s} id is damaged") for s in d.slot_keys},
            code_trailing=Message("F009", f"it has data after the {last}; it is damaged"),
            pick=partial(_pick, d),
        )

    @cached_property
    def registrar(self) -> Registrar:
        from varz_deck.core.registration.registrar import GameRegistrar

        return GameRegistrar(
            layout=self.layout,
            read_deck=self.read_deck,
            check_parsed=self.check_parsed,
            slots_of=lambda deck: {slot: deck.pick(slot) for slot in self.slots},
            is_code=partial(_is_code, self),
            sheet=lambda: self.sheet_parts,
        )

    @cached_property
    def sheet_parts(self) -> SheetParts:
        from varz_deck.core.game.sheet import sheet_parts

        return sheet_parts(self)


def _is_code(game: DeclaredGame, argument: str) -> bool:
    from varz_deck.core.registration.code import is_code_argument

    return is_code_argument(argument, game.layout)


def _pick(
    declaration: Declaration, database: CardDatabase[CardT], ref: str, slot: str
) -> list[CardT]:
    """A slot's reference as the registrar reads it: among the cards it can mean, those that go
    in the slot when there are any."""
    found = list(database.lookup(ref))
    fitting = [card for card in found if declaration.home(card.type) == slot]
    return fitting if len(found) > 1 and fitting else found


def _set_pick(deck: DeclaredDeck, slot: str, ref: str | None, value: Mark, key: Mark) -> None:
    deck.picks[slot] = Pick(ref, value, key)


def _hints(declaration: Declaration) -> dict[str, Message]:
    """The deck schema's messages, in the game's words (English; a game's catalogue may
    translate them under the context "schema")."""
    parts = and_list([*declaration.slot_keys, *declaration.section_keys])
    top = Message("schema", f"a {declaration.name} deck file is a mapping with {parts}")
    slots = {}
    for slot in declaration.slots:
        example = f", e.g. {slot.example}" if slot.example else ""
        slots[slot.key] = Message(
            "schema", f"{slot.key} is one {slot.key} card: its name or id{example}"
        )
    sections = {}
    for section in declaration.sections:
        about = f" ({section.about})" if section.about else ""
        sections[section.key] = Message(
            "schema",
            f'{section.key}{about} is a mapping of card: count, or a list of "COUNT NAME" strings',
        )
    example = declaration.list_example or "3 Card Name"
    item = Message("schema", f'each list item is "COUNT NAME", e.g. "{example}"')
    return deck_hints(top, slots, sections, item)


def every_card(view: View) -> Iterable[tuple[Any, Mark | None, str, Entry | None]]:
    """Each card of a deck with its place (for a game's own rules)."""
    return view.every_card()
