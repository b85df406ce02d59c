package say

import (
	"errors"
	"fmt"
	"strings"

	"github.com/gobotgo/gobot"
	"github.com/gobotgo/gobot/chat/protocol"
	"github.com/gobotgo/gobot/game"
)

// The words of a game's message (chat's gameReply): whose turn, the
// scoring, the result, and the text board.

// MoveTitle is a game's message's title: "Game #7 · move 12".
func MoveTitle(id gobot.GameID, move int) string { return fmt.Sprintf("Game #%d · move %d", id, move) }

// GameNews is what a game's message says besides the game's state: what
// happened (What) and a note on it, the clock of the player to move
// (Left), a vote game's line (Vote), the rating's line (Rating), what
// an ended game did to its event (Event: a ladder's rungs), and the
// side whose acceptance of the count the command's own words announced
// (Said: the scoring lines do not say it again).
type GameNews struct {
	What, Note, Left, Vote, Rating, Event string
	Said                                  game.Color
}

// GameText is a game's message's text: what happened, then whose turn,
// the scoring or the result.
func GameText(n Namer, match *gobot.Match, g *game.Game, news GameNews) string {
	var lines []string
	if news.What != "" {
		lines = append(lines, news.What)
	}
	if news.Note != "" {
		lines = append(lines, news.Note)
	}
	switch g.Phase() {
	case game.Playing:
		lines = append(lines, toPlay(n, match, g, news.Left))
		if news.Vote != "" { // a vote game's room to move (vote.go)
			lines = append(lines, news.Vote)
		}
	case game.Scoring:
		lines = append(lines, scoring(n, match, g, news.Said)...)
	case game.Over:
		lines = append(lines, gameOver(n, match, g, news.Rating)...)
		if news.Event != "" {
			lines = append(lines, news.Event)
		}
	}
	return strings.Join(lines, "\n")
}

// GameActions are a game's message's buttons, each with the action ID id
// gives its command: pass, resign and undo (resume while paused) while
// playing, accept and resume while scoring; and web, the button to
// one's board.
func GameActions(match *gobot.Match, g *game.Game, id func(cmd string) string, web bool) []protocol.Action {
	var as []protocol.Action
	switch g.Phase() {
	case game.Playing:
		as = []protocol.Action{{ID: id("pass"), Label: "Pass"}, {ID: id("resign"), Label: "Resign", Style: protocol.Danger, AskFirst: true}}
		if match.Undoable() { // an engine takes nothing back, nor a vote (cmdUndo)
			as = append(as, protocol.Action{ID: id("undo"), Label: "Undo"})
		}
		if match.LivePaused() { // pause.go: nothing to play until it resumes
			as = []protocol.Action{{ID: id("resume"), Label: "Resume", Style: protocol.Primary}}
		}
	case game.Scoring:
		as = []protocol.Action{{ID: id("done"), Label: "Accept score", Style: protocol.Success}, {ID: id("resume"), Label: "Resume", Style: protocol.Secondary}}
	}
	if web { // the web board is on (web.go)
		as = append(as, protocol.Action{ID: id("web"), Label: "Open board"})
	}
	return as
}

// toPlay is a game's message's line while playing: who plays which
// side ("@alice (Black) to play", a team game's "White: carol, dave", a
// vote game's "The room"), the clock's left (none for an engine, nor
// for the room while a window is open), the handicap stones left, the ko.
func toPlay(n Namer, match *gobot.Match, g *game.Game, left string) string {
	next := match.Side(g.ToMove()).ToMove()
	side := g.ToMove().Name()
	if match.Side(g.ToMove()).Rotates() { // flow/team.go: "White: carol, dave"
		side = TeamLabel(n, match, g.ToMove())
	}
	who := protocol.Mention(next)
	if next.IsRoom() {
		who = "The room" // the line's first word
	}
	s := fmt.Sprintf("%s (%s) to play", who, side)
	if left != "" && next.Platform() != gobot.EnginePlatform && (!next.IsRoom() || !match.Vote.WindowOpen()) { // a window's end is no clock (vote.go)
		s += " — " + left
	}
	if n := g.HandicapLeft(); n > 0 {
		s += fmt.Sprintf(" (%d handicap stone%s to place)", n, Plural(n))
	}
	if p, ok := g.KoPoint(); ok {
		s += fmt.Sprintf("; %s is a ko: it can't be retaken this move", p.GTP(g.Config().Height))
	}
	return s + "."
}

