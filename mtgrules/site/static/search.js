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

  function fold(s) {
    return s.toLowerCase().normalize("NFKD").replace(/[\u0300-\u036f]/g, "");
  }
  var haystack = data.map(function (e) {
    return fold(e.l + " " + (e.o || "") + " " + e.t);
  });

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
      var text = haystack[i];
      var score = 0;
      var ok = true;
      for (var k = 0; k < words.length; k++) {
        var at = text.indexOf(words[k]);
        if (at < 0) { ok = false; break; }
        score += at < 12 ? 10 : 1;
      }
      if (!ok) continue;
      var e = data[i];
      var old = " " + (e.o || "") + " ";
      if (e.l === query) score += 100;
      else if (old.indexOf(" " + query + " ") >= 0) score += 90;
      else if (e.l.indexOf(query) === 0) score += 50;
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
  if (m) input.value = decodeURIComponent(m[1].replace(/\+/g, " "));
  run();
})();
