"""The package's shape, held as tests: layers (import-linter), no import cycles, lazy games."""

from __future__ import annotations

import ast
import importlib.util
import os
import shutil
import subprocess
import sys
from pathlib import Path

import grimp
import pytest

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    tomllib = pytest.importorskip("tomli")

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"


def test_import_linter_contracts_are_kept() -> None:
    """pyproject.toml [tool.importlinter]: cli -> games -> core; games and commands independent."""
    lint_imports = Path(sys.executable).with_name("lint-imports")
    found = subprocess.run(
        [str(lint_imports), "--config", str(ROOT / "pyproject.toml")],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert found.returncode == 0, found.stdout + found.stderr
    assert "0 broken" in found.stdout


THIRD_GAME = EXAMPLES / "third-game"


def _tidewright_contract(folder: Path = THIRD_GAME) -> subprocess.CompletedProcess[str]:
    """lint-imports of examples/third-game's contract, tidewright importable from `folder`."""
    lint_imports = Path(sys.executable).with_name("lint-imports")
    return subprocess.run(
        [str(lint_imports), "--config", str(THIRD_GAME / "pyproject.toml")],
        cwd=folder,
        env={**os.environ, "PYTHONPATH": str(folder)},
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_tidewright_imports_varz_deck_plugin_alone() -> None:
    """examples/third-game/pyproject.toml [tool.importlinter]: of varz_deck, tidewright imports
    the public module only (docs/reference/plugin.md)."""
    found = _tidewright_contract()
    assert found.returncode == 0, found.stdout + found.stderr
    assert "1 kept, 0 broken" in found.stdout


def test_the_tidewright_contract_forbids_every_other_module_of_varz_deck() -> None:
    """The contract's list cannot go stale: it names each module of varz_deck but the public
    one (a new one must be added to it)."""
    config = tomllib.loads((THIRD_GAME / "pyproject.toml").read_text(encoding="utf-8"))
    (contract,) = config["tool"]["importlinter"]["contracts"]
    package = ROOT / "varz_deck"
    modules = {p.stem for p in package.glob("*.py")} | {
        p.name for p in package.iterdir() if (p / "__init__.py").is_file()
    }
    assert set(contract["forbidden_modules"]) == {
        f"varz_deck.{m}" for m in modules - {"__init__", "plugin"}
    }


def test_tidewright_imports_nothing_of_the_varz_deck_package_itself() -> None:
    """What the contract cannot say: `from varz_deck import NAME` takes the package's own
    names; only `plugin` may be taken so."""
    taken = []
    for path in sorted((THIRD_GAME / "tidewright").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module == "varz_deck":
                taken += [(path.name, a.name) for a in node.names if a.name != "plugin"]
            elif isinstance(node, ast.Import):
                taken += [(path.name, a.name) for a in node.names if a.name == "varz_deck"]
    assert taken == []


def test_a_broken_tidewright_contract_is_seen(tmp_path: Path) -> None:
    """The contract bites: a copy of the package importing the core breaks it."""
    copy = tmp_path / "third-game"
    shutil.copytree(THIRD_GAME / "tidewright", copy / "tidewright")
    rules = copy / "tidewright" / "rules.py"
    rules.write_text(
        rules.read_text(encoding="utf-8") + "\nfrom varz_deck.core.game import declared\n",
        encoding="utf-8",
    )
    found = _tidewright_contract(copy)
    assert found.returncode == 1, found.stdout + found.stderr
    assert "BROKEN" in found.stdout and "varz_deck.core.game.declared" in found.stdout


def _cycles(graph: grimp.ImportGraph) -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    counter = 0
    for start in sorted(graph.modules):
        if start in index:
            continue
        work = [(start, iter(sorted(graph.find_modules_directly_imported_by(start))))]
        index[start] = low[start] = counter
        counter += 1
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append(
                        (child, iter(sorted(graph.find_modules_directly_imported_by(child))))
                    )
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return found


def test_no_import_cycles_not_even_inside_functions_or_for_type_checking() -> None:
    """grimp sees function-level imports too, so a cycle cannot hide behind one; imports made
    only for type checking count as well: a module that needs another's types to be read
    depends on it."""
    graph = grimp.build_graph(
        "varz_deck", include_external_packages=False, exclude_type_checking_imports=False
    )
    assert _cycles(graph) == []


def test_the_cycle_finder_finds_a_cycle() -> None:
    graph = grimp.ImportGraph()
    for name in ("a", "a.x", "a.y", "a.z"):
        graph.add_module(name)
    graph.add_import(importer="a.x", imported="a.y")
    graph.add_import(importer="a.y", imported="a.z")
    graph.add_import(importer="a.z", imported="a.x")
    assert _cycles(graph) == [["a.x", "a.y", "a.z"]]


def _modules_after(*args: str, prefix: str = "varz_deck", columns: str = "") -> set[str]:
    """The modules (under `prefix`) imported by one in-process run of the command line, piped
    (COLUMNS as given; something in pytest sets it for subprocesses)."""
    code = (
        "import sys\n"
        "from varz_deck.cli import main\n"
        "try:\n"
        f"    main({list(args)!r})\n"
        "except SystemExit:\n"
        "    pass\n"
        f"sys.stderr.write(' '.join(m for m in sys.modules if m.startswith({prefix!r})))\n"
    )
    env = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "LINES")}
    if columns:
        env["COLUMNS"] = columns
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120, cwd=ROOT, env=env
    )
    return set(done.stderr.split())


