package chat

import (
	"context"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gobotgo/gobot"
	"github.com/gobotgo/gobot/chat/protocol"
	"github.com/gobotgo/gobot/flow"
	"github.com/gobotgo/gobot/game"
)

// startRengo starts team game #1: alice and bob (Black) against carol and
// dave (White), with opts.
func startRengo(h *harness, opts string) {
	h.t.Helper()
	h.ok("alice", "rengo @alice @bob vs @carol @dave black 9 "+opts)
	h.ok("bob", "accept")
	h.ok("carol", "accept #1")
	if rep := h.ok("dave", "accept"); !strings.Contains(rep.Text, "Team game #1 begins") || !strings.Contains(rep.Text, "Turn order: <@test:alice>, <@test:carol>, <@test:bob>, <@test:dave>") {
		h.t.Fatalf("the last accept: %s", rep.Text)
	}
}

// Bad team challenges are refused, each with its reason, and store
// nothing.
func TestRengoRefusals(t *testing.T) {
	h := newHarness(t)
	before := h.dump()
	for line, want := range map[string]string{
		"rengo @alice @bob":                                "Name both teams with vs between them",
		"rengo vs @carol":                                  "Name the first team before vs",
		"rengo @bob @erin vs @carol @dave":                 "You play in the game you propose",
		"rengo @alice @bob vs @bob @dave":                  "is named twice",
		"rengo @alice vs @bob":                             "That is a game between two players",
		"rengo @alice @bob vs @carol vs @dave":             "with one vs between them",
		"rengo @alice @b @c @d @e vs @f":                   "A team has at most 4",
		"rengo @alice @b @c @d vs @e @f @g @h @i":          "Too many players",
		"rengo @alice @bob vs @carol @dave handicap=auto":  "Team games are unrated",
		"rengo @alice @bob vs @carol @dave 9 rated":        "Team games are unrated",
		"rengo @alice @bob vs @carol @dave 9 engine=gnugo": `rengo has no option "engine"`,
	} {
		h.fails("alice", line, want)
	}
	if h.dump() != before {
		t.Error("a refused team challenge changed the store")
	}
}

// The turn goes B1 W1 B2 W2 and round again; the player whose turn it is
// is mentioned (and DMed if they asked for DMs); the game is every
// member's own (games, board without a number); the game is unrated and
// its SGF lists the teams.
func TestRengoTurnsAndNotices(t *testing.T) {
	h := newHarness(t)
	h.ok("bob", "settings notify=dm")
	startRengo(h, "")
	order := []string{"alice", "carol", "bob", "dave", "alice", "carol"}
	points := []string{"C3", "G7", "C7", "G3", "E5", "E3"}
	for i, who := range order {
		rep := h.ok(who, "play "+points[i])
		next := order[(i+1)%len(order)]
		if i+1 < len(order) && (len(rep.Mentions) != 1 || rep.Mentions[0] != gobot.UserID("test:"+next)) {
			t.Errorf("after %s's move the mentions are %v, want %s", who, rep.Mentions, next)
		}
	}
	dms := 0
	for _, m := range h.notes.all() {
		if m.To == "test:bob" {
			dms++
			if !strings.Contains(m.Reply.Text, "Your move in game #1") {
				t.Errorf("bob's DM: %s", m.Reply.Text)
			}
		}
		if m.To != "" && m.To != "test:bob" {
			t.Errorf("a DM to %s, who did not ask for DMs", m.To)
		}
	}
	if dms != 2 { // after each of carol's moves
		t.Errorf("bob got %d DMs, want 2", dms)
	}
	for _, u := range []string{"alice", "bob", "carol", "dave"} {
		if rep := h.ok(u, "games"); !strings.Contains(rep.Text, "#1 team game") {
			t.Errorf("%s's games: %s", u, rep.Text)
		}
		if rep := h.ok(u, "board"); rep.Game != 1 {
			t.Errorf("%s's board: %+v", u, rep.Text)
		}
	}
	if rep := h.ok("bob", "games"); !strings.Contains(rep.Text, "your move") {
		t.Errorf("bob's games on his turn: %s", rep.Text)
	}
	if rep := h.ok("alice", "games"); !strings.Contains(rep.Text, "<@test:bob>'s move (your team)") {
		t.Errorf("alice's games on her teammate's turn: %s", rep.Text)
	}
	rep := h.ok("carol", "board #1")
	if f := rep.Fields; len(f) < 2 || f[0].Value != "alice, bob · bob to play · 0 captured" || f[1].Value != "carol, dave · 0 captured" {
		t.Errorf("the board's header: %+v", rep.Fields)
	}
	h.ok("carol", "resign")
	match, _ := h.game(1)
	if match.Rating != nil && match.Rating.Rated {
		t.Error("a team game was rated")
	}
	sgf := h.ok("erin", "sgf #1")
	if s := string(sgf.File.Data); !strings.Contains(s, "PB[alice, bob]") || !strings.Contains(s, "PW[carol, dave]") {
		t.Errorf("the SGF's players: %s", s)
	}
}

