// gobotStream follows a live stream with a bearer session (the Activity,
// a widget): Server-Sent Events read through fetch, which can send the
// Authorization header (EventSource cannot), reconnecting after a second
// when cut. opt.url() is the stream's address at each (re)connection,
// opt.how() the request's credentials and headers, opt.on maps an event's
// kind to its handler (given the parsed JSON; a malformed event is
// skipped), and opt.ended() is called, and the stream given up, when the
// server refuses the session (401, 403) and opt.renew (the Activity's
// silent sign-in, if any) does not get a fresh one, whose headers
// opt.how() then gives. opt.signal, an AbortSignal, stops it for good
// (a frame's page that shows another game's board). body[data-live]
// says whether the page is connected (tests and CSS use it).
"use strict";
window.gobotStream = async function (opt) {
  const body = document.body;
  const stopped = () => opt.signal && opt.signal.aborted;
  for (;;) {
    if (stopped()) return;
    const how = opt.how();
    try {
      const res = await fetch(opt.url(), { credentials: how.credentials, cache: "no-store", signal: opt.signal,
        headers: Object.assign({ "Accept": "text/event-stream" }, how.headers) });
      if (res.status === 401 || res.status === 403) {
        body.dataset.live = "off";
        if (opt.renew && await opt.renew()) continue; // signed in again: follow on
        opt.ended();
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
            for (const l of block.split("\n")) {
              if (l.startsWith("event: ")) kind = l.slice(7);
              else if (l.startsWith("data: ")) data += l.slice(6);
            }
            const handle = opt.on[kind];
            if (handle) { try { handle(JSON.parse(data)); } catch (e) { /* skipped */ } }
          }
        }
      }
    } catch (e) { /* reconnect below */ }
    if (stopped()) return;
    body.dataset.live = "off";
    await new Promise((r) => setTimeout(r, 1000));
  }
};
