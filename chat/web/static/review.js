// gobot's review board: the page of a review's personal link, signed in
// by its session cookie, or the Discord Activity's page, signed in by a
// bearer token it keeps (activity.js calls window.gobotReview). The board
// follows the controller's position over Server-Sent Events; the one in
// control navigates, plays stones (variations), marks points and
// comments through POSTs to r/{id}/act (with the page's CSRF token when
// signed in by cookie); a follower may look around on their own (GETs
// of r/{id}/node/{n}) and follow again. No framework, no inline script
// (the CSP forbids it).
"use strict";
// opt: root (the element holding the board and its tools), base (the
// review's path, ending in "/"), me (the user's ID), auth (null for the
// cookie, else { headers } to send), state (the position to start from,
// or null for the one the page was served with), ended (what to say when
// the session is refused).
window.gobotReview = function (opt) {
  const body = document.body;
  const root = opt.root;
  const base = opt.base;
  const board = root.querySelector(".board");
  const status = root.querySelector("[data-status]");
  const message = root.querySelector("[data-message]");
  const moveNumber = root.querySelector("[data-move-number]");
  const slider = root.querySelector("[data-slider]");
  const controller = root.querySelector("[data-controller]");
  const comment = root.querySelector("[data-comment]");
  const commentText = root.querySelector("[data-comment-text]");
  const presentList = root.querySelector("[data-present]");
  const giveTo = root.querySelector("[data-give-to]");
  const gameInfo = root.querySelector("[data-game-info]");
  const treeBox = root.querySelector("[data-tree]");
  const me = opt.me;
  const how = opt.auth ? { credentials: "omit", headers: opt.auth.headers } : { credentials: "same-origin", headers: {} };

  // shown is the state on the board; latest the controller's last one.
  let shown = {
    v: Number(body.dataset.version) || 0, node: Number(body.dataset.node) || 0,
    line: (body.dataset.line || "0").split(" ").map(Number), at: Number(body.dataset.at) || 0,
    controllerId: body.dataset.controllerId, ownerId: body.dataset.owner, present: [], comment: commentText ? commentText.value : "",
  };
  let latest = shown;
  shown.toPlay = body.dataset.toPlay || "black";

  // A tap that cannot misplace a stone, as on a game's board (tap.js):
  // with the Stone tool, on a phone (or as the user's setting says), a
  // tap puts a ghost stone and a "Play E5" button in its own place;
  // only the button plays.
  const tap = window.gobotTap({ board: board, root: root, color: () => shown.toPlay });
  function tool() { return (root.querySelector('input[name="tool"]:checked') || {}).value || "play"; }
  function reserve() { tap.reserve(controlling() && !latest.closed && tool() === "play"); }

  function say(text) { message.textContent = text || ""; }
  function following() { return body.dataset.following === "on"; }
  function controlling() { return latest.controllerId === me; }

  function roles() {
    body.dataset.role = controlling() ? "controller" : "follower";
    body.dataset.owner = latest.ownerId;
    body.dataset.mine = latest.ownerId === me ? "yes" : "no";
    if (controlling()) body.dataset.following = "on";
    reserve();
    if (!controlling()) tap.set("");
  }

  function draw(st) {
    const same = st.node === shown.node;
    shown = st;
    if (gameInfo && st.info !== undefined && gameInfo.innerHTML !== st.info) gameInfo.innerHTML = st.info;
    board.innerHTML = st.board;
    status.textContent = st.status;
    moveNumber.textContent = String(st.move);
    slider.max = String(st.line.length - 1);
    slider.value = String(st.at);
    comment.textContent = st.comment;
    if (document.activeElement !== commentText) commentText.value = st.comment;
    body.dataset.node = String(st.node);
    body.dataset.variation = st.variation ? "yes" : "no";
    body.dataset.closed = st.closed ? "yes" : "no";
    tap.set(same ? tap.pending() : ""); // the board was drawn again: its ghost too, at the same position
    drawTree(st);
  }

  // The move list: the main line and, under the move each is an
  // alternative to, its variations, each a line of its own, nested; a
  // branch's moves are lettered as on the board (A the main line's,
  // then B, C…). Drawn again only when the tree grew (nodes are only
  // added); the shown position is marked (aria-current) and kept in
  // view. A click goes there, as the arrows do.
  let tree = null, kids = [], treeSize = -1;
  function drawTree(st) {
    if (!treeBox) return;
    // A state without the tree is a step on the one the page has (the
    // stream sends the tree only when it grew).
    if (st.tree && st.tree.length !== treeSize) {
      tree = st.tree;
      treeSize = tree.length;
      kids = tree.map(() => []);
      tree.forEach((n, i) => { if (n[0] >= 0) kids[n[0]].push(i); });
      const number = tree.map(() => 0);
      tree.forEach((n, i) => { if (n[0] >= 0) number[i] = number[n[0]] + (n[1] ? 1 : 0); });
      const siblings = (k) => k === 0 ? [0] : kids[tree[k][0]];
      const item = (k) => {
        const li = document.createElement("li");
        const b = document.createElement("button");
        b.type = "button";
        b.dataset.node = String(k);
        const sibs = siblings(k);
        const letter = sibs.length > 1 ? String.fromCharCode(65 + sibs.indexOf(k)) : "";
        const [c, p] = (tree[k][1] || "").split(" ");
        b.textContent = k === 0 ? "Start" : (letter ? letter + ") " : "") + number[k] + (c ? " " + c + " " + p : "");
        b.setAttribute("aria-label", k === 0 ? "Start" : "Move " + number[k] + (c ? ", " + (c === "B" ? "Black" : "White") + " " + p : "") + (letter ? ", variation " + letter : ""));
        if (letter && letter !== "A") b.className = "var";
        li.appendChild(b);
        return li;
      };
      const line = (k) => {
        const ol = document.createElement("ol");
        for (let at = k; at !== undefined; at = kids[at][0]) {
          const li = item(at);
          ol.appendChild(li);
          const sibs = siblings(at);
          if (sibs.length > 1 && sibs[0] === at) {
            const ul = document.createElement("ul");
            ul.setAttribute("aria-label", "Variations of move " + number[at]);
            sibs.slice(1).forEach((v) => { const vl = document.createElement("li"); vl.appendChild(line(v)); ul.appendChild(vl); });
            li.appendChild(ul);
          }
        }
        return ol;
      };
      treeBox.replaceChildren(line(0));
    }
    if (!tree) return;
    treeBox.querySelectorAll("[aria-current]").forEach((b) => b.removeAttribute("aria-current"));
    const cur = treeBox.querySelector('[data-node="' + st.node + '"]');
    if (cur) {
      cur.setAttribute("aria-current", "step");
      const box = treeBox.getBoundingClientRect(), r = cur.getBoundingClientRect();
      if (r.top < box.top || r.bottom > box.bottom) treeBox.scrollTop += r.top - box.top - box.height / 2;
    }
  }

  // sibling is the variation beside the shown one (d: -1 the one
  // before, +1 the one after), at the nearest branch above it.
  function sibling(d) {
    if (!tree) return undefined;
    for (let at = shown.node; at > 0; at = tree[at][0]) {
      const sibs = kids[tree[at][0]];
      const i = sibs.indexOf(at) + d;
      if (sibs.length > 1 && i >= 0 && i < sibs.length) return sibs[i];
    }
    return undefined;
  }

  function people(st) {
    controller.textContent = st.controller;
    presentList.replaceChildren(...(st.present || []).map((p) => { const li = document.createElement("li"); li.textContent = p.name; return li; }));
    const keep = giveTo.value;
    giveTo.replaceChildren(...(st.present || []).filter((p) => p.id !== st.controllerId).map((p) => {
      const o = document.createElement("option"); o.value = p.id; o.textContent = p.name; return o;
    }));
    if (keep) giveTo.value = keep;
    body.dataset.others = giveTo.options.length ? "yes" : "no";
  }

  // apply takes the controller's state (live, or the answer to a POST).
  function apply(st) {
    if (!st || st.v < latest.v) return;
    latest = st;
    body.dataset.version = String(st.v);
    roles();
    people(st);
    if (following()) draw(st);
    body.dataset.updatedAt = String(Date.now()); // for the latency tests report
  }

  // fetchRenewing fetches url with init(); a session found ended (401,
  // 403) is renewed once where the page can (opt.renew: the Activity's
  // silent sign-in, which puts the fresh token in opt.auth's headers)
  // and the request sent again.
  async function fetchRenewing(url, init) {
    const res = await fetch(url, init());
    if ((res.status === 401 || res.status === 403) && opt.renew && await opt.renew()) return fetch(url, init());
    return res;
  }

  async function post(fields) {
    const form = new URLSearchParams(fields);
    if (!opt.auth) form.set("csrf", body.dataset.csrf);
    let res;
    try {
      res = await fetchRenewing(base + "act", () => ({ method: "POST", body: form, credentials: how.credentials, headers: Object.assign({ "Accept": "application/json" }, how.headers) }));
    } catch (e) { say("The server could not be reached; nothing was changed. Try again."); return; }
    let data = {};
    try { data = await res.json(); } catch (e) { data = { message: "The server answered " + res.status + "." }; }
    if (data.state) apply(data.state);
    say(data.message || "");
  }

  // look shows node n to a follower looking around.
  async function look(n) {
    body.dataset.following = "off";
    let res;
    try { res = await fetchRenewing(base + "node/" + n, () => ({ credentials: how.credentials, headers: how.headers })); } catch (e) { say("The server could not be reached."); return; }
    let data = {};
    try { data = await res.json(); } catch (e) { data = {}; }
    if (data.state && !following()) draw(data.state);
    say(data.message || "");
  }

  // Steps run one after another: a second click on forward moves on
  // from where the first one arrived.
  let queue = Promise.resolve();
  function step(pick) {
    queue = queue.then(() => {
      const n = pick();
      if (n === undefined || n === shown.node) return undefined;
      return controlling() ? post({ action: "goto", node: String(n) }) : look(n);
    });
  }

  function target(a) {
    const l = shown.line, at = shown.at;
    switch (a) {
      case "first": return l[0];
      case "back": return l[Math.max(0, at - 1)];
      case "forward": return l[Math.min(l.length - 1, at + 1)];
      case "last": return l[l.length - 1];
    }
    return undefined;
  }

  root.addEventListener("click", (ev) => {
    const b = ev.target.closest("button[data-action]");
    if (!b) return;
    const a = b.dataset.action;
    switch (a) {
      case "first": case "back": case "forward": case "last": step(() => target(a)); return;
      case "detach": body.dataset.following = "off"; return;
      case "follow": body.dataset.following = "on"; draw(latest); return;
      case "give": if (giveTo.value) post({ action: "give", to: giveTo.value }); return;
      case "take": post({ action: "take" }); return;
      case "comment": post({ action: "comment", text: commentText.value }); return;
      case "submit": { const p = tap.pending(); tap.set(""); if (p) post({ action: "play", point: p }); return; }
    }
  });

  if (treeBox) {
    treeBox.addEventListener("click", (ev) => {
      const b = ev.target.closest("button[data-node]");
      if (b) { const n = Number(b.dataset.node); step(() => n); }
    });
  }

  slider.addEventListener("change", () => { const i = Number(slider.value); step(() => shown.line[i]); });

  board.addEventListener("click", (ev) => {
    const pt = ev.target.closest("[data-point]");
    if (!pt || !controlling()) return;
    const t = tool();
    if (t === "play" && tap.confirming()) { tap.set(pt.dataset.point); return; }
    if (t === "play") { post({ action: "play", point: pt.dataset.point }); return; }
    const label = root.querySelector('input[name="label"]');
    post({ action: "mark", point: pt.dataset.point, shape: t, text: label ? label.value : "" });
  });
  board.addEventListener("pointerover", (ev) => {
    const pt = ev.target.closest("[data-point]");
    if (ev.pointerType !== "mouse" || !pt || !controlling() || tool() !== "play") return;
    tap.ghost(pt.dataset.point, "hover");
  });
  board.addEventListener("pointerleave", () => tap.ghost("", "hover"));
  root.addEventListener("change", (ev) => { if (ev.target.name === "tool") { tap.set(""); reserve(); } });
  window.addEventListener("resize", reserve);

  document.addEventListener("keydown", (ev) => {
    if (ev.target.closest("textarea, input, select")) return;
    const keys = { ArrowLeft: "back", ArrowRight: "forward", Home: "first", End: "last" };
    if (keys[ev.key]) { ev.preventDefault(); step(() => target(keys[ev.key])); }
    // Up and Down: the variation before or after the shown one.
    const d = { ArrowUp: -1, ArrowDown: 1 }[ev.key];
    if (d) { ev.preventDefault(); step(() => sibling(d)); }
  });

  if (opt.state) {
    latest = opt.state;
    draw(opt.state);
    people(opt.state);
  }
  roles();
  body.dataset.following = "on";
  if (!opt.auth) {
    // v=0: the stream's first event is the whole state, present list included.
    const events = new EventSource(base + "events?v=0");
    events.addEventListener("open", () => { body.dataset.live = "on"; });
    events.addEventListener("error", () => { body.dataset.live = "off"; });
    events.addEventListener("state", (ev) => {
      try { apply(JSON.parse(ev.data)); } catch (e) { /* a malformed event is skipped */ }
    });
    return;
  }
  // A bearer session (stream.js): cut, it reconnects from v=0 (presence
  // is per stream: the first event is the whole state again).
  window.gobotStream({ url: () => base + "events?v=0", how: () => how, on: { state: apply }, renew: opt.renew,
    ended: () => say(opt.ended || "Your session on the review has ended.") });
};

// The review's own page (review.html) starts itself; the Activity's page
// and the review's widget (data-auth="bearer") call gobotReview once
// signed in.
if (document.body.dataset.review && document.body.dataset.auth !== "bearer") {
  window.gobotReview({ root: document, base: "/r/" + document.body.dataset.review + "/", me: document.body.dataset.user, auth: null, state: null });
}