@pytest.mark.parametrize("output", ["text", "json", "github", "sarif"])
def test_a_varz_check_imports_no_azuki_module(output: str) -> None:
    modules = _modules_after(
        "check", str(EXAMPLES / "red-kagura-festival.yaml"), "--output", output
    )
    assert "varz_deck.games.varz" in modules
    assert not {m for m in modules if m.startswith("varz_deck.games.azuki")}


def test_a_declared_games_check_imports_only_what_checking_needs() -> None:
    """The declaration engine imports the registrar, deck codes, the analysis capabilities, the
    card look-up and the schemas it makes on first use: `check` starts as fast as before."""
    modules = _modules_after("check", str(EXAMPLES / "red-kagura-festival.yaml"))
    assert "varz_deck.core.game.declared" in modules
    later = ("registration", "analysis", "game.cards", "game.lookup", "game.sheet", "game.stats")
    assert not {m for m in modules if m.startswith(tuple(f"varz_deck.core.{r}" for r in later))}
    assert "varz_deck.core.cards.cardinfo" not in modules


def test_a_piped_check_imports_no_rich() -> None:
    """Piped output has no colour and no width: its lines are written as they are, and rich (a
    sixth of `check`'s start-up) is not imported; a terminal's width still wraps through rich."""
    deck = str(EXAMPLES / "illegal.yaml")
    assert _modules_after("check", deck, prefix="rich") == set()
    assert "rich.console" in _modules_after("check", deck, prefix="rich", columns="60")


def test_an_azuki_check_imports_no_varz_module() -> None:
    deck = next((EXAMPLES / "azuki").glob("*.yaml"))
    modules = _modules_after("check", str(deck), "--game", "azuki")
    assert "varz_deck.games.azuki" in modules
    assert not {m for m in modules if m.startswith("varz_deck.games.varz")}


# the extras' packages (lsp, plot, server) and what only `cards lint` needs
EXTRA_MODULES = (
    "django", "ninja", "gunicorn", "psycopg", "varz_deck.server",
    "pygls", "lsprotocol", "matplotlib", "jsonschema",
)  # fmt: skip


def _extras_after_check(before: str = "") -> str:
    code = (
        "import sys\n"
        f"{before}\n"
        "from varz_deck.cli import main\n"
        "try:\n"
        f"    main(['check', {str(EXAMPLES / 'red-kagura-festival.yaml')!r}])\n"
        "except SystemExit:\n"
        "    pass\n"
        f"bad = [m for m in {EXTRA_MODULES!r} if m in sys.modules]\n"
        "sys.stderr.write(' '.join(bad))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    return done.stderr.strip()


def test_check_imports_no_optional_extra() -> None:
    """`check` stays light: nothing of the server (Django, django-ninja, gunicorn, psycopg), the
    language server or the plots."""
    assert _extras_after_check() == ""


def test_the_extras_probe_sees_an_imported_extra() -> None:
    if importlib.util.find_spec("django") is None:
        pytest.skip("the server extra is not installed")
    assert _extras_after_check("import django.db") == "django"


def test_today_is_decided_only_at_the_entry_points() -> None:
    """`core.dates.on_date` (today, or $VARZ_DECK_TODAY) is asked by the command line's
    `check_date` and the language server's `day` only; everything below takes the day they
    decided (the registration server's is the event's own date)."""
    import ast

    package = ROOT / "varz_deck"
    asking = set()
    for path in package.rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and any(a.name == "on_date" for a in node.names):
                asking.add(path.relative_to(package).as_posix())
    assert asking == {"cli/common.py", "lsp/server.py"}
