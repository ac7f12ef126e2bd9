// certify html: the interactive tree. Plain DOM code, no library, no network.
// Everything from the certificate is shown with textContent (never as markup).
(function () {
  "use strict";
  var D = JSON.parse(document.getElementById("data").textContent);
  var P = D.game.pegs, C = D.game.colors, REP = D.game.repetition;
  var A = D.alphabet, KEYS = D.keys, W = D.width, B64 = D.b64;
  // Black-peg Mastermind ("feedback": "black-only"): the answer is the number of black pegs, its key "B".
  var BO = D.game.feedback === "black-only";
  var WIN = BO ? String(P) : P + ",0";

  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = text;
    return e;
  }
  function plural(n, one, many) { return n + " " + (n === 1 ? one : (many || one + "s")); }

  // ---- the tree, rebuilt from its preorder string --------------------------------------
  var N = D.nodes, T = D.tree, pos = 0;
  var guess = new Array(N), parent = new Int32Array(N), keyOf = new Int32Array(N);
  var kidStart = new Int32Array(N), kidCount = new Int32Array(N), kids = [], filled = new Int32Array(N);
  function num() {
    var n = 0;
    for (var i = 0; i < W; i++) {
      var d = B64.indexOf(T.charAt(pos++));
      if (d < 0) throw new Error("bad tree data at " + (pos - 1));
      n = n * 64 + d;
    }
    return n;
  }
  var made = 0, stack = [];
  function node(par, key) {
    var id = made++;
    if (id >= N) throw new Error("tree data holds more nodes than announced");
    guess[id] = T.substr(pos, P); pos += P;
    parent[id] = par; keyOf[id] = key;
    kidCount[id] = num(); kidStart[id] = kids.length;
    for (var i = 0; i < kidCount[id]; i++) kids.push(-1);
    if (par >= 0) kids[kidStart[par] + filled[par]++] = id;
    if (kidCount[id]) stack.push(id);
  }
  node(-1, -1);
  while (stack.length) {
    var top = stack[stack.length - 1];
    if (filled[top] === kidCount[top]) { stack.pop(); continue; }
    node(top, num());
  }
  if (made !== N || pos !== T.length) throw new Error("tree data does not end where it should");
  function childByKey(id, key) {
    for (var i = 0; i < kidCount[id]; i++) {
      var c = kids[kidStart[id] + i];
      if (KEYS[keyOf[c]] === key) return c;
    }
    return -1;
  }

  // ---- the game: codes and the feedback rule ------------------------------------------
  function allCodes() {
    var out = [], cur = [];
    (function rec() {
      if (cur.length === P) { out.push(cur.join("")); return; }
      for (var c = 0; c < C; c++) {
        var ch = A.charAt(c);
        if (!REP && cur.indexOf(ch) >= 0) continue;
        cur.push(ch); rec(); cur.pop();
      }
    })();
    return out;
  }
  var cg = new Int32Array(36), cs = new Int32Array(36);
  function feedback(g, s) {
    var b = 0, i;
    for (i = 0; i < 36; i++) { cg[i] = 0; cs[i] = 0; }
    for (i = 0; i < P; i++) {
      var x = g.charCodeAt(i), y = s.charCodeAt(i);
      if (x === y) b++;
      else if (!BO) { cg[A.indexOf(g.charAt(i))]++; cs[A.indexOf(s.charAt(i))]++; }
    }
    if (BO) return String(b);
    var w = 0;
    for (i = 0; i < C; i++) w += Math.min(cg[i], cs[i]);
    return b + "," + w;
  }
  // ---- names: with --letters every code is shown and typed in them, in every message -------
  var NAMES = D.letters || A;  // what a colour is called on its peg and when typed
  var NAMED = NAMES.slice(0, C).split("").join(" ");
  function nameOf(code) {
    var out = "";
    for (var i = 0; i < code.length; i++) out += NAMES.charAt(A.indexOf(code.charAt(i)));
    return out;
  }
  function codeOf(typed) {  // typed names to the game's digits ("?" for a character that is no colour)
    var out = "", upper = NAMES.toUpperCase();
    for (var i = 0; i < typed.length; i++) {
      var k = upper.indexOf(typed.charAt(i).toUpperCase());
      out += k >= 0 && k < C ? A.charAt(k) : "?";
    }
    return out;
  }
  function words(key) {  // an answer in words, so that "1,0" never reads as part of a list of codes
    var bw = key.split(",");
    return bw[0] + " black" + (bw.length > 1 ? ", " + bw[1] + " white" : "");
  }

  function checkCode(text) {
    if (text.length !== P) return "a secret has " + plural(P, "peg") + " (you typed " + text.length + ")";
    for (var i = 0; i < P; i++) {
      if (A.indexOf(text.charAt(i)) < 0) return "'" + text.charAt(i) + "' is not a colour: use " + A.charAt(0) + "-" + A.charAt(C - 1);
      if (!REP && text.indexOf(text.charAt(i)) !== i) return "this game has no repeated colours";
    }
    return "";
  }

  // ---- replay: every secret walks down the tree (counts, heights, the distribution) -----
  var CODES = allCodes();
  var count = new Int32Array(N), wins = new Int32Array(N), height = new Int32Array(N);
  var hist = {}, problems = [];
  for (var s = 0; s < CODES.length; s++) {
    var sec = CODES[s], at = 0, depth = 1;
    for (;;) {
      count[at]++;
      if (guess[at] === sec) { wins[at]++; hist[depth] = (hist[depth] || 0) + 1; break; }
      var nxt = childByKey(at, feedback(guess[at], sec));
      if (nxt < 0) { problems.push(sec); break; }
      at = nxt; depth++;
    }
  }
  for (var i = N - 1; i >= 0; i--) {  // children come after their parent in preorder
    var h = 0;
    for (var j = 0; j < kidCount[i]; j++) h = Math.max(h, height[kids[kidStart[i] + j]]);
    height[i] = h + 1;
  }

  // ---- pegs ---------------------------------------------------------------------------
  function pegs(code, cls) {
    var box = el("span", "pegs " + (cls || ""));
    box.title = nameOf(code);
    for (var i = 0; i < code.length; i++) {
      var c = A.indexOf(code.charAt(i)), p = el("span", "peg", (D.letters || A).charAt(c));  // --letters
      p.style.backgroundColor = D.palette[c][0];
      p.style.color = D.palette[c][1];
      box.appendChild(p);
    }
    return box;
  }
  function keyPegs(key) {
    var bw = key.split(","), b = +bw[0], w = +(bw[1] || 0);
    var box = el("span", "reply");
    box.title = key + ": " + words(key);
    if (b + w === 0) box.appendChild(el("span", "none", "none"));
    else box.appendChild(el("span", "kp", new Array(b + 1).join("\u25CF") + new Array(w + 1).join("\u25CB")));
    box.appendChild(el("span", "kn", key));
    return box;
  }

  // ---- header, legend, distribution -----------------------------------------------------
  var g = D.game;
  var gameText = P + " pegs x " + C + " colours" + (REP ? "" : ", no repetition") + (BO ? ", black pegs only" : "");
  document.getElementById("title").textContent = D.name + " on " + gameText;
  var facts = document.getElementById("facts");
  function fact(k, v) { facts.appendChild(el("dt", "", k)); facts.appendChild(el("dd", "", v)); }
  var cl = D.claims, V = D.verified;
  fact("game", gameText + " (" + CODES.length + " secrets)");
  fact("strategy", D.name + (D.params ? " " + D.params : ""));
  if (D.reference) fact("reference", D.reference);
  fact("claims", "every secret found in at most " + plural(cl.max_guesses, "guess", "guesses") +
       ", " + cl.total_guesses + " guesses in all, mean " + (cl.total_guesses / cl.secrets).toFixed(4));
  fact("verified", "the verifier replayed all " + V.secrets + " secrets: max " + V.max_guesses +
       ", total " + V.total_guesses);
  var check = document.getElementById("check"), agree = problems.length === 0 && CODES.length === V.secrets;
  for (var k = 1; k <= V.max_guesses; k++) if ((hist[k] || 0) !== (V.histogram[k] || 0)) agree = false;
  if (agree) check.textContent = "This page replayed the " + CODES.length + " secrets itself: same distribution.";
  else {
    check.className = "check bad";
    check.textContent = "This page's replay disagrees with the verifier" +
      (problems.length ? " (no branch for " + problems.slice(0, 3).map(nameOf).join(", ") + ")" : "");
  }

  var legend = document.getElementById("legendlist");
  function legendItem(node, text) { var li = el("li"); li.appendChild(node); li.appendChild(el("span", "", text)); legend.appendChild(li); }
  legendItem(pegs(A.slice(0, Math.min(C, P))), "a guess: one peg per position, its colour's " + (D.letters ? "letter" : "digit") + " on it");
  legendItem(el("span", "kp", "\u25CF"), "black key peg: right colour, right place");
  if (BO) legendItem(el("span", "none", "none"), "no key peg: no peg of the guess is right (black pegs only: no white pegs in this game)");
  else {
    legendItem(el("span", "kp", "\u25CB"), "white key peg: right colour, wrong place");
    legendItem(el("span", "none", "none"), "no key peg: no colour of the guess is in the secret");
  }
  legendItem(el("span", "info", "12 secrets, at most 3 guesses"), "secrets that reach this guess; the guesses they still need, this one included, at most");
  legendItem(el("span", "win", "\u2713 can win"), "this guess is itself one of those secrets");
  legendItem(el("span", "win", "\u2713 found"), "this guess is the only secret left: the game ends here");
  legendItem(el("span", "found", "found"), "the end of a searched or played secret's path");

  var table = document.getElementById("table");
  var hr = el("tr");
  ["guesses", "secrets", "%", "cumulative %"].forEach(function (t) { hr.appendChild(el("th", "", t)); });
  var thead = el("thead"); thead.appendChild(hr); table.appendChild(thead);
  var tbody = el("tbody"), cum = 0, maxCount = 0, n = V.secrets;
  // Never "0.0" for a non-zero count, never "100.0" for less than all.
  function pct(c) {
    var p = 100 * c / n;
    if (c && p < 0.05) return "<0.1";
    if (c < n && p >= 99.95) return ">99.9";
    return p.toFixed(1);
  }
  for (k = 1; k <= V.max_guesses; k++) {
    var c = V.histogram[k] || 0; cum += c; maxCount = Math.max(maxCount, c);
    var tr = el("tr");
    [k, c, pct(c), pct(cum)].forEach(function (t) { tr.appendChild(el("td", "", String(t))); });
    tbody.appendChild(tr);
  }
  table.appendChild(tbody);
  var tf = el("tfoot"), ft = el("tr");
  ["mean " + (V.total_guesses / n).toFixed(3), String(n), "100", ""].forEach(function (t) { ft.appendChild(el("td", "", t)); });
  tf.appendChild(ft); table.appendChild(tf);

  (function chart() {
    var NS = "http://www.w3.org/2000/svg", K = V.max_guesses, bw = 36, gap = 10, hgt = 150, top = 34, bottom = 22;
    var wdt = K * (bw + gap) + gap;
    bottom += 16;
    var svg = document.createElementNS(NS, "svg");
    svg.setAttribute("viewBox", "0 0 " + wdt + " " + (hgt + top + bottom));
    svg.setAttribute("width", wdt); svg.setAttribute("role", "img");
    function t(x, y, text, size, fill) {
      var e = document.createElementNS(NS, "text");
      e.setAttribute("x", x); e.setAttribute("y", y); e.setAttribute("text-anchor", "middle");
      e.setAttribute("font-size", size); e.setAttribute("fill", fill || "#222");
      e.textContent = text; svg.appendChild(e);
    }
    for (var k = 1; k <= K; k++) {
      var c = V.histogram[k] || 0, bh = maxCount ? Math.round(hgt * c / maxCount) : 0;
      var x = gap + (k - 1) * (bw + gap);
      var r = document.createElementNS(NS, "rect");
      r.setAttribute("x", x); r.setAttribute("y", top + hgt - bh); r.setAttribute("width", bw);
      r.setAttribute("height", bh); r.setAttribute("fill", "#0072B2");
      svg.appendChild(r);
      t(x + bw / 2, top + hgt - bh - 16, String(c), 11);
      t(x + bw / 2, top + hgt - bh - 4, pct(c) + "%", 9, "#555");
      t(x + bw / 2, top + hgt + 15, String(k), 11);
    }
    t(wdt / 2, top + hgt + 32, "guesses needed", 11, "#555");
    document.getElementById("chart").appendChild(svg);
  })();

  // ---- the tree view: rows made only when their parent is unfolded ------------------------
  var rows = new Array(N), lis = new Array(N), open = new Uint8Array(N);
  function info(id) {
    if (!kidCount[id] && wins[id]) {
      var leaf = el("span", "win", "\u2713 found");
      leaf.title = "the one secret that reaches this guess is the guess itself";
      return leaf;
    }
    var box = el("span", "info", plural(count[id], "secret") + ", at most " +
                 plural(height[id], "guess", "guesses"));
    box.title = count[id] + " secrets reach this guess; with it, they need at most " + height[id];
    return box;
  }
  function depthOf(id) { var d = 1; while (parent[id] >= 0) { id = parent[id]; d++; } return d; }
  function makeItem(id) {
    var li = el("li", "node"), row = el("div", kidCount[id] ? "row" : "row leaf");
    li.setAttribute("role", "treeitem");
    row.tabIndex = 0;
    row.dataset.id = id;
    row.dataset.guess = guess[id];
    row.appendChild(el("span", "twisty", kidCount[id] ? "\u25B8" : "\u00B7"));
    if (parent[id] >= 0) { var kp = keyPegs(KEYS[keyOf[id]]); row.dataset.key = KEYS[keyOf[id]]; row.appendChild(kp); }
    row.appendChild(pegs(guess[id]));
    row.appendChild(info(id));
    if (wins[id] && kidCount[id]) row.appendChild(el("span", "win", "\u2713 can win"));
    li.appendChild(row);
    rows[id] = row; lis[id] = li;
    return li;
  }
  function unfold(id) {
    if (open[id] || !kidCount[id]) return;
    var ul = el("ul", "kids");
    ul.setAttribute("role", "group");
    for (var i = 0; i < kidCount[id]; i++) ul.appendChild(makeItem(kids[kidStart[id] + i]));
    lis[id].appendChild(ul);
    open[id] = 1;
    rows[id].firstChild.textContent = "\u25BE";
    lis[id].setAttribute("aria-expanded", "true");
  }
  function fold(id) {
    if (!open[id]) return;
    var stackF = [id];
    while (stackF.length) {  // forget the rows below, so a folded subtree costs nothing
      var x = stackF.pop();
      for (var i = 0; i < kidCount[x]; i++) {
        var c = kids[kidStart[x] + i];
        if (rows[c]) { rows[c] = undefined; lis[c] = undefined; if (open[c]) stackF.push(c); open[c] = 0; }
      }
    }
    var ul = lis[id].querySelector("ul.kids");
    if (ul) lis[id].removeChild(ul);
    open[id] = 0;
    rows[id].firstChild.textContent = "\u25B8";
    lis[id].setAttribute("aria-expanded", "false");
  }
  var treeEl = document.getElementById("tree");
  treeEl.appendChild(makeItem(0));
  unfold(0);
  treeEl.addEventListener("click", function (ev) {
    var row = ev.target.closest(".row");
    if (!row) return;
    var id = +row.dataset.id;
    if (open[id]) fold(id); else unfold(id);
  });
  treeEl.addEventListener("keydown", function (ev) {
    var row = ev.target.closest(".row");
    if (!row || (ev.key !== "Enter" && ev.key !== " ")) return;
    ev.preventDefault();
    var id = +row.dataset.id;
    if (open[id]) fold(id); else unfold(id);
  });
  document.getElementById("collapse").addEventListener("click", function () { fold(0); unfold(0); clearMarks(); });

  // ---- a path: unfold, highlight, say it ------------------------------------------------
  var marked = [];
  function clearMarks() {
    marked.forEach(function (r) {
      r.classList.remove("hl");
      var f = r.querySelector(".found");
      if (f) r.removeChild(f);
    });
    marked = [];
  }
  function showPath(ids, foundAt) {
    clearMarks();
    for (var i = 0; i < ids.length; i++) {
      if (i > 0) unfold(ids[i - 1]);
      rows[ids[i]].classList.add("hl");
      marked.push(rows[ids[i]]);
    }
    var last = rows[ids[ids.length - 1]];
    if (foundAt) last.appendChild(el("span", "found", "found in " + plural(foundAt, "guess", "guesses")));
    last.scrollIntoView({ block: "nearest" });
  }
  function pathOf(secret) {
    var ids = [0], at = 0;
    while (guess[at] !== secret) {
      at = childByKey(at, feedback(guess[at], secret));
      if (at < 0) return null;
      ids.push(at);
    }
    return ids;
  }

  var status = document.getElementById("status"), search = document.getElementById("search");
  if (D.letters) search.placeholder = "e.g. " + nameOf(CODES[Math.floor(CODES.length * 2 / 3)]);
  function say(box, text, kind) { box.textContent = text; box.className = "status " + (kind || ""); }
  function find(final) {
    var typed = search.value.trim(), text = D.letters ? codeOf(typed) : typed.toLowerCase();  // --letters: typed in them
    if (!text) { say(status, ""); clearMarks(); return; }
    var odd = D.letters ? text.indexOf("?") : -1;
    var bad = odd >= 0 ? "'" + typed.charAt(odd) + "' is not a colour: use " + NAMES.slice(0, C).split("").join(" ") : checkCode(text);
    if (bad) { if (final || text.length >= P) say(status, (D.letters ? typed : text) + ": " + bad, "error"); else say(status, ""); return; }
    var ids = pathOf(text);
    if (!ids) { say(status, "no path for " + nameOf(text) + " (the page's replay disagrees with the tree)", "error"); return; }
    showPath(ids, ids.length);
    say(status, nameOf(text) + " is found in " + plural(ids.length, "guess", "guesses") + ": " +
        ids.map(function (i) { return nameOf(guess[i]); }).join(" \u2192 "), "ok");
  }
  search.addEventListener("input", function () { find(false); });
  search.addEventListener("keydown", function (ev) { if (ev.key === "Enter") find(true); });

  // ---- play: the page guesses, the user gives the replies --------------------------------
  var playBox = document.getElementById("play"), playStatus = document.getElementById("playstatus");
  var history = document.getElementById("history"), replies = document.getElementById("replies");
  var ALLKEYS = [];
  for (var b = 0; b <= P; b++) {
    if (BO) { ALLKEYS.push(String(b)); continue; }
    for (var w = 0; b + w <= P; w++) if (!(b === P - 1 && w === 1)) ALLKEYS.push(b + "," + w);
  }
  var play = null;  // {node, cands, steps: [{node, key, cands}], over}
  function startPlay() {
    play = { node: 0, cands: CODES, steps: [], over: false };
    playBox.hidden = false;
    drawPlay();
  }
  function drawPlay() {
    var gbox = document.getElementById("playguess");
    gbox.textContent = "";
    history.textContent = "";
    play.steps.forEach(function (st, i) {
      var li = el("li");
      li.appendChild(pegs(guess[st.node]));
      li.appendChild(keyPegs(st.key));
      history.appendChild(li);
    });
    replies.textContent = "";
    if (play.over) return;
    gbox.appendChild(el("span", "", "Guess " + (play.steps.length + 1) + ":"));
    gbox.appendChild(pegs(guess[play.node]));
    gbox.appendChild(el("span", "info", plural(play.cands.length, "secret") + " still possible"));
    ALLKEYS.forEach(function (key) {
      var btn = el("button");
      btn.type = "button";
      btn.dataset.key = key;
      if (key === WIN) btn.appendChild(el("span", "", "all right (" + key + ")"));
      else btn.appendChild(keyPegs(key));
      btn.addEventListener("click", function () { reply(key); });
      replies.appendChild(btn);
    });
    var ids = [], x = play.node;
    while (x >= 0) { ids.unshift(x); x = parent[x]; }
    showPath(ids, 0);
  }
  function reply(key) {
    var gs = guess[play.node];
    var cands = play.cands.filter(function (s) { return feedback(gs, s) === key; });
    play.steps.push({ node: play.node, key: key, cands: play.cands });
    if (!cands.length) {
      play.over = true;
      drawPlay();
      say(playStatus, "Contradiction: no secret gives all these replies (reply " + play.steps.length + " to " +
          nameOf(gs) + ", " + words(key) + ", cannot follow the earlier ones). Undo it or start again.", "error");
      return;
    }
    if (key === WIN) {
      play.over = true;
      drawPlay();
      var ids = pathOf(gs);
      showPath(ids, ids.length);
      say(playStatus, "Found your secret " + nameOf(gs) + " in " + plural(play.steps.length, "guess", "guesses") + ".", "ok");
      return;
    }
    var c = childByKey(play.node, key);
    if (c < 0) {
      play.over = true;
      drawPlay();
      say(playStatus, "The tree has no branch for " + words(key) + " after " + nameOf(gs) + " although secrets give it.", "error");
      return;
    }
    play.node = c; play.cands = cands;
    drawPlay();
    say(playStatus, plural(cands.length, "secret") + " fit your replies.");
  }
  document.getElementById("playbtn").addEventListener("click", function () { startPlay(); say(playStatus, "Think of a secret; click the reply to each guess."); });
  document.getElementById("restart").addEventListener("click", function () { startPlay(); say(playStatus, "Think of a secret; click the reply to each guess."); });
  document.getElementById("undo").addEventListener("click", function () {
    if (!play || !play.steps.length) return;
    var st = play.steps.pop();
    play.node = st.node; play.cands = st.cands; play.over = false;
    drawPlay();
    say(playStatus, "Reply undone.");
  });
  document.getElementById("stopplay").addEventListener("click", function () { playBox.hidden = true; play = null; clearMarks(); });

  // ---- you guess: the page keeps a secret, the class guesses it (as `play --codemaker`) ----
  // The secret lives only in this closure: no text or attribute shows it before the game ends.
  var cmBox = document.getElementById("codemaker"), board = document.getElementById("board");
  var cmStatus = document.getElementById("cmstatus"), cmType = document.getElementById("cmtype");
  var cmCurrent = document.getElementById("cmcurrent"), cmRows = document.getElementById("cmrows");
  function randomIndex(n) {  // uniform in [0, n): crypto.getRandomValues, without modulo bias
    var buf = new Uint32Array(1), limit = Math.floor(4294967296 / n) * n;
    do { crypto.getRandomValues(buf); } while (buf[0] >= limit);
    return buf[0] % n;
  }
  function holes(b, w) {
    var box = el("span", "keys");
    box.title = BO ? b + " black" : b + " black, " + w + " white";
    for (var i = 0; i < P; i++) box.appendChild(el("span", i < b ? "hole b" : i < b + w ? "hole w" : "hole"));
    return box;
  }
  var cm = null;  // {rows, scored: [[guess, key]], cands, over}; the secret is kept apart
  var cmSecret = "";
  function newGame(secret, why) {
    var rows = Math.max(1, Math.min(100, Math.floor(+cmRows.value) || 12));
    cmRows.value = rows;
    cmSecret = secret || CODES[randomIndex(CODES.length)];
    cm = { rows: rows, scored: [], cands: CODES, over: false };
    board.textContent = "";
    cmType.value = "";
    drawCurrent();
    document.getElementById("entry").hidden = false;
    document.getElementById("giveup").hidden = false;
    var colours = NAMES === A ? A.charAt(0) + ".." + A.charAt(C - 1) : NAMED;
    document.getElementById("cmintro").textContent = "I have picked a secret (" + P + " pegs, colours " +
      colours + ", " + (REP ? "repeats allowed" : "no colour repeated") + (BO ? "; I answer with black pegs only" : "") + ")" + (why || "") + ". You have " +
      plural(rows, "guess", "guesses") + ". Click the colours or type a code, then Guess.";
    say(cmStatus, "Guess 1 of " + rows + ".");
  }
  function drawCurrent() {
    var typed = codeOf(cmType.value.trim());
    cmCurrent.textContent = "";
    for (var i = 0; i < P; i++) {
      var k = i < typed.length ? A.indexOf(typed.charAt(i)) : -1, p;
      if (k >= 0) {
        p = el("span", "peg", NAMES.charAt(k));
        p.style.backgroundColor = D.palette[k][0];
        p.style.color = D.palette[k][1];
      } else p = el("span", "peg empty", i < typed.length ? "?" : "");
      cmCurrent.appendChild(p);
    }
  }
  function submitGuess() {
    if (!cm || cm.over) return;
    var typed = cmType.value.trim(), code = codeOf(typed);
    var bad = checkCode(code);
    if (bad) {
      var at = code.indexOf("?");
      if (at >= 0) bad = "'" + typed.charAt(at) + "' is not a colour: use " + NAMED;
      say(cmStatus, (typed || "(nothing)") + ": " + bad, "error");
      return;
    }
    var key = feedback(code, cmSecret), n = cm.scored.length + 1;
    var wrong = null;  // the first earlier row this guess contradicts: it cannot be the secret
    for (var i = 0; i < cm.scored.length && !wrong; i++) {
      var would = feedback(cm.scored[i][0], code);
      if (would !== cm.scored[i][1]) wrong = [i + 1, cm.scored[i][0], cm.scored[i][1], would];
    }
    cm.cands = cm.cands.filter(function (s) { return feedback(code, s) === key; });
    cm.scored.push([code, key]);
    var bw = key.split(","), li = el("li"), line = el("span", "line");
    li.dataset.key = key;
    line.appendChild(pegs(code));
    line.appendChild(holes(+bw[0], +(bw[1] || 0)));
    line.appendChild(el("span", "bw", key));
    line.appendChild(el("span", "info", plural(cm.cands.length, "secret") + " still possible"));
    li.appendChild(line);
    if (wrong) {
      li.appendChild(el("span", "note", "note: " + nameOf(code) + " could not be the secret: row " + wrong[0] + " (" +
        nameOf(wrong[1]) + ") scored " + wrong[2] + ", and for " + nameOf(code) + " it would be " + wrong[3]));
    }
    board.appendChild(li);
    cmType.value = "";
    drawCurrent();
    if (key === WIN) endGame("You found " + nameOf(cmSecret) + " in " + plural(n, "guess", "guesses") + ".", n);
    else if (n >= cm.rows) endGame("No guesses left: the secret was " + nameOf(cmSecret) + ".", 0);
    else say(cmStatus, "Guess " + (n + 1) + " of " + cm.rows + ".");
  }
  function endGame(text, yours) {
    cm.over = true;
    document.getElementById("entry").hidden = true;
    document.getElementById("giveup").hidden = true;
    var ids = pathOf(cmSecret), box = el("span", "secret");
    box.appendChild(el("span", "", "the secret"));
    box.appendChild(pegs(cmSecret));
    var li = el("li", "end");
    li.appendChild(box);
    board.appendChild(li);
    if (ids) {
      text += " " + D.name + " finds it in " + plural(ids.length, "guess", "guesses") +
        (yours ? " (you: " + yours + ")" : "") + ": " + ids.map(function (i) { return nameOf(guess[i]); }).join(" ");
    }
    say(cmStatus, text, yours ? "ok" : "");
  }
  document.getElementById("cmcolours").appendChild((function () {
    var box = el("span", "colours");
    for (var k = 0; k < C; k++) {
      var b = el("button", "peg", NAMES.charAt(k));
      b.type = "button";
      b.dataset.colour = k;
      b.title = "colour " + NAMES.charAt(k);
      b.style.backgroundColor = D.palette[k][0];
      b.style.color = D.palette[k][1];
      box.appendChild(b);
    }
    return box;
  })());
  document.getElementById("cmcolours").addEventListener("click", function (ev) {
    var b = ev.target.closest("button");
    if (!b || !cm || cm.over || cmType.value.trim().length >= P) return;
    cmType.value = cmType.value.trim() + NAMES.charAt(+b.dataset.colour);
    drawCurrent();
  });
  document.getElementById("cmback").addEventListener("click", function () {
    cmType.value = cmType.value.trim().slice(0, -1);
    drawCurrent();
  });
  cmType.addEventListener("input", drawCurrent);
  cmType.addEventListener("keydown", function (ev) { if (ev.key === "Enter") submitGuess(); });
  document.getElementById("cmguess").addEventListener("click", submitGuess);
  document.getElementById("giveup").addEventListener("click", function () {
    if (cm && !cm.over) endGame("You gave up: the secret was " + nameOf(cmSecret) + ".", 0);
  });
  document.getElementById("newgame").addEventListener("click", function () { newGame(); });
  document.getElementById("guessbtn").addEventListener("click", function () {
    playBox.hidden = true; play = null; clearMarks();  // one game at a time: the other one closes
    cmBox.hidden = false;
    if (!cm) newGame();
    cmType.focus();
  });
  document.getElementById("stopguess").addEventListener("click", function () { cmBox.hidden = true; });
  document.getElementById("playbtn").addEventListener("click", function () { cmBox.hidden = true; });
  // For tests only (README): start a game with a chosen secret; it never reads the current one.
  window.__certifyTest = {
    setSecret: function (code) {
      if (checkCode(code)) throw new Error(checkCode(code));
      cmBox.hidden = false;
      newGame(code, " (set by a test)");
    },
    feedback: feedback
  };

  // For tests and the curious: the replayed figures, read-only.
  window.certifyPage = { nodes: N, count: count, height: height, guess: guess, pathOf: pathOf, unfold: unfold };
})();