// Scoring needs one member of each team: dead stones by anyone of them,
// done by one per team.
func TestRengoScoring(t *testing.T) {
	h := newHarness(t)
	startRengo(h, "")
	h.ok("alice", "play E5")
	h.ok("carol", "pass")
	h.fails("alice", "pass", "It is <@test:bob>'s turn (Black: alice, bob)")
	h.fails("dave", "plan C3 C4", "Plans are for two-player games: in team game #1")
	if rep := h.ok("bob", "pass"); !strings.Contains(rep.Text, "Both teams passed") {
		t.Errorf("the second pass: %s", rep.Text)
	}
	h.ok("dave", "dead E5")
	if rep := h.ok("bob", "done"); !strings.Contains(rep.Text, "White (<@test:carol> or <@test:dave>), <cmd:done:cmd> to agree") {
		t.Errorf("bob's done asks White's team: %s", rep.Text)
	}
	h.fails("alice", "done", "You already accepted this count; waiting for White (<@test:carol> or <@test:dave>)")
	rep := h.ok("carol", "done")
	if !strings.Contains(rep.Text, "Both teams accepted") || !slices.Contains(rep.Mentions, "test:dave") {
		t.Errorf("the count accepted: %s (mentions %v)", rep.Text, rep.Mentions)
	}
	if match, _ := h.game(1); match.Active() || !strings.HasPrefix(match.Result, "W+") {
		t.Errorf("the game's result: %q active=%v", match.Result, match.Active())
	}
}

// With a Fischer clock the team's bank runs out; the next teammate's
// turn starts from the clock's starting time; a move ends the run of
// timeouts, so the team loses only when all of its players in a row
// have run out.
func TestRengoFischerTimeouts(t *testing.T) {
	h := newHarness(t)
	startRengo(h, "clock=fischer:1h+10m/2h")
	ctx := context.Background()
	h.clock.Advance(61 * time.Minute)
	if err := h.bot.Tick(ctx); err != nil {
		t.Fatal(err)
	}
	match, g := h.game(1)
	if !match.Active() || match.Side(g.ToMove()).ToMove() != "test:bob" || match.Deadline.Sub(h.clock.Now()) != time.Hour {
		t.Fatalf("after alice's timeout: active=%v to move %s, %v left", match.Active(), match.Side(g.ToMove()).ToMove(), match.Deadline.Sub(h.clock.Now()))
	}
	h.fails("alice", "play E5", "It is <@test:bob>'s turn")
	h.ok("bob", "play E5")
	match, _ = h.game(1)
	if match.Teams.Late[game.Black] != 0 {
		t.Errorf("Black's timeouts in a row after bob's move: %d", match.Teams.Late[game.Black])
	}
	h.ok("carol", "play C3")
	// Black: alice (turn 3: 1 move + 1 skipped), then bob.
	for range 2 {
		h.clock.Advance(2 * time.Hour)
		if err := h.bot.Tick(ctx); err != nil {
			t.Fatal(err)
		}
	}
	match, _ = h.game(1)
	if match.Active() || match.Result != "W+T" {
		t.Fatalf("after both Black players timed out in a row: %q", match.Result)
	}
	notes := h.notes.all()
	last := notes[len(notes)-1].Reply.Text
	if !strings.Contains(last, "Every Black player (alice, bob) has run out of time in a row") {
		t.Errorf("the loss on time: %s", last)
	}
}

