"""Mutation testing of the code a restructuring must not break (issue 10), with mutmut.

    python scripts/mutation.py                  # every module below, then the table of scores
    python scripts/mutation.py sanitiser exact  # some modules only
    python scripts/mutation.py --report         # the table from the last run, nothing re-run
    python scripts/mutation.py --list           # the modules and their mutant-name patterns
    python scripts/mutation.py --retry exact    # only the last run's survivors (after new tests)
    python scripts/mutation.py --resume         # only the mutants an interrupted run left
    python scripts/mutation.py --fresh rules    # each survivor again, in a fresh test process
    python scripts/mutation.py --sample 150 varz-rules  # 150 of the mutants not run yet, at random

mutmut (configured in pyproject.toml, `[tool.mutmut]`) copies the package to mutants/, mutates
the files `only_mutate` names, and runs, for each mutant, only the tests that call the mutated
function. This script picks the functions of each module (the exact part of the Azuki goldfish,
`safe` and its helper in sanitize.py), runs them module by module, and counts the results;
the mutants judged equivalent (no test can tell them from the original) are listed with their
reason in scripts/mutation_equivalent.txt and left out of the score.

mutmut runs every mutant in a test process forked after the package was imported, so a mutant of
code that runs at import time (the `rule(...)` registrations, module tables) never takes effect
there and "survives". `--fresh` runs each survivor once more in a new process with the mutant set
from the start (MUTANT_UNDER_TEST); what fails there is killed. Its results are kept in
mutants/fresh.json and override mutmut's.

A full run is hours on two cores for the big modules. `--sample N` runs N of the mutants not run
yet, drawn at random (recorded in mutants/sample.json); the table then estimates the module's
score by strata: the mutants run before the draw count as they are, the draw stands for every
mutant that was left, and the score column gives the 95% interval (Wilson) of that estimate.

Slow: minutes per module on two cores. It never runs as part of the test suite.
"""

from __future__ import annotations

import argparse
import ast
import json
import math
import os
import random
import subprocess
import sys
from collections import Counter
from dataclasses import dataclass
from fnmatch import fnmatch
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
EQUIVALENT_FILE = ROOT / "scripts" / "mutation_equivalent.txt"
FRESH_FILE = ROOT / "mutants" / "fresh.json"
FRESH_TIMEOUT = 900  # seconds for one survivor's fresh run


@dataclass(frozen=True)
class Target:
    """A module under mutation testing: its file (the first of `paths` that exists; the canonical
    form may move) or, for a folder, the package's files, and the functions mutated in them ("*"
    for all; in a package, each function in the file that defines it)."""

    key: str
    title: str
    paths: tuple[str, ...]
    functions: tuple[str, ...] = ("*",)

    def files(self, root: Path = ROOT) -> list[Path]:
        for path in self.paths:
            found = root / path
            if found.is_dir():
                return sorted(found.glob("*.py"))
            if found.is_file():
                return [found]
        return []

    def patterns(self, root: Path = ROOT) -> list[str]:
        """mutmut mutant-name patterns: `module.x_function__mutmut_N` (methods: `xǁClassǁname`)."""
        out = []
        files = self.files(root)
        for file in files:
            module = ".".join(file.relative_to(root).with_suffix("").parts)
            module = module.removesuffix(".__init__")
            defined = defined_functions(file) if len(files) > 1 else set(self.functions)
            for function in self.functions:
                if function != "*" and function not in defined:
                    continue
                if function == "*":
                    out.append(f"{module}.x*__mutmut_*")
                elif "." in function:  # a method, "Class.name": mutmut's `xǁClassǁname`
                    owner, _, method = function.partition(".")
                    out.append(f"{module}.xǁ{owner}ǁ{method}__mutmut_*")
                else:
                    out.append(f"{module}.x_{function}__mutmut_*")
        return out


def defined_functions(file: Path) -> set[str]:
    """The module-level functions of a file and its classes' methods ("Class.method")."""
    body = ast.parse(file.read_text(encoding="utf-8")).body
    found = {node.name for node in body if isinstance(node, ast.FunctionDef)}
    found |= {
        f"{node.name}.{item.name}"
        for node in body
        if isinstance(node, ast.ClassDef)
        for item in node.body
        if isinstance(item, ast.FunctionDef)
    }
    return found


