package chat

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/gobotgo/gobot/game"
)

func cmdGames(ctx context.Context, tx Tx, b *Bot, r *Request, _ *Args) (Reply, error) {
	// Each record is read on its own: a damaged one (not even valid
	// JSON, or moves that do not replay) is named, the others listed.
	var damaged []GameID
	games, err := tx.ActiveGames(r.User.ID)
	if d := Damaged(err); d != nil {
		b.log.Error("corrupt record", "err", err)
		damaged, err = d.Games, nil
	}
	if err != nil {
		return Reply{}, err
	}
	chals, chalErr := tx.PendingChallenges(r.User.ID)
	if chalErr != nil {
		b.log.Error("corrupt record", "err", chalErr)
	}
	var lines []string
	sort.Slice(games, func(i, j int) bool { return games[i].ID < games[j].ID })
	for _, id := range damaged {
		lines = append(lines, fmt.Sprintf("#%d: I can't read this game's record (it is damaged); an admin has been told in the logs", id))
	}
	for _, sg := range games {
		l, err := load(sg)
		if err != nil {
			b.log.Error("corrupt record", "err", err)
			lines = append(lines, fmt.Sprintf("#%d: I can't read this game's record (it is damaged); an admin has been told in the logs", sg.ID))
			continue
		}
		me := colorOf(sg, r.User.ID)
		opp := playerOf(sg, me.Opponent())
		s := fmt.Sprintf("#%d vs %s (%s, you are %s, move %d): ", sg.ID, Mention(opp), game.SizeString(l.g.Config().Width, l.g.Config().Height), me.Name(), l.g.MoveCount())
		switch {
		case l.g.Phase() == game.Scoring:
			s += "scoring"
		case l.g.ToMove() == me:
			s += "your move"
		default:
			s += "their move"
		}
		if left := timeLeft(sg, r.Time); left != "" {
			s += ", " + left
		}
		if sg.Room != r.Room {
			s += " (in another room)"
		}
		lines = append(lines, s)
	}
	for _, c := range chals {
		if c.From == r.User.ID {
			to := "anyone"
			if c.To != "" {
				to = Mention(c.To)
			}
			lines = append(lines, fmt.Sprintf("challenge #%d to %s: waiting", c.ID, to))
		} else {
			lines = append(lines, fmt.Sprintf("challenge #%d from %s: %s or %s", c.ID, Mention(c.From), b.cmd(fmt.Sprintf("accept #%d", c.ID)), b.cmd(fmt.Sprintf("decline #%d", c.ID))))
		}
	}
	if len(lines) == 0 {
		return Reply{Text: fmt.Sprintf("You have no active games or challenges. Start one with %s.", b.cmd("challenge @player")), Private: true}, nil
	}
	if chalErr != nil {
		lines = append(lines, "Some of your challenges have damaged records and are not shown; an admin has been told in the logs.")
	}
	return Reply{Title: "Your games", Text: strings.Join(lines, "\n"), Private: true}, nil
}

var playerKeys = map[string]bool{"notify": true, "theme": true, "rank": true}
var roomKeys = map[string]bool{"rules": true, "size": true, "komi": true, "clock": true, "threads": true, "engines": true}

