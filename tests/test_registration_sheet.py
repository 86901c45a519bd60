"""The printable sheet's HTML: content, escaping, no network resources, file names."""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

import pytest
from varz_decks import REGISTRAR

from varz_deck.core.cards.model import CardDatabase
from varz_deck.core.dates import on_date
from varz_deck.core.files.source import DeckSource
from varz_deck.core.registration.register import Registration
from varz_deck.core.registration.sheet import sheet_names
from varz_deck.games import get_game, open_database

src = DeckSource.from_path
register_deck = REGISTRAR.register
render_sheet = REGISTRAR.render_sheet

ROOT = Path(__file__).resolve().parent.parent
KAGURA = ROOT / "examples" / "red-kagura-festival.yaml"


KAGURA_ROWS = [
    (3, "Ember Imp", "VZ01-007"),
    (3, "Cinder Hound", "VZ01-008"),
    (3, "Flame Ronin", "VZ01-009"),
    (3, "Scorch Shot", "VZ01-010"),
    (2, "Blaze Rush", "VZ01-011"),
    (3, "Kabuki Flame Dancer", "VZ01-012"),
    (2, "Magma Brawler", "VZ01-013"),
    (1, "Inferno Burst", "VZ01-014"),
    (1, "Vermilion Drake", "VZ01-015"),
    (3, "Street Brawler", "VZ02-004"),
    (2, "Overheat", "VZ02-005"),
    (2, "Crimson Gunslinger", "VZ02-006"),
    (2, "Meteor Lance", "VZ02-007"),
    (1, "Iron Fist", "VZ01-067"),
    (1, "Burning Knuckle", "VZ01-068"),
    (1, "Iaido Flash", "VZ01-069"),
    (1, "Blade Oath", "VZ01-070"),
    (4, "Crimson VAZ", "VZ01-094"),
    (1, "Second Wind", "VZ02-043"),
    (2, "Basic Gate (2)", 2, "VZ01-101"),
    (4, "Crimson Gate", 3, "VZ01-104"),
    (1, "Shibuya Crossing", 2, "VZ01-110"),
    (1, "Kabukicho Neon", 2, "VZ01-113"),
]


@cache
def bundled() -> CardDatabase:
    return open_database(ROOT / "card_data" / "varz")


def reg_of(path: Path | str, player: str | None = None, event: str | None = None) -> Registration:
    return register_deck(src(Path(path)), bundled(), player=player, event=event, date=on_date())


def test_sheet_has_everything_the_issue_lists() -> None:
    reg = reg_of(KAGURA)
    page = render_sheet(reg)
    assert reg.canonical is not None and reg.deck_hash
    for text in ("Tokyo Open 2026", "Aoi Tanaka", "Hibiki Kagura", reg.deck_hash, "LEGAL"):
        assert text in page
    # Every row of examples/red-kagura-festival.yaml, by hand: count, name, (Shield Life,) id.
    for count, name, *shield, card_id in KAGURA_ROWS:
        cells = "".join(f'<td class="n">{n}</td>' for n in shield)
        row = f'<tr><td class="n">{count}</td><td>{name}</td>{cells}<td class="id">{card_id}</td></tr>'
        assert page.count(row) == 1, row
    assert len(re.findall(r'<tr><td class="n">[0-9]+</td>', page)) == len(KAGURA_ROWS)
    assert "Spells (30)" in page and "Skills (9)" in page and "Portals (8)" in page
    assert "Shield Life" in page and '<b class="">20</b>' in page
    assert "Player signature" in page and "Judge" in page


def test_sheet_is_self_contained() -> None:
    page = render_sheet(reg_of(KAGURA))
    assert "Content-Security-Policy" in page and "default-src 'none'" in page
    for pattern in (r"\bsrc\s*=", r"\bhref\s*=", r"url\(", r"@import", r"https?://", r"<script"):
        assert not re.search(pattern, page, re.IGNORECASE), pattern


def test_sheet_fits_a4_and_letter() -> None:
    page = render_sheet(reg_of(KAGURA))
    assert "@page { margin: 12mm; }" in page  # the printer's paper size: A4 or Letter
    width = float(re.search(r"\.sheet \{ width: ([0-9.]+)mm", page).group(1))  # type: ignore[union-attr]
    assert width + 2 * 12 <= 210.0  # A4 is the narrower (Letter: 215.9 mm)


def test_user_text_is_escaped() -> None:
    reg = reg_of(KAGURA, player='<script>alert("x")</script>', event="A & B\x1b[31m")
    page = render_sheet(reg)
    assert "<script>" not in page
    assert "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;" in page
    assert "A &amp; B\\x1b[31m" in page


