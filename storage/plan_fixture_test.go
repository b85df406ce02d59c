package storage

import (
	"testing"

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
	return f
}
