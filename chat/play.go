package chat

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/gobotgo/gobot/game"
)

func cmdPlay(ctx context.Context, tx Tx, b *Bot, r *Request, a *Args) (Reply, error) {
	rest := a.Points
	var what string
	l, err := b.change(tx, r, a.Game, true, func(l *loaded, me game.Color) error {
		cfg := l.g.Config()
		p, err := game.ParsePoint(rest[0], cfg.Width, cfg.Height)
		if err != nil {
			if errors.Is(err, game.ErrOffBoard) {
				return errorf("%s is off the board: this %s board goes from A1 to %s.", clipArg(rest[0]), game.SizeString(cfg.Width, cfg.Height), game.Pt(cfg.Width-1, 0).GTP(cfg.Height))
			}
			if strings.Contains(strings.ToUpper(rest[0]), "I") && !strings.EqualFold(rest[0], "pass") {
				return errorf("%s: there is no column I on a go board (the letters skip from H to J).", echo(rest[0]))
			}
			return errorf("%s isn't a point: write a column letter and a row number, like D4.", echo(rest[0]))
		}
		if err := b.checkTurn(l, me); err != nil {
			return err
		}
		if p.IsPass() {
			return b.pass(l, me, r)
		}
		if l.g.At(p) != game.Empty {
			return errorf("%s is occupied — choose an empty point.", p.GTP(cfg.Height))
		}
		before := l.g.Captures(me)
		if err := l.g.Play(me, p); err != nil {
			if errors.Is(err, game.ErrKo) {
				return errorf("%s would retake the ko — play elsewhere first (a ko threat), then you may take it back.", p.GTP(cfg.Height))
			}
			return err
		}
		what = fmt.Sprintf("%s played %s", Mention(r.User.ID), p.GTP(cfg.Height))
		if n := l.g.Captures(me) - before; n > 0 {
			what += fmt.Sprintf(", capturing %d stone%s", n, plural(n))
		}
		what += "."
		moved(l.sg, l.g, me, r.Time)
		b.afterMove(l, r)
		return nil
	})
	if err != nil {
		return Reply{}, err
	}
	if what == "" {
		what = b.passText(l, r.User.ID)
	}
	return b.gameReply(tx, l, r, what), nil
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

// checkTurn reports whether the player me may move now.
func (b *Bot) checkTurn(l *loaded, me game.Color) error {
	switch l.g.Phase() {
	case game.Scoring:
		return game.ErrScoring
	case game.Over:
		return game.ErrGameOver
	}
	if l.g.ToMove() != me {
		return errorf("It's not your turn: %s is to play in game #%d.", Mention(playerOf(l.sg, l.g.ToMove())), l.sg.ID)
	}
	return nil
}

// afterMove ends the game record when the game is over.
func (b *Bot) afterMove(l *loaded, r *Request) {
	if l.g.Phase() == game.Over {
		finish(l.sg, l.g, r.Time)
	}
}

func (b *Bot) pass(l *loaded, me game.Color, r *Request) error {
	if err := l.g.Play(me, game.Pass); err != nil {
		return err
	}
	moved(l.sg, l.g, me, r.Time)
	b.afterMove(l, r)
	return nil
}

func (b *Bot) passText(l *loaded, u UserID) string {
	s := fmt.Sprintf("%s passed.", Mention(u))
	if l.g.Phase() == game.Scoring {
		s += " Both players passed: the game is being scored."
	}
	return s
}

func cmdPass(ctx context.Context, tx Tx, b *Bot, r *Request, a *Args) (Reply, error) {
	l, err := b.change(tx, r, a.Game, true, func(l *loaded, me game.Color) error {
		if err := b.checkTurn(l, me); err != nil {
			return err
		}
		return b.pass(l, me, r)
	})
	if err != nil {
		return Reply{}, err
	}
	return b.gameReply(tx, l, r, b.passText(l, r.User.ID)), nil
}

func cmdResign(ctx context.Context, tx Tx, b *Bot, r *Request, a *Args) (Reply, error) {
	return b.end(tx, r, a.Game, true, "resigned", func(l *loaded, me game.Color) error { return l.g.Resign(me) })
}

func cmdAbort(ctx context.Context, tx Tx, b *Bot, r *Request, a *Args) (Reply, error) {
	return b.end(tx, r, a.Game, false, "aborted the game", func(l *loaded, me game.Color) error {
		if l.sg.Room != r.Room && !r.DM {
			return errorf("Game #%d belongs to another room; abort it there.", l.sg.ID)
		}
		return l.g.Abort()
	})
}

// end ends the game r refers to with stop (a resignation, an abort) and
// says who did what.
func (b *Bot) end(tx Tx, r *Request, id GameID, asPlayer bool, did string, stop func(l *loaded, me game.Color) error) (Reply, error) {
	l, err := b.change(tx, r, id, asPlayer, func(l *loaded, me game.Color) error {
		if err := stop(l, me); err != nil {
			return err
		}
		finish(l.sg, l.g, r.Time)
		return nil
	})
	if err != nil {
		return Reply{}, err
	}
	return b.gameReply(tx, l, r, fmt.Sprintf("%s %s.", Mention(r.User.ID), did)), nil
}

func cmdUndo(ctx context.Context, tx Tx, b *Bot, r *Request, a *Args) (Reply, error) {
	refuse := a.Choice["no"] == "no"
	var text string
	var notifyUser UserID
	l, err := b.change(tx, r, a.Game, true, func(l *loaded, me game.Color) error {
		if l.g.Phase() == game.Over {
			return game.ErrGameOver
		}
		if l.sg.Engine != "" {
			return errorf("%s does not take back moves; play on, or %s.", Mention(EngineUser(l.sg.Engine)), b.cmd("resign"))
		}
		opp := playerOf(l.sg, me.Opponent())
		switch {
		case refuse && l.sg.UndoBy == opp:
			l.sg.UndoBy = ""
			text = fmt.Sprintf("%s refused to undo; the game goes on.", Mention(r.User.ID))
			notifyUser = opp
		case refuse:
			return errorf("There is no undo request from your opponent to refuse.")
		case l.sg.UndoBy == r.User.ID:
			return errorf("You already asked; waiting for %s to answer %s or %s.", Mention(opp), b.cmd("undo"), b.cmd("undo no"))
		case l.sg.UndoBy == opp:
			last, ok := l.g.LastMove()
			if !ok {
				return game.ErrNothingUndo
			}
			n := l.g.MoveCount()
			if err := l.g.Undo(); err != nil {
				return err
			}
			l.sg.Undos = append(l.sg.Undos, Undo{By: opp, Move: n, Was: last, At: r.Time})
			if k := l.g.MoveCount(); k < len(l.sg.MoveTimes) {
				l.sg.MoveTimes = l.sg.MoveTimes[:k]
			}
			l.sg.UndoBy = ""
			startClock(l.sg, l.g, r.Time)
			text = fmt.Sprintf("%s agreed: move %d (%s %s) was taken back.", Mention(r.User.ID), n, last.Color.Name(), last.Point.GTP(l.g.Config().Height))
		default:
			last, ok := l.g.LastMove()
			if !ok {
				return game.ErrNothingUndo
			}
			if last.Color != me {
				return errorf("You can only ask to take back your own last move; the last move was %s's.", last.Color.Name())
			}
			l.sg.UndoBy = r.User.ID
			text = fmt.Sprintf("%s asks to take back the last move. %s, answer %s or %s.", Mention(r.User.ID), Mention(opp), b.cmd(fmt.Sprintf("undo #%d", l.sg.ID)), b.cmd(fmt.Sprintf("undo no #%d", l.sg.ID)))
			notifyUser = opp
		}
		return nil
	})
	if err != nil {
		return Reply{}, err
	}
	rep := b.gameReply(tx, l, r, text)
	if notifyUser != "" {
		rep.Mentions = []UserID{notifyUser}
	}
	if l.sg.UndoBy != "" {
		rep.Actions = []Action{
			{ID: b.actionID("undo", l, "yes"), Label: "Allow undo", Style: Primary},
			{ID: b.actionID("undo", l, "no"), Label: "Refuse", Style: Secondary},
		}
	}
	return rep, nil
}

func cmdDead(ctx context.Context, tx Tx, b *Bot, r *Request, a *Args) (Reply, error) {
	var toggled []string
	l, err := b.change(tx, r, a.Game, true, func(l *loaded, me game.Color) error {
		if l.g.Phase() != game.Scoring {
			return game.ErrNotScoring
		}
		cfg := l.g.Config()
		for _, s := range a.Points {
			p, err := game.ParsePoint(s, cfg.Width, cfg.Height)
			if err != nil || p.IsPass() {
				return errorf("%s isn't a point on this board: give stones like D4.", echo(s))
			}
			if l.g.At(p) == game.Empty {
				return errorf("There is no stone at %s to mark.", p.GTP(cfg.Height))
			}
			if err := l.g.ToggleDead(p, false); err != nil {
				return err
			}
			state := "alive"
			if l.g.IsDead(p) {
				state = "dead"
			}
			toggled = append(toggled, p.GTP(cfg.Height)+" "+state)
		}
		return nil
	})
	if err != nil {
		return Reply{}, err
	}
	return b.gameReply(tx, l, r, fmt.Sprintf("%s marked %s.", Mention(r.User.ID), strings.Join(toggled, ", "))), nil
}

func cmdDone(ctx context.Context, tx Tx, b *Bot, r *Request, a *Args) (Reply, error) {
	var text string
	l, err := b.change(tx, r, a.Game, true, func(l *loaded, me game.Color) error {
		if l.g.Phase() != game.Scoring {
			return game.ErrNotScoring
		}
		if l.g.Accepted(me) {
			return errorf("You already accepted this count; waiting for %s.", Mention(playerOf(l.sg, me.Opponent())))
		}
		_, over, err := l.g.Accept(me)
		if err != nil {
			return err
		}
		if over {
			finish(l.sg, l.g, r.Time)
			text = "Both players accepted the count."
		} else {
			text = fmt.Sprintf("%s accepts the count. %s, %s to agree, or mark stones with %s.", Mention(r.User.ID), Mention(playerOf(l.sg, me.Opponent())), b.cmd("done"), b.cmd("dead <point>"))
		}
		return nil
	})
	if err != nil {
		return Reply{}, err
	}
	return b.gameReply(tx, l, r, text), nil
}

func cmdResume(ctx context.Context, tx Tx, b *Bot, r *Request, a *Args) (Reply, error) {
	l, err := b.change(tx, r, a.Game, true, func(l *loaded, me game.Color) error {
		if err := l.g.Resume(); err != nil {
			return err
		}
		startClock(l.sg, l.g, r.Time)
		return nil
	})
	if err != nil {
		return Reply{}, err
	}
	return b.gameReply(tx, l, r, fmt.Sprintf("%s resumed play to settle the position.", Mention(r.User.ID))), nil
}

// viewGame loads a game for looking at (anyone may).
func viewGame(tx Tx, b *Bot, r *Request, id GameID) (*loaded, error) {
	sg, err := findGame(tx, b, r, id, false)
	if err != nil {
		return nil, err
	}
	return load(sg)
}

func cmdBoard(ctx context.Context, tx Tx, b *Bot, r *Request, a *Args) (Reply, error) {
	l, err := viewGame(tx, b, r, a.Game)
	if err != nil {
		return Reply{}, err
	}
	return b.gameReply(tx, l, r, ""), nil
}

func cmdSGF(ctx context.Context, tx Tx, b *Bot, r *Request, a *Args) (Reply, error) {
	l, err := viewGame(tx, b, r, a.Game)
	if err != nil {
		return Reply{}, err
	}
	info := game.GameInfo{Black: displayName(tx, l.sg.Black), White: displayName(tx, l.sg.White),
		Date: l.sg.Created.UTC().Format("2006-01-02"), Name: fmt.Sprintf("gobot game #%d", l.sg.ID)}
	info.BlackRank, info.WhiteRank = sgfRanks(l.sg)
	if l.sg.Clock.Kind != NoClock {
		info.Overtime = "correspondence " + FormatClock(l.sg.Clock)
	}
	var buf bytes.Buffer
	if err := game.WriteSGF(&buf, l.g, info); err != nil {
		return Reply{}, err
	}
	return Reply{Text: fmt.Sprintf("The record of game #%d.", l.sg.ID), Game: l.sg.ID,
		File: &File{Name: fmt.Sprintf("gobot-%d.sgf", l.sg.ID), MIME: "application/x-go-sgf", Data: buf.Bytes()}}, nil
}

func cmdReplay(ctx context.Context, tx Tx, b *Bot, r *Request, a *Args) (Reply, error) {
	l, err := viewGame(tx, b, r, a.Game)
	if err != nil {
		return Reply{}, err
	}
	if b.render == nil {
		return Reply{}, errorf("This bot has no renderer configured.")
	}
	return Reply{Text: fmt.Sprintf("Replay of game #%d (%d moves).", l.sg.ID, l.g.MoveCount()), Game: l.sg.ID,
		draw: &drawing{g: l.g, id: l.sg.ID, theme: playerIn(tx, r.User.ID).Theme, replay: true}}, nil
}

// displayName returns a user's stored name, or the local part of the ID.
func displayName(tx Tx, u UserID) string {
	if p, err := tx.Player(u); err == nil && p.Name != "" {
		return p.Name
	}
	return u.Local()
}

// playerIn returns u's settings (defaults if unknown).
func playerIn(tx Tx, u UserID) Player {
	if p, err := tx.Player(u); err == nil {
		return *p
	}
	return Player{ID: u}
}

// actionID encodes a button for game l.
func (b *Bot) actionID(cmd string, l *loaded, arg string) string {
	return Button{Command: cmd, Game: l.sg.ID, Version: l.sg.Version, Arg: arg}.ID()
}

// gameReply builds the message shown after any change to a game (and for
// `board`): what happened, whose turn, captures, time, the board image,
// buttons, and the mention of the player to move.
func (b *Bot) gameReply(tx Tx, l *loaded, r *Request, what string) Reply {
	sg, g := l.sg, l.g
	cfg := g.Config()
	rep := Reply{Game: sg.ID, Title: fmt.Sprintf("Game #%d · move %d", sg.ID, g.MoveCount())}
	if sg.Thread || sg.Room != r.Room {
		rep.Room = sg.Room
	}
	var lines []string
	if what != "" {
		lines = append(lines, what)
	}
	var next UserID
	switch g.Phase() {
	case game.Playing:
		next = playerOf(sg, g.ToMove())
		s := fmt.Sprintf("%s (%s) to play", Mention(next), g.ToMove().Name())
		if left := timeLeft(sg, r.Time); left != "" && next.Platform() != EnginePlatform {
			s += " — " + left
		}
		if n := g.HandicapLeft(); n > 0 {
			s += fmt.Sprintf(" (%d handicap stone%s to place)", n, plural(n))
		}
		if p, ok := g.KoPoint(); ok {
			s += fmt.Sprintf("; %s is a ko: it can't be retaken this move", p.GTP(cfg.Height))
		}
		lines = append(lines, s+".")
		rep.Actions = []Action{
			{ID: b.actionID("pass", l, ""), Label: "Pass"},
			{ID: b.actionID("resign", l, ""), Label: "Resign", Style: Danger, Confirm: fmt.Sprintf("Resign game #%d?", sg.ID)},
			{ID: b.actionID("undo", l, ""), Label: "Undo"},
		}
	case game.Scoring:
		sc := g.Score()
		lines = append(lines, fmt.Sprintf("Scoring: %s %s, %s %s — %s if this count stands.",
			Mention(sg.Black), formatSide(sc.Black, cfg.Rules, false), Mention(sg.White), formatSide(sc.White, cfg.Rules, true), sc.Result.Describe()))
		var acc []string
		for _, c := range []game.Color{game.Black, game.White} {
			if g.Accepted(c) {
				acc = append(acc, Mention(playerOf(sg, c))+" accepted")
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
		rep.Actions = []Action{
			{ID: b.actionID("done", l, ""), Label: "Accept score", Style: Success},
			{ID: b.actionID("resume", l, ""), Label: "Resume", Style: Secondary},
		}
		rep.Mentions = []UserID{sg.Black, sg.White}
	case game.Over:
		res, _ := g.Result()
		s := fmt.Sprintf("Game over: %s (%s).", res.Describe(), res.String())
		if res.Reason == game.ByScore {
			sc := g.Score()
			s += fmt.Sprintf(" %s %s, %s %s.", Mention(sg.Black), formatSide(sc.Black, cfg.Rules, false), Mention(sg.White), formatSide(sc.White, cfg.Rules, true))
		}
		if rl := ratingLine(sg); rl != "" {
			s += "\n" + rl
		}
		lines = append(lines, s, fmt.Sprintf("%s for the record, %s for a replay.", b.cmd(fmt.Sprintf("sgf #%d", sg.ID)), b.cmd(fmt.Sprintf("replay #%d", sg.ID))))
		rep.Mentions = []UserID{sg.Black, sg.White}
	}
	rep.Text = strings.Join(lines, "\n")
	rep.Fields = []Field{
		{Name: "Black", Value: fmt.Sprintf("%s%s · %d captured", Mention(sg.Black), rankSuffix(sg, game.Black), g.Captures(game.Black)+g.PassStones(game.Black)), Inline: true},
		{Name: "White", Value: fmt.Sprintf("%s%s · %d captured", Mention(sg.White), rankSuffix(sg, game.White), g.Captures(game.White)+g.PassStones(game.White)), Inline: true},
		{Name: "Game", Value: describeConfig(cfg, sg.Clock), Inline: false},
	}
	rep.draw = boardDrawing(g, sg.ID, playerIn(tx, r.User.ID).Theme)
	rep.Board = TextBoard(g)
	if next != "" && what != "" {
		np := playerIn(tx, next)
		if np.Notify != "off" && next != r.User.ID {
			rep.Mentions = []UserID{next}
		}
		if np.Notify == "dm" && next != r.User.ID {
			dm := rep
			dm.Actions = nil
			dm.Text = fmt.Sprintf("Your move in game #%d. %s", sg.ID, rep.Text)
			b.notify(context.Background(), Message{To: next, Room: sg.Room, Reply: dm})
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
		parts = append(parts, fmt.Sprintf("%d stones", s.Stones), fmt.Sprintf("%d territory", s.Territory))
	} else {
		parts = append(parts, fmt.Sprintf("%d territory", s.Territory), fmt.Sprintf("%d prisoners", s.Prisoners))
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
