"""Run every benchmark in this folder, one after another; exit non-zero if any target is missed."""

from __future__ import annotations

import compileall
import importlib.util
import sys
from pathlib import Path
from types import ModuleType

HERE = Path(__file__).resolve().parent


def names() -> list[str]:
    """Every benchmark in this folder."""
    return sorted(p.stem for p in HERE.glob("bench_*.py"))


def load(name: str) -> ModuleType:
    """A benchmark's module, imported from this folder."""
    spec = importlib.util.spec_from_file_location(name, HERE / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # as an import does: dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


def main() -> int:
    import varz_deck

    # A pip install compiles bytecode; do the same so start-up is measured as users see it.
    compileall.compile_dir(Path(varz_deck.__file__).parent, quiet=1)
    failed = []
    for name in sys.argv[1:] or names():
        module = load(name)
        print(f"== {name}", flush=True)
        if module.main() != 0:
            failed.append(name)
        print(flush=True)
    print("all targets met" if not failed else f"targets missed: {', '.join(failed)}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
