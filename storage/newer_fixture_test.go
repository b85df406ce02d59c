package storage

import (
	"testing"
	"time"

	"github.com/gobotgo/gobot"
	"github.com/gobotgo/gobot/game"
)

// newerFixture holds the records of features newer than
// testdata/schema2.db, which only schema-2 code could write:
// records.golden has them after buildFixture's, TestRecordFormat writes
// them after the fixture, and TestSchema2MigratesToToday writes them into
// the upgraded file before comparing it.
func newerFixture(t testing.TB) fixture {
	var f fixture
	// 17: a game with a plan (conditional moves): Black answers C3 with
	// C4, then D3 with D4, and a pass with a pass.
	g, _ := fixtureGame(t, "japanese", 9, 9, 0, "E5")
	pt := func(s string) game.Point {
		p, err := game.ParsePoint(s, 9, 9)
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	g.Plan = &gobot.Plan{By: "discord:1", Branches: []gobot.PlanBranch{
		{Their: pt("C3"), Reply: pt("C4"), Next: []gobot.PlanBranch{{Their: pt("D3"), Reply: pt("D4")}}},
		{Their: game.Pass, Reply: game.Pass},
	}}
	f.games = append(f.games, g)

	// 18: a team game (rengo), 2 against 2, after one turn passed on time.
	g, _ = fixtureGame(t, "japanese", 9, 9, 0, "E5 C3")
	g.Black, g.White = "discord:1", "discord:3"
	g.Teams = &gobot.Teams{Black: []gobot.UserID{"discord:1", "discord:2"}, White: []gobot.UserID{"discord:3", "discord:4"}}
	g.Teams.Skipped[game.White], g.Teams.Late[game.White] = 1, 1
	f.games = append(f.games, g)

	// 19: the room against a player by vote, a window open with two
	// ballots.
	g, _ = fixtureGame(t, "japanese", 9, 9, 0, "")
	g.Black, g.White = gobot.VoteSeat, "discord:2"
	closes := f0.Add(10 * time.Minute)
	g.Deadline = closes
	g.Vote = &gobot.Vote{Window: 10 * time.Minute, Closes: closes,
		Ballots: []gobot.Ballot{{By: "discord:1", Move: "E5", At: f0}, {By: "discord:3", Move: "pass", At: f0.Add(time.Minute)}},
		Voters:  []gobot.UserID{"discord:1", "discord:3"}}
	f.games = append(f.games, g)

	// 20: a per-move game stopped by a vacation, and one that ignores
	// vacations.
	g, _ = fixtureGame(t, "japanese", 9, 9, 0, "E5")
	g.Clock = gobot.TimeControl{Kind: gobot.PerMove, PerMove: 72 * time.Hour}
	g.PausedBy, g.PausedLeft, g.PausedAt = []gobot.UserID{"discord:2"}, 50*time.Hour, f0
	f.games = append(f.games, g)
	g, _ = fixtureGame(t, "japanese", 9, 9, 0, "")
	g.Clock = gobot.TimeControl{Kind: gobot.PerMove, PerMove: 72 * time.Hour}
	g.Deadline, g.NoVacation = f0.Add(72*time.Hour), true
	f.games = append(f.games, g)

	cfg := g.Record.Config
	f.challenges = append(f.challenges,
		&gobot.Challenge{Room: "discord:100", From: "discord:1", To: "discord:3", Config: cfg, Color: "black", Created: f0,
			Teams: &gobot.Teams{Black: []gobot.UserID{"discord:1", "discord:2"}, White: []gobot.UserID{"discord:3", "discord:4"}, Accepted: []gobot.UserID{"discord:2"}}},
		&gobot.Challenge{Room: "discord:100", From: "discord:1", To: "discord:2", Config: cfg, Color: "white", Created: f0, VoteWindow: time.Hour},
		&gobot.Challenge{Room: "discord:100", From: "discord:1", To: "discord:2", Config: cfg, Color: "random", Created: f0, NoVacation: true},
	)
	f.players = append(f.players, &gobot.Player{ID: "discord:4", Name: "Dee", Updated: f0,
		Vacation: &gobot.Vacation{FirstGame: f0.Add(-30 * 24 * time.Hour), Left: 9 * 24 * time.Hour, Weeks: 4, Start: f0, End: f0.Add(9 * 24 * time.Hour), Room: "discord:100"}})
	f.rooms = append(f.rooms, &gobot.Room{ID: "matrix:!widgets:example.org", Widget: true, Updated: f0})
	// Personal web links reset: game 1's Black twice, a watcher of game
	// 2 once.
	f.links = append(f.links, linkGen{1, "discord:1", 2}, linkGen{2, "matrix:@cy:example.org", 1})
	return f
}
