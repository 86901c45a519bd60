"""What an editor's user sees from the language server, in this process (tests/test_lsp.py drives
the real server over stdio): the hover's card fields as YAML that parses, completion that offers
the cards legal in the deck's format first and matches Japanese and Chinese names no more loosely
than English ones, and messages about a database that cannot be used that say what is wrong, with
the right plural, in English, Japanese and Chinese.

Expected values are read from the card files with PyYAML or written by hand here.
"""

from __future__ import annotations

import re
import shutil
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import pytest
import yaml
from lsprotocol import types as t

from varz_deck.games import open_database
from varz_deck.games.library import bundled_root
from varz_deck.lsp import completion, diagnostics
from varz_deck.lsp.documents import Document
from varz_deck.lsp.hover import card_markdown
from varz_deck.lsp.index import CardIndex
from varz_deck.lsp.server import VarzServer

ROOT = Path(__file__).resolve().parent.parent
VARZ_SETS = ROOT / "card_data" / "varz" / "sets"
AZUKI_SETS = ROOT / "card_data" / "azuki" / "sets"


def card_in_file(path: Path, card_id: str) -> dict[str, Any]:
    return next(c for c in yaml.safe_load(path.read_text("utf-8"))["cards"] if c["id"] == card_id)


def yaml_block(markdown: str) -> Any:
    """The value of the hover's one fenced YAML block (a fence of three or more backticks, closed
    by a fence of the same length)."""
    found = re.search(r"^(`{3,})yaml\n(.*?)^\1$", markdown, re.MULTILINE | re.DOTALL)
    assert found is not None, markdown
    return yaml.safe_load(found.group(2))


# --------------------------------------------------------------------------- hover


def test_the_heros_hover_is_yaml_that_parses_to_its_card_file() -> None:
    database = open_database(bundled_root("varz"))
    (hero,) = database.lookup("Hibiki Kagura")
    shown = yaml_block(card_markdown(hero, database))
    written = card_in_file(VARZ_SETS / "vz01.yaml", "VZ01-001")
    wanted = {
        k: v for k, v in written.items() if k not in ("id", "name", "names", "text", "flavor")
    }
    assert wanted["v_sync"]["name"] == "Hibiki, Crimson Festival"  # a comma and a colon inside
    assert shown == {**wanted, "printings": ["VZ01-001"]}


def test_a_leaders_zero_attack_is_shown() -> None:
    database = open_database(bundled_root("azuki"))
    leader = database.cards["STT01-001"]
    shown = yaml_block(card_markdown(leader, database))
    assert shown["attack"] == 0 and shown["health"] == 20
    assert shown["elements"] == ["lightning"] and shown["traits"] == ["Raizan"]


def test_hostile_card_values_stay_inside_the_yaml_block() -> None:
    database = open_database(bundled_root("varz"))
    (hero,) = database.lookup("Hibiki Kagura")
    odd = replace(
        hero,
        skill_classes=("a: b", "[x]", "# c", "- d"),
        v_sync={"name": "```\n**bold**", "power": 6, "text": "x\x1b[31my\u202ez"},
    )
    markdown = card_markdown(odd, database)
    shown = yaml_block(markdown)
    assert shown["skill_classes"] == ["a: b", "[x]", "# c", "- d"]
    # controls and bidi overrides are escaped (made visible), never sent raw
    assert shown["v_sync"] == {
        "name": "```\\x0a**bold**",
        "power": 6,
        "text": "x\\x1b[31my\\u202ez",
    }
    assert "\x1b" not in markdown and "\u202e" not in markdown


HERO_HOVER = """**Hibiki Kagura · 神楽 響 · 神乐响** `VZ01-001`

```yaml
type: hero
color: red
power: 4
life: 12
skill_classes: [fighter, samurai]
evolution_level: 6
memory: 5
rarity: SR
v_sync:
  name: Hibiki, Crimson Festival
  power: 6
  text: '#Overstrike. Attack Declaration: Deal 1 damage to each enemy unit adjacent
    to the attack target.'
printings: [VZ01-001]
```

Attack Declaration: If this attacks a Portal, it gets #Atk+1."""


