"""Messages in English, Japanese and Chinese (issue 7): catalogues, rendering, language choice.

The catalogues are read from their .po sources with Babel, and the messages the code marks
(msg/nmsg/N_, the schemas' hints in the schemahints modules among them) are found with Babel's extractor, so a message added
without a translation, or a translation that drops a placeholder, fails here.
"""

from __future__ import annotations

import datetime as dt
import gettext
import json
import re
import shutil
import sys
from collections.abc import Iterator
from pathlib import Path
from string import Formatter
from types import SimpleNamespace
from typing import Any

import pytest
from babel.messages.catalog import Catalog
from babel.messages.catalog import Message as PoMessage
from babel.messages.extract import extract_from_dir
from babel.messages.frontend import parse_mapping_cfg
from babel.messages.pofile import read_po
from typer.testing import CliRunner

from varz_deck.cli import app, main
from varz_deck.core.cards.model import CardDatabase
from varz_deck.core.dates import on_date
from varz_deck.core.decks.check import DeckReport, diagnostic_json
from varz_deck.core.files.source import DeckSource
from varz_deck.core.messages import i18n
from varz_deck.core.messages.diagnostics import diag
from varz_deck.core.messages.i18n import (
    CardName,
    Joined,
    Message,
    Quoted,
    Term,
    choose_language,
    localized,
    msg,
    nmsg,
    normalize_language,
    option_from_argv,
)
from varz_deck.core.report import json_report
from varz_deck.core.report import text as text_report
from varz_deck.games import all_codes, check_deck, check_decks, get_game, open_database
from varz_deck.games.varz.cards import Card

src = DeckSource.from_path

ROOT = Path(__file__).resolve().parent.parent
Extracted = dict[tuple[str, str], tuple[str, ...]]
CASES = ROOT / "tests" / "cases"
ALTDB = ROOT / "tests" / "data" / "altdb"
LOCALE = ROOT / "varz_deck" / "locale"
GAMES = ROOT / "varz_deck" / "games"
# Each catalogue: its name, its gettext domain and its locale folder (with its babel.cfg). The
# core's holds the core's, command line's and servers' messages; each game's holds its own.
CATALOGUES = {
    "core": (i18n.DOMAIN, LOCALE),
    "varz": ("varz", GAMES / "varz" / "locale"),
    "azuki": ("azuki", GAMES / "azuki" / "locale"),
}
TRANSLATED = ("ja", "zh")
UNSAFE = re.compile(r"[\x00-\x1f\x7f-\x9f\u200b-\u200f\u2028-\u202e\u2066-\u2069\ufeff]")

# Codes whose messages are made in modules not yet marked for translation. Empty since the second
# pass (card data, deck codes): a new code goes here only while its messages are English-only.
NOT_YET_TRANSLATED: set[str] = set()

# A failing example of each rule, in each language, shows the rulebook's own words.
RULEBOOK_TERMS: dict[str, tuple[str, str]] = {
    "F001": ("UTF-8", "UTF-8"),
    "F003": ("2 回", "两次"),
    "F005": ("不明なカード", "未知的卡牌"),
    "F006": ("ID", "ID"),
    "F007": ("フォーマット", "赛制"),
    "F008": ("カード", "卡"),
    "F010": ("デッキ", "牌组"),
    "V101": ("ヒーローカード", "英雄卡"),
    "V102": ("デッキ", "牌组"),
    "V103": ("同名カード", "同名卡"),
    "V104": ("ポータルデッキ", "传送门牌组"),
    "V105": ("シールドライフ", "护盾生命"),
    "V106": ("ポータル", "传送门"),
    "V107": ("効果を持つポータル", "带有效果的传送门"),
    "V108": ("ベーシックゲート", "基础门"),
    "V109": ("効果を持つポータル", "带有效果的传送门"),
    "V110": ("スキルデッキ", "技能牌组"),
    "V111": ("VAZ スキル", "VAZ 技能"),
    "V112": ("メモリー", "记忆值"),
    "V113": ("汎用", "通用"),
    "V114": ("VAZ スキル", "VAZ 技能"),
    "V115": ("禁止", "禁止"),
    "V116": ("制限", "限制"),
    "V117": ("収録", "收录"),
    "V118": ("発売", "发售"),
    "W201": ("生み出せる", "产出"),
    "W202": ("進化レベル", "进化等级"),
    "W203": ("あと", "还有"),
}
# F002 and F004 say different things case by case: the words each case's message must show.
CASE_TERMS: dict[str, tuple[str, str]] = {
    "F002/bad_alias_bomb.yaml": ("エイリアス", "别名"),
    "F002/bad_anchor_alias.yaml": ("エイリアス", "别名"),
    "F002/bad_undefined_alias.yaml": ("エイリアス", "别名"),
    "F002/bad_nesting_200.yaml": ("入れ子", "嵌套"),
    "F002/bad_python_tag.yaml": ("タグ", "标签"),
    "F002/bad_syntax_mapping_value.yaml": ("構文エラー", "语法错误"),
    "F002/bad_syntax_unclosed_bracket.yaml": ("構文エラー", "语法错误"),
    **{
        f"F004/bad_{name}": ("枚数", "张数")
        for name in (
            "count_100.yaml",
            "count_100_plain_text.txt",
            "count_bool.yaml",
            "count_float.yaml",
            "count_negative.yaml",
            "count_string.yaml",
            "count_zero.yaml",
            "count_zero_list.yaml",
            "count_not_whole_as_written.yaml",
        )
    },
    "F004/bad_list_item_without_count.yaml": ("リストの各項目", "列表的每一项"),
    "F004/bad_root_list.yaml": ("マッピング", "映射"),
    "F004/bad_root_scalar.yaml": ("マッピング", "映射"),
    "F004/bad_spells_string.yaml": ("セクション", "分区"),
    "F004/bad_unknown_key.yaml": ("不明なキー", "未知的键"),
}


