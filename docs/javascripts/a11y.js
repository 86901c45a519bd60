// What the theme leaves unnamed or out of reach of the keyboard (tests/server/test_docs_browser.py):
// the search dialog gets the search field's name; a table that scrolls sideways can be focused
// and scrolled with the arrow keys.
function labelAndFocus() {
  const search = document.querySelector(".md-search[role=dialog]");
  const field = document.querySelector(".md-search__input");
  if (search && !search.hasAttribute("aria-label")) {
    search.setAttribute("aria-label", (field && field.getAttribute("aria-label")) || "Search");
  }
  for (const wrap of document.querySelectorAll(".md-typeset__scrollwrap")) {
    if (wrap.scrollWidth > wrap.clientWidth) wrap.tabIndex = 0;
    else wrap.removeAttribute("tabindex");
  }
}
document.addEventListener("DOMContentLoaded", labelAndFocus);
window.addEventListener("resize", labelAndFocus);
