package say

import (
	"fmt"
	"strings"
	"time"

	"github.com/gobotgo/gobot"
	"github.com/gobotgo/gobot/chat/protocol"
	"github.com/gobotgo/gobot/flow"
	"github.com/gobotgo/gobot/flow/board"
	"github.com/gobotgo/gobot/game"
)

// Board fills in the texts of bv, l's view (board.Read) read at now: its
// status, the count, the clock, a vote game's line, the undo request,
// the last moves and the questions before a resignation.
func Board(bv *board.View, l *flow.Loaded, now time.Time) {
	match, g := l.Match, l.G
	switch {
	case !match.Active():
		bv.Status = ResultText(match.Result)
	case g.Phase() == game.Scoring:
		sc := g.Score()
		bv.Status = ScoringStatus(bv)
		for _, c := range []game.Color{game.Black, game.White} {
			if bv.Accepted[c] { // its Done waits for the other side
				bv.Waiting[c] = "Waiting for " + bv.Sides[c.Opponent()-game.Black].Name
			}
		}
		bv.Score = fmt.Sprintf("Black %s, White %s: %s if this count stands.", game.FormatKomi(sc.Black.Total), game.FormatKomi(sc.White.Total), sc.Result.Describe())
	default:
		c := g.ToMove()
		next := bv.Name(match.Side(c).ToMove())
		bv.Status = fmt.Sprintf("%s to play (%s)", c.Name(), next)
		if !match.Deadline.IsZero() && !match.Clock.Live() { // a live clock ticks on the board (Live)
			bv.Clock = fmt.Sprintf("%s must move by %s.", next, match.Deadline.UTC().Format("2 Jan 15:04 MST"))
		}
		if match.Paused() && match.Clock.Kind != gobot.NoClock { // vacation: the clock is stopped
			bv.Clock = fmt.Sprintf("The clock is stopped for a vacation; %s has %s left.", next, protocol.FormatDuration(match.PausedLeft))
		}
		if match.Vote.WindowOpen() && match.Find(gobot.SideRoom).Moves(g) {
			bv.Clock = "" // a window's end is no clock (gameReply)
		}
		if match.LivePaused() { // pause.go
			bv.Clock = LivePaused(protocol.FormatDuration(match.PauseLeft(now)))
		} else if p := match.Pause; p != nil && p.Asked != "" {
			bv.Clock = fmt.Sprintf("%s asks to pause the clocks.", bv.Name(p.Asked))
		}
		bv.Vote = VoteLine(l, now)
	}
	if match.UndoBy != "" && match.Active() {
		bv.UndoText = fmt.Sprintf("%s asks to take back the last move.", bv.Name(match.UndoBy))
	}
	if r := match.RefusedNow(); r != nil && bv.UndoRefused != game.Empty {
		bv.RefusedText = UndoRefusedYou(bv.Name(r.By))
	}
	moves := g.Moves()
	for i := max(0, len(moves)-6); i < len(moves); i++ {
		m := moves[i]
		where := "pass"
		if !m.Point.IsPass() {
			where = m.Point.GTP(g.Config().Height)
		}
		bv.Moves = append(bv.Moves, fmt.Sprintf("%d. %s %s", i+1, m.Color.Name(), where))
	}
	// What the board asks before a resignation, in the words chat asks
	// it (askResign): "Resign game #1 against bob?" (a team game: for
	// the team, against the other team's players; a voter: a vote to
	// resign).
	for _, c := range []game.Color{game.Black, game.White} {
		opp := match.Side(c.Opponent())
		ns := opp.Name(bv.Name)
		bv.ResignQuestions[c] = fmt.Sprintf("Resign game #%d against %s?", bv.ID, ns)
		if opp.Rotates() {
			bv.ResignQuestions[c] = fmt.Sprintf("Resign game #%d for your team against %s?", bv.ID, ns)
		}
	}
	if match.Has(gobot.SideRoom) {
		opp := match.Side(match.Find(gobot.SideRoom).Color.Opponent())
		bv.VoteResignQuestion = fmt.Sprintf("Vote to resign game #%d against %s?", bv.ID, opp.Name(bv.Name))
	}
}

