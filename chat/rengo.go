package chat

import (
	"errors"
	"slices"
	"strings"

	"github.com/gobotgo/gobot"
	"github.com/gobotgo/gobot/chat/guide"
	"github.com/gobotgo/gobot/chat/protocol"
	"github.com/gobotgo/gobot/chat/say"
	"github.com/gobotgo/gobot/flow"
	"github.com/gobotgo/gobot/game"
)

// Team games (rengo): the commands that propose and answer them; their
// flow is flow/team.go, their words chat/say/team.go.

func cmdRengo(call *Call) (Result, error) {
	tx, b, r, a := call.Tx, call.bot, call.Req, call.Args
	first, second := a.Teams[0], a.Teams[1]
	if err := flow.CheckTeams(first, second, r.User.ID); err != nil {
		return Result{}, say.TeamsRefused(err)
	}
	if a.Choice["rated"] == "rated" || a.Rating.Auto {
		return Result{}, say.TeamsUnrated(a.Choice["rated"] != "rated")
	}
	room, err := tx.Room(r.Room)
	if err != nil && !errors.Is(err, gobot.ErrNotFound) {
		return Result{}, err
	}
	o := a.Options
	o.Placement = a.Choice["placement"]
	cfg, clock, color, err := o.Config(b.gameDefaults(room))
	if err != nil {
		return Result{}, err
	}
	if err := b.rememberUser(tx, r.User, r.Time); err != nil {
		return Result{}, err
	}
	teams := &gobot.Teams{Black: first, White: second}
	for _, m := range r.Mentions {
		if teams.ColorOf(m.ID) != game.Empty {
			if err := b.rememberUser(tx, m, r.Time); err != nil {
				return Result{}, err
			}
		}
	}
	c := &gobot.Challenge{Room: r.Room, From: r.User.ID, Config: cfg, Color: color, Clock: clock, Created: r.Time, Teams: teams}
	if err := flow.ProposeTeams(tx, c); err != nil {
		return Result{}, err
	}
	title, text := say.TeamChallenge(c)
	rep := protocol.Reply{Title: title, Text: text, Mentions: flow.TeamWaiting(c), Actions: say.ChallengeActions(c.ID)}
	if note := guide.AliasNote(a.Options.RulesPreset); note != "" {
		rep.Text += "\n" + strings.TrimSpace(note)
	}
	return Result{Reply: rep}, nil
}

// acceptTeam is `accept` of a team challenge (ok false: not one, and
// cmdAccept goes on as for two players).
func acceptTeam(call *Call) (res Result, ok bool, err error) {
	tx, b, r, a := call.Tx, call.bot, call.Req, call.Args
	c, err := findChallenge(tx, r, a.Challenge, false)
	if err != nil || !c.ForTeams() {
		return Result{}, false, nil // cmdAccept says what is wrong
	}
	acc, err := flow.AcceptTeam(tx, b.cfg.Vacation, c, r.User.ID, r.Time)
	if err != nil {
		return Result{}, true, say.TeamAnswerRefused(err, true)
	}
	b.logCorrupt(acc.Corrupt)
	if err := b.rememberUser(tx, r.User, r.Time); err != nil {
		return Result{}, true, err
	}
	if acc.Began == nil {
		title, text := say.TeamAccepts(c, r.User.ID, acc.Waiting)
		return Result{Reply: protocol.Reply{Title: title, Mentions: acc.Waiting, Text: text}}, true, nil
	}
	// The last one: the game began, under the challenge's number.
	l := &loaded{Loaded: acc.Began, note: say.TurnsPassed(namer(tx), acc.Began.Match, acc.Turns)}
	room, err := tx.Room(c.Room)
	res, err = b.beginReply(tx, r, l, say.TeamBegins(namer(tx), c, l.Loaded), err == nil && room.Threads)
	return res, true, err
}

// declineTeam is `decline` of a team challenge: any named player's
// decline cancels it (ok false: not a team challenge).
func declineTeam(call *Call) (res Result, ok bool, err error) {
	tx, r, a := call.Tx, call.Req, call.Args
	c, err := findChallenge(tx, r, a.Challenge, false)
	if err != nil || !c.ForTeams() {
		return Result{}, false, nil
	}
	if err := flow.DeclineTeam(tx, c, r.User.ID, r.Time); err != nil {
		return Result{}, true, say.TeamAnswerRefused(err, false)
	}
	others := slices.DeleteFunc(c.Teams.Members(), func(u gobot.UserID) bool { return u == r.User.ID })
	return Result{Reply: protocol.Reply{Text: say.TeamDeclined(c, r.User.ID), Mentions: others}}, true, nil
}