// A pending team challenge is in every named player's games; an
// outsider's accept or decline is refused; the challenger's own accept
// says whom it waits for.
func TestRengoPendingChallenge(t *testing.T) {
	h := newHarness(t)
	h.ok("alice", "rengo @alice @bob vs @carol @dave")
	h.ok("bob", "accept")
	for u, want := range map[string]string{
		"alice": "team challenge #1: waiting for <@test:carol> and <@test:dave>",
		"bob":   "team challenge #1: waiting for <@test:carol> and <@test:dave>",
		"carol": "team challenge #1 from <@test:alice>: <cmd:accept #1:cmd> or <cmd:decline #1:cmd>",
	} {
		if rep := h.ok(u, "games"); !strings.Contains(rep.Text, want) {
			t.Errorf("%s's games: %s", u, rep.Text)
		}
	}
	h.fails("erin", "accept #1", "Team game #1 is for")
	h.fails("erin", "decline #1", "Team game #1 is for")
	h.fails("erin", "accept", "There is no challenge waiting for you here")
	h.fails("alice", "accept", "Your challenge #1 is waiting for <@test:carol> and <@test:dave>")
	h.fails("bob", "accept #1", "You already accepted team game #1")
	h.ok("alice", "cancel #1")
	if rep := h.ok("carol", "games"); strings.Contains(rep.Text, "#1") {
		t.Errorf("a withdrawn team challenge is still listed: %s", rep.Text)
	}
}

// A vacation stops a player's two-player games but not a team game:
// there the turn passes to a teammate, as on a timeout.
func TestRengoVacationDoesNotStop(t *testing.T) {
	h := newHarness(t)
	h.start("clock=1d") // game #1: alice and bob get vacation accounts
	h.ok("alice", "rengo @alice @bob vs @carol @dave black 9 clock=1d")
	h.ok("bob", "accept")
	h.ok("carol", "accept")
	rep := h.ok("dave", "accept")
	id := rep.Game
	if rep := h.ok("alice", "vacation on"); !strings.Contains(rep.Text, fmt.Sprintf("Still running: #%d (a team game: your turns pass to a teammate).", id)) {
		t.Errorf("vacation on does not say the team game's clock runs on: %s", rep.Text)
	}
	if m, _ := h.game(1); len(m.PausedBy) != 1 {
		t.Fatalf("the two-player game is not stopped: %+v", m.PausedBy)
	}
	if m, g := h.game(id); len(m.PausedBy) != 0 || m.Deadline.IsZero() || m.Side(g.ToMove()).ToMove() != "test:bob" {
		t.Fatalf("the team game was stopped (%+v), or its turn stayed with alice on vacation (%s to move)", m.PausedBy, m.Side(g.ToMove()).ToMove())
	}
	if n := h.notesSaying("<@test:alice> is on vacation: the turn passes to <@test:bob> (Black: alice, bob)."); n != 1 {
		t.Fatalf("the room was told %d times that the turn passed: %+v", n, h.notes.all())
	}
	// bob runs out of time: with alice away he is the team's only player
	// present, so Black loses on time, as a team of one would.
	h.clock.Advance(25 * time.Hour)
	if err := h.bot.Tick(context.Background()); err != nil {
		t.Fatal(err)
	}
	if m, _ := h.game(id); m.Active() || m.Result != "W+T" {
		t.Errorf("after bob's timeout with alice on vacation: active=%v, result %q", m.Active(), m.Result)
	}
	if n := h.notesSaying("Every Black player not on vacation (bob) has run out of time in a row: Black loses on time."); n != 1 {
		t.Errorf("the loss on time said %d times: %+v", n, h.notes.all())
	}
}

