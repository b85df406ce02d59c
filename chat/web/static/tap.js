// gobotTap: a tap that cannot misplace a stone, shared by the game's
// board (boardui.js) and the review's (review.js). When the player's
// setting asks for it (body[data-confirm]: touch, the default, on a
// touch screen or a window under 600 px wide; always; never), a tap
// puts a ghost stone of the colour to play there and shows a "Play E5"
// button (data-action="submit", data-pending="E5") in a place of its
// own, reserved while the board may ask (data-play-slot), so that it
// moves no other button; only the button plays, another tap moves the
// ghost. With a mouse, hovering shows the ghost.
//
// opt.board is the element holding the board's SVG, opt.root what holds
// the Play button's slot, opt.color() the colour of the stone a tap
// would play ("black", "white"). No framework, no inline script.
"use strict";
window.gobotTap = function (opt) {
  const body = document.body;
  const board = opt.board;
  let pending = "";

  function confirming() {
    const mode = body.dataset.confirm || "touch";
    if (mode === "always") return true;
    if (mode === "never") return false;
    return matchMedia("(pointer: coarse)").matches || window.innerWidth < 600;
  }

  // ghost puts a translucent stone of the colour to play on point (one
  // per kind: the tap waiting for its button, the mouse's hover). The
  // point's square under it, which shows hover and focus, is marked
  // data-ghosted and left clear, so the ghost reads as a stone.
  function ghost(point, kind) {
    board.querySelectorAll(".ghost." + kind).forEach((g) => g.remove());
    board.querySelectorAll("[data-ghosted~=" + kind + "]").forEach((p) => {
      const rest = p.dataset.ghosted.split(" ").filter((k) => k !== kind).join(" ");
      if (rest) p.dataset.ghosted = rest; else delete p.dataset.ghosted;
    });
    const pt = point ? board.querySelector('[data-point="' + point + '"]') : null;
    const stones = board.querySelector(".stones");
    if (!pt || pt.dataset.stone || !stones) return false;
    const u = document.createElementNS("http://www.w3.org/2000/svg", "use");
    u.setAttribute("href", opt.color() === "white" ? "#w" : "#b");
    u.setAttribute("x", String(Number(pt.getAttribute("x")) + 20)); // the point's square is 40 wide (svg.go)
    u.setAttribute("y", String(Number(pt.getAttribute("y")) + 20));
    u.setAttribute("class", "ghost " + kind);
    u.dataset.ghost = point;
    stones.appendChild(u);
    pt.dataset.ghosted = ((pt.dataset.ghosted || "") + " " + kind).trim();
    return true;
  }

  // reserve shows the Play button's slot (empty until a tap) while the
  // board may ask for it: on asks whether taps play now.
  function reserve(on) {
    const slot = opt.root.querySelector("[data-play-slot]");
    if (slot) slot.hidden = !(on && confirming());
  }

  // set puts the tap's ghost on point and its button in the slot ("":
  // neither).
  function set(point) {
    if (point && !ghost(point, "pending")) point = "";
    if (!point) ghost("", "pending");
    pending = point;
    const b = opt.root.querySelector('[data-action="submit"]');
    if (!b) return;
    b.hidden = !point;
    b.dataset.pending = point;
    b.textContent = point ? "Play " + point : "Play";
  }

  return { confirming: confirming, ghost: ghost, reserve: reserve, set: set, pending: () => pending };
};
