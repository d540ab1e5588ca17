/* Draws a Monte Carlo run's charts from the data the server puts in #sim-chart-data
   (simulator/views.py chart_data): per-turn means as lines, the turn of victory as bars.
   The run's panel is replaced by htmx while the run goes on; the charts are drawn once it has results. */
(function () {
  "use strict";

  var COLOURS = { damage: "#8a2b1f", resources: "#2b5f8a", cards_played: "#5b7f2b" };
  var instances = {};

  function readData() {
    var element = document.getElementById("sim-chart-data");
    if (!element) return null;
    try {
      return JSON.parse(element.textContent);
    } catch (error) {
      return null;
    }
  }

  function drawChart(id, config) {
    var canvas = document.getElementById(id);
    if (!canvas) return;
    var existing = instances[id];
    if (existing && existing.canvas === canvas) return;
    if (existing) existing.destroy();
    instances[id] = new window.Chart(canvas, config);
  }

  function draw() {
    if (!window.Chart) return;
    var data = readData();
    if (!data) return;
    window.Chart.defaults.font.family = getComputedStyle(document.body).fontFamily;
    data.series.forEach(function (series) {
      drawChart("sim-chart-" + series.id, {
        type: "line",
        data: {
          labels: data.turns,
          datasets: [{ label: series.title, data: series.values, borderColor: COLOURS[series.id] || "#444", tension: 0.2 }]
        },
        options: {
          responsive: true,
          maintainAspectRatio: false,
          animation: { duration: 150 },
          plugins: { legend: { display: false } },
          scales: { y: { beginAtZero: true } }
        }
      });
    });
    var histogram = data.histogram;
    drawChart("sim-chart-histogram", {
      type: "bar",
      data: {
        labels: histogram.turns,
        datasets: [{ label: histogram.label, data: histogram.games, backgroundColor: "#8a2b1f" }]
      },
      options: {
        responsive: true,
        maintainAspectRatio: false,
        animation: { duration: 150 },
        plugins: { legend: { display: false } },
        scales: { y: { beginAtZero: true, ticks: { precision: 0 } } }
      }
    });
  }

  document.addEventListener("DOMContentLoaded", draw);
  document.addEventListener("htmx:afterSettle", draw);
})();