def _terms(case: Path, by_code: dict[str, tuple[str, str]]) -> tuple[str, str]:
    """The Japanese and Chinese words a failing case's message must contain (never empty)."""
    terms = CASE_TERMS.get(f"{case.parent.name}/{case.name}") or by_code[case.parent.name]
    assert all(terms), f"{case}: no words to look for"
    return terms


# --------------------------------------------------------------------------- catalogues


def _key(context: str | None, msgid: object) -> tuple[str, str]:
    return (context or "", str(msgid[0]) if isinstance(msgid, (tuple, list)) else str(msgid))


def _extract(config: Path) -> Extracted:
    with config.open(encoding="utf-8") as handle:
        method_map, options_map = parse_mapping_cfg(handle)
    found: Extracted = {}
    for _file, _line, message, _comments, context in extract_from_dir(
        str(ROOT), method_map, options_map, keywords=i18n.BABEL_KEYWORDS
    ):
        forms = message if isinstance(message, tuple) else (message,)
        found[_key(context, message)] = forms
    return found


@pytest.fixture(scope="module")
def extracted_by() -> dict[str, Extracted]:
    """Each catalogue's marked messages, by its own babel.cfg: (context, msgid) -> msgid forms."""
    return {name: _extract(folder / "babel.cfg") for name, (_, folder) in CATALOGUES.items()}


@pytest.fixture(scope="module")
def extracted(extracted_by: dict[str, Extracted]) -> Extracted:
    """Every marked message in the code and schemas, of every catalogue."""
    return {key: forms for found in extracted_by.values() for key, forms in found.items()}


def _read(name: str, lang: str) -> Catalog:
    domain, folder = CATALOGUES[name]
    with i18n.catalogue_paths(lang, domain, folder)[0].open("rb") as handle:
        return read_po(handle, locale=lang)


@pytest.fixture(
    scope="module",
    params=[(name, lang) for name in CATALOGUES for lang in TRANSLATED],
    ids=lambda p: f"{p[0]}-{p[1]}",
)
def catalogue(
    request: pytest.FixtureRequest, extracted_by: dict[str, Extracted]
) -> tuple[str, Catalog, Extracted]:
    """One catalogue in one language, with the messages its sources mark."""
    name, lang = request.param
    return f"{name}/{lang}", _read(name, lang), extracted_by[name]


def _forms(value: object) -> list[str]:
    """A .po entry's msgid or msgstr as a list of forms (singular and plural)."""
    return [str(v or "") for v in value] if isinstance(value, (tuple, list)) else [str(value or "")]


def _entries(catalog: Catalog) -> Iterator[tuple[tuple[str, str], PoMessage]]:
    for message in catalog:
        if message.id:
            yield _key(message.context, message.id), message


def test_the_babel_config_names_the_same_sources_as_the_test() -> None:
    """The schemas' hints are msg() calls in the schemahints modules, read by the python extractor;
    the core's catalogue leaves the games' packages to theirs."""
    config = (LOCALE / "babel.cfg").read_text(encoding="utf-8")
    assert "[python: varz_deck/**.py]" in config
    assert "[ignore: varz_deck/games/*/**]" in config
    assert "schema_hints" not in config
    for game in ("varz", "azuki"):
        own = (GAMES / game / "locale" / "babel.cfg").read_text(encoding="utf-8")
        assert f"[python: varz_deck/games/{game}/**.py]" in own
        assert f"game = {game}" in own


def test_a_message_in_two_catalogues_has_one_translation() -> None:
    """The core's catalogue is asked first, then each game's: a message two of them hold must say
    the same in both, or the game loaded first would decide."""
    for lang in TRANSLATED:
        seen: dict[tuple[str, str], tuple[str, object]] = {}
        for name in CATALOGUES:
            for key, message in _entries(_read(name, lang)):
                first = seen.setdefault(key, (name, message.string))
                assert first[1] == message.string, (lang, key, first[0], name)


def test_a_games_words_come_from_its_own_catalogue() -> None:
    """Marked in the game's package only, translated from the game's catalogue once it is loaded."""
    from varz_deck.games import get_game

    assert ("section", "portals") not in dict(_entries(_read("core", "ja")))
    get_game("varz")
    assert i18n.term("section", "portals", "ja") == "ポータルデッキ"
    assert i18n.term("section", "portals", "zh") == "传送门牌组"


def test_every_marked_message_is_translated(catalogue: tuple[str, Catalog, Extracted]) -> None:
    lang, catalog, extracted = catalogue
    entries = dict(_entries(catalog))
    missing = sorted(key for key in extracted if key not in entries)
    assert not missing, f"{lang}: no translation for {missing}"
    for key, message in entries.items():
        assert all(s.strip() for s in _forms(message.string)), f"{lang}: empty for {key}"
        assert not message.fuzzy, f"{lang}: fuzzy translation for {key}"


def test_no_translation_is_left_over_for_a_message_that_is_gone(
    catalogue: tuple[str, Catalog, Extracted],
) -> None:
    lang, catalog, extracted = catalogue
    stale = sorted(key for key, _ in _entries(catalog) if key not in extracted)
    assert not stale, f"{lang}: translations of messages no longer in the code: {stale}"


def _fields(template: str) -> set[tuple[str, str]]:
    return {
        (name, spec or "") for _, name, spec, _ in Formatter().parse(template) if name is not None
    }


