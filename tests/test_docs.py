"""The documentation site builds with `mkdocs build --strict` (a broken link, a page missing from
the navigation or a broken include fails it), and its reference has a page for every diagnostic
code of every installed game and for every command. Under CI a missing MkDocs fails."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from varz_deck.cli.main import COMMANDS, GROUPS
from varz_deck.games import all_codes

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    try:
        import material  # noqa: F401
        import mkdocs  # noqa: F401
    except ImportError:
        if os.environ.get("CI"):
            pytest.fail("MkDocs and Material for MkDocs are not installed; .ci/run installs them")
        pytest.skip("MkDocs is not installed (pip install '.[docs]')")
    out = tmp_path_factory.mktemp("site")
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1", "PYTHONPATH": str(ROOT)}
    env.pop("VARZ_DECK_LANG", None)
    done = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(out)],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=600,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    return out


def test_every_code_of_every_game_has_a_page(site: Path) -> None:
    codes = all_codes()
    assert len(codes) > 40
    for code, info in codes.items():
        page = (site / "reference" / "rules" / code / "index.html").read_text(encoding="utf-8")
        assert info.name in page and info.summary.split()[0] in page, code


def test_every_command_has_a_page(site: Path) -> None:
    names = [*COMMANDS, *(f"{g}-{s}" for g, (_m, _h, subs) in GROUPS.items() for s in subs)]
    for name in names:
        page = site / "reference" / "commands" / name / "index.html"
        assert page.is_file(), name
        assert "Usage: varz-deck" in page.read_text(encoding="utf-8"), name


def test_the_glossary_and_the_api_are_on_the_site(site: Path) -> None:
    glossary = (site / "reference" / "glossary" / "index.html").read_text(encoding="utf-8")
    assert 'id="varz-castable-on-curve"' in glossary and 'id="azuki-curve-turn"' in glossary
    api = (site / "reference" / "json" / "index.html").read_text(encoding="utf-8")
    assert "/api/v1/events/{event}/decklists" in api


def test_no_page_points_to_a_spec_readers_do_not_have(site: Path) -> None:
    # the project's SPEC is not published: a rule's place names a page of this site instead
    for page in site.rglob("*.html"):
        assert "SPEC §" not in page.read_text(encoding="utf-8"), page.relative_to(site)
    c008 = (site / "reference" / "rules" / "C008" / "index.html").read_text(encoding="utf-8")
    assert 'href="../../../guides/card-data/#ban-lists-and-release-dates"' in c008


def test_no_page_asks_another_host_for_anything(site: Path) -> None:
    """Fonts, scripts, styles and images all come from the site itself (links may point out)."""
    fetched = re.compile(
        r"<(?:script|img|iframe|source)\b[^>]*\bsrc=\"(https?:)?//|"
        r"<link\b[^>]*\bhref=\"(https?:)?//[^\"]*\"[^>]*>|@import\s+url\(\"?(https?:)?//",
        re.IGNORECASE,
    )
    found = []
    for page in sorted(site.rglob("*.html")):
        for match in fetched.finditer(page.read_text(encoding="utf-8")):
            tag = match.group(0)
            if tag.startswith("<link") and re.search(r"rel=\"(canonical|alternate)\"", tag):
                continue
            found.append(f"{page.relative_to(site)}: {tag[:100]}")
    assert not found, "\n".join(found[:20])


def test_every_internal_link_resolves(site: Path) -> None:
    """Every link from one page of the site to another, and to an anchor, lands (a link check)."""
    href = re.compile(r"<a\b[^>]*\bhref=\"([^\"#:?]*)(#[^\"]*)?\"")
    broken = []
    for page in sorted(site.rglob("*.html")):
        text = page.read_text(encoding="utf-8")
        for target, anchor in href.findall(text):
            if target.startswith("//"):
                continue
            if target.startswith("/"):  # from the site's root (the 404 page's links)
                path = site / target.lstrip("/")
            else:
                path = (page.parent / target) if target else page
            if path.is_dir():
                path = path / "index.html"
            if not path.exists():
                broken.append(f"{page.relative_to(site)} -> {target}")
                continue
            if anchor and len(anchor) > 1 and path.suffix == ".html":
                ident = anchor[1:]
                body = path.read_text(encoding="utf-8")
                if f'id="{ident}"' not in body and f"id={ident}" not in body:
                    broken.append(f"{page.relative_to(site)} -> {target}{anchor}")
    assert not broken, "\n".join(broken[:30])
