package record

import (
	"bytes"
	"reflect"
	"strings"
	"testing"

	"github.com/gobotgo/gobot"
	"github.com/gobotgo/gobot/game"
)

// A game's plan survives the record format, passes included; a game
// without one writes nothing of it, and a plan without its player or
// moves, or with a point that is not SGF letters, does not decode.
func TestCodecPlan(t *testing.T) {
	g := newGame(t, "t:a", "t:b", "t:r")
	plain, err := EncodeMatch(g)
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(plain, []byte("plan")) {
		t.Errorf("a game without a plan writes one: %s", plain)
	}
	g.Plan = &gobot.Plan{By: "t:b", Branches: []gobot.PlanBranch{
		{Their: game.Pt(2, 6), Reply: game.Pt(2, 5), Next: []gobot.PlanBranch{{Their: game.Pass, Reply: game.Pass}}},
		{Their: game.Pt(6, 2), Reply: game.Pt(6, 6)},
	}}
	raw, err := EncodeMatch(g)
	if err != nil {
		t.Fatal(err)
	}
	want := `"plan":{"by":"t:b","branches":[{"their":"cg","reply":"cf","next":[{"their":"","reply":""}]},{"their":"gc","reply":"gg"}]}`
	if !bytes.Contains(raw, []byte(want)) {
		t.Fatalf("encoded %s\nwant it to hold %s", raw, want)
	}
	back, err := DecodeMatch(raw)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(back.Plan, g.Plan) {
		t.Fatalf("decoded %+v, want %+v", back.Plan, g.Plan)
	}
	for _, bad := range []string{`"by":"t:b"`, `"their":"gc"`, `"branches":[{"their":"cg"`} {
		to := map[string]string{`"by":"t:b"`: `"by":""`, `"their":"gc"`: `"their":"g"`, `"branches":[{"their":"cg"`: `"branches":[],"x":[{"their":"cg"`}[bad]
		damaged := strings.Replace(string(raw), bad, to, 1)
		if _, err := DecodeMatch([]byte(damaged)); err == nil {
			t.Errorf("decoded a plan with %s", to)
		}
	}
}
