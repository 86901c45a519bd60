"""`varz-deck stats` for one VARZ deck: counts, cost curve, skills and Memory."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from varz_deck.core.analysis.glossary import GLOSSARY_HINT
from varz_deck.core.analysis.parts import Part
from varz_deck.core.analysis.tuning import curve_lines, fit
from varz_deck.core.messages.i18n import Message, Term, joined, msg
from varz_deck.core.messages.wrap import wrap
from varz_deck.games.varz.cards import COLORLESS, COLORS, GENERIC, SPELL_TYPES
from varz_deck.games.varz.tune.model import Loaded, card_name
from varz_deck.games.varz.tune.plot import charts

_STATS_TITLE = msg("stats", "Stats: {deck} ({path})")
_HERO_LINE = msg(
    "stats", "Hero {hero}: {color}; classes {classes}; Memory {memory}; evolution level {level}"
)
_COUNT_OF = msg("stats", "{n} {what}")
_SPELLS_LINE = msg("stats", "Spells: {n} ({types})")
_CURVE = msg("stats", "Cost curve by colour")
_SKILLS_LINE = msg("stats", "Skills: {n}, of which {vaz} VAZ ({colors})")
_CLASSES_LINE = msg("stats", "Other skills by class: {classes}")
_OFF_CLASS = msg("stats", "Not a class of the hero:")
_MEMORY_LINE = msg("stats", "Memory used: {used} of {most}")
_PORTALS_LINE = msg("stats", "Portals: {n}; Shield Life {life}")
_AVERAGE = msg(
    "stats", "{n} spells, average cost {mean}; the curve peaks at cost {cost} ({copies} cards)."
)
_MONO = msg("stats", "Every spell is {color} (the hero's colour) or colourless: any VAZ pays it.")
_SPLASH_PAID = msg(
    "stats",
    "{n} {color} spells are paid only by {color} VAZ skills, and the deck has {vaz}: varz-deck "
    "tune says how often they are castable on curve.",
)


@dataclass(frozen=True)
class VarzStats:
    """`varz-deck stats` for one VARZ deck."""

    loaded: Loaded
    warnings: tuple[Message, ...] = ()

    def document(self) -> dict[str, Any]:
        view, report = self.loaded.view, self.loaded.report
        hero = view.hero if view.hero is not None and view.hero.type == "hero" else None
        by_type = {t: 0 for t in SPELL_TYPES}
        curve: dict[int, dict[str, int]] = {}
        for card, count, _ in view.by_name("spells").values():
            if not card.is_spell:
                continue
            by_type[card.type] += count
            cost = max(card.cost or 0, 0)
            color = card.color or COLORLESS
            curve.setdefault(cost, {})
            curve[cost][color] = curve[cost].get(color, 0) + count
        vaz: dict[str, int] = {}
        classes: dict[str, int] = {}
        non_vaz = 0
        for card, count, _ in view.by_name("skills").values():
            if card.type != "skill":
                continue
            if card.is_vaz:
                vaz[card.color or COLORLESS] = vaz.get(card.color or COLORLESS, 0) + count
            else:
                non_vaz += count
                cls = card.skill_class or GENERIC
                classes[cls] = classes.get(cls, 0) + count
        usable = {*(hero.skill_classes if hero else ()), GENERIC}
        return {
            "version": 1,
            "game": "varz",
            "deck": report.path,
            "name": report.name,
            "format": report.format,
            "legal": report.legal,
            "hero": None
            if hero is None
            else {
                "id": hero.id,
                "name": hero.name,
                "color": hero.color,
                "skill_classes": list(hero.skill_classes),
                "memory": hero.memory,
                "evolution_level": hero.evolution_level,
                "life": hero.life,
            },
            "counts": {
                "spells": view.size("spells"),
                "skills": view.size("skills"),
                "portals": view.size("portals"),
                "by_type": by_type,
            },
            "curve": [
                {"cost": cost, "copies": sum(per.values()), "by_color": dict(sorted(per.items()))}
                for cost, per in sorted(curve.items())
            ],
            "vaz": {c: vaz[c] for c in (*COLORS, COLORLESS) if c in vaz},
            "classes": dict(sorted(classes.items())),
            "off_class": sorted(c for c in classes if c not in usable),
            "memory": {"used": non_vaz, "max": hero.memory if hero else None},
            "shield_life": view.shield_life(),
        }

    def to_json(self) -> dict[str, Any]:
        return self.document()

    def parts(self) -> tuple[Part, ...]:
        from varz_deck.games.varz.analysis import stats_parts

        return stats_parts(self.document())

    def answer(self) -> tuple[Message, ...]:
        """The sentences the report opens with: the curve's centre, and what pays the spells."""
        doc = self.document()
        curve = doc["curve"]
        spells = sum(e["copies"] for e in curve)
        if not spells:
            return ()
        mean = sum(e["cost"] * e["copies"] for e in curve) / spells
        peak = max(curve, key=lambda e: (e["copies"], -e["cost"]))
        out = [_AVERAGE(n=spells, mean=f"{mean:.1f}", cost=peak["cost"], copies=peak["copies"])]
        hero = (doc["hero"] or {}).get("color")
        off: dict[str, int] = {}
        for e in curve:
            for c, n in e["by_color"].items():
                if c not in (hero, COLORLESS):
                    off[c] = off.get(c, 0) + n
        if not off and hero:
            out.append(_MONO(color=Term("color", hero)))
        for c, n in off.items():
            out.append(_SPLASH_PAID(n=n, color=Term("color", c), vaz=doc["vaz"].get(c, 0)))
        return tuple(out)

    def render_text(self, *, color: bool, width: int, lang: str) -> str:
        doc = self.document()
        view = self.loaded.view
        width = max(40, min(width, 100))
        lines = [
            fit(_STATS_TITLE(deck=doc["name"] or doc["deck"], path=doc["deck"]).render(lang), width)
        ]
        hero = view.hero if doc["hero"] is not None else None
        if hero is not None:
            lines.append(
                fit(
                    _HERO_LINE(
                        hero=card_name(hero, lang),
                        color=Term("color", hero.color or ""),
                        classes=joined(Term("class", c) for c in hero.skill_classes),
                        memory=hero.memory or 0,
                        level=hero.evolution_level or 0,
                    ).render(lang),
                    width,
                )
            )
        lines.append("")
        for sentence in self.answer():
            lines += wrap(sentence.render(lang), width)
        counts = doc["counts"]
        types = joined(
            _COUNT_OF(n=n, what=Term("card type", t)) for t, n in counts["by_type"].items() if n
        )
        lines.append(fit(_SPELLS_LINE(n=counts["spells"], types=types).render(lang), width))
        lines.append("")
        lines.append(_CURVE.render(lang))
        rows = [(e["cost"], _ordered(e["by_color"], doc)) for e in doc["curve"]]
        lines += curve_lines(rows, "color", lang, width)
        lines.append("")
        vaz = joined(_COUNT_OF(n=n, what=Term("color", c)) for c, n in doc["vaz"].items())
        lines.append(
            fit(
                _SKILLS_LINE(
                    n=counts["skills"],
                    vaz=sum(doc["vaz"].values()),
                    colors=vaz if doc["vaz"] else "–",
                ).render(lang),
                width,
            )
        )
        classes = joined(_COUNT_OF(n=n, what=Term("class", c)) for c, n in doc["classes"].items())
        lines.append(
            fit(_CLASSES_LINE(classes=classes if doc["classes"] else "–").render(lang), width)
        )
        if doc["off_class"]:
            off = joined(Term("class", c) for c in doc["off_class"])
            lines.append(fit(_OFF_CLASS.render(lang) + " " + _render(off, lang), width))
        memory = doc["memory"]
        lines.append(
            fit(
                _MEMORY_LINE(
                    used=memory["used"], most=memory["max"] if memory["max"] is not None else "–"
                ).render(lang),
                width,
            )
        )
        lines.append(
            fit(_PORTALS_LINE(n=counts["portals"], life=doc["shield_life"]).render(lang), width)
        )
        lines.append("")
        lines += wrap(GLOSSARY_HINT.render(lang), width)
        return "".join(line.rstrip() + "\n" for line in lines)

    def plot(self, fmt: str, lang: str) -> bytes:
        return charts(self.loaded, fmt, lang, lambda _: [])


def _render(value: object, lang: str) -> str:
    from varz_deck.core.messages.i18n import value_text

    return str(value_text(value, lang))


def _ordered(per: dict[str, int], doc: dict[str, Any]) -> list[tuple[str, int]]:
    hero_color = doc["hero"]["color"] if doc["hero"] else None
    order = [hero_color, *(c for c in COLORS if c != hero_color), COLORLESS]
    return [(c, per[c]) for c in order if c in per]