def test_illegal_deck_lists_its_errors() -> None:
    page = render_sheet(reg_of(ROOT / "examples" / "illegal.yaml"))
    assert "NOT LEGAL · 4 errors" in page
    for code in ("V103", "V105", "V113", "V114"):
        assert f"<b>{code}</b>" in page
    assert '<b class="off">19</b>' in page  # Shield Life off the rulebook's 20


def test_unknown_card_and_unreadable_deck(tmp_path: Path) -> None:
    unknown = tmp_path / "u.yaml"
    unknown.write_text("hero: Hibiki Kagura\nspells:\n  Mystery Card: 2\n", encoding="utf-8")
    page = render_sheet(reg_of(unknown))
    assert "Mystery Card" in page and "(unknown)" in page and "F005" in page
    broken = tmp_path / "b.yaml"
    broken.write_text("hero: [\n", encoding="utf-8")
    page = render_sheet(reg_of(broken))
    assert "could not be read completely" in page and "F002" in page


def test_pooled_portals_are_explained() -> None:
    page = render_sheet(reg_of(ROOT / "examples" / "red-homura-pioneer.yaml"))
    assert "Pioneer" in page and "(none: portals are pooled)" in page


def test_warnings_of_a_legal_deck_take_one_line(tmp_path: Path) -> None:
    from varz_deck.core.registration.render import render_text

    deck = tmp_path / "w.yaml"
    text = KAGURA.read_text(encoding="utf-8")
    text = text.replace("Meteor Lance: 2", "Mirror Koi: 2")  # blue, cost 2
    text = text.replace("Crimson VAZ: 4", "Crimson VAZ: 3\n  Azure VAZ: 1")  # makes 1 blue: W201
    deck.write_text(text, encoding="utf-8")
    reg = reg_of(deck)
    warnings = [d for d in reg.report.diagnostics if not d.is_error]
    if reg.legal and warnings:
        page = render_sheet(reg)
        assert "<ol" not in page and "warning" in page
    else:  # the edit above did not give a legal deck with warnings: say so, do not pass silently
        pytest.fail(render_text([reg]))


def test_sheet_names_are_unique_and_safe() -> None:
    regs = [
        reg_of(KAGURA),
        reg_of(KAGURA),
        reg_of("VZ1AAAAAAAAA"),
        reg_of(ROOT / "examples" / "blue-list.txt"),
    ]
    assert sheet_names(regs) == [
        "red-kagura-festival.html",
        "red-kagura-festival-2.html",
        "code-unreadable.html",
        "blue-list.html",
    ]


# ---------------------------------------------------------------- issue 12, item 8: the sheet


MORIYA = ROOT / "examples" / "green-moriya-stampede.yaml"
ID_CELL = re.compile(r'<td class="id">([^<]*)</td>')
ROW = re.compile(r'<tr><td class="n">[0-9]+</td><td>([^<]*)</td>(?:<td class="n">[^<]*</td>)?'
                 r'<td class="id">([^<]*)</td></tr>')  # fmt: skip


def _tables(page: str) -> dict[str, list[tuple[str, str]]]:
    """Each table's caption -> its rows (name, shown id), in the order printed."""
    out: dict[str, list[tuple[str, str]]] = {}
    for caption, body in re.findall(r"<caption>([^<(]+) \(.*?</caption>(.*?)</table>", page):
        out[caption] = ROW.findall(body)
    return out


def _legal_printings(name: str, format_key: str) -> list[str]:
    """The ids of a card's printings whose set the format lists, read off the bundled data."""
    sets = bundled().formats[format_key].sets
    assert sets is not None
    return [c.id for c in bundled().cards.values() if c.name == name and c.set in sets]


def test_a_printing_written_by_id_is_the_one_shown() -> None:
    # examples/green-moriya-stampede.yaml writes `VZ01-061: 2`; the canonical id is PR-002 (the
    # smallest id of Stray Veast), a promo printing not legal in Standard.
    reg = reg_of(MORIYA)
    assert reg.canonical is not None
    stray = next(c for c in reg.canonical.cards() if c.name == "Stray Veast")
    assert stray.key == "PR-002" and stray.ref == "VZ01-061"  # the hash's text is unchanged
    assert f"PR-002 {stray.count}\n" in reg.canonical.text()
    page = render_sheet(reg)
    assert "PR-002" not in page
    assert ("Stray Veast", "VZ01-061") in _tables(page)["Spells"]


def _swap(tmp_path: Path, ref: str, format_key: str = "standard") -> Registration:
    deck = tmp_path / f"{format_key}-{ref}.yaml"
    text = MORIYA.read_text(encoding="utf-8").replace("VZ01-061: 2", f"{ref}: 2")
    deck.write_text(text.replace("format: standard", f"format: {format_key}"), encoding="utf-8")
    return reg_of(deck)


