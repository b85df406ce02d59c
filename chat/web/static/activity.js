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
let token = "";
const ui = window.gobotBoard({
  base: "",
  auth: () => token ? { credentials: "omit", headers: { "Authorization": "Bearer " + token } } : null,
  ended: "Your session on the board has ended; close the board and open it again from the game's message.",
});

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
async function open(accessToken, proof, instance, game) {
  say("Opening the board…");
  const s = await post("activity/session", { access_token: accessToken, proof: proof, instance_id: instance, game: game || 0 });
  if (!s.ok) { say(s.out.message || "gobot refused the board.", "refused"); return; }
  if (s.out.token) { show(s.out); return; }
  list.replaceChildren();
  for (const g of s.out.games || []) {
    const li = document.createElement("li");
    const b = document.createElement("button");
    b.type = "button";
    b.dataset.game = String(g.id);
    b.textContent = g.label;
    b.addEventListener("click", () => { choose.hidden = true; open(accessToken, proof, instance, g.id); });
    li.append(b);
    list.append(li);
  }
  choose.hidden = false;
  say(s.out.watch ? "Several games are being played in this channel: which one will you watch?" : "You play several games in this channel: which board?", "choose");
}

async function main() {
  const clientId = body.dataset.clientId;
  let sdk;
  try {
    sdk = new DiscordSDK(clientId, { disableConsoleLogOverride: true });
  } catch (e) {
    say("This page runs inside Discord: press a game's “Open board” button there.", "refused");
    return;
  }
  await sdk.ready();
  say("Signing you in…");
  let code;
  try {
    ({ code } = await sdk.commands.authorize({
      client_id: clientId, response_type: "code", state: "", prompt: "none", scope: ["identify"],
    }));
  } catch (e) {
    say("The board needs to know who you are to play as you; close it and open it again to allow that.", "refused");
    return;
  }
  const t = await post("activity/token", { code: code });
  if (!t.ok) { say(t.out.message || "gobot refused the sign-in.", "refused"); return; }
  try {
    await sdk.commands.authenticate({ access_token: t.out.access_token });
  } catch (e) {
    say("Discord did not accept the sign-in; close the board and open it again.", "refused");
    return;
  }
  await open(t.out.access_token, t.out.proof, sdk.instanceId, 0);
}

main();
