package chat

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/gobotgo/gobot"
	"github.com/gobotgo/gobot/chat/protocol"
	"github.com/gobotgo/gobot/chat/say"
	"github.com/gobotgo/gobot/flow"
	"github.com/gobotgo/gobot/game"
)

// boardDrawing is game g's board for a viewer's theme.
func boardDrawing(g *game.Game, id gobot.GameID, theme string) *protocol.Drawing {
	return &protocol.Drawing{Game: g, ID: id, Theme: theme}
}

// present completes rep: its drawing becomes its Image. A board that
// fails to draw is logged and the reply goes without it; a replay that
// fails is the reply's error.
func (b *core) present(rep *protocol.Reply) error {
	d := rep.Draw
	if d == nil {
		return nil
	}
	rep.Draw = nil
	if !d.Done {
		d.Done = true
		if d.Replay {
			d.File, d.Err = b.replayImage(d.Game, d.ID, d.Theme)
		} else {
			d.File = b.boardImage(d.Game, d.ID, d.Theme, d.Votes)
		}
	}
	if d.Err != nil {
		return d.Err
	}
	rep.Image = d.File
	return nil
}

// contentTag names an image by what it shows (a hash of its bytes), so a
// position replayed after an undo, or drawn in another player's theme,
// never takes the name, and in the terminal's images_dir the file, of
// another picture.
func contentTag(data []byte) string {
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:6])
}

// boardImage renders g for a viewer's theme; errors are logged and the
// reply goes without an image rather than failing the command.
func (b *core) boardImage(g *game.Game, id gobot.GameID, theme string, votes map[game.Point]int) *protocol.File {
	if b.render == nil {
		return nil
	}
	var buf bytes.Buffer
	w, h, err := 0, 0, error(nil)
	if vr, ok := b.render.(voteRenderer); ok && len(votes) > 0 {
		w, h, err = vr.BoardVotes(&buf, g, theme, votes)
	} else {
		w, h, err = b.render.Board(&buf, g, theme, 0)
	}
	if err != nil {
		b.log.Error("render failed", "game", id, "err", err)
		return nil
	}
	return &protocol.File{Name: fmt.Sprintf("game-%d-move-%d-%s.png", id, g.MoveNumber(), contentTag(buf.Bytes())), MIME: "image/png", Data: buf.Bytes(), Width: w, Height: h}
}

// replayImage renders g's moves as an animated GIF.
func (b *core) replayImage(g *game.Game, id gobot.GameID, theme string) (*protocol.File, error) {
	if b.render == nil {
		return nil, errorf("This bot has no renderer configured.")
	}
	var buf bytes.Buffer
	w, h, err := b.render.Replay(&buf, g, theme)
	if err != nil {
		return nil, err
	}
	return &protocol.File{Name: fmt.Sprintf("gobot-%d-%s.gif", id, contentTag(buf.Bytes())), MIME: "image/gif", Data: buf.Bytes(), Width: w, Height: h}, nil
}

// errorReply turns any error into friendly private text: the one place
// where game and storage errors become words.
func (b *core) errorReply(err error) protocol.Reply {
	var ue protocol.Refusal
	msg := ""
	switch {
	case errors.As(err, &ue):
		msg = ue.Error()
	case errors.Is(err, errDuplicate), errors.Is(err, gobot.ErrDuplicate):
		msg = "I already handled that (it arrived twice); nothing more to do."
	case errors.Is(err, game.ErrKo):
		msg = "That would retake the ko — play elsewhere first (a ko threat), then you may take back."
	case errors.Is(err, game.ErrSuperko):
		msg = "That would repeat an earlier whole-board position, which these rules forbid (superko) — play elsewhere."
	case errors.Is(err, game.ErrSuicide):
		msg = "That stone would have no liberties and capture nothing: suicide is not allowed under these rules."
	case errors.Is(err, game.ErrNotYourTurn):
		msg = "It's not your turn — wait for your opponent's move."
	case errors.Is(err, game.ErrGameOver):
		msg = "That game is over."
	case errors.Is(err, game.ErrScoring):
		msg = fmt.Sprintf("The game is being scored: mark dead stones with %s, accept with %s, or go back to playing with %s.", b.cmd("dead <point>"), b.cmd("done"), b.cmd("resume"))
	case errors.Is(err, game.ErrNotScoring):
		msg = "That only works after both players pass, while the game is being scored."
	case errors.Is(err, game.ErrNothingUndo):
		msg = "There is no move to undo yet."
	case errors.Is(err, game.ErrNoAgreement):
		msg = "Under these rules every stone on the board counts as it stands: to remove dead stones, capture them — " + b.cmd("resume") + " to play on."
	case errors.Is(err, game.ErrHandicapPass):
		msg = "Place all your handicap stones before passing."
	case errors.Is(err, gobot.ErrLeaseLost):
		// Received under a lease another process holds now: that process
		// answers it, this one stays silent (Duplicate).
		b.log.Info("dropped a request received under a lease now held elsewhere", "err", err)
		return protocol.Reply{Duplicate: true, Error: true, Private: true}
	case errors.Is(err, gobot.ErrUnavailable):
		b.log.Warn("store unavailable", "err", err)
		msg = "The database is unavailable, try again in a moment; nothing was changed."
	case errors.Is(err, gobot.ErrConflict):
		msg = "Someone else changed that game at the same moment; nothing was changed — please try again."
	case errors.Is(err, gobot.ErrCorrupt):
		b.log.Error("corrupt record", "err", err)
		msg = "I can't read that record (it is damaged); an admin has been told in the logs. Nothing was changed."
	default:
		b.log.Error("command failed", "err", err)
		msg = "Sorry, something went wrong on my side; nothing was changed."
	}
	dup := errors.Is(err, errDuplicate) || errors.Is(err, gobot.ErrDuplicate)
	return protocol.Reply{Text: msg, Error: true, Private: true, Duplicate: dup}
}