def test_the_heros_hover_word_for_word() -> None:
    """The fields in the card's order, lists on one line, a mapping a key a line."""
    database = open_database(bundled_root("varz"))
    (hero,) = database.lookup("Hibiki Kagura")
    assert card_markdown(hero, database) == HERO_HOVER


@dataclass(frozen=True)
class Sync:
    name: str
    power: int


@pytest.mark.parametrize(
    ("classes", "fence"),
    [(("侍",), "```"), (("a```b",), "````"), (("````",), "`````")],
)
def test_the_fence_is_longer_than_any_backticks_inside(
    classes: tuple[str, ...], fence: str
) -> None:
    database = open_database(bundled_root("varz"))
    (hero,) = database.lookup("Hibiki Kagura")
    odd = replace(hero, skill_classes=classes, v_sync=Sync("Ame", 6), text=None)
    lines = card_markdown(odd, database).split("\n")
    assert lines[2] == fence + "yaml" and lines[-1] == fence
    assert lines[3:-1] == [
        "type: hero", "color: red", "power: 4", "life: 12",
        "skill_classes: [" + ", ".join(f"'{c}'" if c.startswith("`") else c for c in classes) + "]",
        "evolution_level: 6", "memory: 5", "rarity: SR", "v_sync:", "  name: Ame", "  power: 6",
        "printings: [VZ01-001]",
    ]  # fmt: skip


# --------------------------------------------------------------------------- completion


def deck_server(text: str, name: str = "d.yaml") -> tuple[VarzServer, Document]:
    """The server with the deck open and checked, as after didOpen."""
    server = VarzServer()
    path = Path("/decks") / name
    doc = Document(path.as_uri(), path, text)
    server.docs[doc.uri] = doc
    diagnostics.check_deck(server, doc)
    return server, doc


def completed(server: VarzServer, doc: Document, line: int, character: int) -> list[Any]:
    params = t.CompletionParams(t.TextDocumentIdentifier(doc.uri), t.Position(line, character))
    result = completion.complete(server, params)
    assert result is not None
    return list(result.items)


def test_cards_outside_the_decks_format_come_after_the_legal_ones_and_say_why() -> None:
    # Standard (formats.yaml): sets VZ01 and VZ02, Grove Tender (VZ01-031) banned. Typed "G":
    # the spells whose names start with G, by length: Gravebind, Glitch Fox, Gate Jumper, Grudge
    # Wisp, Gravity Well, Grove Tender, Golden Paladin; the banned one goes after the legal ones.
    server, doc = deck_server("hero: Hibiki Kagura\nspells:\n  G\n")
    items = completed(server, doc, 2, 3)
    labels = [i.label for i in items]
    legal = ["Gravebind", "Glitch Fox", "Gate Jumper", "Grudge Wisp", "Gravity Well",
             "Golden Paladin"]  # fmt: skip
    assert labels[: len(legal)] == legal
    assert labels.index("Grove Tender") >= len(legal)
    grove = items[labels.index("Grove Tender")]
    assert grove.label_details is not None and grove.label_details.description is not None
    assert grove.label_details.description.startswith("not legal in Standard: banned")
    assert all(
        i.label_details is None or "not legal" not in (i.label_details.description or "")
        for i in items[: len(legal)]
    )
    assert [i.sort_text for i in items] == sorted(i.sort_text or "" for i in items)
    # a promo (set PR only): after every legal card that starts with F
    server, doc = deck_server("hero: Hibiki Kagura\nspells:\n  F\n")
    items = completed(server, doc, 2, 3)
    labels = [i.label for i in items]
    assert labels[:3] == ["Flame Ronin", "Frost Script", "Firewall Golem"]
    mascot = items[labels.index("Festival Mascot")]
    assert mascot.label_details is not None
    assert mascot.label_details.description == (
        "not legal in Standard: only in set PR · お祭りマスコット / 祭典吉祥物"
    )


