// The Discord Activity's one script (build.sh bundles it into app.js):
// the board's shared scripts, which define window.gobotStream,
// gobotTap, gobotBoard, gobotReview and gobotTournament as they do on
// the other pages,
// then the Activity's page, which imports Discord's Embedded App SDK
// (../discord-sdk). Their order is their order on the page.
import "../static/stream.js";
import "../static/tap.js";
import "../static/boardui.js";
import "../static/review.js";
import "../static/tview.js";
import "../static/activity.js";