TARGETS = (
    Target("varz-rules", "VARZ rules", ("varz_deck/games/varz/rules",)),
    Target("azuki-rules", "Azuki rules", ("varz_deck/games/azuki/rules",)),
    Target("varz-exact", "VARZ exact formulas", ("varz_deck/games/varz/sim/exact.py",)),
    Target(
        "azuki-exact",
        "Azuki exact formulas",
        ("varz_deck/games/azuki/sim/exact.py",),
        ("seen_by", "ikz_on", "p_among", "exact", "exact_with_se"),
    ),
    Target(
        "canonical",
        "Deck hash canonical form",
        (
            "varz_deck/core/registration/canonical.py",
            "varz_deck/games/varz/registration/canonical.py",
        ),
    ),
    Target("strictyaml", "Strict YAML loader", ("varz_deck/core/files/strictyaml.py",)),
    Target("wrap", "Line wrapping by cells and phrases", ("varz_deck/core/messages/wrap.py",)),
    Target("glossary", "The glossary of figures", ("varz_deck/core/analysis/glossary.py",)),
    Target(
        "analysis", "The analysis's parts and card names", ("varz_deck/core/analysis/parts.py",)
    ),
    Target("htmlreport", "The report page", ("varz_deck/core/analysis/htmlreport.py",)),
    Target("varz-sim-answer", "VARZ sim's answer", ("varz_deck/games/varz/sim/answer.py",)),
    Target("varz-tune-answer", "VARZ tune's answer", ("varz_deck/games/varz/tune/answer.py",)),
    Target("helpformat", "Help in every language", ("varz_deck/cli/helpformat.py",)),
    Target(
        "lsp-hover-figures",
        "LSP: a spell's figures on hover",
        ("varz_deck/lsp/hover.py",),
        ("_parts", "figures_markdown"),
    ),
    Target(
        "holds-card-files",
        "cards lint's default folder",
        ("varz_deck/core/cards/discovery.py",),
        ("holds_card_files",),
    ),
    Target(
        "yaml-numbers",
        "Strict YAML loader: numbers (whole as written)",
        ("varz_deck/core/files/strictyaml.py",),
        ("resolve_plain", "_float", "is_whole", "_tagged"),
    ),
    Target(
        "sanitiser",
        "Output sanitiser",
        ("varz_deck/core/messages/sanitize.py",),
        ("safe", "_escape", "clean_output", "_stream_escape"),
    ),
    Target("lsp-lines", "LSP: references and typing on a line", ("varz_deck/lsp/lines.py",)),
    Target("lsp-documents", "LSP: lines, columns and edits", ("varz_deck/lsp/documents.py",)),
    Target(
        "lsp-diagnostics",
        "LSP: diagnostics' places and severities",
        ("varz_deck/lsp/diagnostics.py",),
        (
            "place",
            "to_lsp",
            "publish",
            "check_deck",
            "refresh",
            "refresh_all",
            "_range",
            "diagnostics_of",
        ),
    ),
    Target(
        "lsp-diagnostics-messages",
        "LSP: what a database that cannot be used says",
        ("varz_deck/lsp/diagnostics.py",),
        ("first_problem", "lint_cards", "files_changed"),
    ),
    Target("lsp-protocol", "LSP: what does not fit is answered", ("varz_deck/lsp/protocol.py",)),
    Target("lsp-frames", "LSP: frames from strangers, to pygls", ("varz_deck/lsp/frames.py",)),
    Target(
        "lsp-completion", "LSP: completion, legal cards first", ("varz_deck/lsp/completion.py",)
    ),
    Target(
        "lsp-index",
        "LSP: completion's search (letters in order from a word's start)",
        ("varz_deck/lsp/index.py",),
        ("in_order", "CardIndex.search", "IndexedKeys._search"),
    ),
    Target(
        "lsp-hover-card",
        "LSP: a card's hover (YAML that parses)",
        ("varz_deck/lsp/hover.py",),
        ("_plain", "_shown", "_Dumper.represent_list", "_yaml_block", "card_markdown"),
    ),
    Target(
        "lsp-server",
        "LSP: the server on pygls's loop",
        ("varz_deck/lsp/server.py",),
        ("VarzServer.start_io", "VarzServer.report_server_error", "VarzServer.log_line"),
    ),
    Target("cachestore", "Card-database cache folder", ("varz_deck/core/cards/cachestore.py",)),
    Target("cachedoc", "Card-database cache file", ("varz_deck/core/cards/cachedoc.py",)),
    Target(
        "database-cache",
        "Card-database cache: key, read, write",
        ("varz_deck/core/cards/dbcache.py",),
        (
            "cache_dir",
            "key_of",
            "cache_key",
            "_write_record",
            "_read_record",
            "quick_key",
            "cache_read",
            "cache_write",
        ),
    ),
    Target("cardindex", "Card index: write, read, checks", ("varz_deck/core/cards/cardindex.py",)),
    Target(
        "database",
        "Card database: open and lint",
        ("varz_deck/core/lint/database.py",),
        ("counted", "open_database", "_build", "lint_database"),
    ),
    Target("discovery", "Card database: its files", ("varz_deck/core/cards/discovery.py",)),
    Target("keyindex", "Card index: completion's table", ("varz_deck/core/cards/keyindex.py",)),
    Target("formats", "Card database: formats.yaml", ("varz_deck/core/cards/formats.py",)),
    Target("dates", "The day a deck is checked on", ("varz_deck/core/dates.py",)),
    Target("lint", "Card-data checks (cards lint)", ("varz_deck/core/lint",)),
    Target(
        "lintstore", "cards lint: the per-file result store", ("varz_deck/core/lint/lintstore.py",)
    ),
    Target(
        "tune",
        "VARZ tune: odds, swaps, tables",
        ("varz_deck/games/varz/tune",),
        (
            "load",
            "last_turn",
            "openers",
            "draw_curves",
            "spell_odds",
            "DrawCache.__call__",
            "mean_on_curve",
            "Swap.lowest",
            "Swap.rank_key",
            "skill_class_of",
            "swap_candidates",
            "sweep",
            "vaz_needed",
            "table",
            "tune_model",
        ),
    ),
    Target(
        "varz-complete",
        "VARZ complete: the Portal Deck search",
        ("varz_deck/games/varz/complete.py",),
        ("portals", "_first_fit", "_adding", "_reaches"),
    ),
    Target(
        "tuning",
        "Tune and stats, shared: on-curve sum, figures, size bound",
        ("varz_deck/core/analysis/tuning.py",),
        ("on_curve", "r", "pct", "points", "fit", "pad", "refuse_oversized"),
    ),
    Target("codes", "Deck codes", ("varz_deck/core/registration/code.py",)),
    Target("sheets", "Registration sheet", ("varz_deck/core/registration/sheet.py",)),
    Target("diff", "Deck diff", ("varz_deck/core/registration/diff.py",)),
    Target("carddiff", "Card-database diff", ("varz_deck/core/report/carddiff.py",)),
    # the server (issue 26), tested in-process (tests/server/inprocess): mutmut 3 mutates no
    # decorated function, so the API's endpoints and the pages' views themselves (`@api.get`,
    # `@require_http_methods`) are not mutated; their helpers are
    Target("server-service", "Server: services", ("varz_deck/server/services",)),
    Target(
        "server-write",
        "Server: storing a list or a version, and the event a write reads",
        ("varz_deck/server/services",),
        (
            "replace_deck",
            "_locked",
            "_append",
            "_add_version",
            "get_decklist",
            "_store_once",
            "still_open",
            "recent_event",
            "recent_event_by_id",
            "_recent",
            "one_or_none",
        ),
    ),
    Target("server-roster", "Server: the roster's CSV", ("varz_deck/server/roster.py",)),
    Target(
        "server-security",
        "Server: guards (headers, cookies, body limit, Host, live-check limits)",
        ("varz_deck/server/security.py",),
    ),
    Target("server-hosts", "Server: the Host check and links", ("varz_deck/server/hosts.py",)),
    Target(
        "server-views",
        "Server: pages (view helpers, forms, view models, rendering)",
        ("varz_deck/server/views",),
    ),
    Target(
        "server-api",
        "Server: the API's helpers",
        ("varz_deck/server/api", "varz_deck/server/api.py"),
    ),
    Target(
        "entries",
        "Deck entries: list items, counts, F003",
        ("varz_deck/core/decks/entries.py",),
        (
            "parse_item",
            "_is_count",
            "read_section",
            "resolve_sections",
            "_overlapping",
            "_rest_not_listed",
        ),
    ),
    Target(
        "card-lookup",
        "Card look-up by id and name",
        ("varz_deck/core/cards/model.py",),
        ("CardDatabase.by_id", "CardDatabase.lookup", "CardDatabase.card_key", "normalize"),
    ),
    Target(
        "name-index", '"Did you mean" from the card index', ("varz_deck/core/cards/nameindex.py",)
    ),
    Target("indexchain", "Card index: the chains of keys", ("varz_deck/core/cards/indexchain.py",)),
    Target(
        "gitfolder",
        "cards diff --git: a folder at a revision",
        ("varz_deck/core/cards/gitfolder.py",),
    ),
    Target(
        "cli-folders-plots",
        "Command line: decks found in a folder, plot files",
        ("varz_deck/cli/common.py",),
        ("deck_arguments", "_card_data", "plot_format", "write_plot"),
    ),
    Target("palette", "Charts: the palette", ("varz_deck/core/analysis/plot.py",), ("colour",)),
    Target(
        "format-on",
        "A format in force on a day: its changes applied",
        ("varz_deck/core/cards/model.py",),
        ("Format.on", "_card_of", "_by_date", "_allowed_by_all"),
    ),
    # plugins that break each other: the registry, and what the command line does of a failure
    Target(
        "registry",
        "Game registry: record, claims, clashes, failures",
        ("varz_deck/games/__init__.py",),
        (
            "_normal",
            "Claim.own",
            "Claim.origin",
            "Claim.rank",
            "_fingerprint",
            "_scan",
            "_package",
            "_ranked",
            "_checksum",
            "_as_record",
            "_read_record",
            "_cached",
            "_registry",
            "register_game",
            "unregister_game",
            "_forget",
            "default_game",
            "game_keys",
            "game_origin",
            "get_game",
            "_load",
            "_load_before",
            "_codes",
            "_declared",
            "_owner",
            "_refused",
            "_guard",
            "game_rules",
            "_said",
            "GameUnavailable.__init__",
            "GameUnavailable.unloadable",
            "GameUnavailable.claimed",
            "GameUnavailable.taken",
            "GameUnavailable.core_code",
            "GameUnavailable.raised",
            "_named",
            "database_game",
            "_database_key",
            "lint_database",
            "check_deck",
            "detect_game",
            "all_codes",
        ),
    ),
    Target(
        "cli-rules",
        "rules and schema: the games that can be used, the ones that cannot",
        ("varz_deck/cli/rules.py",),
        ("_schema_names", "_SchemaChoice.__init__", "_SchemaChoice.convert", "rules"),
    ),
    Target(
        "cli-help",
        "Help of the command named; --version",
        ("varz_deck/cli/main.py",),
        ("_helped", "_name_arguments", "_bundled_formats", "main"),
    ),
    Target(
        "cli-fail", "A failure said", ("varz_deck/cli/common.py",), ("say", "fail", "fail_games")
    ),
    Target(
        "code-list",
        "Every code: a rule's code, the core's, the listing",
        ("varz_deck/core/report/codes.py",),
        ("code_of", "codes_with", "core_codes"),
    ),
    Target(
        "lintstore-key",
        "The lint store's key",
        ("varz_deck/core/lint/lintstore.py",),
        ("open_store",),
    ),
    # the helpers the games' duplicates were merged into
    Target(
        "card-info",
        "cards show and search: the shared table, names, fields and panel title",
        ("varz_deck/core/cards/cardinfo.py",),
        (
            "result_table",
            "result_name",
            "names_grid",
            "add_fields",
            "panel_title",
            "FunctionLookup.filters",
            "FunctionLookup.find",
            "FunctionLookup.search",
            "FunctionLookup.card_panel",
            "FunctionLookup.search_table",
        ),
    ),
    Target(
        "analysis-shared",
        "The analysis's shared parts: the cost curve, castable on curve",
        ("varz_deck/core/analysis/parts.py",),
        ("curve_chart", "on_curve_table"),
    ),
    Target(
        "plot-bars",
        "Charts: the cost curve's stacked bars (SVG, matplotlib)",
        ("varz_deck/core/analysis/plot.py",),
        ("curve_bars", "stacked_bars"),
    ),
    Target("report-console", "Reports' console in memory", ("varz_deck/core/analysis/console.py",)),
    Target(
        "tuning-rounded",
        "Tune and stats, shared: figures rounded for JSON",
        ("varz_deck/core/analysis/tuning.py",),
        ("rounded",),
    ),
    Target(
        "tuning-curve-rows",
        "Tune, stats and sim plots, shared: copies per cost and colour",
        ("varz_deck/core/analysis/tuning.py",),
        ("curve_rows",),
    ),
    Target(
        "plot-image",
        "Charts: an image in its format",
        ("varz_deck/core/analysis/plot.py",),
        ("image",),
    ),
    Target(
        "record-fields",
        "A card record's common fields",
        ("varz_deck/core/cards/model.py",),
        ("record_fields",),
    ),
    Target(
        "within-reach",
        '"Did you mean": the candidates of a length that can match',
        ("varz_deck/core/cards/suggest.py",),
        ("within_reach",),
    ),
    Target(
        "cli-deck-outcome",
        "Command line: one deck opened, a report written, diagnostics said",
        ("varz_deck/cli/common.py",),
        ("open_deck", "warn_outcome", "write_outcome", "say_diagnostics"),
    ),
    Target(
        "cli-databases",
        "Command line: a card database folder opened, a --format read",
        ("varz_deck/cli/common.py",),
        ("database_folder", "open_or_exit", "known_format"),
    ),
)
BY_KEY = {t.key: t for t in TARGETS}

