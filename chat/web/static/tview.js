// gobotTournament shows a tournament's page inside a frame (the Discord
// Activity, a Matrix widget), whose session is a bearer token its page
// holds: it reads the page's view (GET opt.url(), t/{id}/view:
// tournament-view in tournament.html, drawn by the server) and puts it
// in opt.box. A
// click on a game's board link in it calls opt.board(game) instead of
// leaving the page, which opens that board in the same frame. opt.auth()
// gives the request's credentials and headers; opt.renew, if set, signs
// in again when the session has ended (the Activity), else opt.ended is
// said. load() resolves "" once the view is in place, or the words of
// what went wrong. No inline script: the view has none.
"use strict";
window.gobotTournament = function (opt) {
  const box = opt.box;
  box.addEventListener("click", (ev) => {
    const a = ev.target.closest("a[data-board]");
    if (!a || !box.contains(a)) return;
    ev.preventDefault();
    opt.board(Number(a.dataset.board));
  });

  async function load() {
    let res, text;
    for (let again = 0; ; again++) {
      try {
        res = await fetch(opt.url(), Object.assign({ cache: "no-store" }, opt.auth()));
        text = await res.text();
      } catch (e) {
        return "The tournament's page could not be reached; try again in a moment.";
      }
      if ((res.status === 401 || res.status === 403) && again === 0 && opt.renew && await opt.renew()) continue;
      break;
    }
    const doc = new DOMParser().parseFromString(text, "text/html");
    const view = doc.querySelector(".tview");
    if (!res.ok || !view) {
      if (res.status === 401 || res.status === 403) return opt.ended;
      const h = doc.querySelector("h1");
      return h ? h.textContent : "The tournament's page answered " + res.status + ".";
    }
    box.replaceChildren(document.adoptNode(view));
    return "";
  }
  return { load: load };
};