def test_every_translation_keeps_exactly_the_placeholders_of_its_msgid(
    catalogue: tuple[str, Catalog, Extracted],
) -> None:
    lang, catalog, _ = catalogue
    for key, message in _entries(catalog):
        wanted = set().union(*(_fields(i) for i in _forms(message.id)))
        for string in _forms(message.string):
            assert _fields(string) == wanted, f"{lang}: {key} has {string!r}"


def test_catalogues_use_one_plural_form(catalogue: tuple[str, Catalog, Extracted]) -> None:
    lang, catalog, _ = catalogue
    assert catalog.num_plurals == 1, lang  # Japanese and Chinese do not inflect for number


def test_every_code_has_translated_messages_or_is_listed_as_pending(extracted: Extracted) -> None:
    contexts = {context for context, _ in extracted}
    for code in all_codes():
        if code in NOT_YET_TRANSLATED:
            assert code not in contexts, f"{code} has messages now: drop it from NOT_YET_TRANSLATED"
        else:
            assert code in contexts, f"{code} has no translatable message"


def test_every_rule_summary_and_example_is_extracted_for_the_catalogues(
    extracted: Extracted,
) -> None:
    """`rules CODE --lang ja|zh` shows each code's summary and its rule's examples translated; the
    extractor hands every one to the catalogues, so an example added without its translations
    fails test_every_marked_message_is_translated."""
    wanted = {("summary", info.summary) for info in all_codes().values()}
    wanted |= {("example", text) for info in all_codes().values() for _, text in info.examples}
    assert len(wanted) > 2 * 30
    missing = sorted(wanted - extracted.keys())
    assert not missing, f"not extracted: {missing}"


def test_a_rule_docstring_is_its_summary_then_one_line_examples() -> None:
    """In ja/zh `rules CODE` shows the summary and the examples: any other line of a docstring
    (prose, an example continued on a second line) would be left out there."""
    for code, info in all_codes().items():
        rest = [line for line in info.doc.splitlines()[1:] if line.strip()]
        assert len(rest) == len(info.examples), f"{code}: lines that are not examples: {rest}"


def test_the_rulebook_terms_are_used_for_the_game_words() -> None:
    expect = {
        ("section", "portals"): ("ポータルデッキ", "传送门牌组"),
        ("section", "skills"): ("スキルデッキ", "技能牌组"),
        ("card type", "hero"): ("ヒーロー", "英雄"),
        ("class", "generic"): ("汎用", "通用"),
        ("format", "Standard"): ("スタンダード", "标准"),
        ("color", "colorless"): ("無色", "无色"),
    }
    for (group, value), (ja, zh) in expect.items():
        assert i18n.term(group, value, "ja") == ja
        assert i18n.term(group, value, "zh") == zh
        assert i18n.term(group, value, "en") == value


# --------------------------------------------------------------------------- each rule


@pytest.fixture(scope="module")
def altdb() -> CardDatabase:
    return open_database(ALTDB)


def _failing_examples() -> list[Path]:
    return sorted(p for p in CASES.glob("*/bad_*") if p.suffix in (".yaml", ".yml", ".txt"))


def _messages(value: object) -> Iterator[Message]:
    if isinstance(value, Message):
        yield value
        for _, arg in value.args:
            yield from _messages(arg)
    elif isinstance(value, Joined):
        for item in value.items:
            yield from _messages(item)


@pytest.fixture(scope="module")
def catalogues() -> dict[str, Catalog]:
    """Every catalogue's entries in one, by language (the look-up renders with)."""
    out = {}
    for lang in TRANSLATED:
        merged = Catalog(locale=lang)
        for name in CATALOGUES:
            for message in _read(name, lang):
                if message.id and merged.get(message.id, context=message.context) is None:
                    merged[message.id] = message
        out[lang] = merged
    return out


@pytest.mark.parametrize("deck", _failing_examples(), ids=lambda p: f"{p.parent.name}/{p.name}")
def test_each_failing_example_speaks_three_languages(
    deck: Path, altdb: CardDatabase, catalogues: dict[str, Catalog]
) -> None:
    code = deck.parent.name
    dated = deck.with_suffix(".date")  # a case's day (tests/test_cases.py)
    day = dt.date.fromisoformat(dated.read_text().strip()) if dated.exists() else None
    report = check_decks([deck], altdb, date=day)[0]
    found = [d for d in report.diagnostics if d.code == code]
    assert found, f"{deck} does not report {code}"
    for d in found:
        assert d.text is not None, f"{code} message is not translatable: {d.message}"
        assert localized(d, "en") == d.message
        ja, zh = localized(d, "ja"), localized(d, "zh")
        for text in (ja, zh):
            assert not UNSAFE.search(text), text
            assert text != d.message or code == "F002", f"{code} not translated: {text}"
        ja_term, zh_term = _terms(deck, RULEBOOK_TERMS)
        assert ja_term in ja, ja
        assert zh_term in zh, zh
        card = altdb.cards.get(d.card or "")
        if card is not None and code not in ("F006",):
            for lang, text in (("ja", ja), ("zh", zh)):
                assert card.name_in(lang) in text, (lang, text)
        for message in _messages(d.text):  # every part of it has its translation
            if message.context:
                for lang, catalog in catalogues.items():
                    assert catalog.get(message.msgid, context=message.context), (lang, message)


def test_v105_says_shield_life_in_each_language(altdb: CardDatabase) -> None:
    report = check_deck(CASES / "V105" / "bad_19.yaml", altdb, date=on_date())
    (d,) = [d for d in report.diagnostics if d.code == "V105"]
    assert (
        d.message
        == "19 Shield Life; needs exactly 20 (1 more: swap portals for ones of other Shield Life)"
    )
    assert localized(d, "ja").startswith(
        "シールドライフの合計が 19 です。ちょうど 20 でなければなりません"
    )
    assert localized(d, "zh").startswith("护盾生命总和为 19；必须恰好为 20")