// scoring is a game's message's lines while it is scored: the count,
// who accepted it (but said, whose acceptance the command's own words
// announced), and how to go on.
func scoring(n Namer, match *gobot.Match, g *game.Game, said game.Color) []string {
	cfg := g.Config()
	sc := g.Score()
	lines := []string{fmt.Sprintf("Scoring: %s %s, %s %s — %s if this count stands.", SideName(n, match, game.Black), formatSide(sc.Black, cfg.Rules, false), SideName(n, match, game.White), formatSide(sc.White, cfg.Rules, true), sc.Result.Describe())}
	var acc []string
	for _, c := range []game.Color{game.Black, game.White} {
		if g.Accepted(c) && c != said {
			acc = append(acc, SideName(n, match, c)+" accepted")
		}
	}
	if len(acc) > 0 {
		lines = append(lines, strings.Join(acc, "; ")+".")
	}
	if cfg.Rules.NoAgreement {
		return append(lines, fmt.Sprintf("Every stone counts as it stands: %s to accept, %s to play on.", Cmd("done"), Cmd("resume")))
	}
	return append(lines, fmt.Sprintf("Mark dead stones with %s (again to unmark), then %s to accept, or %s to play on.", Cmd("dead <point>"), Cmd("done"), Cmd("resume")))
}

// gameOver is a game's message's lines once it ended: the result (with
// the count, and rating, the rating's line, or ""), and where to find the
// record.
func gameOver(n Namer, match *gobot.Match, g *game.Game, rating string) []string {
	cfg := g.Config()
	res, _ := g.Result()
	s := fmt.Sprintf("Game over: %s (%s).", res.Describe(), res.String())
	if res.Winner == game.Empty { // "0" and "Void" say nothing the words did not
		s = fmt.Sprintf("Game over: %s.", res.Describe())
	}
	if res.Reason == game.ByScore {
		sc := g.Score()
		s += fmt.Sprintf(" %s %s, %s %s.", SideName(n, match, game.Black), formatSide(sc.Black, cfg.Rules, false), SideName(n, match, game.White), formatSide(sc.White, cfg.Rules, true))
	}
	if rating != "" {
		s += "\n" + rating
	}
	return []string{s, fmt.Sprintf("%s for the record, %s for a replay.", Cmd(fmt.Sprintf("sgf #%d", match.ID)), Cmd(fmt.Sprintf("replay #%d", match.ID)))}
}

// YourMove is the direct message to the player to move of a game's
// message text.
func YourMove(id gobot.GameID, text string) string {
	return fmt.Sprintf("Your move in game #%d. %s", id, text)
}

// formatSide prints a score with its parts: "81.5 (40 stones + 35 area + 6.5 komi)".
func formatSide(s game.SideScore, r game.Rules, white bool) string {
	var parts []string
	if r.Scoring == game.Area {
		parts = append(parts, fmt.Sprintf("%d stone%s", s.Stones, Plural(s.Stones)), fmt.Sprintf("%d territory", s.Territory))
	} else {
		parts = append(parts, fmt.Sprintf("%d territory", s.Territory), fmt.Sprintf("%d prisoner%s", s.Prisoners, Plural(s.Prisoners)))
	}
	if white && s.Komi != 0 {
		parts = append(parts, game.FormatKomi(s.Komi)+" komi")
	}
	if white && s.Bonus != 0 {
		parts = append(parts, game.FormatKomi(s.Bonus)+" handicap bonus")
	}
	return fmt.Sprintf("%s (%s)", game.FormatKomi(s.Total), strings.Join(parts, " + "))
}