func cmdSettings(ctx context.Context, tx Tx, b *Bot, r *Request, a *Args) (Reply, error) {
	args := a.Text
	if len(args) > 0 && strings.EqualFold(args[0], "room") {
		args = args[1:]
		if len(args) == 0 {
			return b.showSettings(tx, r)
		}
	}
	if len(args) == 0 {
		return b.showSettings(tx, r)
	}
	var mine, room []string
	seen := map[string]string{}
	for _, a := range args {
		k, v, ok := strings.Cut(a, "=")
		k = strings.ToLower(k)
		if !ok {
			return Reply{}, errorf("Write settings as key=value, like notify=dm or theme=dark (I got %s).", echo(a))
		}
		if prev, dup := seen[k]; dup {
			return Reply{}, b.usageError("settings", fmt.Sprintf("Two values for %s: %s and %s — give one.", clipArg(k), echo(prev), echo(a)))
		}
		seen[k] = a
		switch {
		case playerKeys[k]:
			mine = append(mine, k+"="+v)
		case roomKeys[k]:
			room = append(room, a)
		default:
			return Reply{}, errorf("There is no setting %s. Yours: %s. The room's (admins): %s.", echo(k), strings.Join(sortedNames(playerKeys), ", "), strings.Join(sortedNames(roomKeys), ", "))
		}
	}
	if len(room) > 0 && !r.Admin {
		return Reply{}, errorf("Only room admins can change the room's settings (%s).", ClipRunes(strings.Join(room, " "), 80))
	}
	var o gameOptions
	room, engines, err := enginesSetting(room)
	if err != nil {
		return Reply{}, err
	}
	if len(room) > 0 {
		var err error
		if o, err = parseOptions(room); err != nil {
			return Reply{}, err
		}
	}
	err = func() error {
		if len(mine) > 0 {
			p, err := tx.Player(r.User.ID)
			if err != nil {
				if !errors.Is(err, ErrNotFound) {
					return err
				}
				p = &Player{ID: r.User.ID, Name: r.User.Name}
			}
			for _, kv := range mine {
				k, v, _ := strings.Cut(kv, "=")
				v = strings.ToLower(v)
				switch k {
				case "notify":
					if v != "mention" && v != "dm" && v != "off" {
						return errorf("notify=%s: choose mention, dm or off.", clipArg(v))
					}
					p.Notify = v
				case "theme":
					if v != "wood" && v != "dark" {
						return errorf("theme=%s: choose wood or dark.", clipArg(v))
					}
					p.Theme = v
				case "rank":
					if err := b.stateRank(tx, r, v); err != nil {
						return err
					}
				}
			}
			p.Updated = r.Time
			if err := tx.PutPlayer(p); err != nil {
				return err
			}
		}
		if len(room) > 0 || engines != nil {
			rm, err := tx.Room(r.Room)
			if err != nil {
				if !errors.Is(err, ErrNotFound) {
					return err
				}
				rm = &Room{ID: r.Room}
			}
			if o.Rules != nil {
				rm.Rules = o.RulesText
			}
			if o.Width > 0 {
				rm.Width, rm.Height = o.Width, o.Height
			}
			if o.Komi != nil {
				rm.Komi = o.Komi
			}
			if o.Clock != nil {
				rm.Clock = FormatClock(*o.Clock)
			}
			if o.Threads != nil {
				rm.Threads = *o.Threads
			}
			if engines != nil {
				rm.NoEngines = !*engines
			}
			rm.Updated = r.Time
			return tx.PutRoom(rm)
		}
		return nil
	}()
	if err != nil {
		return Reply{}, err
	}
	rep, err := b.showSettings(tx, r)
	rep.Text = "Saved.\n" + rep.Text
	return rep, err
}

func (b *Bot) showSettings(tx Tx, r *Request) (Reply, error) {
	p := playerIn(tx, r.User.ID)
	var rm Room
	var rank string
	if rec, err := tx.Rating(communityOf(r), r.User.ID); err == nil {
		rank = " rank=" + rec.Player().RankLabel()
	}
	if x, err := tx.Room(r.Room); err == nil {
		rm = *x
	} else if !errors.Is(err, ErrNotFound) {
		return Reply{}, err
	}
	or := func(s, def string) string {
		if s == "" {
			return def
		}
		return s
	}
	size := game.SizeString(b.cfg.Width, b.cfg.Height)
	if rm.Width > 0 {
		size = game.SizeString(rm.Width, rm.Height)
	}
	komi := "by ruleset"
	if b.cfg.Komi != nil {
		komi = game.FormatKomi(*b.cfg.Komi)
	}
	if rm.Komi != nil {
		komi = game.FormatKomi(*rm.Komi)
	}
	text := fmt.Sprintf("You: notify=%s theme=%s%s\nThis room: rules=%s size=%s komi=%s clock=%s threads=%s engines=%s\nChange yours with %s; admins change the room's with %s.",
		or(p.Notify, "mention"), or(p.Theme, "wood"), rank, or(rm.Rules, b.cfg.Rules), size, komi, or(rm.Clock, or(b.cfg.Clock, "none")),
		map[bool]string{true: "on", false: "off"}[rm.Threads], map[bool]string{true: "off", false: "on"}[rm.NoEngines], b.cmd("settings notify=dm theme=dark"), b.cmd("settings room rules=japanese size=19 clock=3d"))
	return Reply{Title: "Settings", Text: text, Private: true}, nil
}

