// gobot's web board: clicks become POSTs to the game's /act route (the
// server runs them as chat commands); the board follows the game over
// Server-Sent Events. No framework, no inline script (the CSP forbids it).
"use strict";
(function () {
  const body = document.body;
  const game = body.dataset.game, csrf = body.dataset.csrf;
  const role = body.dataset.role, me = body.dataset.color;
  const board = document.getElementById("board");
  const side = document.getElementById("side");
  const status = document.querySelector("[data-status]");
  const message = document.querySelector("[data-message]");
  const confirmBox = document.getElementById("confirm");
  let version = Number(body.dataset.version) || 0;
  let focusIndex = -1;

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

  function buttons() {
    const phase = body.dataset.phase, undo = body.dataset.undo;
    document.querySelectorAll("#actions [data-when]").forEach((b) => {
      const when = b.dataset.when.split(" ");
      let show = when.includes(phase);
      if (when.includes("undo-asked")) show = phase === "playing" && undo !== "" && undo !== me;
      b.hidden = !show;
    });
    const undoButton = document.querySelector('[data-action="undo"]');
    if (undoButton) undoButton.textContent = (undo !== "" && undo !== me) ? "Accept undo" : "Undo";
  }

  function apply(st) {
    if (!st || st.v < version) return;
    const moved = st.v > version;
    version = st.v;
    const focused = document.activeElement && document.activeElement.dataset ? document.activeElement.dataset.point : "";
    board.innerHTML = st.board;
    side.innerHTML = st.side;
    status.textContent = st.status;
    body.dataset.phase = st.phase;
    body.dataset.turn = st.turn;
    body.dataset.undo = st.undo;
    body.dataset.version = String(st.v);
    body.dataset.updatedAt = String(Date.now()); // for the latency the browser test reports
    if (moved) say("");
    buttons();
    const pts = points();
    pts.forEach((p) => p.setAttribute("tabindex", "-1"));
    const again = focused ? board.querySelector('[data-point="' + focused + '"]') : null;
    if (again) { again.setAttribute("tabindex", "0"); again.focus(); }
    else if (pts.length) { pts[Math.max(0, Math.min(focusIndex, pts.length - 1))].setAttribute("tabindex", "0"); }
  }

  let busy = false;
  async function act(action, point) {
    if (busy) return;
    busy = true;
    body.dataset.clickedAt = String(Date.now());
    const form = new URLSearchParams({ csrf: csrf, action: action, point: point || "", id: clientID() });
    try {
      for (let attempt = 0; attempt < 2; attempt++) {
        let res;
        try {
          res = await fetch("/g/" + game + "/act", { method: "POST", body: form, credentials: "same-origin", headers: { "Accept": "application/json" } });
        } catch (e) {
          if (attempt === 0) continue; // the same id: applied once
          say("The server could not be reached; nothing was changed. Try again.");
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

  board.addEventListener("click", (ev) => {
    const pt = ev.target.closest("[data-point]");
    if (!pt) return;
    focusIndex = points().indexOf(pt);
    const scoring = body.dataset.phase === "scoring";
    act(scoring && pt.dataset.stone ? "dead" : "play", pt.dataset.point);
  });

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

  document.addEventListener("click", (ev) => {
    const b = ev.target.closest("button[data-action]");
    if (!b) return;
    const a = b.dataset.action;
    if (a === "resign") { confirmBox.hidden = false; confirmBox.querySelector('[data-action="confirm"]').focus(); return; }
    if (a === "cancel") { confirmBox.hidden = true; return; }
    if (a === "confirm") { confirmBox.hidden = true; act("resign"); return; }
    act(a);
  });

  if (role === "player") buttons();
  points().forEach((p, i) => p.setAttribute("tabindex", i === 0 ? "0" : "-1"));

  const events = new EventSource("/g/" + game + "/events?v=" + version);
  // data-live says whether the page is connected (tests and CSS use it).
  events.addEventListener("open", () => { body.dataset.live = "on"; });
  events.addEventListener("error", () => { body.dataset.live = "off"; });
  events.addEventListener("state", (ev) => {
    try { apply(JSON.parse(ev.data)); } catch (e) { /* a malformed event is skipped */ }
  });
})();