# mutmut's exit codes (mutmut/stats.py) by what they mean here.
KILLED = {1, 3, 37}
SURVIVED = {0}
TIMEOUT = {36, 24, -24, 152, 255}
NO_TESTS = {5, 33}


def equivalent(path: Path = EQUIVALENT_FILE) -> dict[str, str]:
    """Mutant name -> why it is equivalent (one `name  reason` a line; # starts a comment)."""
    out: dict[str, str] = {}
    if not path.exists():
        return out
    for line in path.read_text(encoding="utf-8").splitlines():
        line = line.strip()
        if line and not line.startswith("#"):
            name, _, reason = line.partition(" ")
            out[name] = reason.strip()
    return out


def fresh_results(root: Path = ROOT) -> dict[str, int]:
    """Exit code by mutant name of the fresh-process runs (`--fresh`)."""
    path = root / "mutants" / "fresh.json"
    if not path.exists():
        return {}
    return {str(k): int(v) for k, v in json.loads(path.read_text(encoding="utf-8")).items()}


def results(target: Target, root: Path = ROOT) -> dict[str, int | None]:
    """Exit code by mutant name from mutmut's files in mutants/ (None: not run yet), a fresh
    run's code replacing mutmut's survivor."""
    patterns = target.patterns(root)
    fresh = fresh_results(root)
    out: dict[str, int | None] = {}
    for file in target.files(root):
        meta = root / "mutants" / (str(file.relative_to(root)) + ".meta")
        if not meta.exists():
            continue
        codes = json.loads(meta.read_text(encoding="utf-8")).get("exit_code_by_key", {})
        for name, code in codes.items():
            if any(fnmatch(name, p) for p in patterns):
                out[name] = fresh[name] if code in SURVIVED and name in fresh else code
    return out


