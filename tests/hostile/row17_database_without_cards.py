"""Row 17: a card database folder that holds no card: empty, or only other files (the way /etc
holds YAML that is not card data), or card files whose `cards:` lists are empty.

`write(folder, kind)` makes one of KINDS in `folder` and returns it.
"""

from __future__ import annotations

from pathlib import Path

KINDS = ("empty", "other_files", "empty_card_lists")


def write(folder: Path, kind: str) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    if kind == "other_files":
        (folder / "mkdocs.yml").write_text("site_name: not cards\n", encoding="utf-8")
        (folder / "netplan.yaml").write_text("network:\n  version: 2\n", encoding="utf-8")
        (folder / "README.md").write_text("# cards\n", encoding="utf-8")
        (folder / "sub").mkdir()
        (folder / "sub" / "hosts").write_text("127.0.0.1 localhost\n", encoding="utf-8")
    elif kind == "empty_card_lists":
        (folder / "set.yaml").write_text("set: {code: VZ09}\ncards: []\n", encoding="utf-8")
    return folder