// A team game plays on without a member on vacation: their turns pass
// to the next teammate at once (when it starts on their turn, and each
// time the turn comes round), said in the room; back from vacation,
// they play in turn again. A team all away keeps its turn, and the
// first to come back takes it.
func TestRengoTurnsSkipVacation(t *testing.T) {
	h := newHarness(t)
	h.start("") // alice and bob get vacation accounts
	h.ok("alice", "rengo @alice @bob @erin vs @carol @dave black 9")
	for _, u := range []string{"bob", "erin", "carol", "dave"} {
		h.ok(u, "accept #2")
	}
	h.ok("erin", "vacation on")
	h.ok("alice", "play E5 #2")
	h.ok("carol", "play C3 #2")
	h.ok("bob", "play G5 #2")
	rep := h.ok("dave", "play G3 #2")
	if !strings.Contains(rep.Text, "<@test:erin> is on vacation: the turn passes to <@test:alice> (Black: alice, bob, erin).") {
		t.Fatalf("erin's turn was not passed on: %s", rep.Text)
	}
	h.fails("erin", "play C7 #2", "It is <@test:alice>")
	h.ok("erin", "vacation off")
	h.ok("alice", "play C7 #2")
	h.ok("carol", "play G7 #2")
	h.ok("bob", "play D5 #2")
	h.ok("dave", "play F5 #2")
	h.ok("erin", "play D4 #2") // back in turn

	// The whole team away: the turn stays; the first back takes it.
	h.ok("carol", "play F4 #2")
	h.ok("erin", "vacation on")
	h.ok("bob", "vacation on")
	h.ok("alice", "vacation on")
	m, g := h.game(2)
	if m.Side(g.ToMove()).ToMove() != "test:alice" {
		t.Fatalf("with all of Black away, %s is to move, want alice (whose turn it was)", m.Side(g.ToMove()).ToMove())
	}
	h.ok("bob", "vacation off")
	if m, g := h.game(2); m.Side(g.ToMove()).ToMove() != "test:bob" {
		t.Fatalf("bob came back to %s's turn", m.Side(g.ToMove()).ToMove())
	}
	h.ok("bob", "play C5 #2")
}

// A team game is a game: it starts the vacation week count of every
// member, not only of each team's first player.
func TestRengoStartsWeekCount(t *testing.T) {
	h := newHarness(t)
	startRengo(h, "clock=1d")
	for _, u := range []string{"alice", "bob", "carol", "dave"} {
		if v := h.player(u).Vacation; v == nil || !v.FirstGame.Equal(h.clock.Now()) {
			t.Errorf("%s's week count: %+v, want it started by the team game", u, v)
		}
	}
}

// Refusals that name a team game's players stay under MaxRefusal bytes
// however long the eight players' names are: past it they name nobody.
func TestRengoRefusalsShortWithLongNames(t *testing.T) {
	h := newHarness(t)
	var n []string
	for i := range 8 {
		n = append(n, fmt.Sprintf("p%d_%s", i, strings.Repeat("x", 29))) // 32 characters, the most a test name has
	}
	h.ok(n[0], fmt.Sprintf("rengo @%s @%s @%s @%s vs @%s @%s @%s @%s black 9", n[0], n[1], n[2], n[3], n[4], n[5], n[6], n[7]))
	check := func(rep protocol.Reply) {
		t.Helper()
		if len(rep.Text) > protocol.MaxRefusal {
			t.Errorf("a refusal of %d bytes: %s", len(rep.Text), rep.Text)
		}
	}
	check(h.fails("zed", "accept #1", "game #1"))
	check(h.fails("zed", "decline #1", "game #1"))
	check(h.fails(n[0], "accept #1", "You proposed team game #1"))
	h.ok(n[1], "accept #1")
	check(h.fails(n[1], "accept #1", "You already accepted team game #1"))
	for _, u := range n[2:] {
		h.ok(u, "accept #1")
	}
	check(h.fails("zed", "play C3 #1", "You are not in team game #1"))
	check(h.fails(n[1], "play C3 #1", "It is <@test:"+n[0]+">'s turn"))
}