def test_a_name_shows_a_printing_legal_in_the_format(tmp_path: Path) -> None:
    by_name, by_promo, by_id = (
        _swap(tmp_path, ref) for ref in ("Stray Veast", "PR-002", "VZ01-061")
    )
    # the same deck, whichever printing is named: the same hash (docs/deck-hash.md)
    assert by_name.deck_hash == by_promo.deck_hash == by_id.deck_hash
    first = bundled().printings["Stray Veast"][0].id  # the first printing in database order
    legal = _legal_printings("Stray Veast", "standard")
    assert legal == ["VZ01-061"]
    # a name: its first printing when the format allows it, else the newest legal one
    expected = first if first in legal else max(legal)
    assert ("Stray Veast", expected) in _tables(render_sheet(by_name))["Spells"]
    assert expected == "VZ01-061"
    # an id: shown as written, even the promo one
    assert ("Stray Veast", "PR-002") in _tables(render_sheet(by_promo))["Spells"]
    # Pioneer lists no sets: every printing is legal, so the name's first printing is shown
    pioneer = _swap(tmp_path, "Stray Veast", "pioneer")
    assert ("Stray Veast", first) in _tables(render_sheet(pioneer))["Spells"]


def test_cards_are_sorted_by_cost_then_name_and_portals_by_shield_life() -> None:
    db = bundled()
    for deck in (KAGURA, MORIYA, ROOT / "examples" / "red-homura-pioneer.yaml"):
        tables = _tables(render_sheet(reg_of(deck)))
        for caption in ("Spells", "Skills"):
            rows = tables[caption]
            costs = [db.cards[card_id].cost for _, card_id in rows]
            # skills have no cost: by name; a card without a cost after those with one
            keys = [
                (c is None, c or 0, n.casefold()) for c, (n, _) in zip(costs, rows, strict=True)
            ]
            assert keys == sorted(keys) and len(rows) > 1
            if caption == "Spells":
                assert None not in costs and len(set(costs)) > 1
        portals = tables["Portals"]
        keys = [(db.cards[i].shield_life, n.casefold()) for n, i in portals]
        assert keys == sorted(keys)
    # by hand: Shield Life 2, 2, 2, 3 (basic gates (2) and two effect portals, then Crimson Gate)
    kagura = _tables(render_sheet(reg_of(KAGURA)))
    assert [n for n, _ in kagura["Portals"]] == [
        "Basic Gate (2)",
        "Kabukicho Neon",
        "Shibuya Crossing",
        "Crimson Gate",
    ]


def test_seat_date_and_deck_code_are_on_the_sheet() -> None:
    from dataclasses import replace

    from varz_decks import decode

    reg = reg_of(KAGURA)
    blank = render_sheet(reg)
    # no seat given: an empty box to fill in by hand; the day the list was checked as of is
    # always there (today: tests/conftest.py's TODAY, when not given)
    assert "<dt>Table / seat</dt><dd></dd>" in blank
    assert "<dt>Checked as of</dt><dd>2026-12-01</dd>" in blank
    page = render_sheet(replace(reg, seat="Table 12 · seat B", date="2026-05-17"))
    assert "<dt>Table / seat</dt><dd>Table 12 · seat B</dd>" in page
    assert "<dt>Checked as of</dt><dd>2026-05-17</dd>" in page
    code = re.search(r'<div class="code"><span>Deck code</span><code>([^<]+)</code>', page)
    assert code is not None and code.group(1).startswith("VZ1")
    # the code printed is this deck: registering the code gives the same hash
    assert reg_of(code.group(1)).deck_hash == reg.deck_hash
    assert decode(code.group(1)) is not None


def test_a_deck_with_unknown_cards_has_no_code_line(tmp_path: Path) -> None:
    unknown = tmp_path / "u.yaml"
    unknown.write_text("hero: Hibiki Kagura\nspells:\n  Mystery Card: 2\n", encoding="utf-8")
    page = render_sheet(reg_of(unknown))
    assert "Deck code" not in page and "Mystery Card" in page


def test_azuki_sheet_shows_code_seat_and_sorted_main_deck() -> None:
    from dataclasses import replace

    AZUKI = get_game("azuki").registrar

    azuki_register, azuki_sheet = AZUKI.register, AZUKI.render_sheet

    db = open_database(ROOT / "card_data" / "azuki")
    reg = azuki_register(
        src(ROOT / "examples" / "azuki" / "stt01-raizan-lightning.yaml"), db, date=on_date()
    )
    page = azuki_sheet(replace(reg, seat="7", date="2026-06-01"))
    assert "<dt>Table / seat</dt><dd>7</dd>" in page and "<dd>2026-06-01</dd>" in page
    code = re.search(r"<code>(AZ[^<]+)</code>", page)
    assert code is not None
    assert azuki_register(src(Path(code.group(1))), db, date=on_date()).deck_hash == reg.deck_hash
    rows = _tables(page)["Main deck"]
    costs = [db.cards[i].cost for _, i in rows]
    keys = [(c is None, c or 0, n.casefold()) for c, (n, _) in zip(costs, rows, strict=True)]
    assert keys == sorted(keys) and len(set(costs)) > 1


