// gobot's board in a page, shared by the web board (board.js, a session
// cookie), the Matrix widget (widget.js) and the Discord Activity
// (activity.js), both with a bearer token in memory: a state from the
// server drawn into the page, clicks and keys on the board, the action
// buttons, the POSTs to the game's /act route and, for a bearer, the
// live stream (listen). How a request proves its session is the page's:
// opt.auth(form) adds what it needs to the form and returns the fetch
// options (credentials, headers), or null before the page has signed
// in. opt.ended, when set, is said when the session has ended (401, or
// a 403 that is not the server's JSON answer: expired); opt.renew, when
// set, is tried first: an async function that signs in again and
// resolves true when opt.auth has a fresh session (the Activity). opt.base prefixes the
// game's routes: "/" (default), or "" for addresses relative to the
// page (the Activity, behind Discord's proxy). The game is
// body[data-game], read at each request (the Activity learns it on
// sign-in). No framework, no inline script (the CSP forbids it).
"use strict";
// gobotClock is clock.go's arithmetic again, for a live game's clocks
// counted down in the page (ms): elapse is TimeControl.Elapse, budget
// Budget, show ShowClock, low whether a period's last 10 s run. v is
// the state's clock (web/clock.go); a simple clock counts its time per
// move as main time.
window.gobotClock = (function () {
  function clockTime(ms) {
    const sec = Math.max(0, Math.floor(ms / 1000));
    const h = Math.floor(sec / 3600), m = Math.floor(sec / 60) % 60, s = sec % 60;
    const two = (n) => String(n).padStart(2, "0");
    return h > 0 ? h + ":" + two(m) + ":" + two(s) : m + ":" + two(s);
  }
  function shortTime(ms) {
    if (ms <= 0) return "0s";
    let out = "";
    for (const [n, name] of [[86400000, "d"], [3600000, "h"], [60000, "m"], [1000, "s"]]) {
      const k = Math.floor(ms / n);
      if (k > 0) { out += k + name; ms -= k * n; }
    }
    return out;
  }
  function elapse(v, s, d) {
    s = Object.assign({ main: 0, periods: 0, stones: 0, period: 0 }, s);
    d = Math.max(0, d);
    if (d < s.main) { s.main -= d; return s; }
    d -= s.main;
    s.main = 0;
    if (v.kind === "byoyomi") {
      while (s.periods > 0 && d >= s.period) { d -= s.period; s.periods--; s.period = v.period; }
      if (s.periods === 0) { s.period = 0; return s; }
      s.period -= d;
    } else if (v.kind === "canadian") {
      s.period = Math.max(0, s.period - d);
    }
    return s;
  }
  function budget(v, s) {
    if (v.kind === "byoyomi") return s.periods <= 0 ? s.main : s.main + s.period + (s.periods - 1) * v.period;
    if (v.kind === "canadian") return s.main + s.period;
    return s.main;
  }
  function show(v, s) {
    if (v.kind === "byoyomi") {
      if (s.periods <= 0) return clockTime(s.main);
      if (s.main > 0) return clockTime(s.main) + " + " + s.periods + "×" + shortTime(v.period);
      if (s.periods === 1) return clockTime(s.period) + " (last period)";
      return clockTime(s.period) + " (" + s.periods + "×" + shortTime(v.period) + ")";
    }
    if (v.kind === "canadian") {
      if (s.main > 0) return clockTime(s.main) + " + " + v.stones + " stones in " + clockTime(v.period);
      return s.stones + (s.stones === 1 ? " stone" : " stones") + " in " + clockTime(s.period);
    }
    return clockTime(s.main);
  }
  function low(v, s) {
    if (v.kind === "byoyomi" || v.kind === "canadian") return s.main === 0 && budget(v, s) > 0 && (s.period < 10000);
    return budget(v, s) < 10000;
  }
  // duration is protocol.FormatDuration: "9m 30s", "45s", "10m", "1h 5m".
  function duration(ms) {
    if (ms < 600000) {
      const sec = Math.floor(ms / 1000);
      if (sec <= 0) return "0s";
      const m = Math.floor(sec / 60), s = sec % 60;
      if (m === 0) return s + "s";
      return s === 0 ? m + "m" : m + "m " + s + "s";
    }
    const days = Math.floor(ms / 86400000), hours = Math.floor(ms / 3600000) % 24, mins = Math.floor(ms / 60000) % 60;
    const parts = [];
    if (days > 0) parts.push(days + "d");
    if (hours > 0) parts.push(hours + "h");
    if (mins > 0 && days === 0) parts.push(mins + "m");
    return parts.join(" ");
  }
  return { elapse: elapse, budget: budget, show: show, low: low, duration: duration };
})();

