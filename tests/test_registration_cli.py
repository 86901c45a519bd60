"""`register`, `verify`, `diff` and `code` on the command line: outputs, exit codes, batches."""

from __future__ import annotations

import base64
import csv
import hashlib
import io
import json
import shutil
from pathlib import Path
from typing import Any

import pytest
import typer
from typer.testing import CliRunner
from varz_decks import decode as decode_code

from varz_deck.cli import register as cli_register
from varz_deck.cli.register import code, diff, register, verify
from varz_deck.core.registration.code import DecodedDeck

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"
KAGURA = EXAMPLES / "red-kagura-festival.yaml"
ILLEGAL = EXAMPLES / "illegal.yaml"
BLUE_TXT = EXAMPLES / "blue-list.txt"
# examples/red-kagura-festival.yaml in the README's canonical form, written by hand: each card's
# smallest printing id from card_data/varz/sets/ (Scorch Shot is VZ01-010 and VZ02-063), sorted by id.
KAGURA_CANONICAL = """\
varz-deck-hash v1
format:standard
hero:VZ01-001
spells:
VZ01-007 3
VZ01-008 3
VZ01-009 3
VZ01-010 3
VZ01-011 2
VZ01-012 3
VZ01-013 2
VZ01-014 1
VZ01-015 1
VZ02-004 3
VZ02-005 2
VZ02-006 2
VZ02-007 2
skills:
VZ01-067 1
VZ01-068 1
VZ01-069 1
VZ01-070 1
VZ01-094 4
VZ02-043 1
portals:
VZ01-101 2
VZ01-104 4
VZ01-110 1
VZ01-113 1
"""


def readme_hash(canonical_text: str) -> str:
    """The README's "Deck hash" recipe: v1- + 10 lower-case base32 characters of SHA-256."""
    digest = hashlib.sha256(canonical_text.encode("utf-8")).digest()
    return "v1-" + base64.b32encode(digest).decode("ascii")[:10].lower()


KAGURA_HASH = readme_hash(KAGURA_CANONICAL)
COMMANDS = {"register": register, "verify": verify, "diff": diff, "code": code}


def _app() -> typer.Typer:
    """The commands as varz_deck.cli registers them (`app.command(name)(function)`)."""
    app = typer.Typer(pretty_exceptions_enable=False, rich_markup_mode=None)

    @app.callback()
    def _root() -> None:
        """varz-deck (test app)."""

    for name, function in COMMANDS.items():
        app.command(name)(function)
    return app


APP = _app()


def run(*args: str | Path) -> tuple[int, str, str]:
    result = CliRunner().invoke(APP, [str(a) for a in args])
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result.exit_code, result.stdout, result.stderr


def test_commands_are_registered_in_the_cli() -> None:
    """Fails until varz_deck/cli.py adds the four commands (see cli_register's docstring)."""
    from varz_deck.cli import app

    names = {c.name or (c.callback.__name__ if c.callback else "") for c in app.registered_commands}
    assert set(COMMANDS) <= names


# ---- register ----------------------------------------------------------------------------------


def test_register_json_has_the_documented_shape() -> None:
    status, out, _ = run("register", KAGURA, ILLEGAL, "--output", "json")
    assert status == 1  # one deck is illegal
    data = json.loads(out)
    assert data["version"] == 1
    first, second = data["registrations"]
    assert list(first)[:8] == [
        "path", "player", "event", "date", "legal", "deck_hash", "diagnostics", "cards",
    ]  # fmt: skip
    assert first["date"] == "2026-12-01"  # today (tests/conftest.py's TODAY): no --date
    assert first["path"] == str(KAGURA)
    assert (first["player"], first["event"]) == ("Aoi Tanaka", "Tokyo Open 2026")
    assert first["legal"] is True and first["deck_hash"] == KAGURA_HASH
    assert first["cards"]["format"] == "standard"
    assert first["cards"]["hero"] == {"id": "VZ01-001", "name": "Hibiki Kagura"}
    assert sum(c["count"] for c in first["cards"]["spells"]) == 30
    assert {"id": "VZ01-094", "name": "Crimson VAZ", "count": 4} in first["cards"]["skills"]
    assert second["legal"] is False
    assert {d["code"] for d in second["diagnostics"]} == {"V103", "V105", "V113", "V114"}
    assert second["player"] == "" and second["event"] == ""
    assert data["summary"] == {"decks": 2, "legal": 1, "illegal": 1}