// Complete suggests values for argument arg of command cmd, given what the
// user has typed so far (Discord autocomplete): the caller's active games
// for a game reference, legal points for play.
func (b *Bot) Complete(ctx context.Context, r Request, cmd, arg, typed string) []Choice {
	typed = strings.ToUpper(strings.TrimSpace(typed))
	var games []*Game
	names := map[UserID]string{}
	b.store.View(ctx, func(tx Tx) error {
		games, _ = tx.ActiveGames(r.User.ID)
		if strings.Contains(arg, "game") {
			for _, sg := range games {
				opp := playerOf(sg, colorOf(sg, r.User.ID).Opponent())
				names[opp] = displayName(tx, opp)
			}
		}
		return nil
	})
	sort.Slice(games, func(i, j int) bool { return games[i].ID < games[j].ID })
	var out []Choice
	switch {
	case strings.Contains(arg, "game"):
		for _, sg := range games {
			v := fmt.Sprintf("#%d", sg.ID)
			if typed != "" && !strings.HasPrefix(v, "#"+strings.TrimPrefix(typed, "#")) {
				continue
			}
			opp := playerOf(sg, colorOf(sg, r.User.ID).Opponent())
			out = append(out, Choice{Name: fmt.Sprintf("#%d vs %s", sg.ID, names[opp]), Value: v})
		}
	case arg == "engine":
		return b.completeEngine(typed)
	case arg == "point":
		var sg *Game
		if ref, ok := r.Named["#game"]; ok {
			id, _ := parseRefArg(ref, "game")
			for _, g := range games {
				if uint64(g.ID) == id {
					sg = g
				}
			}
		} else {
			var here []*Game
			for _, g := range games {
				if r.DM || g.Room == r.Room || (g.Thread && g.Parent == r.Room) {
					here = append(here, g)
				}
			}
			if len(here) == 1 {
				sg = here[0]
			}
		}
		if sg == nil {
			return nil
		}
		l, err := load(sg)
		if err != nil || l.g.Phase() != game.Playing {
			return nil
		}
		cfg := l.g.Config()
		for y := 0; y < cfg.Height && len(out) < 25; y++ {
			for x := 0; x < cfg.Width && len(out) < 25; x++ {
				p := game.Pt(x, y)
				name := p.GTP(cfg.Height)
				if !strings.HasPrefix(name, typed) || l.g.At(p) != game.Empty {
					continue
				}
				if k, ok := l.g.KoPoint(); ok && k == p && cfg.Rules.Ko == game.KoSimple {
					continue
				}
				out = append(out, Choice{Name: name, Value: name})
			}
		}
	}
	if len(out) > 25 {
		out = out[:25]
	}
	return out
}

// Run drives the clock: reminders and timeouts, until ctx ends. Games
// whose deadline passed while the bot was down are handled at once.
func (b *Bot) Run(ctx context.Context) error {
	t := time.NewTicker(b.cfg.Tick)
	defer t.Stop()
	for {
		if err := b.Tick(ctx); err != nil {
			b.log.Error("clock", "err", err)
		}
		select {
		case <-ctx.Done():
			return nil
		case <-t.C:
		}
	}
}

