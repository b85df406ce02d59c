// gobot's Discord Activity page: Discord's Embedded App SDK signs the
// user in, then the page shows the game's board in place: one page, the
// SDK connected throughout (Discord expects an Activity to stay on its
// page; leaving it drops the SDK's connection). This script, the SDK
// (vendored in ../discord-sdk) and the board's scripts are served as one
// file (../activity/build.sh). The handshake with Discord's client goes
// first, before the page sets up anything else; gobot's answer to the
// sign-in's code carries the board's session and its first state, drawn
// at once. The session is a bearer token kept in this page's memory
// (boardui.js sends it with clicks and the live stream): WebKit —
// Discord's iOS app — keeps no third-party cookie. Every address is
// relative: inside Discord the page is served through Discord's proxy
// (https://<app>.discordsays.com), which forwards only through the URL
// mapping / → gobot's public URL. The server believes nothing this page
// says about the user or the channel: it asks Discord. No inline script
// (the CSP forbids it).
import { DiscordSDK } from "../discord-sdk/index.mjs";

const body = document.body;
const statusLine = document.querySelector("[data-activity-status]");

// say shows where the sign-in is; state is "working", "refused",
// "choose" or, once a board is shown, "board", or "tournament" with a
// tournament's page (tests and CSS read body[data-state]).
function say(text, state) {
  statusLine.textContent = text;
  body.dataset.state = state || "working";
}

// The handshake first (the SDK's constructor sends it), and the sign-in
// behind it, while the rest of the page is set up. The sign-in's parts
// are kept for signing in again (renew): the SDK and the application.
const clientId = body.dataset.clientId;
let sdk = null;
try {
  sdk = new DiscordSDK(clientId, { disableConsoleLogOverride: true });
} catch (e) {
  sdk = null;
}
const first = sdk ? sdk.ready().then(() => { say("Signing you in…"); return signIn(0, 0, 0); }) : null;

const signinBox = document.getElementById("signin");
const gameBox = document.getElementById("game");
const choose = document.getElementById("choose");
const list = document.getElementById("games");
const reviewList = document.getElementById("reviews");
const tournamentList = document.getElementById("tournaments");
const tournamentBox = document.getElementById("tournament");
const tmessage = document.querySelector("[data-tmessage]");
let token = "";
// The access token gobot exchanged and its proof (for opening another
// board), the channel's tournaments (the board's tab to them), and the
// tournament whose page is open: its number, session and view.
let access = null, tournaments = [], tour = null;
const tview = window.gobotTournament({
  box: document.getElementById("tview"), url: () => "t/" + tour.id + "/view", auth: () => ({ credentials: "omit", headers: { "Authorization": "Bearer " + (tour ? tour.token : "") } }),
  board: (game) => openFromTournament(game), renew: () => renew(),
  ended: "Your session on the tournament's page has ended; close the board and open it again.",
});
const ui = window.gobotBoard({
  base: "",
  auth: () => token ? { credentials: "omit", headers: { "Authorization": "Bearer " + token } } : null,
  ended: "Your session on the board has ended; close the board and open it again from the game's message.",
  renew: () => renew(),
});

// A renewal under way, and when the last one ended.
let renewing = null, renewedAt = 0;
// reviewAuth is the headers review.js sends with a review's requests:
// a renewal puts the fresh token in them.
let reviewAuth = null;

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

// show puts the game's board in the page for the session gobot opened
// (another game's board in its place, when one was shown).
function show(s) {
  if (body.dataset.game && body.dataset.game !== String(s.game)) ui.reset();
  token = s.token;
  body.dataset.fromTournament = s.tournament ? String(s.tournament) : "";
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
  tournamentBox.hidden = true;
  gameBox.hidden = false;
  tabs();
  say("", "board");
  ui.listen();
}

// tabs labels the ways between a game's board and the tournament's page.
function tabs() {
  const toTournament = document.querySelector('[data-tab="tournament"]');
  toTournament.hidden = !tour && tournaments.length === 0;
  toTournament.textContent = body.dataset.fromTournament ? "Back to the tournament" : "Tournament: " + (tour ? tour.title : tournaments[0] && tournaments[0].label.replace(/^Tournament t\d+: /, ""));
  const toGame = document.querySelector('[data-tab="game"]');
  toGame.hidden = !body.dataset.game;
  toGame.textContent = "Back to game #" + body.dataset.game;
}

// showTournament puts a tournament's page in the frame for the session
// gobot opened (s), or again for the one open (s null): read afresh.
async function showTournament(s) {
  if (s) tour = { id: s.tournament, token: s.token, title: s.title };
  body.dataset.tournament = String(tour.id);
  signinBox.hidden = true;
  gameBox.hidden = true;
  tournamentBox.hidden = false;
  document.title = tour.title + " · gobot";
  tabs();
  say("", "tournament");
  tmessage.textContent = "";
  const why = await tview.load();
  tmessage.textContent = why;
}

// openFromTournament opens game's board from the tournament's page: the
// one shown already, or gobot opens its session (a player's own board,
// else to watch).
async function openFromTournament(game) {
  if (body.dataset.game === String(game)) { showGame(); return; }
  tmessage.textContent = "Opening game #" + game + "…";
  const s = await post("activity/session", { access_token: access.token, proof: access.proof, instance_id: sdk.instanceId, game: game, tournament: tour.id });
  if (!s.ok || !s.out.token) { tmessage.textContent = s.out.message || "gobot refused the board."; return; }
  tmessage.textContent = "";
  show(s.out);
}

// showGame goes back from the tournament's page to the board shown.
function showGame() {
  tournamentBox.hidden = true;
  gameBox.hidden = false;
  document.title = "Game #" + body.dataset.game + " · gobot";
  say("", "board");
}

