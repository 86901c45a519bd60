"""`--date YYYY-MM-DD` on every command that checks a deck (SPEC §12, issue 28 point 2).

The card database here is the bundled one with a dated ban written by hand: Scorch Shot
(VZ01-010, three copies in examples/red-kagura-festival.yaml) is banned from 2027-01-15. The
expected verdicts follow from that line, not from the tool: legal on the 14th, V115 on the 15th.
"""

from __future__ import annotations

import contextlib
import datetime
import io
import json
import shutil
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"
KAGURA = EXAMPLES / "red-kagura-festival.yaml"
AZUKI = EXAMPLES / "azuki" / "stt02-shao-water.yaml"
BUNDLED = ROOT / "card_data" / "varz"
BAN_DAY = "2027-01-15"
DAY_BEFORE = "2027-01-14"
DATED_BAN = f"""\
    changes:
      - date: {BAN_DAY}
        banned: [VZ01-010]
"""
# The README's recipe for examples/red-kagura-festival.yaml (tests/test_registration_cli.py)
KAGURA_HASH = "v1-6axy4nbueg"
DATED_COMMANDS = ("check", "register", "verify", "sim", "stats", "tune", "complete")


def run(*args: str | Path) -> tuple[int, str, str]:
    """`varz-deck ARGS` through the entry point, in this process: exit code, stdout, stderr."""
    from varz_deck.cli import main

    out, err = io.StringIO(), io.StringIO()
    with (
        contextlib.redirect_stdout(out),
        contextlib.redirect_stderr(err),
        pytest.raises(SystemExit) as done,
    ):
        main([str(a) for a in args])
    code = done.value.code
    return (code if isinstance(code, int) else 0), out.getvalue(), err.getvalue()


def command_args(command: str, deck: Path = KAGURA) -> list[str | Path]:
    """The command with the options it needs besides --date."""
    if command == "verify":
        return [command, deck, "--hash", KAGURA_HASH]
    if command == "sim":
        return [command, deck, "--games", "200"]
    return [command, deck]


