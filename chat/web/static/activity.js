// gobot's Discord Activity page: Discord's Embedded App SDK (vendored,
// served at activity/sdk/) signs the user in, then the page opens the
// game's board. Every address is relative: inside Discord the page is
// served through Discord's proxy (https://<app>.discordsays.com), which
// forwards only to the URL mapping / → gobot's public URL. The server
// believes nothing this page says about the user or the channel: it asks
// Discord. No inline script (the CSP forbids it).
import { DiscordSDK } from "../activity/sdk/index.mjs";

const body = document.body;
const statusLine = document.querySelector("[data-activity-status]");
const choose = document.getElementById("choose");
const list = document.getElementById("games");

// say shows where the sign-in is; state is "working", "refused" or
// "choose" (tests and CSS read body[data-state]).
function say(text, state) {
  statusLine.textContent = text;
  body.dataset.state = state || "working";
}

async function post(path, data) {
  let res;
  try {
    res = await fetch(path, {
      method: "POST", credentials: "include",
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

// open asks gobot for the game's session and goes to its board; with
// several games it lists them.
async function open(token, proof, instance, game) {
  say("Opening the board…");
  const s = await post("activity/session", { access_token: token, proof: proof, instance_id: instance, game: game || 0 });
  if (!s.ok) { say(s.out.message || "gobot refused the board.", "refused"); return; }
  if (s.out.url) { location.replace(s.out.url); return; }
  list.replaceChildren();
  for (const g of s.out.games || []) {
    const li = document.createElement("li");
    const b = document.createElement("button");
    b.type = "button";
    b.dataset.game = String(g.id);
    b.textContent = g.label;
    b.addEventListener("click", () => { choose.hidden = true; open(token, proof, instance, g.id); });
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
