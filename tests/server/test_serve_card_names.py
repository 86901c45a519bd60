"""Issue 24 row 5, the server: `serve --cards DIR` where a card file's name is not UTF-8 (a
Latin-1 `v\\xffz01.yaml`) starts, and judges decks by that database (its file read, its ban
applied). Before the fix the start died with exit 3 (UnicodeEncodeError in the cache key)."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

from harness import ROOT, LiveServer, sqlite_database

BANNED = "VZ01-008"  # Cinder Hound: examples/red-kagura-festival.yaml plays three
FORMATS = f"""formats:
  standard:
    name: Standard
    max_effect_portals: 2
    banned: [{BANNED}]
"""


def test_serve_with_a_latin1_named_card_file(tmp_path: Path, server_stack: None) -> None:
    cards = tmp_path / "cards"
    shutil.copytree(ROOT / "card_data" / "varz" / "sets", cards / "sets")
    os.rename(cards / "sets" / "vz01.yaml", cards / "sets" / os.fsdecode(b"v\xffz01.yaml"))
    (cards / "formats.yaml").write_text(FORMATS, encoding="utf-8")
    server = LiveServer(sqlite_database(tmp_path / "db"), extra_args=["--cards", str(cards)])
    server.start()  # raises, with the server's log, when it does not answer /healthz
    try:
        event = server.create_event("Latin-1 Open")
        deck = (ROOT / "examples" / "red-kagura-festival.yaml").read_text(encoding="utf-8")
        answer = server.post(
            f"/api/v1/events/{event['event']}/decklists", json={"player": "P", "deck": deck}
        )
        assert answer.status == 201, answer
        body = answer.json()
        assert body["legal"] is False  # the bundled database would say legal
        assert [d["card"] for d in body["diagnostics"] if d["code"] == "V115"] == [BANNED]
    finally:
        server.stop()
    assert "Traceback" not in server.log.read_text(encoding="utf-8", errors="replace")