def test_in_a_format_without_set_list_or_bans_nothing_is_marked() -> None:
    server, doc = deck_server("format: pioneer\nhero: Hibiki Kagura\nspells:\n  G\n")
    items = completed(server, doc, 3, 3)
    labels = [i.label for i in items]
    assert labels[:7] == ["Gravebind", "Glitch Fox", "Gate Jumper", "Grudge Wisp", "Gravity Well",
                          "Grove Tender", "Golden Paladin"]  # fmt: skip
    assert not any("not legal" in (i.label_details.description or "") for i in items
                   if i.label_details is not None)  # fmt: skip


def test_the_marks_are_in_the_editors_language() -> None:
    server, doc = deck_server("hero: Hibiki Kagura\nspells:\n  G\n")
    server.lang = "ja"
    grove = next(i for i in completed(server, doc, 2, 3) if i.label == "Grove Tender")
    assert grove.label_details is not None
    assert (
        grove.label_details.description
        == "スタンダードでは使えません：禁止 · 森の世話人 / 林地守护人"
    )


@pytest.fixture(scope="module")
def varz_index() -> CardIndex:
    return CardIndex(open_database(bundled_root("varz")))


@pytest.mark.parametrize(
    ("typed", "wanted"),
    [
        # the letters in order start a word, in every script: "スト" is in インフェルノバースト
        # and starts スコーチショット's letters; お祭りマスコット and タイドスプライト hold ス…ト only
        # inside a word, as "Festival Mascot" holds s…t for "st"
        ("スト", ["インフェルノバースト", "スコーチショット", "スコーチショット"]),
        ("飞龙", ["朱红飞龙", "银翼飞龙"]),
        ("红龙", []),  # 红 starts no word of 朱红飞龙
        ("朱龙", ["朱红飞龙"]),
        ("神響", ["神楽 響"]),  # 神 starts the name, 響 follows
        ("dragn", ["Azure Dragon Server"]),
        ("ragn", []),  # as 红龙: r starts no word of "Azure Dragon Server"
    ],
)
def test_letters_in_order_start_a_word_in_every_script(
    varz_index: CardIndex, typed: str, wanted: list[str]
) -> None:
    assert [key.shown for _, key in varz_index.search(typed, None, 50)] == wanted


def test_japanese_completion_in_a_deck(tmp_path: Path) -> None:
    server, doc = deck_server("hero: Hibiki Kagura\nspells:\n  スト\n")
    labels = [i.label for i in completed(server, doc, 2, 4)]
    assert labels == ["インフェルノバースト", "スコーチショット", "スコーチショット"]


# --------------------------------------------------------------------------- messages


def broken_database(folder: Path, files: int) -> Path:
    """A database folder whose `files` card files do not parse (one problem each)."""
    (folder / "sets").mkdir(parents=True)
    for i in range(files):
        (folder / "sets" / f"bad{i}.yaml").write_text("cards: [\n", encoding="utf-8")
    return folder


@pytest.mark.parametrize(
    ("files", "lang", "wanted"),
    [
        (1, "en", "the card database {root} cannot be used because of 1 problem: "
         "sets/bad0.yaml:2: F002 YAML syntax error: did not find expected node content; "
         "varz-deck cards lint {root} shows it"),
        (2, "en", "the card database {root} cannot be used because of 2 problems, the first: "
         "sets/bad0.yaml:2: F002 YAML syntax error: did not find expected node content; "
         "varz-deck cards lint {root} shows them all"),
        (2, "ja", "カードデータベース {root} は問題が 2 件あるため使えません（最初の問題："
         "sets/bad0.yaml:2: F002 YAML の構文エラー：did not find expected node content）。"
         "varz-deck cards lint {root} ですべて確認できます"),
        (1, "zh", "卡牌数据库 {root} 有 1 个问题，无法使用（第一个："
         "sets/bad0.yaml:2: F002 YAML 语法错误：did not find expected node content）；"
         "运行 varz-deck cards lint {root} 查看全部"),
    ],
)  # fmt: skip
def test_an_unusable_database_says_its_first_problem_and_how_many(
    tmp_path: Path, files: int, lang: str, wanted: str
) -> None:
    root = broken_database(tmp_path / "db", files).resolve()
    server = VarzServer(root)
    server.lang = lang
    doc = Document("file:///d.yaml", Path("/d.yaml"), "hero: X\n")
    (found,) = diagnostics.check_deck(server, doc)
    assert found.code == "F001"
    assert diagnostics.to_lsp(doc, found, server).message == wanted.format(root=root)


