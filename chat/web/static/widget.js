// gobot's board as a Matrix room widget. Element shows this page in a
// sandboxed iframe of another site: no cookies (third-party), no native
// dialogs. So the page signs in through the widget API: it asks the
// client for an OpenID token (it asks for no room capabilities), the
// server checks it with the user's homeserver and returns a bearer token
// that lives in this page's memory only. Clicks are POSTs and live
// updates a streamed fetch (boardui.js), both with "Authorization:
// Bearer".
"use strict";
(function () {
  const body = document.body;
  const game = body.dataset.game;
  // A review's widget (review-widget in widget.html): review.js runs its
  // board once signed in.
  const review = body.dataset.review;
  // A tournament's widget (tournament-widget): its page (tview.js), from
  // which each game's board opens in the widget.
  const tournament = body.dataset.tournament;
  const actions = document.getElementById("actions");
  const status = document.querySelector(tournament ? "[data-tstatus]" : "[data-status]");
  const who = document.querySelector("[data-who]");
  let token = "";
  // A game's board itself (drawing, clicks, keys, buttons) is
  // boardui.js's; this page adds the sign-in and the bearer token.
  const ui = review ? null : window.gobotBoard({
    auth: () => token ? { credentials: "omit", headers: { "Authorization": "Bearer " + token } } : null,
    ended: "Your session on the board has ended; reopen the widget.",
  });

  function signin(state, text) {
    body.dataset.signin = state;
    if (text !== undefined) status.textContent = text;
  }

  // The client adds widgetId and parentUrl to the page's address.
  const query = new URLSearchParams(location.search);
  let parentOrigin = null;
  try { parentOrigin = new URL(query.get("parentUrl")).origin; } catch (e) { parentOrigin = null; }
  // The frame that really holds this page, where the browser says
  // (Chromium and WebKit): "null" when the client hides it.
  const ancestor = location.ancestorOrigins && location.ancestorOrigins.length ? location.ancestorOrigins[0] : "null";
  if (!parentOrigin || parentOrigin === "null") parentOrigin = ancestor;
  const mx = typeof window.mxwidgets === "function" ? window.mxwidgets() : window.mxwidgets;
  if (!mx || window.parent === window || !parentOrigin || parentOrigin === "null" || (ancestor !== "null" && ancestor !== parentOrigin)) {
    signin("failed", "Open this board from its Matrix room: it is a widget there.");
    return;
  }
  // matrix-widget-api believes any window that posts to this one: a
  // sibling frame (another widget in the room) could answer the OpenID
  // request with its own user's token. Only the chat client, the
  // parent window at its origin, is heard: every other message is
  // stopped before the API's listener (added later, by api.start())
  // sees it.
  window.addEventListener("message", (e) => {
    if (e.source !== window.parent || e.origin !== parentOrigin) e.stopImmediatePropagation();
  }, true);
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
      res = await fetch(tournament ? "/widget/t/" + tournament + "/session" : review ? "/widget/r/" + review + "/session" : "/widget/" + game + "/session", {
        method: "POST", credentials: "omit", cache: "no-store",
        headers: { "Content-Type": "application/json", "Accept": "application/json" },
        body: JSON.stringify({ access_token: creds.access_token, matrix_server_name: creds.matrix_server_name, expires_in: Math.floor(Number(creds.expires_in)) || 0 }),
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
    if (tournament) {
      tournamentPage(data);
      return;
    }
    token = data.token;
    if (review) {
      who.textContent = "(" + data.name + ")";
      signin("on");
      window.gobotReview({
        root: document, base: "/r/" + review + "/", me: data.me, state: data.reviewState,
        auth: { headers: { "Authorization": "Bearer " + token } },
        ended: "Your session on the review has ended; reopen the widget.",
      });
      return;
    }
    body.dataset.role = data.role;
    body.dataset.color = data.color || "";
    body.dataset.confirm = data.confirm || "";
    who.textContent = ui.who(data.role, data.name, data.color);
    if (data.resign) document.querySelector("[data-question]").textContent = data.resign;
    if (data.role !== "watcher") actions.hidden = false;
    else document.getElementById("watching").hidden = false;
    signin("on");
    ui.apply(data.state);
    ui.listen();
  }

  // tournamentPage shows the tournament's page with the session its
  // sign-in opened (data.token), and each game's board from it: the
  // player's own, or to watch.
  function tournamentPage(data) {
    const ttoken = data.token;
    const pageBox = document.getElementById("tournament");
    const gameBox = document.getElementById("game");
    const tmessage = document.querySelector("[data-tmessage]");
    const toGame = document.querySelector('[data-tab="game"]');
    const bearer = () => ({ credentials: "omit", headers: { "Authorization": "Bearer " + ttoken } });
    const tv = window.gobotTournament({
      box: document.getElementById("tview"), url: () => "/t/" + tournament + "/view", auth: bearer, board: openGame,
      ended: "Your session on the tournament's page has ended; reopen the widget.",
    });
    async function showPage() {
      gameBox.hidden = true;
      pageBox.hidden = false;
      toGame.hidden = !body.dataset.game;
      toGame.textContent = "Back to game #" + body.dataset.game;
      tmessage.textContent = await tv.load();
    }
    function showGame() {
      pageBox.hidden = true;
      gameBox.hidden = false;
    }
    async function openGame(g) {
      if (body.dataset.game === String(g)) { showGame(); return; }
      tmessage.textContent = "Opening game #" + g + "…";
      let res, s = {};
      try {
        res = await fetch("/widget/t/" + tournament + "/g/" + g, Object.assign({ method: "POST", cache: "no-store" }, bearer()));
        s = await res.json();
      } catch (e) {
        tmessage.textContent = "The board's server could not be reached; try again in a moment.";
        return;
      }
      if (!res.ok || !s.token) { tmessage.textContent = s.message || ("The board's server answered " + res.status + "."); return; }
      tmessage.textContent = "";
      if (body.dataset.game) ui.reset();
      token = s.token;
      body.dataset.game = String(s.game);
      body.dataset.role = s.role;
      body.dataset.color = s.color || "";
      body.dataset.confirm = s.confirm || "";
      document.querySelector("[data-title]").textContent = "Game #" + s.game;
      who.textContent = ui.who(s.role, s.name, s.color);
      if (s.resign) document.querySelector("[data-question]").textContent = s.resign;
      actions.hidden = s.role === "watcher";
      document.getElementById("watching").hidden = s.role !== "watcher";
      ui.apply(s.state);
      ui.listen();
      showGame();
    }
    document.addEventListener("click", (ev) => {
      const b = ev.target.closest("button[data-tab]");
      if (!b) return;
      if (b.dataset.tab === "game") showGame();
      else showPage();
    });
    document.title = data.title + " · gobot";
    signin("on", "");
    showPage();
  }

})();
