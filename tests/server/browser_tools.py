"""What the browser tests share: Debian's Chromium driven by Playwright for Python through
`executable_path` (no browser download, ever), a page whose console errors and CSP violations are
collected, and the two layout checks and axe-core run on any page.

Skipped on a developer machine without Chromium, a Debian tool or a Python package; under CI (CI
set) a missing one is a failure, since .ci/run installs it.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Callable, Iterator
from typing import Any

import pytest

TIMEOUT_MS = 20_000  # any one wait in the browser
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}
SIZES = {"phone": PHONE, "desktop": DESKTOP}


def missing(what: str) -> None:
    if os.environ.get("CI"):
        pytest.fail(f"{what}; .ci/run installs it")
    pytest.skip(what)


def tool(name: str, *fallbacks: str, package: str = "chromium poppler-utils") -> str:
    for candidate in (name, *fallbacks):
        found = shutil.which(candidate)
        if found:
            return found
    missing(f"{name} is not installed (apt-get install {package})")
    raise AssertionError("unreachable")


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    chromium = tool("chromium", "chromium-browser")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        missing("Playwright for Python is not installed (pip install '.[test]')")
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(
            executable_path=chromium,
            headless=True,
            args=["--no-sandbox", "--disable-gpu", "--disable-background-networking"],
            timeout=60_000,
        )
        try:
            yield launched
        finally:
            launched.close()


class Watched:
    """A browser context and page whose console errors and CSP violations are collected."""

    def __init__(self, browser: Any, **options: Any) -> None:
        options.setdefault("viewport", {"width": 1200, "height": 900})
        self.context = browser.new_context(**options)
        self.context.set_default_timeout(TIMEOUT_MS)
        self.page = self.context.new_page()
        self.problems: list[str] = []
        self.page.on("console", self._console)
        self.page.on("pageerror", lambda error: self.problems.append(f"page error: {error}"))

    def _console(self, message: Any) -> None:
        csp = "Content Security Policy" in message.text
        if csp or (message.type == "error" and not _expected_status(message.text)):
            self.problems.append(message.text)

    def close(self) -> None:
        self.context.close()
        assert self.problems == [], self.problems


def _expected_status(text: str) -> bool:
    """Chromium logs every 4xx page load as a console error; the message pages are such pages."""
    return text.startswith("Failed to load resource: the server responded with a status of 4")


@pytest.fixture
def watched(browser: Any) -> Iterator[Callable[..., Watched]]:
    opened: list[Watched] = []

    def open_one(**options: Any) -> Watched:
        one = Watched(browser, **options)
        opened.append(one)
        return one

    yield open_one
    for one in opened:
        one.close()


# The page scrolls sideways when its scrolling box is wider than the window.
_OVERFLOW = """() => {
  const box = document.scrollingElement;
  const scrolled = (el) => {  // inside a box that scrolls (or clips) by itself
    for (let up = el.parentElement; up && up !== document.body; up = up.parentElement) {
      if (getComputedStyle(up).overflowX !== 'visible') return true;
    }
    return false;
  };
  const wide = [];
  for (const el of document.body.querySelectorAll('*')) {
    const r = el.getBoundingClientRect();
    if (r.width && r.right > box.clientWidth + 1 && !scrolled(el)) {
      wide.push(el.tagName.toLowerCase() + (el.id ? '#' + el.id : '') +
                (el.className ? '.' + String(el.className).split(' ').join('.') : ''));
    }
  }
  return {scrollWidth: box.scrollWidth, clientWidth: box.clientWidth, wide: wide.slice(0, 8)};
}"""

# Every word of at most MAX letters in a visible text node (words end at spaces, hyphens, slashes
# and CJK characters, where a line may break): the lines it is drawn on (a Range per word; its client rectangles' distinct
# tops are its lines). Two or more lines = broken mid-word.
_BROKEN_WORDS = """(max) => {
  const broken = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    // a line may break after a hyphen or a slash (a path's <wbr>), and around any CJK character
    const re = /[^\\s\\-\u2010\\/\u3000-\u9fff\uf900-\ufaff\uff00-\uffef]+/g;
    let m;
    while ((m = re.exec(node.data)) !== null) {
      if (m[0].length > max) continue;
      const range = document.createRange();
      range.setStart(node, m.index);
      range.setEnd(node, m.index + m[0].length);
      const tops = [];
      for (const r of range.getClientRects()) {
        if (r.width > 0 && !tops.some(t => Math.abs(t - r.top) < r.height / 2)) tops.push(r.top);
      }
      if (tops.length > 1) {
        broken.push(node.parentElement.tagName.toLowerCase() + ': ' + m[0]);
      }
    }
  }
  return broken;
}"""

WORD = 24  # a longer run of letters (a hash, a link, a name without spaces) may wrap anywhere


def layout_problems(page: Any) -> list[str]:
    """What is wrong with the page's layout at its window's size: sideways scrolling (the page's
    scrolling box wider than the window; a table may scroll inside its own `.scroll` box), and
    any word of at most WORD letters broken across lines ("Pl/ay/er")."""
    problems: list[str] = []
    box = page.evaluate(_OVERFLOW)
    if box["scrollWidth"] > box["clientWidth"]:
        problems.append(f"scrolls sideways: {box}")
    problems += [f"broken word in {where}" for where in page.evaluate(_BROKEN_WORDS, WORD)]
    return problems


def axe_problems(page: Any) -> list[str]:
    """axe-core's serious and critical violations on the page (axe-playwright-python's bundled
    axe-core, injected through the DevTools protocol, so the page's CSP does not apply)."""
    try:
        from axe_playwright_python.sync_playwright import Axe
    except ImportError:
        missing("axe-playwright-python is not installed (pip install '.[test]')")
        raise AssertionError("unreachable") from None
    results = Axe().run(page)
    return [
        f"{v['id']} ({v['impact']}): {[n['target'] for n in v['nodes']][:5]} {v['help']}"
        for v in results.response["violations"]
        if v["impact"] in ("serious", "critical")
    ]


