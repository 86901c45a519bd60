"""A resolved deck reduced to what the goldfish model reads (docs/guides/player.md)."""

from __future__ import annotations

from dataclasses import dataclass

from varz_deck.core.messages.i18n import Message, msg
from varz_deck.games.varz.cards import COLORLESS, COLORS
from varz_deck.games.varz.view import VarzView

HERO_CLASS = 0
Names = tuple[tuple[str, str], ...]


class ModelError(Exception):
    """The deck cannot be simulated (it has no usable hero); `message` says why, translatably."""

    def __init__(self, message: Message) -> None:
        super().__init__(message.render())
        self.message = message


@dataclass(frozen=True, slots=True)
class SpellCard:
    """One spell (all printings of a name together) and the VAZ class that pays it.

    `cls` is 0 when any VAZ pays it (hero colour or colourless), else 1 + the index of its colour in
    `Model.colors`.
    """

    id: str
    name: str
    copies: int
    cost: int
    color: str
    cls: int
    names: Names = ()  # the card's name in other languages, (language, name) pairs


@dataclass(frozen=True, slots=True)
class Model:
    """Spells in deck-list order, the skill deck by VAZ class, and the hero's colour and level."""

    path: str
    name: str | None
    hero_id: str
    hero_name: str
    hero_color: str
    evolution_level: int
    cards: tuple[SpellCard, ...]
    colors: tuple[str, ...]
    skills: tuple[int, ...]
    left_out: int = 0
    hero_names: Names = ()  # the hero's name in other languages, (language, name) pairs
    format: str | None = None
    # skills and portals by name, for `sim --vs` to list what changed: (section, name, copies, names)
    others: tuple[tuple[str, str, int, Names], ...] = ()

    @property
    def n_spells(self) -> int:
        return sum(card.copies for card in self.cards)

    @property
    def n_skills(self) -> int:
        return sum(self.skills)

    def skills_of(self, color: str) -> int:
        """VAZ skills in the skill deck that make `color` (0 for the hero's colour: use n_skills)."""
        return self.skills[1 + self.colors.index(color)] if color in self.colors else 0


def build_model(view: VarzView) -> Model:
    """The model of a resolved deck; unknown and misplaced cards are left out."""
    hero = view.hero
    if hero is None or hero.type != "hero" or hero.color not in COLORS:
        raise ModelError(
            msg("sim", "the deck has no usable hero; the simulator needs the hero's colour")
        )
    spells = [(card, count) for card, count, _ in view.by_name("spells").values() if card.is_spell]
    left_out = view.size("spells") - sum(count for _, count in spells)
    foreign = {card.color for card, _ in spells if card.color not in (hero.color, COLORLESS, None)}
    colors = tuple(c for c in COLORS if c in foreign)
    cards = tuple(
        SpellCard(
            id=card.id,
            name=card.name,
            copies=count,
            cost=max(card.cost or 0, 0),
            color=card.color or COLORLESS,
            cls=1 + colors.index(card.color) if card.color in colors else HERO_CLASS,
            names=tuple(sorted(card.names.items())),
        )
        for card, count in spells
    )
    skills = [0] * (1 + len(colors))
    for card, count, _ in view.by_name("skills").values():
        if card.type != "skill":
            continue
        cls = 1 + colors.index(card.color) if card.is_vaz and card.color in colors else HERO_CLASS
        skills[cls] += count
    return Model(
        path=view.deck.path,
        name=view.deck.name,
        hero_id=hero.id,
        hero_name=hero.name,
        hero_color=hero.color,
        evolution_level=hero.evolution_level or 0,
        cards=cards,
        colors=colors,
        skills=tuple(skills),
        left_out=max(left_out, 0),
        hero_names=tuple(sorted(hero.names.items())),
        format=view.deck.format,
        others=tuple(
            (section, card.name, count, tuple(sorted(card.names.items())))
            for section in ("skills", "portals")
            for card, count, _ in view.by_name(section).values()
        ),
    )