def test_card_names_come_in_the_chosen_language(altdb: CardDatabase) -> None:
    report = check_deck(CASES / "V103" / "bad_4_copies.yaml", altdb, date=on_date())
    (d,) = [d for d in report.diagnostics if d.code == "V103"]
    assert "'Ember Imp'" in d.message
    assert "「火の小鬼」" in localized(d, "ja")
    assert "「Ember Imp」" in localized(d, "zh")  # no Chinese name in this database: English


def test_plural_forms_follow_the_count() -> None:
    portals = nmsg(
        "V104", "{n} portal; x {need} (add {diff})", "{n} portals; x {need} (add {diff})"
    )
    assert portals(n=1, need=8, diff=7).render() == "1 portal; x 8 (add 7)"
    assert portals(n=2, need=8, diff=6).render() == "2 portals; x 8 (add 6)"


# --------------------------------------------------------------------------- rendering


def test_user_text_is_escaped_in_every_language() -> None:
    nasty = "Evil\x1b[2J\u202eName"
    card = Card(id="X-1", name=nasty, type="spil", set="X", names={"ja": nasty + "\x07"})
    message = msg("V115", "{card} is banned in {format}; replace it")(
        card=CardName.of(card), format=Term("format", "Std\x1b]0;")
    )
    for lang in ("en", "ja", "zh"):
        text = message.render(lang)
        assert not UNSAFE.search(text), (lang, text)
        assert "\\x1b[2J" in text
    d = diag(
        "F005",
        msg("F005", "unknown card {ref}; check the spelling or use the card id"),
        args={"ref": "\x1b"},
    )
    assert "\\x1b" in d.message


def test_quotes_follow_the_language() -> None:
    quoted = msg("F007", "unknown format {format}; this card database has: {known}")(
        format=Quoted("modern"), known=Joined(("pioneer", "standard"))
    )
    assert (
        quoted.render("en") == "unknown format 'modern'; this card database has: pioneer, standard"
    )
    assert quoted.render("ja").startswith("不明なフォーマット「modern」です")
    assert "pioneer、standard" in quoted.render("zh")


def test_a_broken_translation_falls_back_to_english(monkeypatch: pytest.MonkeyPatch) -> None:
    class Broken(gettext.NullTranslations):
        def pgettext(self, context: str, message: str) -> str:
            return "{nonsense}"

    monkeypatch.setattr(i18n, "translations", lambda lang: Broken())
    message = msg("V105", "{total} Shield Life")(total=19)
    assert message.render("ja") == "19 Shield Life"


def test_a_message_without_values_keeps_its_braces() -> None:
    hint = Message("schema", "names maps language codes (ja, zh, ...) to names, e.g. {ja: 茉莉}")
    assert "{ja: 茉莉}" in hint.render("ja")


def test_english_text_keeps_its_message_for_diag() -> None:
    from varz_deck.core.files.source import LoadError

    err = LoadError("F001", msg("F001", "no such file; check the path"))
    assert err.message == "no such file; check the path"
    d = diag(err.code, err.message)
    assert localized(d, "ja") == "ファイルがありません：パスを確認してください"


def test_a_diagnostic_without_a_template_is_shown_as_it_is() -> None:
    d = diag("C002", "id 'X' is used twice")
    assert d.template == "" and d.args == ()
    assert localized(d, "ja") == "id 'X' is used twice"


# --------------------------------------------------------------------------- catalogue loading


def test_a_po_compiles_in_memory_without_a_built_mo() -> None:
    po, _mo = i18n.catalogue_paths("zh", *CATALOGUES["varz"])
    compiled = i18n.compile_po(po)
    assert compiled is not None
    assert compiled.pgettext("section", "portals") == "传送门牌组"


def test_the_build_hook_compiles_every_catalogue(tmp_path: Path) -> None:
    sys.path.insert(0, str(ROOT))
    try:
        import hatch_build
    finally:
        sys.path.remove(str(ROOT))
    for domain, folder in CATALOGUES.values():
        for lang in TRANSLATED:
            po = i18n.catalogue_paths(lang, domain, folder)[0]
            target = tmp_path / po.parent.relative_to(ROOT)
            target.mkdir(parents=True)
            shutil.copy(po, target)
    build_data: dict[str, list[str]] = {"artifacts": []}
    hook = SimpleNamespace(root=str(tmp_path), app=SimpleNamespace(display_info=lambda _: None))
    hatch_build.CatalogueBuildHook.initialize(hook, "standard", build_data)  # type: ignore[arg-type]
    built = set(build_data["artifacts"])
    for lang in TRANSLATED:
        assert f"varz_deck/locale/{lang}/LC_MESSAGES/varz_deck.mo" in built
        for game in ("varz", "azuki"):
            assert f"varz_deck/games/{game}/locale/{lang}/LC_MESSAGES/{game}.mo" in built
    assert len(built) == 3 * len(TRANSLATED)
    mo = tmp_path / "varz_deck" / "games" / "varz" / "locale" / "ja" / "LC_MESSAGES" / "varz.mo"
    with mo.open("rb") as handle:
        assert gettext.GNUTranslations(handle).pgettext("section", "skills") == "スキルデッキ"


def test_english_needs_no_catalogue() -> None:
    for lang in ("en", "fr"):
        catalogue = i18n.translations(lang)
        assert not isinstance(catalogue, gettext.GNUTranslations)
        assert catalogue.gettext("skills") == "skills"
        assert catalogue.npgettext("report", "{n} deck", "{n} decks", 2) == "{n} decks"