SMALLEST = 11  # px: no text on any page is drawn smaller

# Every visible text and the size it is drawn at: an HTML text node at its element's computed
# font size; an SVG <text> at its computed font size (in the drawing's units) times the scale the
# drawing is shown at (its screen matrix's vertical scale).
_TEXT_SIZES = """() => {
  const shown = (el) => el.checkVisibility({checkOpacity: true, checkVisibilityCSS: true});
  const sizes = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const el = node.parentElement;
    if (!el || !node.data.trim() || el.closest('svg, script, style, template')) continue;
    if (!shown(el)) continue;
    const range = document.createRange();
    range.selectNodeContents(node);
    if (![...range.getClientRects()].some(r => r.width > 0 && r.height > 0)) continue;
    sizes.push({where: el.tagName.toLowerCase() + (el.className && typeof el.className === 'string'
                  ? '.' + el.className.split(' ')[0] : ''),
                text: node.data.trim().slice(0, 30),
                px: parseFloat(getComputedStyle(el).fontSize)});
  }
  for (const text of document.querySelectorAll('svg text')) {
    const box = text.getBoundingClientRect();
    if (!text.textContent.trim() || !shown(text) || !box.width) continue;
    const m = text.getScreenCTM();
    const scale = m ? Math.hypot(m.c, m.d) : 1;
    sizes.push({where: 'svg text', text: text.textContent.trim().slice(0, 30),
                px: parseFloat(getComputedStyle(text).fontSize) * scale});
  }
  return sizes;
}"""


def text_sizes(page: Any) -> list[dict[str, Any]]:
    """Every visible text of the page with the size in CSS pixels it is drawn at."""
    sizes: list[dict[str, Any]] = page.evaluate(_TEXT_SIZES)
    return sizes


def small_text(page: Any) -> list[str]:
    """Each visible text drawn smaller than SMALLEST pixels (HTML and SVG)."""
    return [
        f"text under {SMALLEST} px: {s['px']:.1f} px in {s['where']}: {s['text']!r}"
        for s in text_sizes(page)
        if s["px"] < SMALLEST - 0.05
    ]


# In each chart (an <svg> with text): two labels whose boxes overlap, a label drawn partly outside
# the chart (cut off), and a legend (any element whose class names "legend") over a label.
_CHART_CLASHES = """() => {
  const clashes = [];
  const meets = (a, b) => Math.min(a.right, b.right) - Math.max(a.left, b.left) > 0.5 &&
                          Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top) > 0.5;
  const name = (t) => JSON.stringify(t.textContent.trim().slice(0, 30));
  const legends = [...document.querySelectorAll('[class*="legend"]')];
  document.querySelectorAll('svg').forEach((svg, n) => {
    const frame = svg.getBoundingClientRect();
    const labels = [...svg.querySelectorAll('text')].filter(t => t.textContent.trim())
      .map(t => [t, t.getBoundingClientRect()]).filter(([t, r]) => r.width > 0);
    labels.forEach(([t, r], i) => {
      if (r.left < frame.left - 1 || r.right > frame.right + 1 ||
          r.top < frame.top - 1 || r.bottom > frame.bottom + 1) {
        clashes.push(`chart ${n}: label ${name(t)} cut off by the chart's edge`);
      }
      for (const [u, s] of labels.slice(i + 1)) {
        if (meets(r, s)) clashes.push(`chart ${n}: labels ${name(t)} and ${name(u)} overlap`);
      }
      for (const legend of legends) {
        if (legend.contains(t) || legend.contains(svg)) continue;
        for (const item of legend.children.length ? legend.children : [legend]) {
          if (meets(item.getBoundingClientRect(), r)) {
            clashes.push(`chart ${n}: legend over the label ${name(t)}`);
          }
        }
      }
    });
  });
  return clashes;
}"""


def chart_clashes(page: Any) -> list[str]:
    """Overlapping labels in one chart, labels cut off by the chart's edge, a legend over a label."""
    clashes: list[str] = page.evaluate(_CHART_CLASHES)
    return clashes


def reading_problems(page: Any) -> list[str]:
    """Everything the pages are measured for beside axe: layout_problems, small_text and
    chart_clashes."""
    return layout_problems(page) + small_text(page) + chart_clashes(page)
