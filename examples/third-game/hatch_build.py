"""Hatchling build hook: compile the game's gettext catalogues (tidewright/locale/*.po -> .mo).

The .mo files are build outputs (gitignored), handed to hatchling as artifacts so the wheel ships
them; Babel is a build requirement ([build-system] requires).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from hatchling.builders.hooks.plugin.interface import BuildHookInterface


class CatalogueBuildHook(BuildHookInterface):
    """Compile every .po catalogue to .mo before the wheel's files are collected."""

    PLUGIN_NAME = "custom"

    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        from babel.messages.mofile import write_mo
        from babel.messages.pofile import read_po

        root = Path(self.root)
        for po in sorted((root / "tidewright").glob("locale/*/LC_MESSAGES/*.po")):
            with po.open("rb") as handle:
                catalog = read_po(handle, locale=po.parent.parent.name)
            mo = po.with_suffix(".mo")
            with mo.open("wb") as handle:
                write_mo(handle, catalog, use_fuzzy=False)
            build_data["artifacts"].append(mo.relative_to(root).as_posix())