def test_a_database_broken_on_disk_says_its_first_problem(tmp_path: Path) -> None:
    root = tmp_path / "db"
    shutil.copytree(ROOT / "tests" / "data" / "altdb", root)
    server = VarzServer(root)
    shown: list[t.ShowMessageParams] = []
    server.window_show_message = shown.append  # type: ignore[method-assign]
    server.text_document_publish_diagnostics = lambda params: None  # type: ignore[method-assign]
    deck = Document("file:///d.yaml", Path("/d.yaml"), "hero: X\n")
    server.docs[deck.uri] = deck
    diagnostics.check_deck(server, deck)  # the database is in use
    card_file = root / "sets" / "new.yaml"  # a pull brings a card file that does not parse
    card_file.write_text("cards: [\n", encoding="utf-8")
    diagnostics.files_changed(server, [card_file.as_uri()])
    (said,) = shown
    assert said.message == (
        f"the card files in {root.resolve()} changed on disk and now have 1 problem: "
        "sets/new.yaml:2: F002 YAML syntax error: did not find expected node content; decks are "
        "still checked against the cards as they were until varz-deck cards lint "
        f"{root.resolve()} passes"
    )
    shown.clear()
    (root / "sets" / "other.yaml").write_text("cards: [\n", encoding="utf-8")
    diagnostics.files_changed(server, [(root / "sets" / "other.yaml").as_uri()])
    (said,) = shown
    assert "now have 2 problems, the first: sets/new.yaml:2: F002 " in said.message


def test_a_database_that_failed_without_a_problem_says_nothing_could_be_read(
    tmp_path: Path,
) -> None:
    from varz_deck.lsp.library import Loaded

    server = VarzServer(tmp_path)
    server.library.primary = lambda: Loaded(tmp_path)  # type: ignore[method-assign]
    doc = Document("file:///d.yaml", Path("/d.yaml"), "hero: X\n")
    (found,) = diagnostics.check_deck(server, doc)
    assert found.message == (
        f"the card database {tmp_path} cannot be used because of 1 problem: F001 no card in it "
        f"can be read; varz-deck cards lint {tmp_path} shows it"
    )


def test_the_first_problem_is_the_first_by_file_and_line(tmp_path: Path) -> None:
    from varz_deck.core.messages.diagnostics import Mark, diag

    found = [
        diag("F002", "b", Mark(3, 1), file=str(tmp_path / "b.yaml")),
        diag("F003", "a late", Mark(9, 1), file=str(tmp_path / "a.yaml")),
        diag("F004", "a", Mark(2, 5), file=str(tmp_path / "a.yaml")),
        diag("F001", "elsewhere", file="/elsewhere/x.yaml"),
    ]
    assert diagnostics.first_problem(found[:3], tmp_path).render() == "a.yaml:2: F004 a"
    assert diagnostics.first_problem(found[:3], tmp_path / "sub").render() == (
        f"{(tmp_path / 'a.yaml').as_posix()}:2: F004 a"
    )
    assert diagnostics.first_problem([found[3]], tmp_path).render() == (
        "/elsewhere/x.yaml: F001 elsewhere"
    )


def test_the_first_problem_orders_by_file_then_line_then_column_then_code(tmp_path: Path) -> None:
    from varz_deck.core.messages.diagnostics import Mark, diag

    a, b = str(tmp_path / "a.yaml"), str(tmp_path / "b.yaml")
    first = diagnostics.first_problem

    def shown(*found: Any) -> str:
        return first(list(found), tmp_path).render()

    # the file first: a.yaml line 9 before b.yaml line 3
    assert shown(diag("F002", "b", Mark(3, 1), file=b), diag("F003", "a", Mark(9, 1), file=a)) == (
        "a.yaml:9: F003 a"
    )
    # a problem of no file (the folder's own) before any file's
    assert shown(diag("F002", "b", Mark(3, 1), file=b), diag("C006", "none")) == "C006 none"
    # no line before line 1, no column before column 1, then the code
    assert shown(diag("F009", "c", Mark(1, 1), file=a), diag("F010", "d", file=a)) == (
        "a.yaml: F010 d"
    )
    early = type(diag("F009", "x"))
    no_column = early("F009", diag("F009", "x").severity, "e", file=a, line=1)
    assert shown(diag("F001", "c", Mark(1, 1), file=a), no_column) == "a.yaml:1: F009 e"
    assert shown(diag("F009", "g", Mark(1, 1), file=a), diag("F004", "f", Mark(1, 1), file=a)) == (
        "a.yaml:1: F004 f"
    )