def test_register_exit_zero_when_all_legal() -> None:
    status, out, _ = run("register", KAGURA, BLUE_TXT)
    assert status == 0
    assert KAGURA_HASH in out and "2 decks registered: 2 legal, 0 illegal" in out


def test_player_and_event_options_override_the_files() -> None:
    _, out, _ = run(
        "register", KAGURA, "--player", "Ren Sato", "--event", "Osaka Cup", "-o", "json"
    )
    reg = json.loads(out)["registrations"][0]
    assert (reg["player"], reg["event"]) == ("Ren Sato", "Osaka Cup")
    assert reg["deck_hash"] == KAGURA_HASH  # who and where are not part of the deck


def test_txt_player_and_event_are_read(tmp_path: Path) -> None:
    deck = tmp_path / "deck.txt"
    deck.write_text(
        "Player: Mio\nEvent: Kyoto Weekly\n" + BLUE_TXT.read_text(encoding="utf-8"),
        encoding="utf-8",
    )
    _, out, _ = run("register", deck, "-o", "json")
    reg = json.loads(out)["registrations"][0]
    assert (reg["player"], reg["event"]) == ("Mio", "Kyoto Weekly")


def test_register_csv_one_row_per_deck_and_no_formulas(tmp_path: Path) -> None:
    status, out, _ = run("register", KAGURA, ILLEGAL, tmp_path / "nope.yaml", "-o", "csv",
                         "--player", "=HYPERLINK(\"http://x\")")  # fmt: skip
    assert status == 1
    rows = list(csv.DictReader(io.StringIO(out)))
    assert [r["path"] for r in rows] == [str(KAGURA), str(ILLEGAL), str(tmp_path / "nope.yaml")]
    assert rows[0]["legal"] == "true" and rows[0]["deck_hash"] == KAGURA_HASH
    assert rows[1]["error_codes"].split() == ["V103", "V114", "V113", "V105"]
    assert rows[2]["error_codes"] == "F001" and rows[2]["deck_hash"] == ""
    assert all(r["player"].startswith("'=") for r in rows)


def test_unreadable_deck_is_registered_without_a_hash(tmp_path: Path) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text("hero: [oops\n", encoding="utf-8")
    status, out, _ = run("register", bad, "-o", "json")
    reg = json.loads(out)["registrations"][0]
    assert status == 1 and reg["deck_hash"] is None and reg["cards"] is None
    assert reg["diagnostics"][0]["code"] == "F002"
    status, text, _ = run("register", bad)
    assert "no hash" in text and "F002" in text


def test_register_a_deck_code() -> None:
    _, deck_code, _ = run("code", KAGURA)
    status, out, _ = run("register", deck_code.strip(), "--player", "Aoi", "-o", "json")
    reg = json.loads(out)["registrations"][0]
    assert status == 0 and reg["deck_hash"] == KAGURA_HASH
    code = deck_code.strip()  # shown by its start and its end (the checksum): issue 12
    assert reg["path"] == code[:16] + "…" + code[-8:]


def test_register_format_option_changes_the_format_and_the_hash() -> None:
    _, out, _ = run("register", KAGURA, "--format", "pioneer", "-o", "json")
    reg = json.loads(out)["registrations"][0]
    assert reg["cards"]["format"] == "pioneer"
    pioneer = KAGURA_CANONICAL.replace("format:standard\n", "format:pioneer\n")
    assert reg["deck_hash"] == readme_hash(pioneer) != KAGURA_HASH


def test_500_decks_in_one_call_each_registered_once_in_order(tmp_path: Path) -> None:
    sources = sorted(p for p in EXAMPLES.glob("*.*"))
    paths = []
    for i in range(500):
        target = tmp_path / f"p{i:03}{sources[i % len(sources)].suffix}"
        shutil.copyfile(sources[i % len(sources)], target)
        paths.append(target)
    _, out, _ = run("register", *paths, "--event", "Big Open", "-o", "json")
    regs = json.loads(out)["registrations"]
    assert [r["path"] for r in regs] == [str(p) for p in paths]
    single = {
        s.name: json.loads(run("register", s, "-o", "json")[1])["registrations"][0]["deck_hash"]
        for s in sources
    }
    assert [r["deck_hash"] for r in regs] == [
        single[sources[i % len(sources)].name] for i in range(500)
    ]


