/* Small behaviours of every page, kept out of the HTML so that the Content-Security-Policy needs no
   inline scripts: the language menu submits itself, a read-only field selects its text on focus,
   a button with data-copy copies the text of the field it names, and the search boxes show the query
   of the results on the page after htmx's history (Back, Forward) has put another page back. No site
   logic here. */
(function () {
  "use strict";

  document.addEventListener("change", function (event) {
    var target = event.target;
    if (target && target.matches && target.matches("select[data-submit-on-change]")) target.form.submit();
  });

  document.addEventListener("focusin", function (event) {
    var target = event.target;
    if (target && target.matches && target.matches("input[data-select-on-focus]")) target.select();
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

  document.addEventListener("htmx:beforeHistorySave", function (event) { showQuery(event.detail.path, false); });
  document.addEventListener("htmx:pushedIntoHistory", function (event) { showQuery(event.detail.path, false); });
  document.addEventListener("htmx:historyRestore", function (event) { showQuery(event.detail.path, true); });
})();
