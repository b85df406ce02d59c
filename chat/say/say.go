// Package say is the bot's words: what chat says about the outcomes of
// the game flow (package flow) and why it refuses a command. Its
// functions are pure: they get the outcome, the game and a Namer, and
// return text, with mentions and command tokens that each adapter
// renders in its own syntax (protocol.Mention, protocol.Cmd). It reads
// no store and changes nothing.
//
// A refusal is a protocol.Refusal (Refusef, Shortest): its text is shown
// to the user as it is, and is under protocol.MaxRefusal bytes.
package say

import (
	"fmt"
	"strings"

	"github.com/gobotgo/gobot"
	"github.com/gobotgo/gobot/chat/protocol"
	"github.com/gobotgo/gobot/game"
)

// Namer gives a user's display name (chat's reads the player's stored
// name in the command's transaction).
type Namer interface {
	Name(u gobot.UserID) string
}

// Refusef is a refusal: a mistake by the user, its text shown as is.
func Refusef(format string, a ...any) error { return protocol.Refusef(format, a...) }

// Shortest refuses with long, which names the players, unless their
// names make it longer than a refusal may be; then with short.
func Shortest(long, short string) error {
	if len(long) <= protocol.MaxRefusal {
		return Refusef("%s", long)
	}
	return Refusef("%s", short)
}

// Cmd writes a command for the user to type, as a token each adapter
// renders in its own syntax ("/go accept #7", "!go accept #7").
func Cmd(s string) string { return protocol.Cmd(s) }

// Plural is "s" unless n is 1.
func Plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

// AndList joins s as "a, b and c".
func AndList(s []string) string {
	if len(s) < 2 {
		return strings.Join(s, "")
	}
	return strings.Join(s[:len(s)-1], ", ") + " and " + s[len(s)-1]
}

// Mentions lists users as mentions: "@a, @b and @c".
func Mentions(us []gobot.UserID) string {
	var s []string
	for _, u := range us {
		s = append(s, protocol.Mention(u))
	}
	return AndList(s)
}

// Names lists users by name, as the board's header and SGF do: "alice, bob".
func Names(n Namer, us []gobot.UserID) string {
	var s []string
	for _, u := range us {
		s = append(s, n.Name(u))
	}
	return strings.Join(s, ", ")
}

// TeamLabel names colour c's team: "White: carol, dave".
func TeamLabel(n Namer, match *gobot.Match, c game.Color) string {
	return c.Name() + ": " + Names(n, match.Side(c).Players)
}

// Called names side s in a game's text: its player, or a team's
// members ("alice, bob").
func Called(n Namer, s gobot.Side) string {
	if s.Rotates() {
		return Names(n, s.Players)
	}
	return protocol.Mention(s.ToMove())
}

// SideName names colour c's side in a game's text: its player, or in a
// team game "Black (alice, bob)".
func SideName(n Namer, match *gobot.Match, c game.Color) string {
	if !match.Side(c).Rotates() {
		return protocol.Mention(match.Side(c).ToMove())
	}
	return fmt.Sprintf("%s (%s)", c.Name(), Names(n, match.Side(c).Players))
}

// Answerer names who may answer for colour c: its player, or in a team
// game any member ("White (@carol or @dave)").
func Answerer(match *gobot.Match, c game.Color) string {
	if !match.Side(c).Rotates() {
		return protocol.Mention(match.Side(c).ToMove())
	}
	var s []string
	for _, u := range match.Side(c).Players {
		s = append(s, protocol.Mention(u))
	}
	or := strings.Join(s, " or ")
	if len(s) > 2 {
		or = strings.Join(s[:len(s)-1], ", ") + " or " + s[len(s)-1]
	}
	return fmt.Sprintf("%s (%s)", c.Name(), or)
}

