/* Small behaviours of every page, kept out of the HTML so that the Content-Security-Policy needs no
   inline scripts: the language menu submits itself, a read-only field selects its text on focus,
   a button with data-copy copies the text of the field it names, a glossary term in a card text opens
   its explanation on a tap, the odds calculator's chips come and go, and the search boxes show the
   query of the results on the page after htmx's history (Back, Forward) has put another page back, and a
   table too wide for the screen can be scrolled with the keyboard. No site logic here. */
(function () {
  "use strict";

  document.addEventListener("change", function (event) {
    var target = event.target;
    if (target && target.matches && target.matches("select[data-submit-on-change]")) target.form.submit();
  });

  /* A file over the site's limit (input[data-max-bytes]) is refused as soon as it is chosen, beside its field and
     in the reader's language (data-too-large, written by the server), so that the form and what was typed in
     it stay: sent, it would be refused unread (413) and nothing of the form could come back. */
  document.addEventListener("change", function (event) {
    var input = event.target;
    if (!input || !input.matches || !input.matches("input[type=file][data-max-bytes]")) return;
    var limit = parseInt(input.getAttribute("data-max-bytes"), 10);
    var shown = input.parentNode.querySelector(".upload-too-large");
    if (shown) shown.remove();
    var over = Array.prototype.some.call(input.files || [], function (file) { return file.size > limit; });
    if (!over) return;
    var error = document.createElement("ul");
    error.className = "errorlist upload-too-large";
    error.setAttribute("role", "alert");
    var item = document.createElement("li");
    item.textContent = input.getAttribute("data-too-large");
    error.appendChild(item);
    input.insertAdjacentElement("afterend", error);
    input.value = "";
  });

  document.addEventListener("focusin", function (event) {
    var target = event.target;
    if (target && target.matches && target.matches("input[data-select-on-focus]")) target.select();
  });

  /* A glossary term (button.term-word) opens its explanation on a tap or a click, and closes it on another,
     on a tap elsewhere or on Escape; one is open at a time. */
  function closeTerms(except) {
    document.querySelectorAll("button.term-word[aria-expanded=true]").forEach(function (button) {
      if (button !== except) button.setAttribute("aria-expanded", "false");
    });
  }

  document.addEventListener("click", function (event) {
    var term = event.target && event.target.closest ? event.target.closest("button.term-word") : null;
    closeTerms(term);
    if (term) term.setAttribute("aria-expanded", term.getAttribute("aria-expanded") === "true" ? "false" : "true");
  });

  document.addEventListener("keydown", function (event) {
    if (event.key === "Escape") closeTerms(null);
  });

  document.addEventListener("click", function (event) {
    var button = event.target && event.target.closest ? event.target.closest("button[data-copy]") : null;
    if (!button) return;
    var field = document.querySelector(button.getAttribute("data-copy"));
    if (!field) return;
    var done = function () {
      var label = button.getAttribute("data-copied");
      if (!label) return;
      var original = button.textContent;
      button.textContent = label;
      window.setTimeout(function () { button.textContent = original; }, 2000);
    };
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(field.value).then(done, function () { field.select(); });
    } else {
      field.select();
      if (document.execCommand && document.execCommand("copy")) done();
    }
  });

  /* The odds calculator's card groups: a search box (input[data-chip-search]) asks the server for the
     deck's cards as one types (htmx), a chosen card comes back as a chip with its hidden input. Here only:
     Enter takes the first suggestion, a chip's × takes it out, the box is emptied for the next card once a
     chip is added, and the suggestions close on Escape or a click outside the group. */
  function groupOf(element) {
    return element && element.closest ? element.closest(".chip-group") : null;
  }

  function closeSuggestions(except) {
    document.querySelectorAll(".chip-group .chip-suggestions").forEach(function (list) {
      if (groupOf(list) !== except) list.replaceChildren();
    });
  }

  document.addEventListener("keydown", function (event) {
    var input = event.target;
    if (!input || !input.matches || !input.matches("input[data-chip-search]")) return;
    if (event.key === "Enter") {
      event.preventDefault();
      var first = groupOf(input).querySelector(".chip-suggestion");
      if (first) first.click();
    } else if (event.key === "Escape") {
      closeSuggestions(null);
    }
  });

  document.addEventListener("click", function (event) {
    var remove = event.target && event.target.closest ? event.target.closest("[data-remove-chip]") : null;
    if (remove) {
      var group = groupOf(remove);
      remove.closest(".chip").remove();
      if (group) group.querySelector("input[data-chip-search]").focus();
      return;
    }
    closeSuggestions(groupOf(event.target));
  });

  document.addEventListener("focusin", function (event) {
    closeSuggestions(groupOf(event.target));
  });

  document.addEventListener("htmx:afterSwap", function (event) {
    var chips = event.detail.target;
    if (!chips || !chips.matches || !chips.matches(".chip-group .chips")) return;
    var input = groupOf(chips).querySelector("input[data-chip-search]");
    input.value = "";
    input.focus();
  });

  /* The search page swaps its results and pushes ?q=… (htmx). A page htmx keeps for Back is a copy of its
     HTML, where an input's text is its value attribute, which typing does not change: so the attribute is
     set to the query of the address being kept, and the boxes follow the address a page comes back at. */
  function queryOf(path) {
    try {
      return new URL(path, window.location.href).searchParams.get("q") || "";
    } catch (error) {
      return "";
    }
  }

  function showQuery(path, restored) {
    if (!document.getElementById("search-input")) return;
    var query = queryOf(path);
    document.querySelectorAll("input[type=search][name=q]").forEach(function (input) {
      input.setAttribute("value", query);
      if (restored || input !== document.activeElement) input.value = query;
    });
  }

  /* A table wider than the screen scrolls sideways (site.css): it takes the keyboard's focus then, so that
     the arrow keys scroll it too; one that fits is left out of the Tab order. */
  function focusWideTables() {
    document.querySelectorAll("main table").forEach(function (table) {
      if (table.scrollWidth > table.clientWidth + 1) {
        if (!table.hasAttribute("tabindex")) table.setAttribute("tabindex", "0");
      } else if (table.getAttribute("tabindex") === "0") {
        table.removeAttribute("tabindex");
      }
    });
  }

  /* Measured once the page has painted: a table's widths ask the browser for the whole page's layout, which on
     DOMContentLoaded (this script from the cache, on a repeat visit) would come before the first paint and hold
     it back, by a quarter of a second on a slow phone. requestAnimationFrame runs before the next paint, and a
     task queued from it after that paint. */
  function afterFirstPaint(callback) {
    window.requestAnimationFrame(function () { window.setTimeout(callback, 0); });
  }

  document.addEventListener("DOMContentLoaded", function () { afterFirstPaint(focusWideTables); });
  document.addEventListener("htmx:afterSettle", focusWideTables);
  window.addEventListener("resize", focusWideTables);

  document.addEventListener("htmx:beforeHistorySave", function (event) { showQuery(event.detail.path, false); });
  document.addEventListener("htmx:pushedIntoHistory", function (event) { showQuery(event.detail.path, false); });
  document.addEventListener("htmx:historyRestore", function (event) { showQuery(event.detail.path, true); });
})();