def _run(*args: str | Path) -> tuple[int, str]:
    import typer
    from typer.testing import CliRunner

    from varz_deck.cli.register import register

    app = typer.Typer(pretty_exceptions_enable=False, rich_markup_mode=None)
    app.command("register")(register)
    app.command("noop")(lambda: None)
    result = CliRunner().invoke(app, ["register", *map(str, args)])
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result.exit_code, result.stderr


def test_combined_writes_one_document_a_page_per_player(tmp_path: Path) -> None:
    decks = tmp_path / "decks"
    decks.mkdir()
    players = ["Aoi Tanaka", "Ren Sato", "Mika Ito"]
    for n, player in enumerate(players):
        text = KAGURA.read_text(encoding="utf-8").replace("Aoi Tanaka", player)
        (decks / ("all-sheets.yaml" if n == 0 else f"p{n}.yaml")).write_text(text, "utf-8")
    paths = sorted(decks.iterdir())
    out = tmp_path / "out"
    args = [*paths, "--sheet", out, "--combined", "--seat", "12", "--date", "2026-05-17"]
    status, err = _run(*args)
    assert status == 0, err
    # a deck file named all-sheets.yaml does not overwrite the combined document
    assert sorted(p.name for p in out.iterdir()) == [
        "all-sheets-2.html", "all-sheets.html", "p1.html", "p2.html",
    ]  # fmt: skip
    combined = (out / "all-sheets.html").read_text(encoding="utf-8")
    assert combined.count('<article class="sheet">') == len(players)
    assert combined.count("<html") == 1 and ".sheet + .sheet { break-before: page; }" in combined
    for player in players:
        assert combined.count(f"<dt>Player</dt><dd>{player}</dd>") == 1
    assert combined.count("<dd>2026-05-17</dd>") == len(players)
    assert "in one document" in err


def test_combined_sheets_of_two_games_each_page_with_its_own_games_table(tmp_path: Path) -> None:
    """`register --combined` of a deck of each game: one document, each page drawn by its own game
    (the lead card's row and the card tables), in the order the decks were given."""
    azuki = ROOT / "examples" / "azuki" / "stt01-raizan-lightning.yaml"
    out = tmp_path / "out"
    status, err = _run(KAGURA, azuki, "--sheet", out, "--combined")
    assert status == 0, err
    assert sorted(p.name for p in out.iterdir()) == [
        "all-sheets.html", "red-kagura-festival.html", "stt01-raizan-lightning.html",
    ]  # fmt: skip
    combined = (out / "all-sheets.html").read_text(encoding="utf-8")
    assert combined.count("<html") == 1
    pages = combined.split('<article class="sheet">')[1:]
    assert len(pages) == 2
    varz_page, azuki_page = pages
    assert "<dt>Hero</dt>" in varz_page and "<dt>Leader</dt>" not in varz_page
    assert list(_tables(varz_page)) == ["Spells", "Skills", "Portals"]
    assert "<dt>Leader</dt>" in azuki_page and "<dt>Gate</dt>" in azuki_page
    assert "<dt>Hero</dt>" not in azuki_page
    assert list(_tables(azuki_page)) == ["Main deck", "IKZ deck"]
    assert re.search(r"<code>AZ[^<]+</code>", azuki_page)
    assert not re.search(r"<code>AZ[^<]+</code>", varz_page)
    # each page as its own game's single sheet draws it
    for name, page in (("red-kagura-festival", varz_page), ("stt01-raizan-lightning", azuki_page)):
        alone = (out / f"{name}.html").read_text(encoding="utf-8")
        assert page.split("</article>")[0] in alone
    assert "in one document" in err
    # in Japanese, every page in Japanese
    status, err = _run(KAGURA, azuki, "--sheet", tmp_path / "ja", "--combined", "--lang", "ja")
    assert status == 0, err
    combined = (tmp_path / "ja" / "all-sheets.html").read_text(encoding="utf-8")
    signature = ja("sheet", "Player signature")
    assert signature != "Player signature"
    assert [signature in page for page in combined.split('<article class="sheet">')[1:]] == [
        True
    ] * 2


def test_combined_needs_sheet_and_date_must_be_a_date(tmp_path: Path) -> None:
    status, err = _run(KAGURA, "--combined")
    assert status == 2 and "--combined needs --sheet" in err
    for bad in ("2026-02-30", "17/05/2026", "2026-5-17"):
        status, err = _run(KAGURA, "--date", bad, "--sheet", tmp_path)
        assert status == 2 and "YYYY-MM-DD" in err, bad
    assert not any(tmp_path.iterdir())


