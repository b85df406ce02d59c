// gobot's Discord Activity page: Discord's Embedded App SDK (vendored,
// served at activity/sdk/) signs the user in, then the page shows the
// game's board in place: one page, the SDK connected throughout (Discord
// expects an Activity to stay on its page; leaving it drops the SDK's
// connection). The session is a bearer token kept in this page's memory
// (boardui.js sends it with clicks and the live stream): WebKit —
// Discord's iOS app — keeps no third-party cookie. Every address is
// relative: inside Discord the page is served through Discord's proxy
// (https://<app>.discordsays.com), which forwards only through the URL
// mapping / → gobot's public URL. The server believes nothing this page
// says about the user or the channel: it asks Discord. No inline script
// (the CSP forbids it).
import { DiscordSDK } from "../activity/sdk/index.mjs";

const body = document.body;
const statusLine = document.querySelector("[data-activity-status]");
const signinBox = document.getElementById("signin");
const gameBox = document.getElementById("game");
const choose = document.getElementById("choose");
const list = document.getElementById("games");
const reviewList = document.getElementById("reviews");
let token = "";
const ui = window.gobotBoard({
  base: "",
  auth: () => token ? { credentials: "omit", headers: { "Authorization": "Bearer " + token } } : null,
  ended: "Your session on the board has ended; close the board and open it again from the game's message.",
  renew: () => renew(),
});

// The sign-in's parts kept for signing in again (renew): the SDK, the
// application and the instance.
let sdk = null, clientId = "", renewing = null, renewedAt = 0;
// reviewAuth is the headers review.js sends with a review's requests:
// a renewal puts the fresh token in them.
let reviewAuth = null;

// say shows where the sign-in is; state is "working", "refused",
// "choose" or, once the board is shown, "board" (tests and CSS read
// body[data-state]).
function say(text, state) {
  statusLine.textContent = text;
  body.dataset.state = state || "working";
}

async function post(path, data) {
  let res;
  try {
    res = await fetch(path, {
      method: "POST", credentials: "same-origin",
      headers: { "Content-Type": "application/json", "Accept": "application/json" },
      body: JSON.stringify(data),
    });
  } catch (e) {
    return { ok: false, out: { message: "gobot could not be reached; close the board and open it again." } };
  }
  let out = {};
  try { out = await res.json(); } catch (e) { out = { message: "gobot answered " + res.status + "; close the board and open it again." }; }
  return { ok: res.ok, out: out };
}

// show puts the game's board in the page for the session gobot opened.
function show(s) {
  token = s.token;
  body.dataset.game = String(s.game);
  body.dataset.role = s.role;
  body.dataset.color = s.color || "";
  body.dataset.confirm = s.confirm || "";
  document.querySelector("[data-title]").textContent = "Game #" + s.game;
  document.querySelector("[data-who]").textContent = ui.who(s.role, s.name, s.color);
  document.getElementById("actions").hidden = s.role === "watcher";
  document.getElementById("watching").hidden = s.role !== "watcher";
  if (s.resign) document.querySelector("[data-question]").textContent = s.resign;
  document.title = "Game #" + s.game + " · gobot";
  ui.apply(s.state);
  signinBox.hidden = true;
  gameBox.hidden = false;
  say("", "board");
  ui.listen();
}

// open asks gobot for the game's session and shows its board; with
// several games it lists them.
// showReview puts a review's board in the page for the session gobot
// opened: review.js runs it with the bearer token.
function showReview(s) {
  // The review's board comes from its template: while a game is shown,
  // the page holds one board, one status line (boardui.js's).
  const box = document.getElementById("review-board").content.firstElementChild.cloneNode(true);
  document.body.append(box);
  body.dataset.review = String(s.review);
  box.querySelector("[data-review-title]").textContent = s.title;
  box.querySelector("[data-review-who]").textContent = "(" + s.name + ")";
  document.title = s.title + " · gobot";
  signinBox.hidden = true;
  say("", "board");
  reviewAuth = { headers: { "Authorization": "Bearer " + s.token } };
  window.gobotReview({
    root: box, base: "r/" + s.review + "/", me: s.me, state: s.reviewState,
    auth: reviewAuth, renew: () => renew(),
    ended: "Your session on the review has ended; close the board and open it again.",
  });
}

