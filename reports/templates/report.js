// Sortable tables: click a header to sort by that column (numbers by value), again to reverse.
document.querySelectorAll("table.sortable th").forEach(function (th, i) {
  th.addEventListener("click", function () {
    var body = th.closest("table").tBodies[0], asc = th.dataset.dir !== "asc";
    th.parentNode.querySelectorAll("th").forEach(function (h) { delete h.dataset.dir; });
    th.dataset.dir = asc ? "asc" : "desc";  // the stylesheet draws the arrow
    var rows = Array.from(body.rows), key = function (r) {
      var c = r.cells[th.cellIndex], v = c.dataset.v !== undefined ? c.dataset.v : c.textContent;
      var f = parseFloat(v); return v !== "" && !isNaN(f) && isFinite(v) ? f : v.toLowerCase();
    };
    rows.sort(function (a, b) {
      var x = key(a), y = key(b), o = typeof x === typeof y ? (x < y ? -1 : x > y ? 1 : 0)
        : (typeof x === "number" ? -1 : 1);
      return asc ? o : -o;
    });
    rows.forEach(function (r) { body.appendChild(r); });
  });
});
// Marks every chart as loaded or broken, for the browser test and for anyone reading the DOM.
window.addEventListener("load", function () {
  var imgs = Array.from(document.images), ok = 0;
  imgs.forEach(function (im) {
    var loaded = im.complete && im.naturalWidth > 0;
    im.dataset.loaded = loaded ? "yes" : "no"; if (loaded) { ok += 1; }
  });
  var out = document.getElementById("image-check");
  out.textContent = "images loaded: " + ok + " of " + imgs.length;
  out.dataset.loaded = ok; out.dataset.total = imgs.length;
});
