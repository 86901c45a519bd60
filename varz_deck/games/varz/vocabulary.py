"""VARZ's card check: skill classes and keywords outside the rulebook's lists (C004, ch. 9)."""

from __future__ import annotations

import re
from collections.abc import Iterator

from varz_deck.core.lint import CardFile
from varz_deck.core.messages.code import Scope
from varz_deck.core.messages.diagnostics import Diagnostic, diag
from varz_deck.core.messages.i18n import Joined, Message, Quoted, msg
from varz_deck.core.messages.rulebook import Rulebook
from varz_deck.games.varz.cards import GENERIC, SKILL_CLASSES

CARD_RULES: Rulebook[CardFile] = Rulebook(Scope.CARDS)

_KEYWORD = re.compile(
    r"(overstrike|menace|lethal|vigilance|haste|flash|leap|veil|barrier|flying|stealth|taunt"
    r"|(atk|block|armor|curse)\+[0-9]+|(move|teleport)[0-9]+)"
)
_KEYWORD_WORDS = (
    "overstrike", "menace", "lethal", "vigilance", "atk+N", "block+N", "armor+N", "curse+N", "haste",
    "flash", "moveN", "leap", "teleportN", "veil", "barrier", "flying", "stealth", "taunt",
)  # fmt: skip
_DID_YOU_MEAN = msg("C004", "{problem}; did you mean {close}?")

# The game's words, so the extractor finds them for its catalogue; shown with Term(group, value).
TERMS = (
    msg("color", "red"),
    msg("color", "blue"),
    msg("color", "green"),
    msg("color", "purple"),
    msg("color", "yellow"),
    msg("color", "silver"),
    msg("color", "colorless"),
    msg("card type", "hero"),
    msg("card type", "skill"),
    msg("card type", "portal"),
    msg("card type", "spil"),
    msg("card type", "command"),
    msg("card type", "slash"),
    msg("section", "hero"),
    msg("section", "spells"),
    msg("section", "skills"),
    msg("section", "portals"),
    msg("class", "fighter"),
    msg("class", "samurai"),
    msg("class", "ninja"),
    msg("class", "tamer"),
    msg("class", "archer"),
    msg("class", "gunner"),
    msg("class", "warlock"),
    msg("class", "sherman"),
    msg("class", "cleric"),
    msg("class", "hacker"),
    msg("class", "bard"),
    msg("class", "alchemist"),
    msg("class", "generic"),
)


def _strings(value: object) -> list[tuple[int | None, str]]:
    if isinstance(value, str):
        return [(None, value)]
    if isinstance(value, list):
        return [(j, v) for j, v in enumerate(value) if isinstance(v, str)]
    return []


def vocabulary(view: CardFile) -> Iterator[Diagnostic]:
    """unknown skill class or keyword"""
    import difflib

    doc, bad_paths = view.doc, view.bad_paths
    for entry in view.entries:
        base = ("cards", entry.index)
        for field_name, known in (
            ("skill_classes", SKILL_CLASSES),
            ("classes", SKILL_CLASSES),
            ("skill_class", (*SKILL_CLASSES, GENERIC)),
        ):
            if (*base, field_name) in bad_paths:
                continue
            for j, value in _strings(entry.raw.get(field_name)):
                if value in known:
                    continue
                close = difflib.get_close_matches(value, known, n=1)
                problem = msg("C004", "unknown skill class {value}")(value=Quoted(value))
                message = (
                    _DID_YOU_MEAN(problem=problem, close=Quoted(close[0]))
                    if close
                    else msg("C004", "{problem}; known: {known}")(
                        problem=problem, known=Joined(known)
                    )
                )
                path = (field_name,) if j is None else (field_name, j)
                yield diag(
                    C004,
                    message,
                    doc.mark((*base, *path)),
                    file=entry.file,
                    card=entry.id,
                )
        if (*base, "keywords") in bad_paths or not isinstance(entry.raw.get("keywords"), list):
            continue
        for j, keyword in _strings(entry.raw["keywords"]):
            if _KEYWORD.fullmatch(keyword):
                continue
            yield diag(
                C004,
                _keyword_problem(keyword),
                doc.mark((*base, "keywords", j if j is not None else 0)),
                file=entry.file,
                card=entry.id,
            )


CARD_RULES.rule(
    "C004",
    "class-or-keyword-unknown",
    "3-2 ❷, 9",
    fix="Use a skill class or keyword the game knows, or correct its spelling.",
)(vocabulary)
C004 = CARD_RULES.rules["C004"].info


def _keyword_problem(keyword: str) -> Message:
    """'unknown keyword …' and '; did you mean 'haste'?', or how to write a numbered keyword."""
    import difflib

    problem = msg("C004", "unknown keyword {keyword}")(keyword=Quoted(keyword))
    stem = re.sub(r"[0-9]+$", "N", keyword.lower())
    close = difflib.get_close_matches(stem, _KEYWORD_WORDS, n=1, cutoff=0.6)
    if not close:
        return msg("C004", "{problem} (rulebook ch. 9 lists the keywords)")(problem=problem)
    word = close[0]
    if word.endswith("N"):
        example = Quoted(word[:-1] + "1")
        if stem == word.lower():
            return msg("C004", "{problem}; write the number in place of N, e.g. {example}")(
                problem=problem, example=example
            )
        return msg("C004", "{problem}; did you mean {close}? (N is a whole number: {example})")(
            problem=problem, close=Quoted(word), example=example
        )
    return _DID_YOU_MEAN(problem=problem, close=Quoted(word))
