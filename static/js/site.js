/* Small behaviours of every page, kept out of the HTML so that the Content-Security-Policy needs no
   inline scripts: the language menu submits itself, a read-only field selects its text on focus,
   and a button with data-copy copies the text of the field it names. No site logic here. */
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
})();