def test_azuki_alias_id_written_is_the_id_shown(tmp_path: Path) -> None:
    AZUKI = get_game("azuki").registrar

    azuki_register, azuki_sheet = AZUKI.register, AZUKI.render_sheet

    db = open_database(ROOT / "card_data" / "azuki")
    example = ROOT / "examples" / "azuki" / "stt01-raizan-lightning.yaml"
    token = db.by_id("AZP-001")
    assert token is not None and "IKZ-002" in token.aliases  # one card, three printed ids
    deck = tmp_path / "alias.yaml"
    deck.write_text(
        example.read_text(encoding="utf-8").replace("IKZ Token: 1", "IKZ-002: 1"), "utf-8"
    )
    by_alias, by_name = (
        azuki_register(src(deck), db, date=on_date()),
        azuki_register(src(example), db, date=on_date()),
    )
    assert by_alias.deck_hash == by_name.deck_hash  # the hash still writes AZP-001
    assert (token.name, "IKZ-002") in _tables(azuki_sheet(by_alias))["IKZ deck"]
    assert (token.name, "AZP-001") in _tables(azuki_sheet(by_name))["IKZ deck"]


# ---------------------------------------------------------------- issue 24


def _named(*paths: str) -> list[Registration]:
    from dataclasses import replace

    reg = reg_of(KAGURA)
    return [replace(reg, path=p) for p in paths]


def _key(name: str) -> str:
    """How a case- and normalisation-insensitive file system compares names (written out here)."""
    import unicodedata

    return unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", name).casefold())


def test_sheet_names_differ_on_a_case_insensitive_file_system() -> None:
    names = sheet_names(_named("a/Deck.yaml", "b/deck.yaml", "c/DECK.txt"))
    assert names == ["Deck.html", "deck-2.html", "DECK-3.html"]
    assert len({_key(n) for n in names}) == 3


def test_sheet_names_differ_whatever_the_unicode_normalisation() -> None:
    nfc, nfd = "Caf\u00e9.yaml", "Cafe\u0301.yaml"  # é as one code point, then as e + accent
    wide = "\uff23af\u00e9.yaml"  # a full-width C
    names = sheet_names(_named(nfc, nfd, wide, "STRASSE.yaml", "stra\u00dfe.yaml"))
    assert names == ["Caf\u00e9.html", "Caf\u00e9-2.html", "\uff23af\u00e9-3.html",
                     "STRASSE.html", "stra\u00dfe-2.html"]  # fmt: skip
    assert len({_key(n) for n in names}) == len(names)


def test_a_reserved_name_is_taken_in_any_case() -> None:
    names = sheet_names(_named("ALL-SHEETS.yaml"), reserved=("all-sheets.html",))
    assert names == ["ALL-SHEETS-2.html"]


def _deck_with(tmp_path: Path, old: str, new: str) -> Path:
    deck = tmp_path / "d.yaml"
    text = KAGURA.read_text(encoding="utf-8")
    assert old in text
    deck.write_text(text.replace(old, new), encoding="utf-8")
    return deck


@pytest.mark.parametrize(
    ("old", "new", "marked"),
    [
        ("  Ember Imp: 3\n", "  Ember Imp: 2\n", "29"),  # spells one short
        ("  Ember Imp: 3\n", "", "27"),
        ("  Second Wind: 1\n", "", "8"),  # skills one short
        ("  Kabukicho Neon: 1\n", "", "7"),  # portals one short (and Shield Life 18)
        ("  Ember Imp: 3\n", "  Ember Imp: 3\n  Tide Sprite: 1\n", "31"),  # one over
    ],
)
def test_a_short_or_long_section_is_marked(tmp_path: Path, old: str, new: str, marked: str) -> None:
    page = render_sheet(reg_of(_deck_with(tmp_path, old, new)))
    totals = re.findall(r'<tfoot><tr><td class="n"><b class="([a-z]*)">([0-9]+)</b>', page)
    assert (("off", marked)) in totals
    assert sorted(c for c, _ in totals) == ["", "", "off"]  # only that section


def test_a_full_deck_has_no_section_marked() -> None:
    page = render_sheet(reg_of(KAGURA))
    totals = re.findall(r'<tfoot><tr><td class="n"><b class="([a-z]*)">([0-9]+)</b>', page)
    assert totals == [("", "30"), ("", "9"), ("", "8")]