// ActsFor is what a player of colour c acts for when it is more than
// themselves: " for Black (alice, bob)" in a team game, " for the room"
// for a voter in a vote game; "" otherwise.
func ActsFor(n Namer, match *gobot.Match, c game.Color) string {
	switch s := match.Side(c); {
	case s.Rotates():
		return " for " + SideName(n, match, c)
	case s.Kind == gobot.SideRoom:
		return " for the room"
	}
	return ""
}

// Sides names a game's two sides: "players", or "teams" in a team game.
func Sides(m *gobot.Match) string {
	switch {
	case m.Has(gobot.SideTeam):
		return "teams"
	case m.Has(gobot.SideRoom):
		return "sides" // a player (or an engine) and the room
	}
	return "players"
}

// ResultWords is a stored result (SGF's RE: "B+R", "0") in words.
func ResultWords(re string) string {
	res, err := game.ParseResult(re)
	switch {
	case err != nil:
		return re
	case res.Winner == game.Empty && res.Reason == game.ByScore:
		return "a draw" // by count or by a cycle: RE says only "0"
	}
	return res.Describe()
}

// Config describes a game's settings: "19×19, Japanese rules, komi 6.5,
// handicap 2, 3d a move" (the clock in words: ClockWords).
func Config(cfg game.Config, clock gobot.TimeControl) string {
	s := fmt.Sprintf("%s, %s rules, komi %s", game.SizeString(cfg.Width, cfg.Height), cfg.Rules.Name, game.FormatKomi(cfg.Rules.Komi))
	if cfg.Handicap >= 2 {
		s += fmt.Sprintf(", handicap %d", cfg.Handicap)
	}
	if clock.Kind != gobot.NoClock {
		s += ", " + ClockWords(clock)
	}
	return s
}

// ClockWords is a clock in words, in the terms its running clock is
// shown in (LiveClock): "3d a move", "byo-yomi 10m + 5×30s",
// "Canadian 10m + 25 stones in 5m", "Fischer 5m + 10s a move, at most
// 10m" ("Fischer 5m, no increment"), "absolute 20m", "simple 30s a
// move"; "no clock".
func ClockWords(c gobot.TimeControl) string {
	d := protocol.FormatDuration
	switch c.Kind {
	case gobot.PerMove:
		return d(c.PerMove) + " a move"
	case gobot.Simple:
		return "simple " + d(c.PerMove) + " a move"
	case gobot.Absolute:
		return "absolute " + d(c.Main)
	case gobot.Fischer:
		if c.Increment == 0 { // a bank that never grows
			return fmt.Sprintf("Fischer %s, no increment", d(c.Main))
		}
		return fmt.Sprintf("Fischer %s + %s a move, at most %s", d(c.Main), d(c.Increment), d(c.Max))
	case gobot.ByoYomi:
		periods := fmt.Sprintf("%d×%s", c.Periods, d(c.Period))
		if c.Main == 0 {
			return "byo-yomi " + periods
		}
		return "byo-yomi " + d(c.Main) + " + " + periods
	case gobot.Canadian:
		stones := fmt.Sprintf("%d %s in %s", c.Stones, plural(c.Stones, "stone"), d(c.Period))
		if c.Main == 0 {
			return "Canadian " + stones
		}
		return "Canadian " + d(c.Main) + " + " + stones
	}
	return "no clock"
}

func plural(n int, word string) string { return word + Plural(n) }

// ClockNote says, for a Fischer clock whose maximum is its starting time
// (fischer:10m+1m, written without one), that the increment never makes
// it grow: a player who expects it to is told when the clock is chosen.
func ClockNote(clock gobot.TimeControl) string {
	if clock.Kind != gobot.Fischer || clock.Increment == 0 || clock.Max != clock.Main {
		return ""
	}
	return fmt.Sprintf(" The clock's increment refills it up to %s, no more; a maximum like fischer:%s+%s/%s lets it grow.", protocol.FormatDuration(clock.Main), protocol.FormatClockDuration(clock.Main), protocol.FormatClockDuration(clock.Increment), protocol.FormatClockDuration(2*clock.Main))
}
