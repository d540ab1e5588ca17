/* Draws the deck's make-up charts from the data the server puts in #deck-chart-data
   (see decks/presentation.py chart_data). No rules here: only bars and their labels.
   After a builder change, htmx swaps in new data (out of band) and the charts are redrawn.
   Chart.js itself (data-chart-library on this script's tag) is fetched once the page has loaded and painted, so
   that on a slow phone the deck's cards paint first and the charts follow. */
(function () {
  "use strict";

  var instances = {};
  var KNOWN = "#8a2b1f";
  var UNKNOWN = "#b9b4aa";

  function readData() {
    var element = document.getElementById("deck-chart-data");
    if (!element) return [];
    try {
      return JSON.parse(element.textContent);
    } catch (error) {
      return [];
    }
  }

  function draw() {
    if (!window.Chart) return;
    window.Chart.defaults.font.family = getComputedStyle(document.body).fontFamily;
    readData().forEach(function (chart) {
      var canvas = document.getElementById("chart-" + chart.id);
      if (!canvas) return;
      var figure = canvas.closest("figure");
      if (figure) figure.classList.toggle("is-empty", chart.bars.length === 0);
      var note = figure && figure.querySelector(".chart-empty");
      if (note && chart.empty) note.textContent = chart.empty;
      var labels = chart.bars.map(function (bar) { return bar.label; });
      var counts = chart.bars.map(function (bar) { return bar.count; });
      var colours = chart.bars.map(function (bar) { return bar.unknown ? UNKNOWN : KNOWN; });
      var instance = instances[chart.id];
      if (instance && instance.canvas !== canvas) {
        instance.destroy();
        instance = null;
      }
      if (instance) {
        instance.data.labels = labels;
        instance.data.datasets[0].data = counts;
        instance.data.datasets[0].backgroundColor = colours;
        instance.update();
        return;
      }
      instances[chart.id] = new window.Chart(canvas, {
        type: "bar",
        data: { labels: labels, datasets: [{ label: chart.title, data: counts, backgroundColor: colours }] },
        options: {
          responsive: true,
          maintainAspectRatio: false,
          animation: { duration: 150 },
          plugins: { legend: { display: false } },
          scales: { y: { beginAtZero: true, ticks: { precision: 0 } } }
        }
      });
    });
  }

  var library = document.currentScript && document.currentScript.getAttribute("data-chart-library");

  function loadLibrary() {
    if (window.Chart || !library) {
      draw();
      return;
    }
    var script = document.createElement("script");
    script.src = library;
    script.onload = draw;
    document.head.appendChild(script);
  }

  /* After the load event and the paint that follows it: Chart.js from the cache runs at once, and drawing the
     charts (a few hundred milliseconds on a slow phone) would otherwise come before the deck first paints. */
  function loadAfterPaint() {
    window.requestAnimationFrame(function () { window.setTimeout(loadLibrary, 0); });
  }

  if (document.readyState === "complete") loadAfterPaint();
  else window.addEventListener("load", loadAfterPaint);
  document.addEventListener("htmx:afterSettle", draw);
})();