def disk_server(tmp_path: Path, lang: str = "en") -> tuple[VarzServer, Path, list[Any], list[Any]]:
    """A server checking decks against a copy of the test database (in use), with what it shows
    and publishes."""
    root = tmp_path / "db"
    shutil.copytree(ROOT / "tests" / "data" / "altdb", root)
    server = VarzServer(root)
    server.lang = lang
    shown: list[t.ShowMessageParams] = []
    published: list[t.PublishDiagnosticsParams] = []
    server.window_show_message = shown.append  # type: ignore[method-assign]
    server.text_document_publish_diagnostics = published.append  # type: ignore[method-assign]
    deck = Document("file:///d.yaml", Path("/d.yaml"), "hero: X\n")
    server.docs[deck.uri] = deck
    diagnostics.check_deck(server, deck)
    return server, root.resolve(), shown, published


def test_a_change_on_disk_is_said_in_the_editors_language(tmp_path: Path) -> None:
    server, root, shown, _ = disk_server(tmp_path, "ja")
    (root / "sets" / "new.yaml").write_text("cards: [\n", encoding="utf-8")
    diagnostics.files_changed(server, [(root / "sets" / "new.yaml").as_uri()])
    (said,) = shown
    assert said.type == t.MessageType.Warning
    assert said.message == (
        f"{root} のカードファイルがディスク上で変更され、問題が 1 件あります（最初の問題："
        "sets/new.yaml:2: F002 YAML の構文エラー：did not find expected node content）。"
        f"varz-deck cards lint {root} が通るまで、デッキは変更前のカードでチェックします"
    )


def test_changes_that_leave_the_database_clean_or_are_not_its_files_say_nothing(
    tmp_path: Path,
) -> None:
    server, root, shown, published = disk_server(tmp_path)
    other = tmp_path / "other"  # another database, not in use, broken
    shutil.copytree(ROOT / "tests" / "data" / "altdb", other)
    (other / "sets" / "new.yaml").write_text("cards: [\n", encoding="utf-8")
    clean = sorted((root / "sets").rglob("*.yaml"))[0]
    uris = ["untitled:Untitled-1", "https://host/x.yaml", (other / "sets" / "new.yaml").as_uri()]
    diagnostics.files_changed(server, [*uris, clean.as_uri()])
    assert shown == []
    assert [p.uri for p in published] == ["file:///d.yaml"]  # the deck, checked again


def test_an_open_card_file_is_linted_as_its_buffer(tmp_path: Path) -> None:
    server, root, _, published = disk_server(tmp_path)
    card_file = root / "sets" / "new.yaml"
    card_file.write_text("cards: []\n", encoding="utf-8")  # clean on disk
    broken = Document(card_file.as_uri(), card_file, "cards: [\n")  # the buffer is not
    only_set = root / "sets" / "set-only.yaml"  # a YAML file of the folder that is no card file
    only_set.write_text("set: {code: ZZ9}\n", encoding="utf-8")
    plain = Document(only_set.as_uri(), only_set, "set: {code: ZZ9}\n")
    for doc in (broken, plain):
        server.docs[doc.uri] = doc
        server.card_roots[doc.uri] = root
    errors = diagnostics.lint_cards(server, root)
    assert [d.code for d in errors] == ["F002"]
    by_uri = {p.uri: [d.code for d in p.diagnostics] for p in published}
    assert by_uri[broken.uri] == ["F002"] and by_uri[plain.uri] == []
    assert "file:///d.yaml" not in by_uri  # decks are checked again only against clean cards