@pytest.fixture(scope="module")
def dated(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The bundled VARZ database, its Standard with Scorch Shot banned from BAN_DAY."""
    folder = tmp_path_factory.mktemp("dated") / "cards"
    shutil.copytree(BUNDLED, folder)
    formats = folder / "formats.yaml"
    text = formats.read_text(encoding="utf-8")
    anchor = "    restricted: {VZ01-040: 1}    # sample restriction: Soul Harvest, at most 1 copy\n"
    assert anchor in text
    formats.write_text(text.replace(anchor, anchor + DATED_BAN), encoding="utf-8")
    return folder


# --- usage errors ------------------------------------------------------------------------------

BAD_DATES = (
    "2027-02-30",
    "2027-1-5",
    "tomorrow",
    "",
    "20270105",
    "2027-01-05T00:00",
    "２０２７-01-05",
)


@pytest.mark.parametrize("command", DATED_COMMANDS)
@pytest.mark.parametrize("bad", BAD_DATES)
def test_a_date_that_is_not_a_day_is_a_usage_error(command: str, bad: str) -> None:
    status, out, err = run(*command_args(command), "--date", bad)
    assert status == 2, err
    assert out == ""
    assert err.startswith(f"varz-deck: --date {bad!r} is not a date; write it YYYY-MM-DD"), err
    assert "Traceback" not in err and err.count("\n") == 1


@pytest.mark.parametrize("lang", ["ja", "zh"])
def test_the_date_usage_error_is_translated(lang: str) -> None:
    status, _, err = run("check", KAGURA, "--date", "2027-02-30", "--lang", lang)
    assert status == 2
    assert err.startswith("varz-deck: ") and "'2027-02-30'" in err and "YYYY-MM-DD" in err
    assert "is not a date" not in err  # said in the language asked for


def test_every_dated_command_documents_the_option() -> None:
    for command in DATED_COMMANDS:
        status, out, _ = run(command, "--help")
        assert status == 0 and "--date" in out, command


# --- "date" in every JSON that holds a deck -----------------------------------------------------


def test_check_json_carries_the_date_given_on_each_deck() -> None:
    status, out, _ = run(
        "check", KAGURA, EXAMPLES / "illegal.yaml", "-o", "json", "--date", "2031-12-31"
    )
    assert status == 1
    decks = json.loads(out)["decks"]
    assert [d["date"] for d in decks] == ["2031-12-31", "2031-12-31"]
    assert list(decks[0])[list(decks[0]).index("format") + 1] == "date"  # SPEC §5: after format


def test_check_json_date_defaults_to_today(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("VARZ_DECK_TODAY", raising=False)
    before = datetime.date.today().isoformat()
    _, out, _ = run("check", KAGURA, "-o", "json")
    after = datetime.date.today().isoformat()
    assert json.loads(out)["decks"][0]["date"] in (before, after)


def test_register_json_carries_the_date_and_the_hash_does_not() -> None:
    hashes = set()
    for day in ("2026-05-17", "2030-01-01"):
        status, out, _ = run("register", KAGURA, "-o", "json", "--date", day)
        assert status == 0
        (reg,) = json.loads(out)["registrations"]
        assert reg["date"] == day
        assert list(reg)[:5] == ["path", "player", "event", "date", "legal"]
        hashes.add(reg["deck_hash"])
    assert hashes == {KAGURA_HASH}  # the hash is of the list, never of the date


def test_verify_json_carries_the_date() -> None:
    status, out, _ = run(
        "verify", KAGURA, "--hash", KAGURA_HASH, "-o", "json", "--date", "2026-05-17"
    )
    assert status == 0
    data = json.loads(out)
    assert data["match"] is True and data["date"] == "2026-05-17"


@pytest.mark.parametrize("command", ["sim", "stats", "tune"])
@pytest.mark.parametrize("deck", [KAGURA, AZUKI], ids=["varz", "azuki"])
def test_sim_stats_tune_json_carry_the_date(command: str, deck: Path) -> None:
    status, out, err = run(*command_args(command, deck), "-o", "json", "--date", "2026-05-17")
    assert status == 0, err
    data = json.loads(out)
    assert data["date"] == "2026-05-17"
    assert list(data)[list(data).index("deck") + 1] == "date"


def test_sim_vs_json_carries_the_date_on_both_decks() -> None:
    other = EXAMPLES / "yellow-amane-red-splash.yaml"
    args = ("sim", KAGURA, "--vs", other, "--games", "200", "-o", "json", "--date", "2026-05-17")
    status, out, err = run(*args)
    assert status == 0, err
    data = json.loads(out)
    assert data["date"] == "2026-05-17"
    assert [d["date"] for d in data.get("decks", [])] == ["2026-05-17"] * len(data.get("decks", []))


# --- the date reaches the check: a dated ban ----------------------------------------------------


def test_a_deck_is_legal_the_day_before_a_ban_and_illegal_on_its_day(dated: Path) -> None:
    status, out, err = run("check", KAGURA, "--cards", dated, "-o", "json", "--date", DAY_BEFORE)
    assert status == 0, err
    (deck,) = json.loads(out)["decks"]
    assert deck["legal"] is True and deck["date"] == DAY_BEFORE
    status, out, _ = run("check", KAGURA, "--cards", dated, "-o", "json", "--date", BAN_DAY)
    assert status == 1
    (deck,) = json.loads(out)["decks"]
    assert deck["legal"] is False and deck["date"] == BAN_DAY
    assert {d["code"] for d in deck["diagnostics"] if d["severity"] == "error"} == {"V115"}


def test_register_and_its_sheet_use_the_date(dated: Path, tmp_path: Path) -> None:
    status, out, _ = run("register", KAGURA, "--cards", dated, "-o", "json", "--date", DAY_BEFORE)
    assert status == 0 and json.loads(out)["registrations"][0]["legal"] is True
    sheets = tmp_path / "sheets"
    status, out, _ = run(
        "register", KAGURA, "--cards", dated, "-o", "json", "--date", BAN_DAY, "--sheet", sheets
    )
    assert status == 1
    (reg,) = json.loads(out)["registrations"]
    assert reg["legal"] is False and reg["date"] == BAN_DAY and reg["deck_hash"] == KAGURA_HASH
    (page,) = [p.read_text(encoding="utf-8") for p in sheets.iterdir()]
    assert f"<dt>Checked as of</dt><dd>{BAN_DAY}</dd>" in page
    assert "V115" in page


def test_the_sheet_shows_today_when_no_date_is_given(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("VARZ_DECK_TODAY", raising=False)
    before = datetime.date.today().isoformat()
    status, _, _ = run("register", KAGURA, "--sheet", tmp_path)
    after = datetime.date.today().isoformat()
    assert status == 0
    (page,) = [p.read_text(encoding="utf-8") for p in tmp_path.iterdir()]
    assert any(f"<dt>Checked as of</dt><dd>{day}</dd>" in page for day in (before, after))


@pytest.mark.parametrize("command", ["sim", "stats", "tune"])
def test_sim_stats_tune_check_the_deck_on_the_date(command: str, dated: Path) -> None:
    status, out, err = run(
        *command_args(command), "--cards", dated, "-o", "json", "--date", DAY_BEFORE
    )
    assert status == 0 and "is not legal" not in err, err
    status, out, err = run(
        *command_args(command), "--cards", dated, "-o", "json", "--date", BAN_DAY
    )
    assert status == 0, err
    assert "deck is not legal (1 problem" in err
    assert json.loads(out)["date"] == BAN_DAY


def test_verify_matches_whatever_the_date(dated: Path) -> None:
    for day in (DAY_BEFORE, BAN_DAY):
        status, out, _ = run(
            "verify", KAGURA, "--hash", KAGURA_HASH, "--cards", dated, "--date", day
        )
        assert status == 0 and KAGURA_HASH in out


@pytest.mark.parametrize("command", ["sim", "stats", "tune", "verify", "register"])
@pytest.mark.parametrize("deck", [KAGURA, AZUKI], ids=["varz", "azuki"])
def test_the_date_given_reaches_the_games_check(
    command: str, deck: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every check within the command is on the date given: each game's check takes its
    format as in force on the day the command decided (`Format.on`, recorded here)."""
    from varz_deck.core.cards.model import Format

    asked: list[datetime.date] = []
    real = Format.on

    def spy(self: Any, day: datetime.date, *args: Any, **kwargs: Any) -> Any:
        asked.append(day)
        return real(self, day, *args, **kwargs)

    monkeypatch.setattr(Format, "on", spy)
    args = command_args(command, deck)
    if command == "verify":
        args = [*args[:2], "--hash", "v1-aaaaaaaaaa"]  # a mismatch is fine: the deck is read
    status, _, err = run(*args, "--date", "2030-06-30")
    assert status in (0, 1), err
    assert asked and set(asked) == {datetime.date(2030, 6, 30)}


def test_complete_adds_a_card_the_day_before_its_ban_and_not_on_the_day(
    dated: Path, tmp_path: Path
) -> None:
    """Scorch Shot (cost 1, red) is among the spells a Kagura deck with no spells gets; from the
    day of its ban it is not, and `check` passes the deck on each day."""
    text = KAGURA.read_text(encoding="utf-8")
    start, end = text.index("spells:"), text.index("skills:")
    deck = tmp_path / "no-spells.yaml"
    deck.write_text(text[:start] + text[end:], encoding="utf-8")
    for day, added in ((DAY_BEFORE, True), (BAN_DAY, False)):
        status, out, err = run("complete", deck, "--cards", dated, "--date", day)
        assert status == 0, err
        assert ("Scorch Shot: 3" in out) is added, day
        whole = tmp_path / f"whole-{day}.yaml"
        whole.write_text(out, encoding="utf-8")
        assert run("check", whole, "--cards", dated, "--date", day)[0] == 0