// gameReply builds the message shown after any change to a game (and for
// `board`) that request r made: gameReplyAt, on r's occasion.
func (b *core) gameReply(fx *Effects, tx gobot.Tx, l *loaded, r *protocol.Request, what string) protocol.Reply {
	return b.gameReplyAt(fx, tx, l, occasion{Room: r.Room, At: r.Time, By: r.User.ID}, what)
}

// An occasion is what a game's message is shown for: the room it is
// shown in, the time it tells the clocks from, and who acted (whose
// board theme draws it, who is not pinged): a command's caller, or a
// timed job's actor (an engine) or nobody (a clock, a vote's close).
type occasion struct {
	Room gobot.RoomID
	At   time.Time
	By   gobot.UserID
}

// gameReplyAt builds the message shown after any change to a game:
// what happened, whose turn, captures, time, the board image, buttons,
// and the mention of the player to move; a DM to the player to move
// goes into fx.
func (b *core) gameReplyAt(fx *Effects, tx gobot.Tx, l *loaded, r occasion, what string) protocol.Reply {
	match, g := l.Match, l.G
	cfg := g.Config()
	rep := protocol.Reply{Game: match.ID, Title: fmt.Sprintf("Game #%d · move %d", match.ID, g.MoveNumber())}
	if match.Thread || match.Room != r.Room {
		rep.Room = match.Room
	}
	var lines []string
	if what != "" {
		lines = append(lines, what)
	}
	if l.note != "" {
		lines = append(lines, l.note)
	}
	var next gobot.UserID
	switch g.Phase() {
	case game.Playing:
		next = match.Side(g.ToMove()).ToMove()
		side := g.ToMove().Name()
		if match.Side(g.ToMove()).Rotates() { // rengo.go: "White: carol, dave"
			side = say.TeamLabel(namer(tx), match, g.ToMove())
		}
		who := protocol.Mention(next)
		if next == gobot.VoteSeat {
			who = "The room" // the line's first word
		}
		s := fmt.Sprintf("%s (%s) to play", who, side)
		if left := timeLeft(match, r.At); left != "" && next.Platform() != EnginePlatform && (next != gobot.VoteSeat || !match.Vote.WindowOpen()) { // a window's end is no clock (vote.go)
			s += " — " + left
		}
		if n := g.HandicapLeft(); n > 0 {
			s += fmt.Sprintf(" (%d handicap stone%s to place)", n, say.Plural(n))
		}
		if p, ok := g.KoPoint(); ok {
			s += fmt.Sprintf("; %s is a ko: it can't be retaken this move", p.GTP(cfg.Height))
		}
		lines = append(lines, s+".")
		if vl := say.VoteLine(l.Loaded, r.At); vl != "" { // a vote game's room to move (vote.go)
			lines = append(lines, vl)
		}
		rep.Actions = []protocol.Action{
			{ID: b.actionID("pass", l, ""), Label: "Pass"},
			{ID: b.actionID("resign", l, ""), Label: "Resign", Style: protocol.Danger, AskFirst: true},
		}
		if match.Undoable() { // an engine takes nothing back, nor a vote (cmdUndo)
			rep.Actions = append(rep.Actions, protocol.Action{ID: b.actionID("undo", l, ""), Label: "Undo"})
		}
		if match.LivePaused() { // pause.go: nothing to play until it resumes
			rep.Actions = []protocol.Action{{ID: b.actionID("resume", l, ""), Label: "Resume", Style: protocol.Primary}}
		}
	case game.Scoring:
		sc := g.Score()
		lines = append(lines, fmt.Sprintf("Scoring: %s %s, %s %s — %s if this count stands.", say.SideName(namer(tx), match, game.Black), formatSide(sc.Black, cfg.Rules, false), say.SideName(namer(tx), match, game.White), formatSide(sc.White, cfg.Rules, true), sc.Result.Describe()))
		var acc []string
		for _, c := range []game.Color{game.Black, game.White} {
			if g.Accepted(c) && c != l.acceptSaid {
				acc = append(acc, say.SideName(namer(tx), match, c)+" accepted")
			}
		}
		if len(acc) > 0 {
			lines = append(lines, strings.Join(acc, "; ")+".")
		}
		if cfg.Rules.NoAgreement {
			lines = append(lines, fmt.Sprintf("Every stone counts as it stands: %s to accept, %s to play on.", b.cmd("done"), b.cmd("resume")))
		} else {
			lines = append(lines, fmt.Sprintf("Mark dead stones with %s (again to unmark), then %s to accept, or %s to play on.", b.cmd("dead <point>"), b.cmd("done"), b.cmd("resume")))
		}
		rep.Actions = []protocol.Action{
			{ID: b.actionID("done", l, ""), Label: "Accept score", Style: protocol.Success},
			{ID: b.actionID("resume", l, ""), Label: "Resume", Style: protocol.Secondary},
		}
		rep.Mentions = match.Players()
	case game.Over:
		res, _ := g.Result()
		s := fmt.Sprintf("Game over: %s (%s).", res.Describe(), res.String())
		if res.Winner == game.Empty { // "0" and "Void" say nothing the words did not
			s = fmt.Sprintf("Game over: %s.", res.Describe())
		}
		if res.Reason == game.ByScore {
			sc := g.Score()
			s += fmt.Sprintf(" %s %s, %s %s.", say.SideName(namer(tx), match, game.Black), formatSide(sc.Black, cfg.Rules, false), say.SideName(namer(tx), match, game.White), formatSide(sc.White, cfg.Rules, true))
		}
		if rl := say.RatingLine(match, g); rl != "" {
			s += "\n" + rl
		}
		lines = append(lines, s, fmt.Sprintf("%s for the record, %s for a replay.", b.cmd(fmt.Sprintf("sgf #%d", match.ID)), b.cmd(fmt.Sprintf("replay #%d", match.ID))))
		rep.Mentions = match.Players()
	}
	rep.Text = strings.Join(lines, "\n")
	if b.linker() != nil { // the web board is on: a button to one's link (web.go)
		rep.Actions = append(rep.Actions, protocol.Action{ID: b.actionID("web", l, ""), Label: "Open board"})
	}
	rep.Fields = []protocol.Field{
		{Name: "Black", Value: fmt.Sprintf("%s · %d captured", seatField(tx, match, g, game.Black), g.Captures(game.Black)+g.PassStones(game.Black)), Inline: true},
		{Name: "White", Value: fmt.Sprintf("%s · %d captured", seatField(tx, match, g, game.White), g.Captures(game.White)+g.PassStones(game.White)), Inline: true},
		{Name: "Game", Value: say.Config(cfg, match.Clock) + say.VacationHeader(match.NoVacation), Inline: false},
	}
	if what == "" || liveImage(tx, l) { // a live game's announcements are compact (liveimages.go)
		rep.Draw = boardDrawing(g, match.ID, playerIn(tx, r.By).Theme)
		rep.Draw.Votes = flow.VoteMarks(l.Loaded) // an open window's votes (vote.go)
		rep.Board = TextBoard(g)
	}
	if next != "" && what != "" {
		np := playerIn(tx, next)
		if np.Notify != "off" && next != r.By {
			rep.Mentions = []gobot.UserID{next}
		}
		if np.Notify == "dm" && next != r.By {
			dm := rep
			dm.Actions = nil
			dm.Text = fmt.Sprintf("Your move in game #%d. %s", match.ID, rep.Text)
			fx.notify(protocol.Message{To: next, Room: match.Room, Reply: dm})
		}
	}
	if what == "" {
		// Only looking (board): nobody is notified, whatever the phase.
		rep.Mentions = nil
	}
	return rep
}

// formatSide prints a score with its parts: "81.5 (40 stones + 35 area + 6.5 komi)".
func formatSide(s game.SideScore, r game.Rules, white bool) string {
	var parts []string
	if r.Scoring == game.Area {
		parts = append(parts, fmt.Sprintf("%d stone%s", s.Stones, say.Plural(s.Stones)), fmt.Sprintf("%d territory", s.Territory))
	} else {
		parts = append(parts, fmt.Sprintf("%d territory", s.Territory), fmt.Sprintf("%d prisoner%s", s.Prisoners, say.Plural(s.Prisoners)))
	}
	if white && s.Komi != 0 {
		parts = append(parts, game.FormatKomi(s.Komi)+" komi")
	}
	if white && s.Bonus != 0 {
		parts = append(parts, game.FormatKomi(s.Bonus)+" handicap bonus")
	}
	return fmt.Sprintf("%s (%s)", game.FormatKomi(s.Total), strings.Join(parts, " + "))
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