// The refusal of a team challenge without its sender shows no raw user
// ID in its example (a Discord number, a Matrix "@@name:server").
func TestRengoWithoutSenderShowsNoRawID(t *testing.T) {
	h := newHarness(t)
	h.bot.SetNotifier("matrix", h.notes)
	rep := h.mx("alice", "matrix:!main:example.org", "rengo @matrix:@bob:example.org @matrix:@erin:example.org vs @matrix:@carol:example.org", false)
	if !rep.Error || !strings.Contains(rep.Text, "You play in the game you propose") || strings.Contains(rep.Text, "example.org") {
		t.Fatalf("refusal: %s", rep.Text)
	}
}

// Undo in a team game: a teammate of the asker is told who asked, not
// "you already asked"; any member of the other team answers.
func TestRengoUndoAskedByTeammate(t *testing.T) {
	h := newHarness(t)
	startRengo(h, "")
	h.ok("alice", "play C3")
	h.ok("alice", "undo")
	h.fails("bob", "undo", "<@test:alice> already asked for your team; waiting for White")
	h.fails("alice", "undo", "You already asked; waiting for White")
	h.ok("dave", "undo")
	if _, g := h.game(1); g.MoveCount() != 0 {
		t.Fatalf("%d moves after the undo", g.MoveCount())
	}
}

// After fixed handicap stones White moves first, and the announced turn
// order starts with White's first player.
func TestRengoHandicapTurnOrder(t *testing.T) {
	h := newHarness(t)
	h.ok("alice", "rengo @alice @bob vs @carol @dave black 9 handicap=2")
	h.ok("bob", "accept")
	h.ok("carol", "accept #1")
	rep := h.ok("dave", "accept")
	if !strings.Contains(rep.Text, "Turn order: <@test:carol>, <@test:alice>, <@test:dave>, <@test:bob>") {
		t.Fatalf("the turn order after handicap stones: %s", rep.Text)
	}
	h.fails("alice", "play E5", "It is <@test:carol>'s turn")
	h.ok("carol", "play E5")

	// Stones placed as moves (chinese: free placement): Black's first
	// player places them all, one turn, and the order is the one
	// announced.
	h.ok("alice", "rengo @alice @bob vs @carol @dave black 9 chinese handicap=3")
	h.ok("bob", "accept #2")
	h.ok("carol", "accept #2")
	rep = h.ok("dave", "accept #2")
	if !strings.Contains(rep.Text, "Turn order: <@test:alice>, <@test:carol>, <@test:bob>, <@test:dave>") {
		t.Fatalf("the turn order with free placement: %s", rep.Text)
	}
	h.fails("bob", "play C3 #2", "It is <@test:alice>'s turn")
	for _, p := range []string{"C3", "G7", "C7"} {
		h.ok("alice", "play "+p+" #2")
	}
	h.fails("alice", "play G3 #2", "It is <@test:carol>'s turn")
	h.ok("carol", "play E5 #2")
	h.fails("alice", "play G3 #2", "It is <@test:bob>'s turn")
	h.ok("bob", "play G3 #2")
	h.ok("dave", "play D5 #2")
}

// A withdrawn challenge tells whom it was for: every other player of a
// team challenge, the challenged player of a two-player one.
func TestWithdrawnChallengeTellsItsPlayers(t *testing.T) {
	h := newHarness(t)
	h.ok("alice", "rengo @alice @bob vs @carol @dave 9")
	h.ok("bob", "accept")
	rep := h.ok("alice", "cancel #1")
	if !strings.Contains(rep.Text, "withdrew challenge #1 to ") {
		t.Fatalf("withdrawn team challenge: %s", rep.Text)
	}
	for _, u := range []gobot.UserID{"test:bob", "test:carol", "test:dave"} {
		if !slices.Contains(rep.Mentions, u) || !strings.Contains(rep.Text, "<@"+string(u)+">") {
			t.Errorf("%s is not told: %s %v", u, rep.Text, rep.Mentions)
		}
	}
	h.ok("alice", "challenge @bob 9")
	rep = h.ok("alice", "cancel")
	if !strings.Contains(rep.Text, "to <@test:bob>") || !slices.Equal(rep.Mentions, []gobot.UserID{"test:bob"}) {
		t.Fatalf("withdrawn challenge: %s %v", rep.Text, rep.Mentions)
	}
}