def test_a_short_azuki_main_deck_is_marked(tmp_path: Path) -> None:
    REGISTRAR = get_game("azuki").registrar

    deck = tmp_path / "a.yaml"
    source = ROOT / "examples" / "azuki" / "stt01-raizan-lightning.yaml"
    text = source.read_text(encoding="utf-8").replace(
        "  Lightning Orb: 4\n", "  Lightning Orb: 3\n"
    )
    deck.write_text(text, encoding="utf-8")
    db = open_database(ROOT / "card_data" / "azuki")
    page = REGISTRAR.render_sheet(REGISTRAR.register(src(deck), db, date=on_date()), "en")
    assert '<b class="off">49</b>' in page


def test_a_file_name_that_is_not_utf8_is_shown_escaped_on_the_sheet() -> None:
    """Row 10: b'b\\xff.yaml' reaches Python as 'b\\udcff.yaml'; the sheet is UTF-8, so the byte
    is shown as \\xff (before: UnicodeEncodeError when the sheet was written, exit 3)."""
    import os

    name = os.fsdecode(b"b\xff.yaml")
    (reg,) = _named(name)
    page = render_sheet(reg)
    page.encode("utf-8")  # no lone surrogate left
    assert "b\\xff.yaml" in page
    assert sheet_names([reg]) == ["b.html"]


# ---- the page's words and structure, exactly (issue 24: the sheet's mutation survivors) -------


@cache
def ja_catalogue() -> dict[tuple[str, str], str]:
    """The Japanese catalogues (the core's and each game's), read off their .po files:
    (context, msgid) -> msgstr."""
    from babel.messages.pofile import read_po

    out = {}
    for path in sorted((ROOT / "varz_deck").glob("**/locale/ja/LC_MESSAGES/*.po")):
        with path.open("rb") as handle:
            for m in read_po(handle):  # a plural entry: by its singular, the first form
                key = m.id[0] if isinstance(m.id, tuple) else m.id
                out[m.context or "", key] = m.string[0] if isinstance(m.string, tuple) else m.string
    return out


def ja(context: str, msgid: str, **args: object) -> str:
    return ja_catalogue()[context, msgid].format(**args)


def test_the_page_begins_and_ends_as_html_does() -> None:
    reg = reg_of(KAGURA)
    page = render_sheet(reg)
    assert page.startswith('<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n')
    assert "<title>Deck registration — Aoi Tanaka — Tokyo Open 2026</title>" in page
    assert '</style>\n</head>\n<body>\n<main>\n<article class="sheet">\n<header><div>\n' in page
    assert '<h1>Deck registration</h1>\n<div class="event">Tokyo Open 2026</div>\n' in page
    assert page.endswith("</footer>\n</article>\n</main>\n</body>\n</html>\n")
    assert '<div class="status legal">LEGAL · Standard</div></header>' in page
    assert "<dt>Player</dt><dd>Aoi Tanaka</dd>\n<dt>Format</dt><dd>Standard</dd>\n" in page
    assert (
        "<dt>Table / seat</dt><dd></dd>\n<dt>Checked as of</dt><dd>2026-12-01</dd>\n</dl>\n" in page
    )
    assert (
        '<div class="sign">\n<div>Player signature</div><div>Judge / organiser (deck checked)</div>'
        "<div>Date</div>\n</div>\n"
    ) in page
    assert render_sheet(reg, "fr").startswith('<!DOCTYPE html>\n<html lang="en">')  # no such
    from dataclasses import replace

    nameless = render_sheet(replace(reg, player="", event=""))
    assert "<title>Deck registration</title>" in nameless
    assert '<div class="event">&nbsp;</div>' in nameless


def test_card_table_heads_and_an_empty_pooled_table() -> None:
    page = render_sheet(reg_of(KAGURA))
    plain = '<thead><tr><th class="n">Qty</th><th>Card</th><th>Id</th></tr></thead>'
    shield = (
        '<thead><tr><th class="n">Qty</th><th>Card</th><th class="n">Shield</th><th>Id</th></tr>'
        "</thead>"
    )
    assert page.count(plain) == 2 and page.count(shield) == 1
    pooled = render_sheet(reg_of(ROOT / "examples" / "red-homura-pioneer.yaml"))
    assert (
        '<tbody><tr><td class="n">0</td><td colspan="3">(none: portals are pooled)</td></tr>'
        "</tbody>"
    ) in pooled


def test_the_problems_list_says_each_one_with_its_place() -> None:
    page = render_sheet(reg_of(ROOT / "examples" / "illegal.yaml"))
    assert '<div class="status illegal">NOT LEGAL · 4 errors</div>' in page
    assert (
        '<ol class="problems">\n<li class="illegal"><b>V103</b> error (line 12, spells): ' in page
    )
    assert (
        '<li class="illegal"><b>V105</b> error (line 30, portals): 19 Shield Life; needs exactly '
        "20 (1 more: swap portals for ones of other Shield Life)</li>\n</ol>"
    ) in page


