// gobot's board in a page, shared by the web board (board.js, a session
// cookie) and the Matrix widget (widget.js, a bearer token in memory):
// a state from the server drawn into the page, clicks and keys on the
// board, the action buttons, and the POSTs to the game's /act route.
// How a POST proves its session is the page's: opt.auth(form) adds what
// it needs to the form and returns the fetch options (credentials,
// headers). opt.ended, when set, is said when the session has ended
// (401, or a 403 that is not the server's JSON answer). No framework,
// no inline script (the CSP forbids it).
"use strict";
window.gobotBoard = function (opt) {
  const body = document.body;
  const game = body.dataset.game;
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

  // buttons shows the action buttons the game's phase allows; me is the
  // player's colour, read each time (the widget learns it on sign-in).
  function buttons() {
    const phase = body.dataset.phase, undo = body.dataset.undo, me = body.dataset.color;
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
    const form = new URLSearchParams({ action: action, point: point || "", id: clientID() });
    const how = opt.auth(form);
    if (!how) { busy = false; return; } // not signed in
    try {
      for (let attempt = 0; attempt < 2; attempt++) {
        let res;
        try {
          res = await fetch("/g/" + game + "/act", { method: "POST", body: form, credentials: how.credentials,
            headers: Object.assign({ "Accept": "application/json" }, how.headers) });
        } catch (e) {
          if (attempt === 0) continue; // the same id: applied once
          say("The server could not be reached; nothing was changed. Try again.");
          return;
        }
        if (opt.ended && (res.status === 401 || res.status === 403 && !(res.headers.get("Content-Type") || "").includes("json"))) {
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

  // Resigning is confirmed in the page (a widget's sandbox has no
  // confirm()).
  document.addEventListener("click", (ev) => {
    const b = ev.target.closest("button[data-action]");
    if (!b) return;
    const a = b.dataset.action;
    if (a === "resign") { confirmBox.hidden = false; confirmBox.querySelector('[data-action="confirm"]').focus(); return; }
    if (a === "cancel") { confirmBox.hidden = true; return; }
    if (a === "confirm") { confirmBox.hidden = true; act("resign"); return; }
    act(a);
  });

  if (body.dataset.role === "player") buttons();
  points().forEach((p, i) => p.setAttribute("tabindex", i === 0 ? "0" : "-1"));

  return { apply: apply, say: say, version: () => version };
};
