"""Where the in-process server tests find the repository's files (a module of its own: `conftest`
names several modules in one pytest session, so importing from it finds whichever came last)."""

from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
EXAMPLES = ROOT / "examples"
