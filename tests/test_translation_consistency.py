"""One term per concept in each language: an English term in a msgid has one translation.

For each term below, every catalogue entry (core's and each game's, ja and zh) whose English text
contains the term, as a word, must use the chosen translation in its msgstr. A catalogue that
says 咒文 in one place and 法术 in another for "spell" fails here. The translations are chosen
by hand; EXCEPTIONS lists the entries that may leave a term out, each with its reason.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

ROOT = Path(__file__).resolve().parent.parent
CATALOGUES = [
    *sorted((ROOT / "varz_deck" / "locale").glob("*/LC_MESSAGES/*.po")),
    *sorted((ROOT / "varz_deck" / "games").glob("*/locale/*/LC_MESSAGES/*.po")),
]

# English term (a regular expression, matched as a whole word, any case) -> (ja, zh).
TERMS: dict[str, tuple[str, str]] = {
    r"spells?": ("スペル", "法术"),
    r"(?<![-_])decks?(?![-_])": ("デッキ", "牌组"),
    r"mulligans?": ("マリガン", "调度"),
    r"opening hands?": ("初手", "起手"),
    r"goldfish": ("一人回し", "单人模拟"),
    r"curve turn": ("カーブターン", "曲线回合"),
    r"castable on curve": ("カーブターンに使用可能", "曲线回合可施放"),
    r"(?<![-_])on[- ]curve(?![-_])": ("カーブターン", "曲线回合"),
    r"portals?": ("ポータル", "传送门"),
    r"heroe?s?": ("ヒーロー", "英雄"),
    r"skills?": ("スキル", "技能"),
    r"one-card swaps?": ("1 枚の入れ替え", "单卡替换"),
}

# (catalogue language, msgctxt, start of msgid) -> why the term may be absent from the msgstr.
EXCEPTIONS: dict[tuple[str, str, str], str] = {
    ("ja", "summary", "At most 4 copies of each basic portal"): "the rulebook's ベーシックゲート",
    ("ja", "V108", ""): "the rulebook's ベーシックゲート (a basic portal's card name)",
    ("zh", "summary", "At most 4 copies of each basic portal"): "the rulebook's 基础门",
    ("zh", "V108", ""): "the rulebook's 基础门 (a basic portal's card name)",
}


def _entries() -> list[tuple[str, str, str, str, str]]:
    """(file, language, context, msgid, msgstr) of every translated entry, plural forms joined."""
    out = []
    for path in CATALOGUES:
        lang = path.parent.parent.name
        with path.open("rb") as handle:
            catalog = read_po(handle, locale=lang)
        for message in catalog:
            if not message.id or not message.string:
                continue
            ids = message.id if isinstance(message.id, (tuple, list)) else (message.id,)
            strs = (
                message.string if isinstance(message.string, (tuple, list)) else (message.string,)
            )
            rel = str(path.relative_to(ROOT))
            out.append((rel, lang, message.context or "", " ".join(ids), " ".join(strs)))
    return out


ENTRIES = _entries()
PLACEHOLDER = re.compile(r"\{[^}]*\}|`[^`]*`")  # values and code are not words to translate


def _violations(term: str, chosen: tuple[str, str]) -> list[str]:
    pattern = re.compile(rf"\b{term}\b", re.IGNORECASE)
    found = []
    for rel, lang, context, msgid, msgstr in ENTRIES:
        english = PLACEHOLDER.sub("", msgid)
        if lang not in ("ja", "zh") or not pattern.search(english):
            continue
        if any(pattern.fullmatch(word) for word in re.findall(r"[A-Za-z]+", msgstr)):
            continue  # the English word kept as it is: a YAML key, a command's word
        wanted = chosen[0] if lang == "ja" else chosen[1]
        excused = any(
            lang == k[0] and context == k[1] and msgid.startswith(k[2]) for k in EXCEPTIONS
        )
        if wanted not in msgstr and not excused:
            found.append(f"{rel} [{context}] {msgid!r} -> {msgstr!r} (wants {wanted})")
    return found


@pytest.mark.parametrize("term", list(TERMS), ids=lambda t: re.sub(r"\W", "", t))
def test_one_english_term_has_one_translation(term: str) -> None:
    problems = _violations(term, TERMS[term])
    assert not problems, "\n".join(problems)


def test_the_check_fails_on_two_translations_of_one_term() -> None:
    """The check itself: 咒文 for "spell" in one entry beside 法术 elsewhere is caught."""
    ENTRIES.append(("x.po", "zh", "tune", "Spells on curve", "按时打出的咒文"))
    try:
        assert _violations(r"spells?", TERMS[r"spells?"])
    finally:
        ENTRIES.pop()


def test_every_catalogue_is_read() -> None:
    assert len(CATALOGUES) >= 6 and len(ENTRIES) > 500
