"""What the in-process server tests share: the repository's paths and two example decks with
their deck hashes (written out by hand from `varz-deck register`, not read back from the server).
A module of its own: `conftest` names several modules in one pytest session, so importing from it
finds whichever came last."""

from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
EXAMPLES = ROOT / "examples"
LEGAL = (EXAMPLES / "blue-minase-tide.yaml").read_text(encoding="utf-8")
ILLEGAL = (EXAMPLES / "illegal.yaml").read_text(encoding="utf-8")
LEGAL_HASH = "v1-k7ez4ns43m"
ILLEGAL_HASH = "v1-yhe45ebac3"