// Tick handles every due clock once: it sends the reminders that are due
// and ends games whose time ran out. Due games are found through the
// storage deadline index. Only games of platforms with a notifier are
// claimed: several processes may share the store, and one that cannot
// deliver to a platform right now (a Matrix standby) leaves its games to
// one that can, so no reminder or timeout is claimed and then not sent.
func (b *Bot) Tick(ctx context.Context) error {
	now := b.clock.Now()
	horizon := now
	if len(b.cfg.Reminders) > 0 {
		horizon = now.Add(b.cfg.Reminders[0])
	}
	var due []*Game
	if err := b.store.View(ctx, func(tx Tx) error {
		var err error
		due, err = tx.DueGames(horizon, 0)
		return err
	}); err != nil && len(due) == 0 {
		return err
	}
	for _, sg := range due {
		if _, ok := b.notifier(sg.Room.Platform()); !ok {
			// Not deliverable from this process now (a standby Matrix
			// process): leave it to one that can send the message.
			continue
		}
		if b.engineTick(sg) {
			continue
		}
		if err := b.tickGame(ctx, sg.ID, now); err != nil {
			b.log.Error("clock", "game", sg.ID, "err", err)
		}
	}
	// Forget handled event IDs older than EventTTL.
	return b.store.Update(ctx, func(tx Tx) error {
		if _, err := tx.ExpireOutbox(now.Add(-b.cfg.EventTTL)); err != nil {
			return err
		}
		_, err := tx.ExpireEvents(now.Add(-b.cfg.EventTTL))
		return err
	})
}

func (b *Bot) tickGame(ctx context.Context, id GameID, now time.Time) error {
	// The transaction decides, records and builds the messages; they are
	// sent after it commits.
	var later []Message
	err := b.store.Update(ctx, func(tx Tx) error {
		// A shared store may run this again after a conflict: decide
		// afresh, or a claim another process won would be sent too.
		later = nil
		in := b.inTx(&later)
		sg, err := tx.Game(id)
		if err != nil {
			return err
		}
		if !sg.Active() || sg.Deadline.IsZero() {
			return nil
		}
		if _, ok := b.notifier(sg.Room.Platform()); !ok {
			return nil // the notifier went away since Tick looked
		}
		l, err := load(sg)
		if err != nil {
			return err
		}
		late := playerOf(sg, l.g.ToMove())
		if !now.Before(sg.Deadline) {
			if err := l.g.Timeout(l.g.ToMove()); err != nil {
				return err
			}
			sg.Record = l.g.Record()
			finish(sg, l.g, now)
			if err := b.rateGame(tx, sg, l.g); err != nil {
				return err
			}
			sg.Updated = now
			if err := tx.PutGame(sg); err != nil {
				return err
			}
			r := &Request{Time: now, Room: sg.Room}
			in.notify(ctx, Message{Room: sg.Room, Reply: in.gameReply(tx, l, r, fmt.Sprintf("%s ran out of time.", Mention(late)))})
			return nil
		}
		k := 0
		for i, d := range b.cfg.Reminders {
			if sg.Deadline.Sub(now) <= d {
				k = i + 1
			}
		}
		if k <= sg.Reminded {
			return nil
		}
		left := sg.Deadline.Sub(now)
		sg.Reminded = k
		if err := tx.PutGame(sg); err != nil {
			return err
		}
		msg := Message{Room: sg.Room, Reply: Reply{Game: id, Title: fmt.Sprintf("Game #%d", id),
			Text:     fmt.Sprintf("%s, it's your move in game #%d — %s left.", Mention(late), id, FormatDuration(left)),
			Mentions: []UserID{late}}}
		if playerIn(tx, late).Notify == "dm" {
			msg.To = late
		}
		in.notify(ctx, msg)
		return nil
	})
	if err != nil {
		return err
	}
	b.send(ctx, later)
	return nil
}