def samples(root: Path = ROOT) -> dict[str, dict[str, list[str]]]:
    """Per module key: the mutants left when a sample was drawn ("pool") and those drawn."""
    path = root / "mutants" / "sample.json"
    if not path.exists():
        return {}
    return json.loads(path.read_text(encoding="utf-8"))


def draw(target: Target, size: int, seed: int, root: Path = ROOT) -> list[str]:
    """`size` mutants drawn at random from those not run yet (remembered for the estimate)."""
    pool = sorted(n for n, code in results(target, root).items() if code is None)
    drawn = sorted(random.Random(seed).sample(pool, min(size, len(pool))))
    record = samples(root)
    record[target.key] = {"pool": pool, "drawn": drawn}
    (root / "mutants" / "sample.json").write_text(json.dumps(record, indent=1), encoding="utf-8")
    return drawn


def _verdict(name: str, code: int | None, same: dict[str, str]) -> str:
    if name in same:
        return "equivalent"
    if code in KILLED:
        return "killed"
    if code in SURVIVED:
        return "survived"
    if code in TIMEOUT:
        return "timeout"
    if code in NO_TESTS:
        return "no tests"
    return "not run" if code is None else "other"


def estimate(target: Target, root: Path = ROOT) -> tuple[float, float, float] | None:
    """The module's estimated score and its 95% interval when part of it was sampled."""
    record = samples(root).get(target.key)
    if not record:
        return None
    found, same = results(target, root), equivalent()
    pool, drawn = set(record["pool"]), record["drawn"]
    exact = Counter(_verdict(n, c, same) for n, c in found.items() if n not in pool)
    sample = Counter(_verdict(n, found.get(n), same) for n in drawn)
    judged_sample = sum(sample[k] for k in ("killed", "timeout", "survived", "no tests"))
    run_sample = judged_sample + sample["equivalent"]
    if not judged_sample:
        return None
    killed_exact = exact["killed"] + exact["timeout"]
    judged_exact = killed_exact + exact["survived"] + exact["no tests"]
    left = len(pool) * judged_sample / run_sample  # non-equivalent mutants the draw stands for

    def overall(rate: float) -> float:
        return (killed_exact + rate * left) / (judged_exact + left)

    n, p = judged_sample, (sample["killed"] + sample["timeout"]) / judged_sample
    z = 1.96
    middle = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return overall(p), overall(max(0.0, middle - half)), overall(min(1.0, middle + half))