// cancel by someone who did not make the challenge: the challenged
// player is pointed to decline; a bystander is told only who can cancel.
func TestCancelOthersChallenge(t *testing.T) {
	h := newHarness(t)
	h.ok("bob", "challenge @alice 9")
	h.fails("alice", "cancel #1", "Only <@test:bob> can cancel challenge #1; you may <cmd:decline #1:cmd> it.")
	rep := h.fails("carol", "cancel #1", "Only <@test:bob>, who made challenge #1, can cancel it.")
	if strings.Contains(rep.Text, "decline") {
		t.Errorf("a bystander is pointed to decline: %s", rep.Text)
	}
	h.ok("bob", "rengo @bob @dave vs @alice @erin 9")
	h.fails("erin", "cancel #2", "you may <cmd:decline #2:cmd> it")
}

// "Which game?" names a team game by its teams.
func TestWhichGameNamesTeams(t *testing.T) {
	h := newHarness(t)
	startRengo(h, "")
	h.ok("carol", "challenge @bob 9")
	h.ok("bob", "accept")
	h.fails("bob", "undo", "Which game? There are several: #2 (<@test:bob> vs <@test:carol>), #1 (alice, bob vs carol, dave).")
}

// rengo takes placement= as challenge does: the advice for a handicap
// without fixed points can be followed.
func TestRengoPlacement(t *testing.T) {
	h := newHarness(t)
	h.fails("alice", "rengo @alice @bob vs @carol 5 handicap=3", "add placement=free")
	h.ok("alice", "rengo @alice @bob vs @carol 5 black handicap=3 placement=free")
	h.ok("bob", "accept")
	rep := h.ok("carol", "accept")
	if !strings.Contains(rep.Text, "Turn order: <@test:alice>, <@test:carol>, <@test:bob>, <@test:carol>") {
		t.Fatalf("start: %s", rep.Text)
	}
	for _, p := range []string{"B2", "D4", "B4"} {
		h.ok("alice", "play "+p)
	}
	h.ok("carol", "play C3")
}

// The teammate a turn passes to from a player on vacation gets the
// turn's reminders: alice had the 24-hour one, bob gets his.
func TestRengoPassedTurnReminds(t *testing.T) {
	h := newHarness(t)
	h.start("clock=3d") // game #1: alice and bob get vacation accounts
	h.ok("alice", "rengo @alice @bob vs @carol @dave black 9 clock=3d")
	for _, u := range []string{"bob", "carol", "dave"} {
		h.ok(u, "accept #2")
	}
	h.clock.Advance(50 * time.Hour)
	h.tick(0)
	if n := h.notesSaying("<@test:alice>, it's your move in game #2"); n != 1 {
		t.Fatalf("alice was reminded %d times", n)
	}
	h.ok("alice", "vacation on")
	h.tick(0)
	if n := h.notesSaying("<@test:bob>, it's your move in game #2"); n != 1 {
		t.Fatalf("bob, to play with 22h left after alice's turn passed to him, was reminded %d times: %+v", n, h.notes.all())
	}
}

