/* varz-deck serve: check the list as the player types (progressive enhancement).
 * The form works without this file: a plain POST stores the list and shows the result page.
 * Every text shown comes from the server, already in the chosen language; nothing is written
 * as HTML (textContent only). */
(function () {
  "use strict";
  var form = document.getElementById("submit-form");
  var live = document.getElementById("live");
  var deck = document.getElementById("deck");
  if (!form || !live || !deck || !window.fetch || !window.FormData) { return; }
  var url = live.getAttribute("data-url");
  var lang = document.getElementById("lang");
  var file = document.getElementById("file");
  var token = form.querySelector("input[name=csrfmiddlewaretoken]");
  var timer = null, sent = 0, controller = null;

  function clear() { while (live.firstChild) { live.removeChild(live.firstChild); } }

  function line(tag, cls, text) {
    var el = document.createElement(tag);
    if (cls) { el.className = cls; }
    el.textContent = text;
    return el;
  }

  function show(result) {
    clear();
    live.appendChild(line("p", "status " + (result.legal ? "legal" : "illegal"), result.summary));
    if (result.diagnostics && result.diagnostics.length) {
      var list = document.createElement("ul");
      list.className = "diagnostics";
      result.diagnostics.forEach(function (d) {
        var item = document.createElement("li");
        item.className = "diag " + d.severity;
        item.appendChild(line("span", "where", d.where));
        item.appendChild(document.createTextNode(" "));
        item.appendChild(line("span", "code", d.code));
        item.appendChild(document.createTextNode(" "));
        item.appendChild(line("span", "sev", d.severity_label));
        item.appendChild(document.createTextNode(" "));
        item.appendChild(line("span", "msg", d.text));
        list.appendChild(item);
      });
      live.appendChild(list);
    }
  }

  function check() {
    var mine = ++sent;
    if (controller) { controller.abort(); }
    controller = window.AbortController ? new AbortController() : null;
    if (!deck.value.trim()) { live.hidden = true; clear(); return; }
    live.hidden = false;
    live.setAttribute("aria-busy", "true");
    var body = new FormData();
    body.append("deck", deck.value);
    body.append("lang", lang ? lang.value : "en");
    var headers = {"Accept": "application/json"};
    if (token) { headers["X-CSRFToken"] = token.value; }
    fetch(url, {method: "POST", body: body, headers: headers, credentials: "same-origin",
                signal: controller ? controller.signal : undefined})
      .then(function (response) {
        if (!response.ok) { throw new Error(String(response.status)); }
        return response.json();
      })
      .then(function (result) { if (mine === sent) { show(result); } })
      .catch(function (error) {
        if (mine === sent && error.name !== "AbortError") {
          clear();
          live.appendChild(line("p", "status", live.getAttribute("data-failed")));
        }
      })
      .then(function () { if (mine === sent) { live.removeAttribute("aria-busy"); } });
  }

  function later() {
    if (timer) { window.clearTimeout(timer); }
    timer = window.setTimeout(check, 350);
  }

  deck.addEventListener("input", later);
  if (lang) { lang.addEventListener("change", check); }
  if (file && window.FileReader) {
    file.addEventListener("change", function () {
      var chosen = file.files && file.files[0];
      if (!chosen || chosen.size > 1048576) { return; }
      var reader = new FileReader();
      reader.onload = function () { deck.value = String(reader.result); check(); };
      reader.readAsText(chosen);
    });
  }
}());
