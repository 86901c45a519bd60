"""The mutation-testing set-up is valid (issue 10): mutmut itself is far too slow for the test
suite, so this only checks that `python scripts/mutation.py` would mutate and run what it says."""

from __future__ import annotations

import ast
import fnmatch
import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    tomllib = pytest.importorskip("tomli")

ROOT = Path(__file__).resolve().parent.parent
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
CONFIG = PYPROJECT["tool"]["mutmut"]


def _script() -> ModuleType:
    spec = importlib.util.spec_from_file_location(
        "mutation_script", ROOT / "scripts" / "mutation.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("mutation_script", module)
    spec.loader.exec_module(module)
    return module


def _python_files() -> list[str]:
    return sorted(
        p.relative_to(ROOT).as_posix()
        for source in CONFIG["source_paths"]
        for p in (ROOT / source).rglob("*.py")
    )


def test_mutmut_is_a_test_dependency() -> None:
    test_extra = PYPROJECT["project"]["optional-dependencies"]["test"]
    assert any(dep.startswith("mutmut") for dep in test_extra)


def test_every_configured_path_exists() -> None:
    for path in (*CONFIG["source_paths"], *CONFIG["also_copy"]):
        assert (ROOT / path).exists(), path
    files = _python_files()
    for pattern in CONFIG["only_mutate"]:
        assert fnmatch.filter(files, pattern), f"only_mutate {pattern!r} matches no file"
    for arg in CONFIG["pytest_add_cli_args_test_selection"]:
        if arg.startswith("--ignore="):
            assert (ROOT / arg.removeprefix("--ignore=")).exists(), arg
        elif arg.startswith("tests"):
            file, _, test = arg.partition("::")
            assert (ROOT / file).exists(), arg
            assert not test or f"def {test}(" in (ROOT / file).read_text(encoding="utf-8"), arg


def test_every_target_of_the_script_is_mutated_and_its_functions_exist() -> None:
    script = _script()
    for target in script.TARGETS:
        files = target.files()
        assert files, f"{target.key}: none of {target.paths} exists"
        for file in files:
            relative = file.relative_to(ROOT).as_posix()
            assert any(fnmatch.fnmatch(relative, p) for p in CONFIG["only_mutate"]), relative
        if target.functions != ("*",):
            defined: list[str] = []  # over the target's files (a package has several)
            for file in files:
                body = ast.parse(file.read_text(encoding="utf-8")).body
                defined += [node.name for node in body if isinstance(node, ast.FunctionDef)]
                defined += [  # methods, named "Class.method"
                    f"{node.name}.{item.name}"
                    for node in body
                    if isinstance(node, ast.ClassDef)
                    for item in node.body
                    if isinstance(item, ast.FunctionDef)
                ]
            missing = set(target.functions) - set(defined)
            assert not missing, f"{target.key}: {sorted(missing)} not in {files}"
            # one mutant-name pattern per function: the file that defines it
            assert len(target.patterns()) == len(target.functions), target.key
        assert all("__mutmut_" in p for p in target.patterns())


def test_equivalent_mutants_are_listed_with_a_reason() -> None:
    script = _script()
    modules = {
        ".".join(f.relative_to(ROOT).with_suffix("").parts).removesuffix(".__init__")
        for target in script.TARGETS
        for f in target.files()
    }
    for name, reason in script.equivalent().items():
        assert "__mutmut_" in name and reason, name
        assert name.rsplit(".", 1)[0] in modules, f"{name}: not in a module under test"


def test_mutmut_reads_the_configuration(monkeypatch: pytest.MonkeyPatch) -> None:
    configuration = pytest.importorskip("mutmut.configuration")
    monkeypatch.chdir(ROOT)
    configuration.reset_config()
    try:
        config = configuration.config()
        assert [p.as_posix() for p in config.source_paths] == CONFIG["source_paths"]
        mutated = [f for f in _python_files() if config.should_mutate(f)]
        assert "varz_deck/core/files/strictyaml.py" in mutated
        assert "varz_deck/core/decks/check.py" not in mutated
    finally:
        configuration.reset_config()
