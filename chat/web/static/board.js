// gobot's web board: the page of a personal link, signed in by its
// session cookie. boardui.js draws the board and posts clicks to the
// game's /act route (the server runs them as chat commands) with the
// page's CSRF token; the board follows the game over Server-Sent Events.
// No framework, no inline script (the CSP forbids it).
"use strict";
(function () {
  const body = document.body;
  const csrf = body.dataset.csrf;
  const ui = window.gobotBoard({
    auth: (form) => { form.set("csrf", csrf); return { credentials: "same-origin", headers: {} }; },
  });

  const events = new EventSource("/g/" + body.dataset.game + "/events?v=" + ui.version());
  // data-live says whether the page is connected (tests and CSS use it).
  events.addEventListener("open", () => { body.dataset.live = "on"; });
  events.addEventListener("error", () => { body.dataset.live = "off"; });
  events.addEventListener("state", (ev) => {
    try { ui.apply(JSON.parse(ev.data)); } catch (e) { /* a malformed event is skipped */ }
  });
  events.addEventListener("presence", (ev) => {
    try { ui.presence(JSON.parse(ev.data)); } catch (e) { /* a malformed event is skipped */ }
  });
})();
