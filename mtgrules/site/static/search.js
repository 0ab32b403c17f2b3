// The search page of an mtgrules site: finds clauses of today's rules in the small index
// (assets/search-data.js), by words or by a rule number, today's or an old one (104.3c).
// Results are built with textContent only: index text is never read as markup.
(function () {
  "use strict";
  var data = window.MTGRULES_SEARCH || [];
  var input = document.getElementById("q");
  var list = document.getElementById("results");
  var status = document.getElementById("status");
  if (!input || !list || !status) return;

  // The query of a link (search.html?q=stack). A malformed escape (q=%, q=%E0%A4%A) is
  // read as the characters typed rather than thrown as URIError: each valid %XX run is
  // decoded, anything else kept as it is.
  function decodeQuery(raw) {
    var text = raw.replace(/\+/g, " ");
    try {
      return decodeURIComponent(text);
    } catch (e) {
      return text.replace(/(%[0-9A-Fa-f]{2})+/g, function (run) {
        try {
          return decodeURIComponent(run);
        } catch (e2) {
          return run;
        }
      });
    }
  }

  function fold(s) {
    return s.toLowerCase().normalize("NFKD").replace(/[\u0300-\u036f]/g, "");
  }
  // Numbers (today's and former ones) and text are searched apart: a rule's former numbers
  // must not push its first words away from the start of what is searched.
  var numbers = data.map(function (e) { return " " + fold(e.l + " " + (e.o || "")) + " "; });
  var texts = data.map(function (e) { return fold(e.t); });

  function run() {
    var query = fold(input.value.trim());
    list.textContent = "";
    if (!query) {
      status.textContent = data.length + " clauses in the index. Type a word or a rule number.";
      return;
    }
    var words = query.split(/\s+/);
    var hits = [];
    for (var i = 0; i < data.length; i++) {
      var score = 0;
      var ok = true;
      for (var k = 0; k < words.length; k++) {
        var word = words[k];
        if (numbers[i].indexOf(" " + word + " ") >= 0) { score += 100; continue; }
        var at = texts[i].indexOf(word);
        if (at < 0 && numbers[i].indexOf(" " + word) >= 0) { score += 20; continue; }
        if (at < 0) { ok = false; break; }
        score += at < 12 ? 10 : 1;
      }
      if (!ok) continue;
      if (data[i].l === query) score += 50;  // today's number before a former one
      hits.push([score, i]);
    }
    hits.sort(function (a, b) { return b[0] - a[0] || a[1] - b[1]; });
    status.textContent = hits.length + (hits.length === 1 ? " clause" : " clauses") + " found" +
      (hits.length > 100 ? "; the first 100 are shown." : ".");
    hits.slice(0, 100).forEach(function (h) {
      var e = data[h[1]];
      var li = document.createElement("li");
      var a = document.createElement("a");
      a.href = e.p;
      a.textContent = e.l;
      li.appendChild(a);
      if (e.o) {
        var small = document.createElement("small");
        small.textContent = " (formerly " + e.o + ")";
        li.appendChild(small);
      }
      li.appendChild(document.createTextNode(" " + e.t));
      list.appendChild(li);
    });
  }

  input.addEventListener("input", run);
  var m = /[?&]q=([^&]*)/.exec(window.location.search);
  if (m) input.value = decodeQuery(m[1]);
  run();
})();