// choice is a button of the list: a game or a review to open.
function choice(label, data, pick) {
  const li = document.createElement("li");
  const b = document.createElement("button");
  b.type = "button";
  Object.assign(b.dataset, data);
  b.textContent = label;
  b.addEventListener("click", () => { choose.hidden = true; pick(); });
  li.append(b);
  return li;
}

async function open(accessToken, proof, instance, game, review) {
  say("Opening the board…");
  const s = await post("activity/session", { access_token: accessToken, proof: proof, instance_id: instance, game: game || 0, review: review || 0 });
  if (!s.ok) { say(s.out.message || "gobot refused the board.", "refused"); return; }
  if (s.out.token && s.out.review) { showReview(s.out); return; }
  if (s.out.token) { show(s.out); return; }
  const games = s.out.games || [], reviews = s.out.reviews || [];
  list.replaceChildren(...games.map((g) => choice(g.label, { game: String(g.id) }, () => open(accessToken, proof, instance, g.id, 0))));
  reviewList.replaceChildren(...reviews.map((r) => choice(r.label, { review: String(r.id) }, () => open(accessToken, proof, instance, 0, r.id))));
  choose.hidden = false;
  if (reviews.length) say(games.length ? "A game or a review: which board?" : "Several reviews are open in this channel: which one?", "choose");
  else say(s.out.watch ? "Several games are being played in this channel: which one will you watch?" : "You play several games in this channel: which board?", "choose");
}

// signIn asks Discord who the user is without asking them (authorize
// with prompt none: allowed once, it is not asked again), has gobot
// exchange the code, and tells the SDK; it resolves gobot's answer
// ({access_token, proof}) or the refusal's words ({refused}).
async function signIn() {
  let code;
  try {
    ({ code } = await sdk.commands.authorize({
      client_id: clientId, response_type: "code", state: "", prompt: "none", scope: ["identify"],
    }));
  } catch (e) {
    return { refused: "The board needs to know who you are to play as you; close it and open it again to allow that." };
  }
  const t = await post("activity/token", { code: code });
  if (!t.ok) return { refused: t.out.message || "gobot refused the sign-in." };
  try {
    await sdk.commands.authenticate({ access_token: t.out.access_token });
  } catch (e) {
    return { refused: "Discord did not accept the sign-in; close the board and open it again." };
  }
  return t.out;
}

// renew signs in again silently when the board's session has ended (it
// lasts 12 hours) and opens the same game's or review's session: true
// when the board has a fresh one. A click and the live stream that find the
// session ended share one renewal; at most one a minute.
function renew() {
  const review = Number(body.dataset.review || 0);
  const game = review ? 0 : Number(body.dataset.game || 0);
  if (!sdk || (!game && !review)) return Promise.resolve(false);
  if (renewing) return renewing;
  if (Date.now() - renewedAt < 60000) return Promise.resolve(false);
  renewing = (async () => {
    const t = await signIn();
    if (t.refused) return false;
    const s = await post("activity/session", { access_token: t.access_token, proof: t.proof, instance_id: sdk.instanceId, game: game, review: review });
    if (!s.ok || !s.out.token || (review ? s.out.review !== review : s.out.game !== game)) return false;
    if (review) reviewAuth.headers["Authorization"] = "Bearer " + s.out.token;
    else token = s.out.token;
    body.dataset.renewed = String(Number(body.dataset.renewed || 0) + 1); // tests read it
    return true;
  })().finally(() => { renewing = null; renewedAt = Date.now(); });
  return renewing;
}

async function main() {
  clientId = body.dataset.clientId;
  try {
    sdk = new DiscordSDK(clientId, { disableConsoleLogOverride: true });
  } catch (e) {
    say("This page runs inside Discord: press a game's “Open board” button there.", "refused");
    return;
  }
  await sdk.ready();
  say("Signing you in…");
  const t = await signIn();
  if (t.refused) { say(t.refused, "refused"); return; }
  await open(t.access_token, t.proof, sdk.instanceId, 0, 0);
}

main();