def test_the_warnings_of_a_legal_deck_are_counted(tmp_path: Path) -> None:
    deck = tmp_path / "w.yaml"
    text = KAGURA.read_text(encoding="utf-8").replace("Meteor Lance: 2", "Mirror Koi: 2")
    deck.write_text(text.replace("Crimson VAZ: 4", "Crimson VAZ: 3\n  Azure VAZ: 1"), "utf-8")
    reg = reg_of(deck)
    assert (
        '<p class="notes">1 warning (W201); `varz-deck check` explains them.</p>'
        in render_sheet(reg)
    )
    warnings = ja("sheet", "{n} warning", n=1)
    note = ja("sheet", "{warnings} ({codes}); `varz-deck check` explains them.", warnings=warnings,
              codes="W201")  # fmt: skip
    assert f'<p class="notes">{note}</p>' in render_sheet(reg, "ja")


def test_an_unknown_hero_and_an_unreadable_deck(tmp_path: Path) -> None:
    deck = tmp_path / "u.yaml"
    deck.write_text("hero: Nobody\nspells:\n  Ember Imp: 3\n", encoding="utf-8")
    page = render_sheet(reg_of(deck))
    assert '<dt>Hero</dt><dd>Nobody <span class="off">(unknown card)</span></dd>' in page
    broken = tmp_path / "b.yaml"
    broken.write_text("hero: [\n", encoding="utf-8")
    page = render_sheet(reg_of(broken), "ja")
    again = ja("sheet", "Fix the problems below and register it again.")
    unread = ja("sheet", "This deck could not be read completely, so it has no deck hash.")
    assert f'<p class="illegal"><b>{unread}</b> {again}</p>' in page


def test_a_japanese_sheet_is_in_japanese() -> None:
    render_sheets = REGISTRAR.render_sheets

    legal, illegal = reg_of(KAGURA), reg_of(ROOT / "examples" / "illegal.yaml")
    page = render_sheet(legal, "ja")
    heading = ja("sheet", "Deck registration")
    assert page.startswith('<!DOCTYPE html>\n<html lang="ja">')
    assert f"<title>{heading} — Aoi Tanaka — Tokyo Open 2026</title>" in page
    assert f"<h1>{heading}</h1>" in page
    standard = ja("format", "Standard")
    assert (
        f'<div class="status legal">{ja("sheet", "LEGAL · {format}", format=standard)}</div>'
        in page
    )
    for label in ("Player", "Format", "Deck", "Table / seat", "Checked as of"):
        assert f"<dt>{ja('sheet', label)}</dt>" in page, label
    judge = ja("sheet", "Judge / organiser (deck checked)")
    assert f"<div>{ja('sheet', 'Player signature')}</div><div>{judge}</div>" in page
    imp = bundled().cards["VZ01-007"].names["ja"]
    assert f'<tr><td class="n">3</td><td>{imp}</td><td class="id">VZ01-007</td></tr>' in page
    bad = render_sheet(illegal, "ja")
    where = ja("sheet", " ({places})", places=ja("sheet", "line {line}", line=30) + "、"
               + ja("section", "portals"))  # fmt: skip
    assert f"<b>V105</b> {ja('severity', 'error')}{where}: " in bad
    both = render_sheets([legal, illegal], "ja")
    assert both.startswith('<!DOCTYPE html>\n<html lang="ja">')
    assert f"<title>{heading} — Tokyo Open 2026</title>" in both
    assert both.count('<article class="sheet">') == 2 and f"<div>{judge}</div>" in both


def test_shown_bytes() -> None:
    from varz_deck.core.registration.sheet import shown_bytes

    assert shown_bytes("b\udcff.yaml \udc80\ud800 ok") == "b\\xff.yaml \\x80\\ud800 ok"


def _rows_of(page: str, caption: str) -> list[str]:
    table = re.search(rf"<caption>{caption} ?[(（].*?</table>", page)
    assert table is not None, caption
    return re.findall(r'<tr><td class="n">[0-9]+</td><td>([^<]*)', table.group(0))


def test_rows_by_cost_then_without_cost_then_unknown(tmp_path: Path) -> None:
    deck = tmp_path / "mixed.yaml"
    deck.write_text(
        "hero: Hibiki Kagura\nspells:\n  Mystery Card: 1\n  Second Wind: 1\n  Cinder Hound: 2\n"
        "  Ember Imp: 3\n  Scorch Shot: 1\n",
        encoding="utf-8",
    )  # Ember Imp and Scorch Shot cost 1, Cinder Hound 2; Second Wind is a skill: no cost
    page = render_sheet(reg_of(deck))
    assert _rows_of(page, "Spells") == [
        "Ember Imp", "Scorch Shot", "Cinder Hound", "Second Wind", "Mystery Card "
    ]  # fmt: skip
    assert 'Mystery Card <span class="off">(unknown)</span>' in page
    unknown = ja_catalogue()["sheet", "(unknown)"]
    assert f'Mystery Card <span class="off">{unknown}</span>' in render_sheet(reg_of(deck), "ja")


