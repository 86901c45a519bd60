"""Hatchling build hook: compile the gettext catalogues (locale/*/LC_MESSAGES/*.po -> .mo).

Every catalogue is compiled: the core's (varz_deck/locale/) and each game's (its package's
locale/). The .mo files are build outputs (gitignored); they are written beside their .po sources and handed to hatchling as artifacts, so the wheel ships them even though git
ignores them. Configured in pyproject.toml under [tool.hatch.build.targets.wheel.hooks.custom];
Babel is a build requirement ([build-system] requires).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from hatchling.builders.hooks.plugin.interface import BuildHookInterface

PACKAGE = Path("varz_deck")


class CatalogueBuildHook(BuildHookInterface):
    """Compile every .po catalogue to .mo before the wheel's files are collected."""

    PLUGIN_NAME = "custom"

    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        from babel.messages.mofile import write_mo
        from babel.messages.pofile import read_po

        root = Path(self.root)
        for po in sorted((root / PACKAGE).glob("**/locale/*/LC_MESSAGES/*.po")):
            with po.open("rb") as handle:
                catalog = read_po(handle, locale=po.parent.parent.name)
            mo = po.with_suffix(".mo")
            with mo.open("wb") as handle:
                write_mo(handle, catalog, use_fuzzy=False)
            build_data["artifacts"].append(mo.relative_to(root).as_posix())
            self.app.display_info(f"compiled {mo.relative_to(root).as_posix()}")