def test_register_writes_one_sheet_per_deck(tmp_path: Path) -> None:
    sheets = tmp_path / "sheets"
    same_stem = tmp_path / "red-kagura-festival.yaml"
    shutil.copyfile(KAGURA, same_stem)
    status, _, err = run("register", KAGURA, same_stem, ILLEGAL, "--sheet", sheets)
    assert status == 1
    names = sorted(p.name for p in sheets.iterdir())
    assert names == ["illegal.html", "red-kagura-festival-2.html", "red-kagura-festival.html"]
    assert "wrote 3 registration sheets" in err
    assert KAGURA_HASH in (sheets / "red-kagura-festival.html").read_text(encoding="utf-8")


def test_sheet_folder_that_cannot_be_written_is_a_usage_error(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("x", encoding="utf-8")
    status, out, err = run("register", KAGURA, "--sheet", blocker)
    # the registration is printed all the same (issue 11, row 16); the sheet problem is exit 2
    assert status == 2 and "v1-" in out and "is a file, not a folder" in err
    status, out, err = run("register", KAGURA, "--sheet", blocker / "sub")
    assert status == 2 and "v1-" in out and "cannot write sheets" in err


def test_register_without_decks_is_a_usage_error() -> None:
    status, _, _ = run("register")
    assert status == 2


def test_invalid_card_database_is_exit_2(tmp_path: Path) -> None:
    db = tmp_path / "db"
    db.mkdir()
    (db / "cards.yaml").write_text(
        "cards:\n  - {id: bad id, name: X, type: hero}\n", encoding="utf-8"
    )
    for args in (("register", KAGURA), ("verify", KAGURA, "--hash", KAGURA_HASH), ("code", KAGURA)):
        assert run(*args, "--cards", db)[0] == 2


# ---- verify ------------------------------------------------------------------------------------


def test_verify_matches_whatever_the_spelling_of_the_hash() -> None:
    assert run("verify", KAGURA, "--hash", KAGURA_HASH)[0] == 0
    assert run("verify", KAGURA, "--hash", KAGURA_HASH.upper())[0] == 0
    _, out, _ = run("verify", KAGURA, "--hash", KAGURA_HASH, "-o", "json")
    assert json.loads(out) == {
        "version": 1, "path": str(KAGURA), "date": "2026-12-01", "deck_hash": KAGURA_HASH,
        "expected": KAGURA_HASH, "match": True,
    }  # fmt: skip


def test_verify_mismatch_is_exit_1_and_points_at_diff() -> None:
    status, out, _ = run("verify", ILLEGAL, "--hash", KAGURA_HASH)
    assert status == 1 and "no match" in out and "varz-deck diff" in out


def test_verify_bad_hash_is_a_usage_error() -> None:
    status, out, err = run("verify", KAGURA, "--hash", "abc")
    assert status == 2 and out == "" and "not a deck hash" in err


def test_verify_unreadable_deck_is_exit_2_with_its_diagnostics(tmp_path: Path) -> None:
    status, out, err = run("verify", tmp_path / "gone.yaml", "--hash", KAGURA_HASH)
    assert status == 2 and out == "" and "F001" in err and "cannot be compared" in err


def test_verify_a_deck_code() -> None:
    deck_code = run("code", KAGURA)[1].strip()
    assert run("verify", deck_code, "--hash", KAGURA_HASH)[0] == 0


# ---- diff --------------------------------------------------------------------------------------


def test_diff_same_deck_written_differently_is_exit_0(tmp_path: Path) -> None:
    deck_code = run("code", BLUE_TXT)[1].strip()
    status, out, _ = run("diff", BLUE_TXT, deck_code)
    assert status == 0 and "same deck" in out


def test_diff_shows_each_change_by_section() -> None:
    status, out, _ = run("diff", KAGURA, ILLEGAL, "-o", "json")
    assert status == 1
    data = json.loads(out)
    assert data["same"] is False and data["format"] is None and data["hero"] is None
    changes = {
        (c["section"], c["name"]): (c["registered"], c["presented"]) for c in data["changes"]
    }
    assert changes[("spells", "Scorch Shot")] == (3, 4)
    assert changes[("spells", "Counterwave")] == (0, 2)
    assert changes[("skills", "Shadow Step")] == (0, 1)
    assert changes[("portals", "Shibuya Crossing")] == (1, 0)
    status, text, _ = run("diff", KAGURA, ILLEGAL)
    assert "Scorch Shot" in text and "registered 3, presented 4" in text
    assert text.index("spells") < text.index("skills") < text.index("portals")


def test_diff_hero_and_format(tmp_path: Path) -> None:
    other = tmp_path / "other.yaml"
    text = KAGURA.read_text(encoding="utf-8")
    text = text.replace("hero: Hibiki Kagura", "hero: Shizuku Minase").replace(
        "format: standard", "format: pioneer"
    )
    other.write_text(text, encoding="utf-8")
    status, out, _ = run("diff", KAGURA, other, "-o", "json")
    data = json.loads(out)
    assert status == 1
    assert data["format"] == {"registered": "standard", "presented": "pioneer"}
    assert data["hero"]["presented"]["name"] == "Shizuku Minase" and data["changes"] == []


def test_diff_with_an_unreadable_deck_is_exit_2(tmp_path: Path) -> None:
    status, _, err = run("diff", KAGURA, "VZ1AAAAAAAAA")
    assert status == 2 and "F009" in err


# ---- code --------------------------------------------------------------------------------------


def _decoded_from_canonical(text: str) -> DecodedDeck:
    """What a deck code must hold, read off a canonical text."""
    lines = text.splitlines()[1:]
    fmt = lines[0].removeprefix("format:")
    hero = lines[1].removeprefix("hero:")
    sections: dict[str, list[tuple[str, int]]] = {}
    current: list[tuple[str, int]] = []
    for line in lines[2:]:
        if line.endswith(":"):
            current = sections.setdefault(line[:-1], [])
        else:
            card_id, count = line.split(" ")
            current.append((card_id, int(count)))
    return DecodedDeck(fmt, {"hero": hero}, {k: tuple(v) for k, v in sections.items()})


def test_code_prints_one_line_that_decodes_to_the_deck() -> None:
    status, out, _ = run("code", KAGURA)
    assert status == 0 and out.startswith("VZ1") and out.count("\n") == 1
    decoded = decode_code(out.strip())
    assert decoded == _decoded_from_canonical(KAGURA_CANONICAL)
    assert (
        decoded.slots["hero"] == "VZ01-001" and sum(n for _, n in decoded.sections["spells"]) == 30
    )


def test_code_of_a_deck_with_an_unknown_card_is_refused(tmp_path: Path) -> None:
    deck = tmp_path / "d.yaml"
    deck.write_text("hero: Hibiki Kagura\nspells:\n  Mystery Card: 2\n", encoding="utf-8")
    status, out, err = run("code", deck)
    assert status == 1 and out == "" and "F005" in err and "has no deck code" in err


def test_check_accepts_a_deck_code() -> None:
    from varz_deck.cli import app

    deck_code = run("code", KAGURA)[1].strip()
    result = CliRunner().invoke(app, ["check", deck_code])
    assert result.exit_code == 0, result.output


@pytest.mark.parametrize("command", ["register", "verify", "diff", "code"])
def test_help(command: str) -> None:
    result = CliRunner().invoke(APP, [command, "--help"])
    assert result.exit_code == 0 and "--cards" in result.stdout


def test_cli_register_imports_without_the_cli_first() -> None:
    assert cli_register.RegisterOutput.csv.value == "csv"


def test_register_text_exact(tmp_path: Path) -> None:
    deck = tmp_path / "tiny.yaml"
    deck.write_text(
        "name: Tiny\nplayer: Mio\nhero: Hibiki Kagura\nspells:\n  Ember Imp: 3\n  VZ02-063: 1\n"
        "  Scorch Shot: 1\nskills:\n  Crimson VAZ: 4\nportals:\n  Crimson Gate: 4\n  Nowhere Gate: 1\n",
        encoding="utf-8",
    )
    _, out, _ = run("register", deck)
    head = out.splitlines()[:11]
    canonical = (
        "varz-deck-hash v1\nformat:standard\nhero:VZ01-001\n"
        "spells:\nVZ01-007 3\nVZ01-010 2\nskills:\nVZ01-094 4\n"
        "portals:\n?nowhere gate 1\nVZ01-104 4\n"  # "?" sorts before "V"
    )
    assert head == [
        f"✗ illegal  {deck}  {readme_hash(canonical)}",
        "  Tiny · player: Mio · event: - · format: standard",
        "  hero: Hibiki Kagura (VZ01-001)",
        "  spells (5)",
        "      3  Ember Imp     VZ01-007",
        "      2  Scorch Shot   VZ01-010",  # two printings, one line, counts added
        "  skills (4)",
        "      4  Crimson VAZ   VZ01-094",
        "  portals (5, Shield Life 12)",
        "      1  Nowhere Gate  unknown",
        "      4  Crimson Gate  VZ01-104",
    ]
    assert out.endswith("1 deck registered: 0 legal, 1 illegal\n")


# ---- Azuki TCG ---------------------------------------------------------------------------------

AZUKI_EXAMPLES = sorted((EXAMPLES / "azuki").glob("*.yaml"))
AZUKI_CARDS = ROOT / "card_data" / "azuki"
AZUKI_TXT = ROOT / "tests" / "cases_azuki" / "A103" / "ok_plain_text.txt"  # stt02 as a .txt list
AZUKI_49 = ROOT / "tests" / "cases_azuki" / "A103" / "bad_plain_text_49.txt"
# Where each Azuki card type goes (card_data/azuki/README.md), for the hand-built canonical text.
AZUKI_HOME = {
    "leader": "leader", "gate": "gate", "entity": "main", "spell": "main", "weapon": "main",
    "ikz": "ikz", "ikz_token": "ikz",
}  # fmt: skip


def _azuki_ids() -> dict[tuple[str, str], str]:
    """(place, name or id) -> card id, read straight from the card files with PyYAML."""
    import yaml

    ids: dict[tuple[str, str], str] = {}
    for path in sorted((AZUKI_CARDS / "sets").glob("*.yaml")):
        for card in yaml.safe_load(path.read_text(encoding="utf-8")).get("cards") or []:
            home = AZUKI_HOME[card["type"]]
            for ref in (card["id"], *(card.get("aliases") or ()), card["name"]):
                ids[(home, ref)] = card["id"]
    return ids


def azuki_canonical(deck: Path) -> str:
    """An example deck's canonical text built by hand from docs/deck-hash.md: every reference
    replaced by its card id (an alias by the card's own id), counts added up, lines sorted."""
    import yaml

    data = yaml.safe_load(deck.read_text(encoding="utf-8"))
    ids = _azuki_ids()
    lines = ["azuki-deck-hash v1", f"format:{data.get('format') or 'standard'}"]
    for slot in ("leader", "gate"):
        lines.append(f"{slot}:{ids[(slot, str(data[slot]))]}")
    for section in ("main", "ikz"):
        counts: dict[str, int] = {}
        items = data[section]
        if isinstance(items, list):  # the list form: "4 Name" / "4x Name"
            items = dict((" ".join(x.split()[1:]), int(x.split()[0].rstrip("x"))) for x in items)
        for ref, n in items.items():
            card_id = ids[(section, str(ref))]
            counts[card_id] = counts.get(card_id, 0) + n
        lines.append(f"{section}:")
        lines.extend(f"{card_id} {counts[card_id]}" for card_id in sorted(counts))
    return "".join(line + "\n" for line in lines)


def _azuki_hash(deck: Path) -> str:
    status, out, _ = run("register", "--game", "azuki", deck, "-o", "json")
    assert status == 0, out
    return str(json.loads(out)["registrations"][0]["deck_hash"])


@pytest.mark.parametrize("deck", AZUKI_EXAMPLES, ids=lambda p: p.name)
def test_azuki_register_gives_the_hash_of_the_hand_built_canonical_text(deck: Path) -> None:
    assert _azuki_hash(deck) == readme_hash(azuki_canonical(deck))


@pytest.mark.parametrize("deck", AZUKI_EXAMPLES, ids=lambda p: p.name)
def test_azuki_commands_exit_codes(deck: Path, tmp_path: Path) -> None:
    deck_hash = _azuki_hash(deck)
    assert run("verify", "--game", "azuki", deck, "--hash", deck_hash)[0] == 0
    other = "v1-" + ("a" if deck_hash[3] != "a" else "b") + deck_hash[4:]
    assert run("verify", "--game", "azuki", deck, "--hash", other)[0] == 1
    assert run("diff", "--game", "azuki", deck, deck)[0] == 0
    others = [d for d in AZUKI_EXAMPLES if d != deck]
    status, out, _ = run("diff", "--game", "azuki", deck, others[0], "-o", "json")
    assert status == 1
    changed = json.loads(out)
    assert changed["leader"] is not None and changed["gate"] is not None and changed["changes"]
    assert run("code", "--game", "azuki", deck)[0] == 0
    status, _, err = run("register", "--game", "azuki", deck, "--sheet", tmp_path)
    assert status == 0 and len(list(tmp_path.glob("*.html"))) == 1, err


@pytest.mark.parametrize("deck", AZUKI_EXAMPLES, ids=lambda p: p.name)
def test_azuki_deck_code_round_trip(deck: Path) -> None:
    from varz_deck.core.registration.code import decode as decode_of
    from varz_deck.games import get_game

    def decode(code: str) -> Any:
        return decode_of(code, get_game("azuki").registrar.layout)

    status, out, _ = run("code", "--game", "azuki", deck)
    code_text = out.strip()
    assert status == 0 and code_text.startswith("AZ1") and out.count("\n") == 1
    decoded = decode(code_text)
    lines = azuki_canonical(deck).splitlines()
    assert decoded.format == lines[1].split(":", 1)[1]
    assert decoded.slots == {"leader": lines[2][7:], "gate": lines[3][5:]}
    main_at, ikz_at = lines.index("main:"), lines.index("ikz:")
    for section, rows in (("main", lines[main_at + 1 : ikz_at]), ("ikz", lines[ikz_at + 1 :])):
        expected = tuple((row.split()[0], int(row.split()[1])) for row in rows)
        assert decoded.sections[section] == expected
    # the code registers to the same hash, and encodes back to itself
    assert _azuki_hash(Path(code_text)) == _azuki_hash(deck)
    assert run("code", "--game", "azuki", code_text)[1].strip() == code_text


def test_azuki_txt_list_is_the_same_deck_as_its_yaml() -> None:
    yaml_deck = EXAMPLES / "azuki" / "stt02-shao-water.yaml"
    assert _azuki_hash(AZUKI_TXT) == _azuki_hash(yaml_deck)
    assert run("diff", "--game", "azuki", AZUKI_TXT, yaml_deck)[0] == 0
    status, out, _ = run("register", "--game", "azuki", AZUKI_TXT, "-o", "csv")
    assert status == 0
    rows = list(csv.reader(io.StringIO(out)))
    assert rows[0][3] == "leader" and rows[1][1:4] == ["Aoi Tanaka", "Azuki Night", "Shao"]


def test_azuki_illegal_deck_registers_with_exit_1_and_a_hash() -> None:
    status, out, _ = run("register", "--game", "azuki", AZUKI_49, "-o", "json")
    reg = json.loads(out)["registrations"][0]
    assert status == 1 and not reg["legal"] and reg["deck_hash"] is not None
    assert [d["code"] for d in reg["diagnostics"]] == ["A103"]
    assert sum(c["count"] for c in reg["cards"]["main"]) == 49


def test_damaged_azuki_code_is_f009(tmp_path: Path) -> None:
    status, out, _ = run("code", "--game", "azuki", EXAMPLES / "azuki" / "stt03-bobu-earth.yaml")
    code_text = out.strip()
    flipped = code_text[:10] + ("A" if code_text[10] != "A" else "B") + code_text[11:]
    status, _, err = run("verify", "--game", "azuki", flipped, "--hash", "v1-aaaaaaaaaa")
    assert status == 2 and "F009" in err
    assert run("code", "--game", "azuki", code_text[:-3])[0] == 1
    status, out, _ = run("register", "--game", "azuki", flipped, "-o", "json")
    reg = json.loads(out)["registrations"][0]
    assert status == 1 and reg["deck_hash"] is None
    assert [d["code"] for d in reg["diagnostics"]] == ["F009"]


# ---- issue 24 ------------------------------------------------------------------------------------


def test_code_of_more_copies_than_a_code_holds_is_refused(tmp_path: Path) -> None:
    """Row 12: 700 lines of `99 Ember Imp` are 69,300 copies; a code holds at most 65,535 of one
    card, so no code is printed (before: exit 0 and a code `check` rejected with F009)."""
    deck = tmp_path / "imps.txt"
    deck.write_text("Hero: Hibiki Kagura\nSpells:\n" + "99 Ember Imp\n" * 700, encoding="utf-8")
    status, out, err = run("code", deck)
    assert (status, out) == (1, "")
    assert "has no deck code" in err and "69,300" in err and "65,535" in err
    assert "Traceback" not in err


def test_register_sheet_of_more_copies_than_a_code_holds_has_no_code(tmp_path: Path) -> None:
    deck = tmp_path / "imps.txt"
    deck.write_text("Hero: Hibiki Kagura\nSpells:\n" + "99 Ember Imp\n" * 700, encoding="utf-8")
    status, _, _ = run("register", deck, "--sheet", tmp_path / "sheets")
    assert status == 1
    page = (tmp_path / "sheets" / "imps.html").read_text(encoding="utf-8")
    assert "69300" in page and "Deck code" not in page


def _run_bytes(*args: bytes, cwd: Path) -> tuple[int, str, str]:
    """The command line as a shell gives it: arguments as bytes, not necessarily UTF-8."""
    import os
    import subprocess
    import sys

    env = {**os.environ, "PYTHONUTF8": "1", "VARZ_DECK_LANG": "en", "NO_COLOR": "1"}
    done = subprocess.run(
        [sys.executable.encode(), b"-m", b"varz_deck", *args],
        cwd=cwd,
        capture_output=True,
        env=env,
        timeout=120,
        check=False,
    )
    return done.returncode, done.stdout.decode("utf-8"), done.stderr.decode("utf-8")


def test_a_deck_file_name_that_is_not_utf8_gets_its_sheet_and_the_others_too(
    tmp_path: Path,
) -> None:
    """Row 10: `b\\377.yaml` between two decks; before: exit 3, and c.yaml's sheet not written."""
    import os

    for name in (b"a.yaml", b"b\xff.yaml", b"c.yaml"):
        Path(tmp_path / os.fsdecode(name)).write_bytes(KAGURA.read_bytes())
    status, out, err = _run_bytes(
        b"register", b"a.yaml", b"b\xff.yaml", b"c.yaml", b"--sheet", b"out", b"--combined",
        cwd=tmp_path,
    )  # fmt: skip
    assert status == 0, err
    assert "Traceback" not in err and "internal error" not in err
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == [
        "a.html", "all-sheets.html", "b.html", "c.html"
    ]  # fmt: skip
    page = (tmp_path / "out" / "b.html").read_text(encoding="utf-8")
    assert "b\\xff.yaml" in page
    assert "b\\xff.yaml" in err and "not UTF-8" in err  # said, with the name escaped
    assert "wrote 3 registration sheets" in err
    assert out.count("v1-6axy4nbueg") == 3


@pytest.mark.parametrize("option", [b"--player", b"--event", b"--seat"])
def test_an_option_that_is_not_utf8_is_a_usage_error(tmp_path: Path, option: bytes) -> None:
    """Row 10: `--player` with a Latin-1 byte; before: exit 3 while writing the sheets."""
    shutil.copy(KAGURA, tmp_path / "a.yaml")
    status, out, err = _run_bytes(
        b"register", b"a.yaml", option, b"J\xf6rg", b"--sheet", b"out", cwd=tmp_path
    )
    assert status == 2 and out == ""
    assert option.decode() in err and "J\\xf6rg" in err and "UTF-8" in err
    assert "Traceback" not in err and "internal error" not in err


def test_a_sheet_folder_that_is_not_utf8(tmp_path: Path) -> None:
    import os

    shutil.copy(KAGURA, tmp_path / "a.yaml")
    status, _, err = _run_bytes(b"register", b"a.yaml", b"--sheet", b"out\xff", cwd=tmp_path)
    assert status == 0, err
    assert (tmp_path / os.fsdecode(b"out\xff") / "a.html").is_file()