def test_japanese_rows_are_sorted_by_their_japanese_names() -> None:
    reg = reg_of(KAGURA)
    assert reg.canonical is not None
    spells = [c.card for c in reg.canonical.sections["spells"]]
    expected = [
        c.names.get("ja", c.name)
        for c in sorted(spells, key=lambda c: (c.cost, c.names.get("ja", c.name).casefold()))
    ]
    assert _rows_of(render_sheet(reg, "ja"), ja("sheet", "Spells")) == expected
    english = [c.name for c in sorted(spells, key=lambda c: (c.cost, c.name.casefold()))]
    assert english != [
        c.name for c in sorted(spells, key=lambda c: (c.cost, c.names.get("ja", c.name).casefold()))
    ]


def test_the_hash_box_and_the_empty_tables(tmp_path: Path) -> None:
    deck = tmp_path / "u.yaml"
    deck.write_text("hero: Hibiki Kagura\nskills:\n  Mystery Skill: 1\n", encoding="utf-8")
    reg = reg_of(deck)
    page = render_sheet(reg)
    h = reg.deck_hash
    assert h is not None
    assert (
        f'<div class="hash"><span>Deck hash</span><code>{h}</code><small>check at the table: '
        f"varz-deck verify DECK --hash {h}</small></div>"
    ) in page  # an unknown card: no deck code
    assert '<tr><td class="n">0</td><td colspan="2">(none)</td></tr>' in page  # spells: none
    verify = ja("sheet", "check at the table: varz-deck verify DECK --hash {hash}", hash=h)
    assert f"<small>{verify}</small>" in render_sheet(reg, "ja")
    assert '</header>\n<dl class="who">\n<dt>' in page


def test_sheet_names_from_windows_paths_and_double_extensions() -> None:
    names = sheet_names(_named("C:\\decks\\aoi.yaml", "decks/aoi.v2.yaml", "x/y/z.txt"))
    assert names == ["aoi.html", "aoi.v2.html", "z.html"]


def test_more_of_the_page_exactly(tmp_path: Path) -> None:
    page = render_sheet(reg_of(KAGURA))
    assert (
        '<meta http-equiv="Content-Security-Policy" '
        "content=\"default-src 'none'; style-src 'unsafe-inline'\">\n"
    ) in page
    heroless = tmp_path / "h.yaml"
    heroless.write_text(
        KAGURA.read_text(encoding="utf-8").replace("hero: Hibiki Kagura\n", ""), "utf-8"
    )
    bad = render_sheet(reg_of(heroless), "ja")
    where = ja("sheet", " ({places})", places=ja("section", "hero"))  # a section, no line
    assert f'<li class="illegal"><b>V101</b> {ja("severity", "error")}{where}: ' in bad
    errors = ja("sheet", "{n} error", n=1)
    assert (
        f'<div class="status illegal">{ja("sheet", "NOT LEGAL · {errors}", errors=errors)}</div>'
        in bad
    )
    nobody = tmp_path / "n.yaml"
    nobody.write_text("hero: Nobody\n", encoding="utf-8")
    unknown = ja("sheet", "(unknown card)")
    assert f'Nobody <span class="off">{unknown}</span>' in render_sheet(reg_of(nobody), "ja")


def test_two_warnings_of_one_code_are_counted(tmp_path: Path) -> None:
    deck = tmp_path / "w2.yaml"
    text = KAGURA.read_text(encoding="utf-8").replace("Meteor Lance: 2", "Mirror Koi: 2")
    text = text.replace("Overheat: 2", "Counterwave: 2")  # a second blue spell the VAZ cannot pay
    deck.write_text(text.replace("Crimson VAZ: 4", "Crimson VAZ: 3\n  Azure VAZ: 1"), "utf-8")
    reg = reg_of(deck)
    assert reg.legal and [d.code for d in reg.report.diagnostics] == ["W201", "W201"]
    assert '<p class="notes">2 warnings (W201 ×2); `varz-deck check` explains them.</p>' in (
        render_sheet(reg)
    )


def test_warnings_of_two_codes_are_listed_apart(tmp_path: Path) -> None:
    from dataclasses import replace

    from varz_deck.core.messages.diagnostics import diag

    reg = reg_of(KAGURA)
    warned = replace(
        reg,
        report=replace(
            reg.report,
            diagnostics=[diag("W202", "w", None), diag("W201", "w", None), diag("W201", "w", None)],
        ),
    )
    assert '<p class="notes">3 warnings (W201 ×2, W202); `varz-deck check` explains them.</p>' in (
        render_sheet(warned)
    )
