"""Installed plugins for a test, without pip: a folder holding a distribution's `.dist-info` (its
METADATA and entry_points.txt) and its modules, put on the import path of `varz-deck` run as a
subprocess, before the environment's packages or after them."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from collections.abc import Mapping, Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
THIRD_GAME = ROOT / "examples" / "third-game"  # the tidewright package's source, no metadata


def distribution(
    folder: Path,
    name: str,
    games: Mapping[str, str],
    modules: Mapping[str, str] | None = None,
    version: str = "1.0",
    default: str | None = None,
) -> Path:
    """A distribution `name` `version` in folder registering each game KEY = "module:ATTR" of
    `games` (entry-point group varz_deck.games), and `default` as the default game (group
    varz_deck.default_game), with each module's source; the folder."""
    folder.mkdir(parents=True, exist_ok=True)
    info = folder / f"{name.replace('-', '_')}-{version}.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(
        f"Metadata-Version: 2.1\nName: {name}\nVersion: {version}\n", encoding="utf-8"
    )
    points = "".join(f"{key} = {target}\n" for key, target in games.items())
    if default is not None:
        points += f"\n[varz_deck.default_game]\ngame = {default}\n"
    (info / "entry_points.txt").write_text(f"[varz_deck.games]\n{points}", encoding="utf-8")
    for module, source in (modules or {}).items():
        (folder / f"{module}.py").write_text(textwrap.dedent(source), encoding="utf-8")
    return folder


def varz_deck(
    *args: object,
    cache: Path,
    before: Sequence[Path] = (),
    after: Sequence[Path] = (),
    env: Mapping[str, str] | None = None,
) -> subprocess.CompletedProcess[str]:
    """`varz-deck ARGS` in a new process, the `before` folders first on its import path and the
    `after` folders last (behind the installed packages), its cache in `cache`."""
    boot = (
        f"import sys; sys.path[1:1] = {[str(p) for p in before]!r}; sys.path.extend({[str(p) for p in after]!r}); "
        "from varz_deck.cli import main; main(sys.argv[1:])"
    )
    environment = {**os.environ, "VARZ_DECK_CACHE": str(cache), "COLUMNS": "200"}
    environment.update(PYTHONDONTWRITEBYTECODE="1", **(env or {}))
    for name in ("PYTHONPATH", "VARZ_DECK_CARDS", "VARZ_DECK_LANG", "VARZ_DECK_DEBUG"):
        environment.pop(name, None)
    return subprocess.run(
        [sys.executable, "-c", boot, *(str(a) for a in args)],
        env=environment,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


# A small game of its own: a deck is a file whose first line is `reef`, then one card id a
# line; one rule, R101: at most 3 lines. Its bundled database holds one card (Azuki's schema).
REEF = """
from pathlib import Path

from varz_deck.core.cards.model import CardDatabase, Format
from varz_deck.core.decks.check import DeckReport
from varz_deck.core.messages.diagnostics import diag
from varz_deck.games.azuki import Azuki


class ReefDatabase(CardDatabase):
    game = "reef"


class PlainRule:
    section, doc = "-", ""

    def __init__(self, code, name="too-many-lines", summary="at most 3 lines"):
        self.code, self.name, self.summary = code, name, summary


class Reef(Azuki):
    def __init__(self):
        super().__init__()
        self.key, self.name = "reef", "Reef"  # a declared game's are its declaration's

    @property
    def card_data(self):
        return Path(__file__).with_name("reef_data")

    def make_database(self, cards, formats):
        return ReefDatabase(cards, formats or {"casual": Format("casual", "Casual")})

    def owns_deck(self, text):
        return text.startswith("reef")

    def check_deck(self, source, database, format_key, date=None):
        lines = source.text.split()
        found = () if len(lines) <= 4 else (diag("R101", "too many lines", file=source.name),)
        return DeckReport(
            source.name, None, "casual", None, {"lines": len(lines)}, found, game="reef",
            words=self.words,
        )

    def rules(self):
        return {"R101": PlainRule("R101")}

    def card_rules(self):
        return {}
"""
REEF_CARD = """cards:
  - id: AZK01-122
    name: Rushfire Gate
    type: gate
    elements: [fire]
"""


def reef(
    folder: Path,
    name: str = "reef-game",
    body: str = "GAME = Reef()\n",
    version: str = "1.0",
    key: str = "reef",
    default: str | None = None,
    module: str | None = None,
    prefix: str | None = None,
) -> Path:
    """The Reef game installed as distribution `name`: `module` (default KEY_game: REEF, then
    `body`, which makes GAME), registered under `key` (and `default` as the default game),
    declaring the code prefix `prefix` (default: the key's last letter, upper-case: no bundled
    game's); its card database beside it (folder/reef_data)."""
    data = folder / "reef_data"
    data.mkdir(parents=True)
    (data / "formats.yaml").write_text("game: reef\nformats: {}\n", encoding="utf-8")
    (data / "cards.yaml").write_text(REEF_CARD, encoding="utf-8")
    declared = f"Reef.prefix = {(prefix or key[-1].upper())!r}\n"
    source = textwrap.dedent(REEF) + "\n" + declared + textwrap.dedent(body)
    module = module or f"{key}_game"
    return distribution(folder, name, {key: f"{module}:GAME"}, {module: source}, version, default)


def with_rules(rules: str, head: str = "") -> str:
    """A Reef game's module body whose `rules()` gives the expression `rules` (`super()`: the
    Reef's own), after the lines `head`."""
    return (
        f"{textwrap.dedent(head)}\n\nclass Other(Reef):\n    def rules(self):\n"
        f"        return {rules}\n\n\nGAME = Other()\n"
    )
