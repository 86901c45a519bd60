"""Every page of the documentation site, built as tests/test_docs.py builds it and served over
HTTP from 127.0.0.1 (the 404 page's links are from the site's root), in Debian's Chromium at
1280×900: axe-core finds no serious or critical violation. Under CI a missing MkDocs, browser or
package fails (test_docs.site, browser_tools.missing)."""

from __future__ import annotations

import functools
import http.server
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from browser_tools import DESKTOP, axe_problems, browser
from test_docs import site

__all__ = ["browser", "site"]  # fixtures


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:  # the requests go unlogged
        pass


@pytest.fixture(scope="module")
def served(site: Path) -> Iterator[str]:
    """The built site's address on 127.0.0.1."""
    handler = functools.partial(_Quiet, directory=str(site))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()


def test_every_page_of_the_site_passes_axe(browser: Any, site: Path, served: str) -> None:
    pages = sorted(str(p.relative_to(site)) for p in site.rglob("*.html"))
    assert len(pages) > 100 and "404.html" in pages
    context = browser.new_context(viewport=DESKTOP)
    found: dict[str, list[str]] = {}
    try:
        page = context.new_page()
        for name in pages:
            page.goto(served + name)
            problems = axe_problems(page)
            if problems:
                found[name] = problems
    finally:
        context.close()
    assert found == {}, "\n".join(f"{name}: {p}" for name, p in list(found.items())[:20])