// The tabs between the board and the tournament's page.
document.addEventListener("click", async (ev) => {
  const b = ev.target.closest("button[data-tab]");
  if (!b) return;
  if (b.dataset.tab === "game") { showGame(); return; }
  if (tour) { showTournament(null); return; }
  const s = await post("activity/session", { access_token: access.token, proof: access.proof, instance_id: sdk.instanceId, tournament: tournaments[0].id });
  if (!s.ok || !s.out.token) { ui.say(s.out.message || "gobot refused the tournament's page."); return; }
  showTournament(s.out);
});

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

// present shows gobot's answer to a sign-in or a choice: the board of
// the session it opened (a game's or a review's), or the games and
// reviews of the channel to choose from.
function present(out, accessToken, proof) {
  access = { token: accessToken, proof: proof };
  if (out.tournaments) tournaments = out.tournaments;
  if (out.token && out.review) { showReview(out); return; }
  if (out.token && !out.game && out.tournament) { showTournament(out); return; }
  if (out.token) { show(out); return; }
  const games = out.games || [], reviews = out.reviews || [], events = out.tournaments || [];
  list.replaceChildren(...games.map((g) => choice(g.label, { game: String(g.id) }, () => open(accessToken, proof, g.id, 0, 0))));
  reviewList.replaceChildren(...reviews.map((r) => choice(r.label, { review: String(r.id) }, () => open(accessToken, proof, 0, r.id, 0))));
  tournamentList.replaceChildren(...events.map((t) => choice(t.label, { tournament: String(t.id) }, () => open(accessToken, proof, 0, 0, t.id))));
  choose.hidden = false;
  if (!games.length && !reviews.length) say("Several tournaments are under way in this channel: which one?", "choose");
  else if (reviews.length) say(games.length ? "A game or a review: which board?" : "Several reviews are open in this channel: which one?", "choose");
  else say(out.watch ? "Several games are being played in this channel: which one will you watch?" : "You play several games in this channel: which board?", "choose");
}

// open asks gobot for the session of the game or review picked from the
// list, with the access token gobot exchanged and its proof.
async function open(accessToken, proof, game, review, tournament) {
  say("Opening the board…");
  const s = await post("activity/session", { access_token: accessToken, proof: proof, instance_id: sdk.instanceId, game: game, review: review, tournament: tournament });
  if (!s.ok) { say(s.out.message || "gobot refused the board.", "refused"); return; }
  present(s.out, accessToken, proof);
}

// signIn asks Discord who the user is without asking them (authorize
// with prompt none: allowed once, it is not asked again) and posts the
// code to gobot, which exchanges it and, in the same answer, opens the
// instance's board: the game or review asked for (0, 0: the channel's
// own, or its list). It resolves gobot's answer (the access token, its
// proof and the session, or the list) or the refusal's words
// ({refused}); the answer's authenticated resolves whether the SDK took
// the access token (authenticate), asked meanwhile: the board need not
// wait for it.
async function signIn(game, review, tournament) {
  let code;
  try {
    ({ code } = await sdk.commands.authorize({
      client_id: clientId, response_type: "code", state: "", prompt: "none", scope: ["identify"],
    }));
  } catch (e) {
    return { refused: "The board needs to know who you are to play as you; close it and open it again to allow that." };
  }
  const t = await post("activity/token", { code: code, instance_id: sdk.instanceId, game: game, review: review, tournament: tournament });
  if (!t.ok || !t.out.access_token) return { refused: t.out.message || "gobot refused the sign-in." };
  t.out.authenticated = sdk.commands.authenticate({ access_token: t.out.access_token }).then(() => true, () => false);
  return t.out;
}

// renew signs in again silently when the board's session has ended (it
// lasts 12 hours) and opens the same game's or review's session: true
// when the board has a fresh one. A click and the live stream that find the
// session ended share one renewal; at most one a minute.
function renew() {
  const review = Number(body.dataset.review || 0);
  // The tournament's page's session, when it is shown; else the board's
  // (a game's opened from the tournament's page: with its tournament).
  const onPage = body.dataset.state === "tournament" && tour;
  const game = review || onPage ? 0 : Number(body.dataset.game || 0);
  const tournament = onPage ? tour.id : Number(body.dataset.fromTournament || 0);
  if (!sdk || (!game && !review && !onPage)) return Promise.resolve(false);
  if (renewing) return renewing;
  if (Date.now() - renewedAt < 60000) return Promise.resolve(false);
  renewing = (async () => {
    const s = await signIn(game, review, tournament);
    if (s.refused || !(await s.authenticated)) return false;
    if (!s.token || (review ? s.review !== review : onPage ? s.tournament !== tour.id || !!s.game : s.game !== game)) return false;
    if (review) reviewAuth.headers["Authorization"] = "Bearer " + s.token;
    else if (onPage) tour.token = s.token;
    else token = s.token;
    body.dataset.renewed = String(Number(body.dataset.renewed || 0) + 1); // tests read it
    return true;
  })().finally(() => { renewing = null; renewedAt = Date.now(); });
  return renewing;
}

async function main() {
  if (!sdk) {
    say("This page runs inside Discord: press a game's “Open board” button there.", "refused");
    return;
  }
  const t = await first;
  if (t.refused) { say(t.refused, "refused"); return; }
  present(t, t.access_token, t.proof);
  if (await t.authenticated) return;
  // Discord's client refused the token gobot exchanged for it: the
  // board goes, and its session with it.
  token = "";
  if (reviewAuth) reviewAuth.headers = {};
  for (const m of document.querySelectorAll("main")) m.hidden = true;
  choose.hidden = true;
  signinBox.hidden = false;
  say("Discord did not accept the sign-in; close the board and open it again.", "refused");
}

main();
