package storetest

import (
	"reflect"
	"testing"
	"time"

	"github.com/gobotgo/gobot"
	"github.com/gobotgo/gobot/game"
)

// testPlan: a game's plan (conditional moves) is stored with it, a tree
// of several levels and passes included, and a cleared plan reads back
// as none.
func testPlan(t *testing.T, s gobot.Store) {
	g := NewGame("t:ann", "t:bob", "t:room")
	gg, _ := game.Replay(g.Record)
	if err := gg.Play(game.Black, game.Pt(4, 4)); err != nil {
		t.Fatal(err)
	}
	g.Record = gg.Record()
	g.MoveTimes = []time.Time{T0}
	g.Plan = &gobot.Plan{By: "t:ann", Branches: []gobot.PlanBranch{
		{Their: game.Pt(2, 6), Reply: game.Pt(2, 5), Next: []gobot.PlanBranch{
			{Their: game.Pt(3, 6), Reply: game.Pt(3, 5)},
			{Their: game.Pass, Reply: game.Pass},
		}},
		{Their: game.Pt(6, 2), Reply: game.Pt(6, 6)},
	}}
	putGames(t, s, g)
	got := getGame(t, s, g.ID)
	if !reflect.DeepEqual(got.Plan, g.Plan) || !reflect.DeepEqual(got, g) {
		t.Fatalf("plan round trip:\n got %+v\nwant %+v", got.Plan, g.Plan)
	}
	got.Plan = nil
	update(t, s, func(tx gobot.Tx) error { return tx.PutMatch(got) })
	if again := getGame(t, s, g.ID); again.Plan != nil {
		t.Fatalf("a cleared plan reads back as %+v", again.Plan)
	}
}
