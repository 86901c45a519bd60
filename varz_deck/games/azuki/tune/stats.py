"""`varz-deck stats` for one Azuki deck: the Leader and Gate, counts, the cost curve."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from varz_deck.core.analysis.glossary import GLOSSARY_HINT
from varz_deck.core.analysis.parts import Part
from varz_deck.core.analysis.tuning import curve_lines, fit
from varz_deck.core.messages.i18n import CardName, Message, Term, joined, msg
from varz_deck.core.messages.wrap import wrap
from varz_deck.games.azuki.sim.model import Model
from varz_deck.games.azuki.tune.plot import charts, curve_rows

if TYPE_CHECKING:
    from varz_deck.core.decks.check import DeckReport

_STATS_TITLE = msg("stats", "Stats: {deck} ({path})")
_LEADER = msg("stats", "Leader {leader}; gate {gate}")
_MAIN = msg("stats", "Main deck: {n} ({types})")
_COUNT_OF = msg("stats", "{n} {what}")
_CURVE = msg("stats", "Cost curve by element")
_IKZ = msg("stats", "IKZ deck: {n}")
_AVERAGE = msg(
    "stats",
    "{n} main-deck cards, average cost {mean}; the curve peaks at cost {cost} ({copies} cards).",
)


@dataclass(frozen=True)
class AzukiStats:
    model: Model
    report: DeckReport
    warnings: tuple[Message, ...] = ()

    def to_json(self) -> dict[str, Any]:
        view = self.report.view
        by_type: dict[str, int] = {}
        for slot in view.slots["main"] if view is not None else ():
            if slot.card is not None:
                by_type[slot.card.type] = by_type.get(slot.card.type, 0) + slot.entry.count
        picked = view.picked if view is not None else {}
        leader, gate = picked.get("leader"), picked.get("gate")
        return {
            "version": 1,
            "game": "azuki",
            "deck": self.report.path,
            "name": self.report.name,
            "format": self.report.format,
            "legal": self.report.legal,
            "leader": None if leader is None else {"id": leader.id, "name": leader.name},
            "gate": None if gate is None else {"id": gate.id, "name": gate.name},
            "counts": {
                "main": view.size("main") if view is not None else 0,
                "ikz": view.size("ikz") if view is not None else 0,
                "by_type": dict(sorted(by_type.items())),
            },
            "curve": [
                {"cost": cost, "copies": sum(k for _, k in per), "by_element": dict(per)}
                for cost, per in curve_rows(self.model)
            ],
        }

    def parts(self) -> tuple[Part, ...]:
        from varz_deck.games.azuki.analysis import stats_parts

        return stats_parts(self.to_json())

    def answer(self) -> tuple[Message, ...]:
        """The curve's centre, from the JSON's curve."""
        curve = self.to_json()["curve"]
        cards = sum(e["copies"] for e in curve)
        if not cards:
            return ()
        mean = sum(e["cost"] * e["copies"] for e in curve) / cards
        peak = max(curve, key=lambda e: (e["copies"], -e["cost"]))
        return (_AVERAGE(n=cards, mean=f"{mean:.1f}", cost=peak["cost"], copies=peak["copies"]),)

    def render_text(self, *, color: bool, width: int, lang: str) -> str:
        doc = self.to_json()
        width = max(40, min(width, 100))
        view = self.report.view
        picked = view.picked if view is not None else {}
        leader, gate = picked.get("leader"), picked.get("gate")
        out = [
            fit(_STATS_TITLE(deck=doc["name"] or doc["deck"], path=doc["deck"]).render(lang), width)
        ]
        out.append(
            fit(
                _LEADER(
                    leader=CardName.of(leader, quote=False).in_language(lang) if leader else "–",
                    gate=CardName.of(gate, quote=False).in_language(lang) if gate else "–",
                ).render(lang),
                width,
            )
        )
        types = joined(
            _COUNT_OF(n=n, what=Term("azuki card type", t))
            for t, n in doc["counts"]["by_type"].items()
        )
        out.append("")
        for sentence in self.answer():
            out += wrap(sentence.render(lang), width)
        out.append(fit(_MAIN(n=doc["counts"]["main"], types=types).render(lang), width))
        out.append("")
        out.append(_CURVE.render(lang))
        out += curve_lines(curve_rows(self.model), "element", lang, width)
        out.append("")
        out.append(fit(_IKZ(n=doc["counts"]["ikz"]).render(lang), width))
        out.append("")
        out += wrap(GLOSSARY_HINT.render(lang), width)
        return "".join(line.rstrip() + "\n" for line in out)

    def plot(self, fmt: str, lang: str) -> bytes:
        return charts(self.model, fmt, lang)
