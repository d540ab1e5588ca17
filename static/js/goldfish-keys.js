/* Keyboard shortcuts of the sample-hand page: a key clicks the control whose data-shortcut it is
   (d draw, n next turn, r new hand). No game logic here: the click sends the control's htmx request
   and the server replays the game. Keys typed into a form field, or with a modifier, are left alone.

   While the panel is being fetched or swapped in, its new links are not yet wired to htmx (htmx wires
   them when the swap settles), so a key pressed then waits and is applied once the panel has settled:
   pressing n three times quickly plays three turns. */
(function () {
  "use strict";

  var busy = false;
  var pending = [];

  function press(key) {
    var control = document.querySelector('#goldfish [data-shortcut="' + key + '"]');
    if (control && control.tagName === "A") control.click();
  }

  function inGoldfish(event) {
    var element = event.detail && event.detail.elt;
    return element && element.closest && element.closest("#goldfish") !== null;
  }

  document.addEventListener("htmx:beforeRequest", function (event) {
    if (inGoldfish(event)) busy = true;
  });

  function idle() {
    busy = false;
    var next = pending.shift();
    if (next) press(next);
  }

  document.addEventListener("htmx:afterSettle", function (event) {
    if (busy) idle();
  });
  ["htmx:responseError", "htmx:sendError", "htmx:timeout", "htmx:swapError"].forEach(function (name) {
    document.addEventListener(name, function () {
      pending = [];
      busy = false;
    });
  });

  document.addEventListener("keydown", function (event) {
    if (event.ctrlKey || event.metaKey || event.altKey || event.isComposing) return;
    var target = event.target;
    if (target && (target.isContentEditable || /^(INPUT|TEXTAREA|SELECT|BUTTON)$/.test(target.tagName))) return;
    var key = (event.key || "").toLowerCase();
    if (key.length !== 1 || !document.querySelector('#goldfish [data-shortcut="' + key + '"]')) return;
    event.preventDefault();
    if (busy) {
      if (pending.length < 10) pending.push(key);
      return;
    }
    press(key);
  });
})();