window.gobotBoard = function (opt) {
  const body = document.body;
  const base = opt.base === undefined ? "/" : opt.base;
  const route = (r) => base + "g/" + body.dataset.game + "/" + r;
  const board = document.getElementById("board");
  const side = document.getElementById("side");
  const status = document.querySelector("[data-status]");
  const message = document.querySelector("[data-message]");
  const confirmBox = document.getElementById("confirm");
  let version = Number(body.dataset.version) || 0;
  let focusIndex = -1;
  // A live game's clocks: the state's, and how far the server's clock is
  // ahead of the page's (ms), as of the last state.
  let clocks = null, skew = 0, clockTimer = 0, lastTick = -1;
  // The colours that accepted the count, with their Done's words.
  let waiting = {};
  try { waiting = JSON.parse(body.dataset.waiting || "{}"); } catch (e) { /* none */ }

  function clientID() {
    const b = new Uint8Array(16);
    crypto.getRandomValues(b);
    return Array.from(b, (x) => x.toString(16).padStart(2, "0")).join("");
  }

  function say(text) {
    message.textContent = text || "";
    message.dataset.seq = String((Number(message.dataset.seq) || 0) + 1);
  }

  function points() { return Array.from(board.querySelectorAll("[data-point]")); }

  // buttons shows the action buttons the game's phase allows; me is the
  // player's colour, read each time (the widget learns it on sign-in).
  // A voter (a member of a vote game's room) votes with them: Pass and
  // Resign are votes, and a vote is not taken back (no Undo).
  function buttons() {
    const phase = body.dataset.phase, undo = body.dataset.undo, me = body.dataset.color;
    const voter = body.dataset.role === "voter";
    document.querySelectorAll("#actions [data-when]").forEach((b) => {
      const when = b.dataset.when.split(" ");
      let show = when.includes(phase);
      if (when.includes("undo-asked")) show = phase === "playing" && undo !== "" && undo !== me;
      // A live game's pause: Pause asks (or accepts the other's ask)
      // while the clocks run; Resume restarts them.
      if (when.includes("live")) show = phase === "playing" && !!clocks && !clocks.paused && !clocks.out && body.dataset.pause !== me;
      if (when.includes("paused") && phase === "playing") show = !!clocks && !!clocks.paused;
      if ((b.dataset.action === "pass" || b.dataset.action === "undo") && clocks && clocks.paused) show = false; // moves wait for Resume
      if (voter && (b.dataset.action === "undo" || b.dataset.action === "decline" || b.dataset.action === "pause")) show = false;
      if (voter && (b.dataset.action === "resign" || b.dataset.action === "pass")) show = phase === "playing" && body.dataset.turn === me;
      b.hidden = !show;
    });
    const pauseButton = document.querySelector('[data-action="pause"]');
    if (pauseButton) pauseButton.textContent = (body.dataset.pause || "") !== "" ? "Accept pause" : "Pause";
    const undoButton = document.querySelector('[data-action="undo"]');
    if (undoButton) undoButton.textContent = (undo !== "" && undo !== me) ? undoButton.dataset.answer : "Undo";
    // A side that accepted the count waits for the other: its Done
    // says so, and does nothing (chat's words, state.waiting).
    const doneButton = document.querySelector('[data-action="done"]');
    if (doneButton) {
      const w = phase === "scoring" ? waiting[me] : "";
      doneButton.disabled = !!w;
      doneButton.textContent = w || "Done";
    }
    const label = (a, player, vote) => { const b = document.querySelector('[data-action="' + a + '"]'); if (b) b.textContent = voter ? vote : player; };
    label("pass", "Pass", "Vote pass");
    label("resign", "Resign", "Vote resign");
    label("confirm", "Yes, resign", "Yes, vote to resign");
    tap.reserve(body.dataset.role === "player" && phase === "playing");
  }
  window.addEventListener("resize", () => { if (body.dataset.role === "player") buttons(); });

  // drawBoard puts a state's board (svg.go's SVG) in place, changing
  // only what changed: the groups of stones and marks that differ are
  // parsed and replaced, and the points whose square changed (a stone
  // put or taken) get their new attributes, so a move costs the browser
  // a few elements, not the whole board parsed, styled and laid out
  // again (issue 47: that was most of the page's time from a move's
  // event to the opponent's board updated). The first state is parsed
  // whole once, against the board the page came with (adopt); a board
  // of another shape is put whole.
  let drawn = "";
  const svgNS = '<svg xmlns="http://www.w3.org/2000/svg">';
  const scratch = document.createElement("template");
  function parsed(markup) {
    scratch.innerHTML = svgNS + markup + "</svg>";
    return Array.from(scratch.content.firstChild.children);
  }
  // groups splits an SVG after its fixed part (the first group, of the
  // stones) into its top-level groups, none of which holds another.
  function groups(svg) {
    const at = svg.indexOf('<g class="stones">');
    if (at < 0) return null;
    const out = { head: svg.slice(0, at), keys: [], parts: {} };
    for (const m of svg.slice(at).matchAll(/<g class="([a-z]+)"[^>]*>[\s\S]*?<\/g>/g)) {
      out.keys.push(m[1]);
      out.parts[m[1]] = m[0];
    }
    return out;
  }
  let drawnGroups = null; // groups(drawn), kept for the next patch
  function drawBoard(svg) {
    if (svg === drawn) return;
    const was = drawnGroups, now = groups(svg), el = board.firstElementChild;
    let patched = false;
    if (el && was && now && was.head === now.head && was.keys.join() === now.keys.join()) patched = patch(el, was, now);
    else if (el && now && !drawn) patched = adopt(el, svg); // the board the server drew in the page
    if (!patched) board.innerHTML = svg;
    drawn = svg;
    drawnGroups = now;
  }
  // sync gives the element from the attributes of to (but the page's own).
  function sync(from, to) {
    Array.from(from.attributes).forEach((a) => { if (a.name !== "tabindex" && a.name !== "data-ghosted" && !to.hasAttribute(a.name)) from.removeAttribute(a.name); });
    Array.from(to.attributes).forEach((a) => { if (from.getAttribute(a.name) !== a.value) from.setAttribute(a.name, a.value); });
  }
  function unghost() { board.querySelectorAll("[data-ghosted]").forEach((p) => { delete p.dataset.ghosted; }); }
  // patch changes el, drawn as was, into now; false if it cannot.
  function patch(el, was, now) {
    for (const k of now.keys) {
      if (k !== "points" && was.parts[k] !== now.parts[k] && !el.querySelector(":scope > g." + k)) return false;
    }
    const pts = el.querySelector(":scope > g.points");
    if (!pts || !was.parts.points || !now.parts.points) return false;
    const oldRects = was.parts.points.split("<rect "), newRects = now.parts.points.split("<rect ");
    if (oldRects.length !== newRects.length || pts.children.length !== newRects.length - 1) return false;
    for (const k of now.keys) {
      if (k === "points" || was.parts[k] === now.parts[k]) continue;
      el.querySelector(":scope > g." + k).replaceWith(...parsed(now.parts[k]));
      if (k === "stones") unghost(); // its ghosts went with it
    }
    for (let i = 1; i < newRects.length; i++) {
      if (newRects[i] !== oldRects[i]) sync(pts.children[i - 1], parsed("<rect " + newRects[i].replace(/<\/g>[\s\S]*$/, ""))[0]);
    }
    return true;
  }
  // adopt changes el, the board as the page came, into svg, parsed whole
  // once; false if it cannot.
  function adopt(el, svg) {
    scratch.innerHTML = svg;
    const fresh = scratch.content.firstElementChild;
    if (!fresh || fresh.children.length !== el.children.length || fresh.attributes.length !== el.attributes.length) return false;
    if (Array.from(fresh.attributes).some((a) => el.getAttribute(a.name) !== a.value)) return false;
    const kids = Array.from(fresh.children);
    for (let i = 0; i < kids.length; i++) {
      const a = el.children[i], b = kids[i];
      if (a.tagName !== b.tagName || a.getAttribute("class") !== b.getAttribute("class")) return false;
      if (b.getAttribute("class") === "points" && a.children.length !== b.children.length) return false;
    }
    kids.forEach((b, i) => {
      const a = el.children[i];
      if (b.getAttribute("class") === "points") Array.from(b.children).forEach((r, j) => sync(a.children[j], r));
      else if (!a.isEqualNode(b)) {
        a.replaceWith(b);
        if (b.getAttribute("class") === "stones") unghost();
      }
    });
    return true;
  }

  function apply(st) {
    // A state the page has applied already (its own click's, which both
    // the answer and the live stream bring) is not applied again.
    if (!st || st.v < version || st.v === version && drawn !== "") return;
    const moved = st.v > version;
    version = st.v;
    const focused = document.activeElement && document.activeElement.dataset ? document.activeElement.dataset.point : "";
    drawBoard(st.board);
    side.innerHTML = st.side;
    drawAway();
    status.textContent = st.status;
    body.dataset.phase = st.phase;
    body.dataset.turn = st.turn;
    body.dataset.undo = st.undo;
    body.dataset.pause = st.pause || "";
    waiting = st.waiting || {};
    body.dataset.version = String(st.v);
    setClocks(st.clock, st.now);
    body.dataset.updatedAt = String(Date.now()); // for the latency the browser test reports
    if (moved) say("");
    buttons();
    setPending(pending && st.phase === "playing" ? pending : "");
    const pts = points();
    pts.forEach((p) => p.setAttribute("tabindex", "-1"));
    const again = focused ? board.querySelector('[data-point="' + focused + '"]') : null;
    if (again) { again.setAttribute("tabindex", "0"); again.focus(); }
    else if (pts.length) { pts[Math.max(0, Math.min(focusIndex, pts.length - 1))].setAttribute("tabindex", "0"); }
  }

  // setClocks takes a state's clocks and the server's time it was sent.
  function setClocks(v, now) {
    clocks = v || null;
    if (now) skew = now - Date.now();
    drawClocks();
    buttons();
  }

  // drawClocks shows both clocks as they are now, by the server's
  // clock, and waits for the running one's next second: each clock's
  // data-seconds is the whole seconds left before the loss on time, its
  // text the time in the system's terms; data-running marks the mover's,
  // data-low a period's last 10 s (with a tick, when the page's sound
  // is on and the clock is the viewer's or the viewer watches).
  function drawClocks() {
    clearTimeout(clockTimer);
    // The tick's box is outside the side panel, which each event
    // redraws, so it keeps its focus; it shows while clocks tick.
    const sound = document.querySelector("[data-tick-sound]");
    if (sound) { sound.checked = tickOn(); sound.closest("label").hidden = !clocks; }
    if (!clocks) return;
    const now = Date.now() + skew;
    let next = 0;
    ["black", "white"].forEach((c) => {
      const el = document.querySelector('[data-clock="' + c + '"]');
      let s = clocks[c];
      const running = clocks.running === c;
      if (running) s = gobotClock.elapse(clocks, s, now - clocks.since);
      const left = clocks.out === c ? 0 : gobotClock.budget(clocks, s);
      if (running && left > 0) next = left % 1000 || 1000;
      if (!el) return;
      const secs = Math.floor(left / 1000);
      el.dataset.seconds = String(secs);
      el.toggleAttribute("data-running", running);
      el.toggleAttribute("data-out", clocks.out === c);
      el.toggleAttribute("data-paused", clocks.paused === c);
      const low = running && gobotClock.low(clocks, s);
      el.toggleAttribute("data-low", low);
      el.textContent = clocks.out === c ? "Time is up" : gobotClock.show(clocks, s) + (clocks.paused === c ? " · paused" : "");
      if (low && secs !== lastTick && (body.dataset.role !== "player" || body.dataset.color === c)) { lastTick = secs; tick(); }
    });
    // A pause's time left counts down to its end, as the clocks do.
    const pauseLeft = side.querySelector("[data-pause-left]");
    if (clocks.paused && clocks.pauseEnds && pauseLeft) {
      const left = Math.max(0, clocks.pauseEnds - now);
      pauseLeft.textContent = gobotClock.duration(left);
      if (left > 0) next = left % 1000 || 1000;
    }
    if (next) clockTimer = setTimeout(drawClocks, next + 5);
  }

  // The tick sound: off by default, the page's choice kept by the
  // browser; a short blip made by the Web Audio API.
  let audio = null;
  function tickOn() { try { return localStorage.getItem("gobot.tick") === "on"; } catch (e) { return false; } }
  function tick() {
    if (!tickOn()) return;
    try {
      audio = audio || new AudioContext();
      const o = audio.createOscillator(), g = audio.createGain(), t = audio.currentTime;
      o.frequency.value = 880;
      g.gain.setValueAtTime(0.2, t);
      g.gain.exponentialRampToValueAtTime(0.001, t + 0.06);
      o.connect(g).connect(audio.destination);
      o.start(t);
      o.stop(t + 0.07);
    } catch (e) { /* no sound here */ }
  }
  document.addEventListener("change", (ev) => {
    if (!ev.target.matches("[data-tick-sound]")) return;
    try { localStorage.setItem("gobot.tick", ev.target.checked ? "on" : "off"); } catch (e) { /* not kept */ }
    if (ev.target.checked) { try { audio = audio || new AudioContext(); audio.resume(); } catch (e) { /* no sound */ } }
  });

  let busy = false;
  async function act(action, point) {
    if (busy) return;
    busy = true;
    body.dataset.clickedAt = String(Date.now());
    const form = new URLSearchParams({ action: action, point: point || "", id: clientID() });
    let how = opt.auth(form);
    if (!how) { busy = false; return; } // not signed in
    let renewed = false;
    try {
      for (let attempt = 0; attempt < 2; attempt++) {
        let res;
        try {
          res = await fetch(route("act"), { method: "POST", body: form, credentials: how.credentials,
            headers: Object.assign({ "Accept": "application/json" }, how.headers) });
        } catch (e) {
          if (attempt === 0) continue; // the same id: applied once
          say("The server could not be reached; nothing was changed. Try again.");
          return;
        }
        if (opt.ended && (res.status === 401 || res.status === 403 && !(res.headers.get("Content-Type") || "").includes("json"))) {
          // A session that expired is signed in again silently where the
          // page can (opt.renew: the Activity), and the click sent again.
          if (!renewed && opt.renew && await opt.renew()) {
            renewed = true;
            how = opt.auth(form) || how;
            attempt--;
            continue;
          }
          say(opt.ended);
          return;
        }
        let data = {};
        try { data = await res.json(); } catch (e) { data = { message: "The server answered " + res.status + "." }; }
        if (data.state) apply(data.state);
        say(data.message || "");
        return;
      }
    } finally { busy = false; }
  }

  // A tap that cannot misplace a stone (tap.js): the ghost of the
  // player's colour and its "Play E5" button in a place of its own.
  const tap = window.gobotTap({ board: board, root: document, color: () => body.dataset.color });
  let pending = "";
  function setPending(point) { tap.set(point); pending = tap.pending(); }
  function confirming() { return tap.confirming(); }
  const ghost = tap.ghost;

  board.addEventListener("click", (ev) => {
    const pt = ev.target.closest("[data-point]");
    if (!pt) return;
    focusIndex = points().indexOf(pt);
    const scoring = body.dataset.phase === "scoring";
    if (!scoring && body.dataset.role === "player" && confirming()) {
      setPending(pt.dataset.point);
      return;
    }
    act(scoring && pt.dataset.stone ? "dead" : "play", pt.dataset.point);
  });
  board.addEventListener("pointerover", (ev) => {
    const pt = ev.target.closest("[data-point]");
    if (ev.pointerType !== "mouse" || !pt || body.dataset.role !== "player" || body.dataset.phase !== "playing" || body.dataset.turn !== body.dataset.color) return;
    ghost(pt.dataset.point, "hover");
  });
  board.addEventListener("pointerleave", () => ghost("", "hover"));

  board.addEventListener("keydown", (ev) => {
    const pts = points();
    if (!pts.length) return;
    const size = board.querySelector("svg").viewBox.baseVal;
    const cols = Math.round((size.width - 96) / 40) + 1; // margins of 48 (svg.go)
    let i = pts.indexOf(document.activeElement);
    if (i < 0) i = Math.max(0, focusIndex);
    let j = i;
    switch (ev.key) {
      case "ArrowLeft": j = i - 1; break;
      case "ArrowRight": j = i + 1; break;
      case "ArrowUp": j = i - cols; break;
      case "ArrowDown": j = i + cols; break;
      case "Enter": case " ":
        ev.preventDefault();
        pts[i].dispatchEvent(new MouseEvent("click", { bubbles: true }));
        return;
      default: return;
    }
    ev.preventDefault();
    if (j < 0 || j >= pts.length) return;
    pts[i].setAttribute("tabindex", "-1");
    pts[j].setAttribute("tabindex", "0");
    pts[j].focus();
    focusIndex = j;
  });

  // Resigning is confirmed in the page (a widget's sandbox has no
  // confirm()).
  document.addEventListener("click", (ev) => {
    const b = ev.target.closest("button[data-action]");
    if (!b) return;
    const a = b.dataset.action;
    if (a === "resign") { confirmBox.hidden = false; confirmBox.querySelector('[data-action="confirm"]').focus(); return; }
    if (a === "cancel") { confirmBox.hidden = true; return; }
    if (a === "confirm") { confirmBox.hidden = true; act("resign"); return; }
    if (a === "submit") { const p = pending; setPending(""); act("play", p); return; }
    act(a);
  });

  if (body.dataset.role === "player" || body.dataset.role === "voter") buttons();
  if (body.dataset.clocks) { try { setClocks(JSON.parse(body.dataset.clocks), Number(body.dataset.now)); } catch (e) { /* drawn as served */ } }
  points().forEach((p, i) => p.setAttribute("tabindex", i === 0 ? "0" : "-1"));

  // listen follows the game with a bearer session (stream.js), from
  // the version the page has; a new listen stops the last one's stream.
  let following = null;
  function listen() {
    if (following) following.abort();
    following = new AbortController();
    return window.gobotStream({ signal: following.signal, url: () => route("events?v=" + version), how: () => opt.auth(new URLSearchParams()),
      on: { state: apply, presence: presence }, ended: async () => {
        if (opt.renew && await opt.renew()) { listen(); return; } // signed in again: follow on
        say(opt.ended);
      } });
  }

  // who says who the page is for: "(alice, black)", "(carol, voting
  // for the room)", "(dave, watching)".
  function who(role, name, color) {
    if (role === "player") return "(" + name + ", " + color + ")";
    if (role === "voter") return "(" + name + ", voting for the room)";
    return "(" + name + ", watching)";
  }

  // presence takes who is away (a live game's player whose board has
  // been closed 30 s, by the server) and marks them in the side panel,
  // again after each redraw of it.
  let away = [];
  function presence(p) { away = (p && p.away) || []; drawAway(); }
  function drawAway() {
    ["black", "white"].forEach((c) => {
      const li = side.querySelector(".players li." + c);
      if (!li) return;
      let mark = li.querySelector("[data-away]");
      if (away.includes(c) && !mark) {
        mark = document.createElement("span");
        mark.className = "away";
        mark.dataset.away = c;
        mark.textContent = "away";
        mark.title = "This player's board has been closed for 30 seconds or more.";
        li.querySelector("b").after(" ", mark);
      } else if (!away.includes(c) && mark) {
        mark.remove();
      }
    });
  }

  // reset forgets the game shown, before another game's board is put in
  // its place (a frame's page: the Activity, a tournament's widget):
  // its stream stops, and the next state is drawn whole.
  function reset() {
    if (following) following.abort();
    following = null;
    version = 0;
    drawn = "";
    board.replaceChildren();
    setPending("");
    away = [];
    say("");
  }

  return { apply: apply, say: say, listen: listen, reset: reset, presence: presence, version: () => version, who: who };
};