def score(target: Target, root: Path = ROOT) -> dict[str, int]:
    found = results(target, root)
    same = equivalent()
    counts: Counter[str] = Counter()
    for name, code in found.items():
        if name in same:
            counts["equivalent"] += 1
        elif code in KILLED:
            counts["killed"] += 1
        elif code in SURVIVED:
            counts["survived"] += 1
        elif code in TIMEOUT:
            counts["timeout"] += 1
        elif code in NO_TESTS:
            counts["no tests"] += 1
        elif code is None:
            counts["not run"] += 1
        else:
            counts["other"] += 1
    counts["total"] = len(found)
    return dict(counts)


def table(targets: list[Target]) -> str:
    head = "| module | mutants | killed | survived | equivalent | timeout | no tests | score |"
    lines = [head, "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"]
    for target in targets:
        c = score(target)
        judged = c.get("killed", 0) + c.get("timeout", 0) + c.get("survived", 0)
        judged += c.get("no tests", 0)
        rate = (
            f"{100 * (c.get('killed', 0) + c.get('timeout', 0)) / judged:.1f}%" if judged else "-"
        )
        guess = estimate(target)
        if c.get("not run") and guess is not None:
            rate = (
                f"~{100 * guess[0]:.1f}% (95%: {100 * guess[1]:.1f}–{100 * guess[2]:.1f}%; "
                f"{judged} run, {c['not run']} not)"
            )
        lines.append(
            f"| {target.title} | {c.get('total', 0)} | {c.get('killed', 0)} | "
            f"{c.get('survived', 0)} | {c.get('equivalent', 0)} | {c.get('timeout', 0)} | "
            f"{c.get('no tests', 0)} | {rate} |"
        )
    return "\n".join(lines)