// LivePaused is a board's line while a live game's pause runs, with
// the pause time left ("9m 30s"), which a web board counts down.
func LivePaused(left string) string {
	return fmt.Sprintf("Paused: both clocks stand still until a player resumes (%s of pause left).", left)
}

// The words of the buttons that answer an undo request, in chat and on
// the web board alike.
const (
	AllowUndo  = "Allow undo"
	RefuseUndo = "Refuse"
)

// UndoRefusedYou is what a board tells the asker of a refused undo:
// "alice refused your undo; the game goes on."
func UndoRefusedYou(by string) string {
	return fmt.Sprintf("%s refused your undo; the game goes on.", by)
}

// ScoringStatus is a board's status while scoring (bv read by
// board.Read): who has accepted, as OGS shows it ("bob has accepted — accept
// or change the marks."), or whose acceptance a change of the dead
// stones withdrew.
func ScoringStatus(bv *board.View) string {
	name := func(c game.Color) string { return bv.Sides[c-game.Black].Name }
	var accepted []game.Color
	for _, c := range []game.Color{game.Black, game.White} {
		if bv.Accepted[c] {
			accepted = append(accepted, c)
		}
	}
	if len(accepted) == 1 {
		return fmt.Sprintf("Scoring: %s has accepted — accept or change the marks.", name(accepted[0]))
	}
	if len(bv.Withdrawn) > 0 {
		var whose []string
		for _, c := range bv.Withdrawn {
			whose = append(whose, name(c)+"'s")
		}
		what := "acceptance is"
		if len(whose) > 1 {
			what = "acceptances are"
		}
		return fmt.Sprintf("Scoring: the marks changed — %s %s withdrawn; click the dead stones, then Done.", strings.Join(whose, " and "), what)
	}
	return "Scoring: click the dead stones, then Done."
}

// LiveClock is colour c's clock in a live game (board.Clocks,
// read as a live board counts it) at now, in its system's terms:
// "2:41 + 3×30s" (byo-yomi in main time), "0:21 (2×30s)" (in its
// periods), "10:00 + 25 stones in 5:00", "12 stones in 4:10"
// (Canadian), "4:59" (Fischer's bank, absolute, a simple clock's turn);
// "(paused)" after the clock of the player to move while a pause stops
// both, "out of time" once c's time ran out.
func LiveClock(lc *board.Clocks, c game.Color, now time.Time) string {
	s, ok := lc.At(c, now)
	switch {
	case !ok:
		return "out of time"
	case c == lc.Paused:
		return lc.Counted().ShowClock(s) + " (paused)"
	}
	return lc.Counted().ShowClock(s)
}

// LiveClocks are both clocks of live game match (lc) at now, indexed by
// colour (LiveClock); an engine's side keeps no clock to show ("").
func LiveClocks(match *gobot.Match, lc *board.Clocks, now time.Time) (out [3]string) {
	for _, c := range []game.Color{game.Black, game.White} {
		if match.Side(c).ToMove().Platform() != gobot.EnginePlatform {
			out[c] = LiveClock(lc, c, now)
		}
	}
	return out
}

// ResultText is a finished game's status: the result in words with its
// SGF form, "Black wins by 3.5 points (B+3.5)", or "Draw".
func ResultText(sgf string) string {
	r, err := game.ParseResult(sgf)
	if err != nil {
		if len(sgf) > 80 {
			sgf = sgf[:80] + "…"
		}
		return "Game over (" + sgf + ")"
	}
	if r.Winner == game.Empty && (r.Reason == game.ByScore || r.Reason == game.ByCycle) {
		return "Draw"
	}
	d := r.Describe()
	return strings.ToUpper(d[:1]) + d[1:] + " (" + r.String() + ")"
}
