package record

import (
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/gobotgo/gobot"
	"github.com/gobotgo/gobot/game"
)

func testReview(t *testing.T) *gobot.Review {
	t.Helper()
	roots, err := game.ParseSGF([]byte("(;SZ[9]KM[6.5]HA[2]AB[cg][gc]PB[ann]PW[bob]RE[W+R]C[root];W[ee]C[main]TR[aa][bb]" +
		"(;B[ec];W[]LB[cc:A])(;B[ce]SQ[dd]CR[ff]C[variation];W[]AE[cg]AW[ii]PL[W]))"))
	if err != nil {
		t.Fatal(err)
	}
	tree, err := game.TreeFromSGF(roots[0])
	if err != nil {
		t.Fatal(err)
	}
	now := time.Date(2026, 11, 28, 9, 30, 0, 0, time.UTC)
	r := gobot.NewReview("discord:room", "discord:ann", "game #12", tree, now)
	r.ID, r.Version, r.Game, r.Node, r.Kept = 3, 2, 12, 4, true
	r.Present = []gobot.UserID{"discord:ann", "discord:bob"}
	return r
}

// A review's record keeps its whole tree (variations, setup, marks,
// comments), its position, control and followers.
func TestReviewRecord(t *testing.T) {
	r := testReview(t)
	raw, err := EncodeReview(r)
	if err != nil {
		t.Fatal(err)
	}
	got, err := DecodeReview(raw)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, r) {
		t.Fatalf("decoded\n%+v\nwant\n%+v\nfrom %s", got, r, raw)
	}
	const want = `{"v":4,"id":3,"version":2,"room":"discord:room","game":12,"title":"game #12","width":9,"height":9,"komi":6.5,"handicap":2,` +
		`"info":{"PB":"ann","PW":"bob","RE":"W+R"},"nodes":[{"p":-1,"ab":["cg","gc"],"c":"root"},{"p":0,"m":"W ee","mk":["TR aa","TR bb"],"c":"main"},` +
		`{"p":1,"m":"B ec"},{"p":2,"m":"W","mk":["LB cc A"]},{"p":1,"m":"B ce","mk":["SQ dd","CR ff"],"c":"variation"},` +
		`{"p":4,"m":"W","ae":["cg"],"aw":["ii"],"pl":"W"}],"node":4,"owner":"discord:ann","controller":"discord:ann",` +
		`"present":["discord:ann","discord:bob"],"kept":true,"created":"2026-11-28T09:30:00Z","updated":"2026-11-28T09:30:00Z"}`
	if string(raw) != want {
		t.Errorf("record\n%s\nwant\n%s", raw, want)
	}
	// The pinned record decodes as it is (a format change fails here).
	if again, err := DecodeReview([]byte(want)); err != nil || !reflect.DeepEqual(again, r) {
		t.Errorf("pinned record: %+v, %v", again, err)
	}
	for _, bad := range []string{
		`{"v":4,"width":9,"height":9,"nodes":[],"node":0}`,
		`{"v":4,"width":9,"height":9,"nodes":[{"p":-1},{"p":1}],"node":0}`,
		`{"v":4,"width":9,"height":9,"nodes":[{"p":-1,"m":"X dd"}],"node":0}`,
		`{"v":4,"width":9,"height":9,"nodes":[{"p":-1,"mk":["TR zz"]}],"node":0}`,
		`{"v":4,"width":9,"height":9,"nodes":[{"p":-1}],"node":1}`,
	} {
		if _, err := DecodeReview([]byte(bad)); err == nil {
			t.Errorf("%s decoded", bad)
		}
	}
}

// TestReviewRecordLinkGen: users' link generations are kept (only the
// ones past 0), and a record without them reads as none.
func TestReviewRecordLinkGen(t *testing.T) {
	r := testReview(t)
	r.LinkGen = map[gobot.UserID]uint64{"discord:bob": 2}
	raw, err := EncodeReview(r)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(raw), `"gen":{"discord:bob":2}`) {
		t.Errorf("record without the generation: %s", raw)
	}
	got, err := DecodeReview(raw)
	if err != nil || !reflect.DeepEqual(got, r) {
		t.Fatalf("decoded %+v, %v; want %+v", got, err, r)
	}
	r.LinkGen = map[gobot.UserID]uint64{"discord:bob": 0}
	if raw, _ := EncodeReview(r); strings.Contains(string(raw), `"gen"`) {
		t.Errorf("a generation 0 is stored: %s", raw)
	}
}

// A review's text is stored as it is, not HTML-escaped: "<" and "&" in a
// comment or label are one byte of the record each, not six (issue 43),
// and an escaped record, as written before, reads the same.
func TestReviewRecordText(t *testing.T) {
	r := testReview(t)
	r.Tree.Nodes[1].Comment = "a <- b & c > d"
	r.Tree.Nodes[3].Marks[0].Text = "<&>"
	raw, err := EncodeReview(r)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(raw), `"c":"a <- b & c > d"`) || !strings.Contains(string(raw), `"LB cc <&>"`) {
		t.Fatalf("text escaped: %s", raw)
	}
	escaped := strings.NewReplacer("<", `\u003c`, ">", `\u003e`, "&", `\u0026`).Replace(string(raw))
	for _, rec := range []string{string(raw), escaped} {
		if got, err := DecodeReview([]byte(rec)); err != nil || !reflect.DeepEqual(got, r) {
			t.Errorf("%s reads as %+v, %v", rec, got, err)
		}
	}
}