// Mistake is an error the user made, or the rules refused, in words: a
// refusal's own text, a request that arrived twice (dup), a rule's
// error; "" for any other error (Failure).
func Mistake(err error, dup bool) string {
	var ue protocol.Refusal
	switch {
	case errors.As(err, &ue):
		return ue.Error()
	case dup:
		return "I already handled that (it arrived twice); nothing more to do."
	case errors.Is(err, game.ErrKo):
		return "That would retake the ko — play elsewhere first (a ko threat), then you may take back."
	case errors.Is(err, game.ErrSuperko):
		return "That would repeat an earlier whole-board position, which these rules forbid (superko) — play elsewhere."
	case errors.Is(err, game.ErrSuicide):
		return "That stone would have no liberties and capture nothing: suicide is not allowed under these rules."
	case errors.Is(err, game.ErrNotYourTurn):
		return "It's not your turn — wait for your opponent's move."
	case errors.Is(err, game.ErrGameOver):
		return "That game is over."
	case errors.Is(err, game.ErrScoring):
		return fmt.Sprintf("The game is being scored: mark dead stones with %s, accept with %s, or go back to playing with %s.", Cmd("dead <point>"), Cmd("done"), Cmd("resume"))
	case errors.Is(err, game.ErrNotScoring):
		return "That only works after both players pass, while the game is being scored."
	case errors.Is(err, game.ErrNothingUndo):
		return "There is no move to undo yet."
	case errors.Is(err, game.ErrNoAgreement):
		return "Under these rules every stone on the board counts as it stands: to remove dead stones, capture them — " + Cmd("resume") + " to play on."
	case errors.Is(err, game.ErrHandicapPass):
		return "Place all your handicap stones before passing."
	}
	return ""
}

// Failure is an error that is no mistake of the user's (Mistake) in
// words: the store unavailable, a conflicting change, a damaged record,
// or anything else, with nothing changed.
func Failure(err error) string {
	switch {
	case errors.Is(err, gobot.ErrUnavailable):
		return "The database is unavailable, try again in a moment; nothing was changed."
	case errors.Is(err, gobot.ErrConflict):
		return "Someone else changed that game at the same moment; nothing was changed — please try again."
	case errors.Is(err, gobot.ErrCorrupt):
		return "I can't read that record (it is damaged); an admin has been told in the logs. Nothing was changed."
	}
	return "Sorry, something went wrong on my side; nothing was changed."
}

// TextBoard draws g as text with coordinates: X black, O white, . empty;
// the last move in parentheses; in scoring, dead stones as x/o and
// territory as + (Black) and - (White).
func TextBoard(g *game.Game) string {
	cfg := g.Config()
	w, h := cfg.Width, cfg.Height
	var owner []game.Color
	if res, over := g.Result(); g.Phase() == game.Scoring || (over && res.Reason == game.ByScore) {
		owner = g.Score().Owner
	}
	last, hasLast := g.LastMove()
	var sb strings.Builder
	letters := "ABCDEFGHJKLMNOPQRSTUVWXYZ"
	header := "   "
	for x := 0; x < w; x++ {
		header += " " + string(letters[x])
	}
	sb.WriteString(header + "\n")
	for y := 0; y < h; y++ {
		fmt.Fprintf(&sb, "%2d ", h-y)
		for x := 0; x < w; x++ {
			p := game.Pt(x, y)
			c := g.At(p)
			ch := byte('.')
			switch c {
			case game.Black:
				ch = 'X'
			case game.White:
				ch = 'O'
			}
			if owner != nil {
				if c != game.Empty && g.IsDead(p) {
					ch += 'a' - 'A'
				} else if c == game.Empty {
					switch owner[y*w+x] {
					case game.Black:
						ch = '+'
					case game.White:
						ch = '-'
					}
				}
			}
			sep := byte(' ')
			if hasLast && !last.IsPass() && last.Point == p {
				sep = '('
			} else if hasLast && !last.IsPass() && x > 0 && last.Point == game.Pt(x-1, y) {
				sep = ')'
			}
			sb.WriteByte(sep)
			sb.WriteByte(ch)
		}
		if hasLast && !last.IsPass() && last.Point == game.Pt(w-1, y) {
			sb.WriteByte(')')
		} else {
			sb.WriteByte(' ')
		}
		fmt.Fprintf(&sb, "%d\n", h-y)
	}
	sb.WriteString(header + "\n")
	return sb.String()
}

// GameFields are a game's fields beside its announcement: each side as
// n names it with the stones it captured and its clock (clocks, by
// colour: a live game's while it is played, LiveClocks), and the game's
// settings.
func GameFields(n Namer, match *gobot.Match, g *game.Game, clocks [3]string) []protocol.Field {
	side := func(c game.Color) string {
		s := fmt.Sprintf("%s · %d captured", Seat(n, match, g, c), g.Captures(c)+g.PassStones(c))
		if clocks[c] != "" {
			s += " · " + clocks[c]
		}
		return s
	}
	return []protocol.Field{
		{Name: "Black", Value: side(game.Black), Inline: true},
		{Name: "White", Value: side(game.White), Inline: true},
		{Name: "Game", Value: Config(g.Config(), match.Clock) + VacationHeader(match.NoVacation), Inline: false},
	}
}