// announcedOrder reads the turn order a team game's start announced, in
// either of say.TurnOrder's forms, as the first n players to move.
func announcedOrder(t *testing.T, text string, n int) []string {
	t.Helper()
	at := strings.Index(text, "Turn order: ")
	if at < 0 {
		t.Fatalf("no turn order announced: %s", text)
	}
	text = text[at:]
	mention := regexp.MustCompile(`<@test:(\w+)>`)
	names := func(s string) []string {
		var out []string
		for _, m := range mention.FindAllStringSubmatch(s, -1) {
			out = append(out, m[1])
		}
		return out
	}
	var cycle []string
	if whole := regexp.MustCompile(`^Turn order: (.*?), then round again\.`).FindStringSubmatch(text); whole != nil {
		cycle = names(whole[1])
	} else {
		perTeam := regexp.MustCompile(`^Turn order: the teams alternate, (Black|White) first, and each takes its own players in turn \(the order repeats after \d+ turns\)\. (Black|White): (.*?) in turn; (Black|White): (.*?) in turn\.`).FindStringSubmatch(text)
		if perTeam == nil || perTeam[1] != perTeam[2] || perTeam[2] == perTeam[4] {
			t.Fatalf("the turn order is in neither form: %s", text)
		}
		a, b := names(perTeam[3]), names(perTeam[5])
		for i := range len(a) * len(b) {
			cycle = append(cycle, a[i%len(a)], b[i%len(b)])
		}
	}
	var out []string
	for i := range n {
		out = append(out, cycle[i%len(cycle)])
	}
	return out
}

// The turn order announced at the start of a team game is the order
// played, for teams of any sizes: every turn of two whole cycles is
// played by the player the announcement names (each team rotates on its
// own, so 2 against 3 repeats after 12 turns), and nobody else may play
// it.
func TestRengoAnnouncedOrderIsPlayed(t *testing.T) {
	for _, tc := range []struct {
		black, white string
		first        []string // the first turns, as the issue saw them played
	}{
		{"alice bob", "carol dave erin", []string{"alice", "carol", "bob", "dave", "alice", "erin", "bob", "carol", "alice", "dave", "bob", "erin"}},
		{"alice", "carol dave erin", []string{"alice", "carol", "alice", "dave", "alice", "erin"}},
		{"alice bob carol", "dave erin frank gina", nil},
		{"alice bob", "carol dave", []string{"alice", "carol", "bob", "dave"}},
		{"alice bob", "carol dave erin gina", nil},
	} {
		t.Run(strings.ReplaceAll(tc.black+" vs "+tc.white, " ", "_"), func(t *testing.T) {
			h := newHarness(t)
			black, white := strings.Fields(tc.black), strings.Fields(tc.white)
			at := func(us []string) string { return "@" + strings.Join(us, " @") }
			h.ok(black[0], "rengo "+at(black)+" vs "+at(white)+" 19 black")
			var rep protocol.Reply
			for _, u := range append(black[1:], white...) {
				rep = h.ok(u, "accept #1")
			}
			a, b := len(black), len(white)
			cycle := flow.TurnCycle(a, b)
			order := announcedOrder(t, rep.Text, 2*cycle)
			if tc.first != nil && !slices.Equal(order[:len(tc.first)], tc.first) {
				t.Fatalf("announced %v, want %v first: %s", order, tc.first, rep.Text)
			}
			everyone := append(slices.Clone(black), white...)
			for i, u := range order {
				// Points two apart on both axes: no stone is ever captured.
				p := game.Pt(2*(i%10), 2*(i/10)).GTP(19)
				for _, other := range everyone {
					if other != u {
						h.fails(other, "play "+p, "turn")
					}
				}
				h.ok(u, "play "+p)
			}
		})
	}
}

// A new marking by a teammate of whoever accepted withdraws the team's
// acceptance and says so as the team's, not as the marker's own.
func TestRengoWithdrawnAcceptanceIsTheTeams(t *testing.T) {
	h := newHarness(t)
	startRengo(h, "")
	h.ok("alice", "play E5")
	h.ok("carol", "play C3")
	h.ok("bob", "pass")
	h.ok("dave", "pass")
	h.ok("carol", "dead E5")
	h.ok("alice", "done")
	rep := h.ok("bob", "dead C3")
	if !strings.Contains(rep.Text, "<@test:bob> changed the dead stones, so Black's acceptance is withdrawn; Black (<@test:alice> or <@test:bob>), check and <cmd:done:cmd> again.") ||
		strings.Contains(rep.Text, "after accepting") {
		t.Errorf("bob's marking after alice accepted for Black: %s", rep.Text)
	}
}
