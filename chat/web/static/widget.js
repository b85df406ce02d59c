// gobot's board as a Matrix room widget. Element shows this page in a
// sandboxed iframe of another site: no cookies (third-party), no native
// dialogs. So the page signs in through the widget API: it asks the
// client for an OpenID token (it asks for no room capabilities), the
// server checks it with the user's homeserver and returns a bearer token
// that lives in this page's memory only. Clicks are POSTs and live
// updates a streamed fetch, both with "Authorization: Bearer".
"use strict";
(function () {
  const body = document.body;
  const game = body.dataset.game;
  const board = document.getElementById("board");
  const side = document.getElementById("side");
  const actions = document.getElementById("actions");
  const status = document.querySelector("[data-status]");
  const message = document.querySelector("[data-message]");
  const who = document.querySelector("[data-who]");
  const confirmBox = document.getElementById("confirm");
  let token = "", me = "", version = 0, focusIndex = -1;

  function say(text) {
    message.textContent = text || "";
    message.dataset.seq = String((Number(message.dataset.seq) || 0) + 1);
  }
  function signin(state, text) {
    body.dataset.signin = state;
    if (text !== undefined) status.textContent = text;
  }

  // The client adds widgetId and parentUrl to the page's address.
  const query = new URLSearchParams(location.search);
  let parentOrigin = null;
  try { parentOrigin = new URL(query.get("parentUrl")).origin; } catch (e) { parentOrigin = null; }
  const mx = typeof window.mxwidgets === "function" ? window.mxwidgets() : window.mxwidgets;
  if (!mx || window.parent === window) {
    signin("failed", "Open this board from its Matrix room: it is a widget there.");
    return;
  }
  const api = new mx.WidgetApi(query.get("widgetId"), parentOrigin);
  // No requestCapability calls: the board needs nothing of the room.
  api.on("ready", signIn);
  api.start();

  async function signIn() {
    signin("asking", "Asking your Matrix client who you are…");
    let creds;
    try {
      creds = await api.requestOpenIDConnectToken(); // answered at once, or after the user allows it
    } catch (e) {
      if (/declined/i.test(String(e && e.message))) {
        signin("refused", "Your Matrix client did not share who you are, so the board cannot let you play or watch. Reopen the widget and allow it to verify your identity.");
      } else {
        signin("failed", "Your Matrix client did not answer the board's sign-in; reopen the widget to try again.");
      }
      return;
    }
    signin("checking", "Checking with your homeserver…");
    let res, data = {};
    try {
      res = await fetch("/widget/" + game + "/session", {
        method: "POST", credentials: "omit", cache: "no-store",
        headers: { "Content-Type": "application/json", "Accept": "application/json" },
        body: JSON.stringify({ access_token: creds.access_token, matrix_server_name: creds.matrix_server_name }),
      });
      data = await res.json();
    } catch (e) {
      signin("failed", "The board's server could not be reached; reopen the widget to try again.");
      return;
    }
    if (!res.ok || !data.token) {
      signin("failed", data.message || ("The board's server answered " + res.status + "."));
      return;
    }
    token = data.token;
    me = data.color || "";
    body.dataset.role = data.role;
    body.dataset.color = me;
    who.textContent = data.role === "player" ? "(" + data.name + ", " + me + ")" : "(" + data.name + ", watching)";
    if (data.role === "player") actions.hidden = false;
    else document.getElementById("watching").hidden = false;
    signin("on");
    apply(data.state);
    listen();
  }

  function points() { return Array.from(board.querySelectorAll("[data-point]")); }

  function buttons() {
    const phase = body.dataset.phase, undo = body.dataset.undo;
    actions.querySelectorAll("[data-when]").forEach((b) => {
      const when = b.dataset.when.split(" ");
      let show = when.includes(phase);
      if (when.includes("undo-asked")) show = phase === "playing" && undo !== "" && undo !== me;
      b.hidden = !show;
    });
    const undoButton = actions.querySelector('[data-action="undo"]');
    undoButton.textContent = (undo !== "" && undo !== me) ? "Accept undo" : "Undo";
  }

  function apply(st) {
    if (!st || st.v < version) return;
    const moved = st.v > version;
    version = st.v;
    board.innerHTML = st.board;
    side.innerHTML = st.side;
    status.textContent = st.status;
    body.dataset.phase = st.phase;
    body.dataset.turn = st.turn;
    body.dataset.undo = st.undo;
    body.dataset.version = String(st.v);
    if (moved) say("");
    buttons();
    const pts = points();
    pts.forEach((p, i) => p.setAttribute("tabindex", i === Math.max(0, focusIndex) ? "0" : "-1"));
  }

  function clientID() {
    const b = new Uint8Array(16);
    crypto.getRandomValues(b);
    return Array.from(b, (x) => x.toString(16).padStart(2, "0")).join("");
  }

  let busy = false;
  async function act(action, point) {
    if (busy || !token) return;
    busy = true;
    const form = new URLSearchParams({ action: action, point: point || "", id: clientID() });
    try {
      for (let attempt = 0; attempt < 2; attempt++) {
        let res;
        try {
          res = await fetch("/g/" + game + "/act", { method: "POST", body: form, credentials: "omit",
            headers: { "Accept": "application/json", "Authorization": "Bearer " + token } });
        } catch (e) {
          if (attempt === 0) continue; // the same id: applied once
          say("The server could not be reached; nothing was changed. Try again.");
          return;
        }
        if (res.status === 401 || res.status === 403 && !(res.headers.get("Content-Type") || "").includes("json")) {
          say("Your session on the board has ended; reopen the widget.");
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

  // The live stream: Server-Sent Events read through fetch, which can
  // send the Authorization header (EventSource cannot).
  async function listen() {
    for (;;) {
      try {
        const res = await fetch("/g/" + game + "/events?v=" + version, { credentials: "omit", cache: "no-store",
          headers: { "Accept": "text/event-stream", "Authorization": "Bearer " + token } });
        if (res.status === 401 || res.status === 403) {
          body.dataset.live = "off";
          say("Your session on the board has ended; reopen the widget.");
          return;
        }
        if (res.ok && res.body) {
          body.dataset.live = "on";
          const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
          let buf = "";
          for (;;) {
            const { value, done } = await reader.read();
            if (done) break;
            buf += value;
            let i;
            while ((i = buf.indexOf("\n\n")) >= 0) {
              const block = buf.slice(0, i);
              buf = buf.slice(i + 2);
              let kind = "", data = "";
              block.split("\n").forEach((l) => {
                if (l.startsWith("event: ")) kind = l.slice(7);
                else if (l.startsWith("data: ")) data += l.slice(6);
              });
              if (kind === "state") { try { apply(JSON.parse(data)); } catch (e) { /* skipped */ } }
            }
          }
        }
      } catch (e) { /* reconnect below */ }
      body.dataset.live = "off";
      await new Promise((r) => setTimeout(r, 1000));
    }
  }

  board.addEventListener("click", (ev) => {
    const pt = ev.target.closest("[data-point]");
    if (!pt) return;
    focusIndex = points().indexOf(pt);
    if (body.dataset.role !== "player") {
      say("You are watching game #" + game + ": only its players can play.");
      return;
    }
    act(body.dataset.phase === "scoring" && pt.dataset.stone ? "dead" : "play", pt.dataset.point);
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

  // Resigning is confirmed in the page: the sandbox has no confirm().
  actions.addEventListener("click", (ev) => {
    const b = ev.target.closest("button[data-action]");
    if (!b) return;
    const a = b.dataset.action;
    if (a === "resign") { confirmBox.hidden = false; confirmBox.querySelector('[data-action="confirm"]').focus(); return; }
    if (a === "cancel") { confirmBox.hidden = true; return; }
    if (a === "confirm") { confirmBox.hidden = true; act("resign"); return; }
    act(a);
  });
})();