# --------------------------------------------------------------------------- language choice


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("ja", "ja"),
        ("ja_JP.UTF-8", "ja"),
        ("zh_CN.UTF-8", "zh"),
        ("zh-Hans", "zh"),
        ("en_US.UTF-8", "en"),
        ("C", "en"),
        ("POSIX", "en"),
        ("C.UTF-8", "en"),
        ("fr_FR.UTF-8", None),
        ("", None),
        (None, None),
    ],
)
def test_locale_names_map_to_languages(value: str | None, expected: str | None) -> None:
    assert normalize_language(value) == expected


@pytest.mark.parametrize(
    ("option", "env", "expected"),
    [
        ("zh", {"VARZ_DECK_LANG": "ja", "LC_ALL": "ja_JP.UTF-8"}, "zh"),
        (None, {"VARZ_DECK_LANG": "ja", "LC_ALL": "zh_CN.UTF-8"}, "ja"),
        (None, {"VARZ_DECK_LANG": "fr", "LANG": "zh_CN.UTF-8"}, "zh"),
        (None, {"LC_ALL": "zh_CN.UTF-8", "LC_MESSAGES": "ja_JP", "LANG": "en_US"}, "zh"),
        (None, {"LC_MESSAGES": "ja_JP.UTF-8", "LANG": "zh_CN"}, "ja"),
        (None, {"LANG": "ja_JP.UTF-8"}, "ja"),
        (None, {"LC_ALL": "C", "LANG": "ja_JP.UTF-8"}, "en"),
        (None, {"LC_ALL": "de_DE.UTF-8", "LANG": "ja_JP.UTF-8"}, "en"),
        (None, {}, "en"),
    ],
)
def test_language_is_option_then_env_then_locale_then_english(
    option: str | None, env: dict[str, str], expected: str
) -> None:
    assert choose_language(option, env) == expected


def test_lang_is_found_anywhere_on_the_command_line() -> None:
    assert option_from_argv(["check", "a.yaml", "--lang", "ja"]) == "ja"
    assert option_from_argv(["--lang=zh", "rules"]) == "zh"
    assert option_from_argv(["check", "--", "--lang", "ja"]) is None
    assert option_from_argv(["check", "--lang"]) is None


# --------------------------------------------------------------------------- command line