def survivors(targets: list[Target]) -> list[str]:
    same = equivalent()
    return sorted(
        name
        for target in targets
        for name, code in results(target).items()
        if code in SURVIVED | NO_TESTS and name not in same
    )


def test_selection(root: Path = ROOT) -> list[str]:
    """The pytest arguments mutmut runs with (pyproject's [tool.mutmut])."""
    try:
        import tomllib
    except ImportError:  # Python 3.10
        import tomli as tomllib  # type: ignore[no-redef]
    config = tomllib.loads((root / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["mutmut"]
    return [*config["pytest_add_cli_args"], *config["pytest_add_cli_args_test_selection"]]


def run_fresh(names: list[str], root: Path = ROOT) -> None:
    """Each mutant in a new test process, set before anything is imported; codes saved to
    mutants/fresh.json as they come (1: a test failed, killed; 0: survived)."""
    found = fresh_results(root)
    selection = test_selection(root)
    for number, name in enumerate(names, 1):
        env = dict(os.environ, MUTANT_UNDER_TEST=name)
        command = [sys.executable, "-m", "pytest", "-x", "-q", "--no-header", *selection]
        try:
            done = subprocess.run(
                command, cwd=root / "mutants", env=env, capture_output=True,
                timeout=FRESH_TIMEOUT, check=False,
            )  # fmt: skip
            code = done.returncode
        except subprocess.TimeoutExpired:
            code = 36  # mutmut's code for a timeout
        found[name] = code
        (root / "mutants" / "fresh.json").write_text(json.dumps(found, indent=1), encoding="utf-8")
        verdict = "killed" if code in KILLED else "timeout" if code in TIMEOUT else "survived"
        print(f"[{number}/{len(names)}] {name}: {verdict} (exit {code})", flush=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("modules", nargs="*", metavar="MODULE", help=", ".join(BY_KEY))
    parser.add_argument("--report", action="store_true", help="print the last results only")
    parser.add_argument("--list", action="store_true", help="print the modules and patterns")
    parser.add_argument("--retry", action="store_true", help="re-run only the last survivors")
    parser.add_argument("--resume", action="store_true", help="run only the mutants not run yet")
    parser.add_argument(
        "--fresh", action="store_true", help="re-run each survivor in a fresh test process"
    )
    parser.add_argument("--sample", type=int, metavar="N", help="run N random mutants not run yet")
    parser.add_argument("--seed", type=int, default=10, help="the random draw's seed (--sample)")
    parser.add_argument("--max-children", type=int, default=2, help="parallel test processes")
    args = parser.parse_args(argv)
    unknown = [k for k in args.modules if k not in BY_KEY]
    if unknown:
        parser.error(f"unknown module {unknown[0]!r}; choose from {', '.join(BY_KEY)}")
    targets = [BY_KEY[k] for k in args.modules] or list(TARGETS)
    if args.list:
        for target in targets:
            print(target.key, *target.patterns())
        return 0
    if args.fresh:
        run_fresh(survivors(targets))
    elif not args.report:
        for target in targets:
            for file in target.files():
                # A copy mutmut made before the file was under mutation is never mutated later.
                copy = ROOT / "mutants" / file.relative_to(ROOT)
                if copy.exists() and not copy.with_name(copy.name + ".meta").exists():
                    copy.unlink()
            if args.sample and not results(target):
                # a fresh copy has no mutants yet: mutmut makes them all on its first run (here
                # mutant 1 of the module's first function, counted as run before the draw)
                first = target.patterns()[0].removesuffix("*") + "1"
                command = [sys.executable, "-m", "mutmut", "run", "--max-children"]
                subprocess.run([*command, str(args.max_children), first], cwd=ROOT, check=False)
            if args.retry:
                names = survivors([target])
            elif args.sample:
                names = draw(target, args.sample, args.seed)
            elif args.resume:
                names = sorted(n for n, code in results(target).items() if code is None)
            else:
                names = target.patterns()
            if not names:
                continue
            print(f"== {target.title}", flush=True)
            command = [sys.executable, "-m", "mutmut", "run", "--max-children"]
            command += [str(args.max_children), *names]
            done = subprocess.run(command, cwd=ROOT, check=False)
            if done.returncode != 0:
                print(f"mutmut stopped with exit code {done.returncode}", file=sys.stderr)
                return done.returncode
    print(table(targets))
    left = survivors(targets)
    if left:
        print("\nSurviving mutants not judged equivalent (`mutmut show NAME`):")
        print("\n".join(f"  {name}" for name in left))
    return 0


if __name__ == "__main__":
    sys.exit(main())
