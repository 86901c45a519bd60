"""The HTML pages of ``varz-deck serve`` (filled in by the pages work; empty for now)."""

from __future__ import annotations

from typing import Any

urlpatterns: list[Any] = []