@pytest.fixture
def clean_env(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("VARZ_DECK_LANG", "LC_ALL", "LC_MESSAGES", "LANG", "LANGUAGE"):
        monkeypatch.delenv(name, raising=False)


def _check(*args: str, env: dict[str, str] | None = None) -> str:
    deck = str(CASES / "V105" / "bad_19.yaml")
    result = CliRunner().invoke(app, ["check", deck, "--cards", str(ALTDB), *args], env=env)
    assert result.exit_code == 1, result.output
    return result.output


def test_check_with_lang_ja_prints_japanese(clean_env: None) -> None:
    out = _check("--lang", "ja")
    assert "✗ 不適正" in out
    assert "ポータルデッキ" in out
    assert "V105 エラー: シールドライフの合計が 19 です" in out
    assert "1 個のデッキをチェックしました：適正 0、不適正 1（エラー 1 件、警告 0 件）" in out


def test_check_with_lang_zh_prints_chinese(clean_env: None) -> None:
    out = _check("--lang", "zh")
    assert "✗ 不合法" in out
    assert "传送门牌组" in out
    assert "V105 错误: 护盾生命总和为 19" in out


def test_check_follows_the_environment_then_the_locale(clean_env: None) -> None:
    assert "护盾生命" in _check(env={"VARZ_DECK_LANG": "zh", "LANG": "ja_JP.UTF-8"})
    assert "シールドライフ" in _check(env={"LANG": "ja_JP.UTF-8"})
    assert "19 Shield Life" in _check(env={"LC_ALL": "C", "LANG": "ja_JP.UTF-8"})
    assert "19 Shield Life" in _check()


def test_an_unknown_lang_is_a_usage_error(clean_env: None) -> None:
    result = CliRunner().invoke(app, ["check", "x.yaml", "--lang", "fr"])
    assert result.exit_code == 2


def test_json_output_adds_message_localized_only_for_another_language(clean_env: None) -> None:
    english = json.loads(_check("--output", "json"))
    japanese = json.loads(_check("--output", "json", "--lang", "ja"))
    (d_en,) = english["decks"][0]["diagnostics"]
    (d_ja,) = japanese["decks"][0]["diagnostics"]
    assert list(d_en) == ["code", "severity", "message", "section", "card", "line", "column"]
    assert list(d_ja) == [
        "code", "severity", "message", "message_localized", "section", "card", "line", "column",
    ]  # fmt: skip
    assert d_ja["message"] == d_en["message"]  # machines keep the English text
    assert d_ja["message_localized"].startswith("シールドライフの合計が 19")


def test_github_and_sarif_keep_english(clean_env: None) -> None:
    assert "19 Shield Life" in _check("--output", "github", "--lang", "ja")
    sarif = json.loads(_check("--output", "sarif", "--lang", "zh"))
    assert sarif["runs"][0]["results"][0]["message"]["text"].startswith("19 Shield Life")


def test_rules_lists_codes_with_translated_headings(clean_env: None) -> None:
    result = CliRunner().invoke(app, ["rules", "--lang", "ja"])
    assert result.exit_code == 0
    assert "ルールブック" in result.output and "V105" in result.output


def test_help_of_the_main_commands_is_translated(
    clean_env: None, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(["check", "--help", "--lang", "ja"])
    assert exit_.value.code == 0
    out = capsys.readouterr().out
    assert (
        "インストールされているすべてのゲームのデッキ" in out
    )  # issue 12, 25: every installed game
    assert "デッキファイル（.yaml、.yml、.txt、.dek）" in out
    assert "メッセージの言語" in out


def test_help_follows_the_environment(
    clean_env: None, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("VARZ_DECK_LANG", "zh")
    with pytest.raises(SystemExit):
        main(["--help"])
    assert "牌组合法性检查器" in capsys.readouterr().out


# --------------------------------------------------------------------------- reporters


def _report() -> DeckReport:
    hero = Card(
        id="VZ01-001", name="Hibiki Kagura", type="hero", set="VZ01", names={"ja": "神楽 響"}
    )
    d = diag(
        "V105",
        msg(
            "V105",
            "{total} Shield Life; needs exactly {need} ({diff} more: swap portals for ones of other Shield Life)",
        ),
        args={"total": 19, "need": 20, "diff": 1},
        file="a.yaml",
        section="portals",
    )
    counts = {"spells": 30, "skills": 9, "portals": 8, "shield_life": 19}
    words = get_game("varz").words
    return DeckReport("a.yaml", "Deck", "standard", hero, counts, (d,), game="varz", words=words)


def test_text_report_in_japanese() -> None:
    out = text_report.render_check([_report()], lang="ja")
    assert out.splitlines() == [
        "✗ 不適正  a.yaml  (Deck · standard · ヒーロー 神楽 響)  エラー 1 件、警告 0 件",
        "  ポータルデッキ",
        "    a.yaml: V105 エラー: シールドライフの合計が 19 です。ちょうど 20 でなければなりません"
        "（1 足りません：シールドライフの異なるポータルと入れ替えてください）",
        "1 個のデッキをチェックしました：適正 0、不適正 1（エラー 1 件、警告 0 件）",
    ]


def test_text_report_in_english_is_unchanged() -> None:
    out = text_report.render_check([_report()])
    assert (
        out.splitlines()[0]
        == "✗ illegal  a.yaml  (Deck · standard · hero Hibiki Kagura)  1 error, 0 warnings"
    )
    assert out.splitlines()[-1] == "1 deck checked: 0 legal, 1 illegal (1 error, 0 warnings)"


def test_lint_summary_in_chinese() -> None:
    d = diag("C002", "id 'X' is used twice", file="a.yaml")
    out = text_report.render_lint({"a.yaml": [d]}, "cards", lang="zh")
    assert out.splitlines()[-1] == "cards：已检查 1 个文件，1 个错误，0 个警告"
    assert "C002 错误: id 'X' is used twice" in out
    clean = text_report.render_lint({"a.yaml": []}, "cards", lang="ja")
    assert clean.strip() == "cards：1 個のファイルを検査しました。問題はありません"


def test_json_lint_has_message_localized_for_another_language() -> None:
    d = diag("C002", "id 'X' is used twice", file="a.yaml")
    payload = json.loads(json_report.render_lint({"a.yaml": [d]}, "zh"))
    entry = payload["files"][0]["diagnostics"][0]
    assert entry["message_localized"] == entry["message"]  # no template: said as written
    assert "message_localized" not in diagnostic_json(d)


# --------------------------------------------------------------------------- second pass

LINT_CASES = ROOT / "tests" / "lint_cases"
EXAMPLES = ROOT / "examples"
KAGURA = EXAMPLES / "red-kagura-festival.yaml"
ILLEGAL = EXAMPLES / "illegal.yaml"
# Words a translation that was forgotten would still show.
ENGLISH_WORDS = re.compile(r"\b(the|is|are|must|unknown|remove|did you mean|does not|which)\b")

# A failing card-data case, in each language, shows these words.
LINT_TERMS: dict[str, tuple[str, str]] = {
    "C001": ("カード", "卡牌"),
    "C002": ("2 回", "两次"),
    "C003": ("収録", "版本"),
    "C004": ("不明な", "未知的"),
    "C005": ("フォーマット", "赛制"),
    "C101": ("名前", "名称"),
    "C102": ("セットコード", "系列代码"),
    "C103": ("訳", "译名"),
    "C104": ("フォーマット", "赛制"),
    "C008": ("実在しない日", "不存在"),
    "C105": ("日付順", "日期顺序"),
    "C009": ("フォーマット", "赛制"),
    "C010": ("禁止解除", "解禁"),
    "C011": ("発売日", "发售日期"),
    "C012": ("制限", "限制"),
    "C013": ("セット", "系列"),
    "C006": ("カードがありません", "没有卡牌"),
    "C007": ("フォーマットファイル", "赛制文件"),
    "F001": ("UTF-8 で保存", "另存为 UTF-8"),
    "F003": ("2 回", "两次"),
}
CASE_TERMS.update(
    {
        "C001/bad_formats": ("フォーマット", "赛制"),
        "C001/bad_set_block": ("日付", "日期"),
        "F002/bad_alias_bomb": ("ノード", "节点"),
        "F002/bad_nesting_200": ("入れ子", "嵌套"),
        "F002/bad_python_tag": ("タグ", "标签"),
        "F002/bad_two_documents": ("YAML ドキュメント", "YAML 文档"),
        "F002/bad_unclosed_bracket": ("構文エラー", "语法错误"),
    }
)


def _failing_lint_cases() -> list[Path]:
    return sorted(p for p in LINT_CASES.glob("*/bad*") if p.is_dir())


@pytest.mark.parametrize("case", _failing_lint_cases(), ids=lambda p: f"{p.parent.name}/{p.name}")
def test_each_failing_lint_case_speaks_three_languages(
    case: Path, catalogues: dict[str, Catalog]
) -> None:
    from varz_deck.games import lint_database

    code = case.parent.name
    found = [d for d in lint_database(case).diagnostics if d.code == code]
    assert found, f"{case} does not report {code}"
    for d in found:
        assert d.text is not None, f"{code} message is not translatable: {d.message}"
        assert localized(d, "en") == d.message
        ja, zh = localized(d, "ja"), localized(d, "zh")
        for lang, text in (("ja", ja), ("zh", zh)):
            assert not UNSAFE.search(text), (lang, text)
            assert text != d.message, f"{code} not translated into {lang}: {text}"
            assert not ENGLISH_WORDS.search(text), f"{code} half translated into {lang}: {text}"
        ja_term, zh_term = _terms(case, LINT_TERMS)
        assert ja_term in ja, ja
        assert zh_term in zh, zh
        for message in _messages(d.text):  # every part of it has its translation
            if message.context:
                for lang, catalog in catalogues.items():
                    assert catalog.get(message.msgid, context=message.context), (lang, message)


def test_c001_wording_is_kept_in_english() -> None:
    from varz_deck.games import lint_database

    (d,) = [
        d
        for d in lint_database(LINT_CASES / "C001" / "bad_unknown_field").diagnostics
        if d.code == "C001"
    ]
    assert d.message == "card TS2-002: unknown field 'colour'; did you mean 'color'?"
    assert localized(d, "ja") == "カード TS2-002：不明な項目「colour」です：「color」のことですか？"
    assert localized(d, "zh") == "卡牌 TS2-002：未知的字段「colour」：您是指「color」吗？"


@pytest.mark.parametrize(
    ("code", "ja", "zh"),
    [
        ("VZ1abc", "途中で切れているか、壊れています", "代码不完整或已损坏"),
        ("VZ9AAAA", "バージョン 9 のコードです", "这是版本 9 的代码"),
        ("XYZ", "デッキコードは VZ1 で始まります", "牌组代码以 VZ1 开头"),
        ("VZ1A!B", "「!」はデッキコードに使える文字ではありません", "「!」不是牌组代码可用的字符"),
    ],
)
def test_deck_code_problems_speak_three_languages(code: str, ja: str, zh: str) -> None:
    from varz_decks import decode, read_code

    from varz_deck.core.registration.code import CodeError

    _deck, (d,) = read_code(code)
    assert d.code == "F009" and d.message.startswith("deck code cannot be decoded: ")
    assert localized(d, "ja").startswith("デッキコードを解読できません：")
    assert ja in localized(d, "ja")
    assert localized(d, "zh").startswith("无法解码牌组代码：")
    assert zh in localized(d, "zh")
    with pytest.raises(CodeError) as err:
        decode(code)
    assert str(err.value) == d.message.removeprefix("deck code cannot be decoded: ")


def _invoke(*args: str) -> Any:
    return CliRunner().invoke(app, [str(a) for a in args])


def test_sim_with_lang_ja_prints_japanese(clean_env: None) -> None:
    result = _invoke("sim", KAGURA, "--games", "200", "--lang", "ja")
    assert result.exit_code == 0, result.output
    out = result.stdout.replace("\n", "")  # Japanese lines wrap without a space
    for words in (
        "一人回し：Kagura Festival Burn",
        "ヒーロー 神楽 響（赤、進化レベル 6） · スペル 30 枚 · スキル 9 枚",
        "200 ゲーム · シード 1 · 8 ターン · 先攻 · マリガン：自動",
        "3 ターン目に V-Sync",
        "色別のコストカーブ",
        "ターンごとの VAZ",
        "初手",
        "一人回しでカーブターンに使用",
        "エンバー・インプ",  # the card's Japanese name
        "厳密",
    ):
        assert words in out, words
    for english in ("Goldfish", "Opening hand", "Cost curve", "on the play", "Ember Imp", "Exact"):
        assert english not in out, english


def test_sim_json_stays_english_whatever_the_language(clean_env: None) -> None:
    english = _invoke("sim", KAGURA, "--games", "200", "-o", "json")
    japanese = _invoke("sim", KAGURA, "--games", "200", "-o", "json", "--lang", "ja")
    assert english.exit_code == japanese.exit_code == 0
    assert japanese.stdout == english.stdout


def test_sim_compare_warning_and_plot_in_chinese(clean_env: None, tmp_path: Path) -> None:
    plot = tmp_path / "charts.svg"
    result = _invoke(
        "sim", KAGURA, "--vs", ILLEGAL, "--games", "200", "--lang", "zh", "--plot", plot
    )
    assert result.exit_code == 0, result.output
    assert "警告：" in result.output and "牌组不合法（4 个问题" in result.output
    assert "牌组：Kagura Festival Burn" in result.stdout
    assert "对比：Broken Festival" in result.stdout
    changes = "改动（对比 − 牌组）："  # every change, by section, under one heading (issue 12)
    assert changes in result.stdout and "余烬小鬼" not in result.stdout.split(changes)[0]
    assert "每回合的差值（对比 − 牌组，± 95%）" in result.stdout  # no English left (issue 12)
    chart = plot.read_text(encoding="utf-8")
    assert "按颜色的费用曲线：Kagura Festival Burn" in chart and "可用 VAZ" in chart
    bad = _invoke("sim", KAGURA, "--plot", tmp_path / "x.gif", "--lang", "ja")
    assert bad.exit_code == 2
    assert "末尾が .svg か .png のファイル名を指定してください" in bad.output


def test_register_with_lang_zh_prints_chinese(clean_env: None) -> None:
    result = _invoke("register", KAGURA, ILLEGAL, "--lang", "zh")
    assert result.exit_code == 1, result.output
    out = result.stdout
    for words in (
        "✓ 合法  ",
        "✗ 不合法  ",
        "玩家：Aoi Tanaka · 赛事：Tokyo Open 2026 · 赛制：standard",
        "英雄：神乐响 (VZ01-001)",
        "法术牌组（30）",
        "传送门牌组（8，护盾生命 20）",
        "余烬小鬼",
        "V105 错误: 护盾生命总和为 19",
        "已登记 2 副牌组：合法 1，不合法 1",
    ):
        assert words in out, words
    assert "spells (30)" not in out and "registered:" not in out


def test_register_json_adds_message_localized_csv_stays(clean_env: None) -> None:
    english = json.loads(_invoke("register", ILLEGAL, "-o", "json").stdout)
    chinese = json.loads(_invoke("register", ILLEGAL, "-o", "json", "--lang", "zh").stdout)
    d_en = english["registrations"][0]["diagnostics"][0]
    d_zh = chinese["registrations"][0]["diagnostics"][0]
    assert "message_localized" not in d_en
    assert d_zh["message"] == d_en["message"]
    assert d_zh["message_localized"] != d_zh["message"]
    assert list(d_zh) == [
        "code", "severity", "message", "message_localized", "section", "card", "line", "column",
    ]  # fmt: skip
    csv_en = _invoke("register", ILLEGAL, "-o", "csv").stdout
    assert _invoke("register", ILLEGAL, "-o", "csv", "--lang", "zh").stdout == csv_en


def test_verify_diff_and_code_speak_japanese(clean_env: None) -> None:
    verify = _invoke("verify", ILLEGAL, "--hash", "v1-6axy4nbueg", "--lang", "ja")
    assert verify.exit_code == 1
    assert "✗ 不一致" in verify.stdout and "（登録済み：v1-6axy4nbueg）" in verify.stdout
    diff = _invoke("diff", KAGURA, ILLEGAL, "--lang", "ja")
    assert diff.exit_code == 1
    assert diff.stdout.startswith(f"登録  {KAGURA}  v1-")
    assert f"\n提示  {ILLEGAL}  v1-" in diff.stdout
    assert "スペルデッキ\n" in diff.stdout and "登録 3、提示 4" in diff.stdout
    assert "異なるデッキです：カードの変更" in diff.stdout
    code = _invoke("code", "VZ1abc", "--lang", "ja")
    assert code.exit_code == 1
    assert "F009 エラー: デッキコードを解読できません" in code.output
    assert (
        "varz-deck: VZ1abc にはデッキコードがありません：完全には読み込めませんでした"
        in code.output
    )
    bad_hash = _invoke("verify", KAGURA, "--hash", "nope", "--lang", "zh")
    assert bad_hash.exit_code == 2 and "不是牌组哈希" in bad_hash.output


def test_registration_sheet_in_japanese() -> None:
    from varz_decks import REGISTRAR

    register_deck, render_sheet = REGISTRAR.register, REGISTRAR.render_sheet

    reg = register_deck(src(ILLEGAL), open_database(ROOT / "card_data" / "varz"), date=on_date())
    page = render_sheet(reg, "ja")
    assert '<html lang="ja">' in page
    for words in (
        "<h1>デッキ登録</h1>",
        "不適正 · エラー 4 件",
        "<dt>プレイヤー</dt>",
        "スペルデッキ（30）",
        '<th class="n">枚数</th>',
        "合計 · シールドライフ",
        "デッキハッシュ",
        "エンバー・インプ",
        "エラー（30 行目、ポータルデッキ）: シールドライフの合計が 19 です",
        "プレイヤー署名",
    ):
        assert words in page, words
    assert "Player signature" not in page and "NOT LEGAL" not in page
    assert '<html lang="en">' in render_sheet(reg)


def test_help_of_sim_and_register_is_translated(
    clean_env: None, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit):
        main(["sim", "--help", "--lang", "ja"])
    out = capsys.readouterr().out
    assert "デッキを一人回しします" in out and "シミュレートするゲーム数。" in out
    with pytest.raises(SystemExit):
        main(["register", "--help", "--lang", "zh"])
    assert "检查牌组并输出其登记内容" in capsys.readouterr().out


def test_command_line_failures_speak_the_language(clean_env: None) -> None:
    rules = _invoke("rules", "X999", "--lang", "ja")
    assert rules.exit_code == 2 and "varz-deck: 不明なコード 'X999' です" in rules.output
    missing = ROOT / "no-such-folder"
    check = _invoke("check", KAGURA, "--cards", missing, "--lang", "zh")
    assert check.exit_code == 2
    assert "卡牌数据库" in check.output and "无效：共有 1 个问题（第一个问题：" in check.output
    lint = _invoke("cards", "lint", missing, "--lang", "ja")
    assert lint.exit_code == 2 and "がありません：カードファイルのあるフォルダー" in lint.output
    sim = _invoke("sim", KAGURA, "--cards", missing, "--lang", "zh")
    assert sim.exit_code == 2 and "卡牌数据库" in sim.output
    english = _invoke("rules", "X999")
    assert "varz-deck: unknown code 'X999'; `varz-deck rules` lists them" in english.output


def test_every_marked_call_is_found_by_the_extractor(extracted: Extracted) -> None:
    """msg()/nmsg()/N_() with literal text anywhere (inside an f-string too) reach the catalogue."""
    import ast

    missed = []
    for path in sorted((ROOT / "varz_deck").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)):
                continue
            if node.func.id not in ("msg", "nmsg", "N_"):
                continue
            texts = [a.value for a in node.args if isinstance(a, ast.Constant)]
            if len(texts) != len(node.args) or not all(isinstance(t, str) for t in texts):
                continue
            key = ("", texts[0]) if node.func.id == "N_" else (texts[0], texts[1])
            if key not in extracted:
                missed.append((str(path.relative_to(ROOT)), node.lineno, key))
    assert not missed, f"not extracted (an f-string hides them from Babel): {missed}"
