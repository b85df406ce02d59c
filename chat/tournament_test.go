package chat

import (
	"bytes"
	"image/png"
	"strings"
	"testing"

	"github.com/gobotgo/gobot/flow"
	"github.com/gobotgo/gobot/render"
	"github.com/gobotgo/gobot/tournament"
)

// The standings come with their table drawn as an image where the bot
// draws (render's table, StandingsPNG), on their first page.
func TestStandingsImage(t *testing.T) {
	h := newHarness(t)
	h.bot.render = &render.Renderer{}
	for _, l := range [][2]string{{"alice", `tournament new "Cup" swiss rounds=2 size=9`}, {"alice", "tournament join"}, {"bob", "tournament join"}, {"carol", "tournament join"}, {"alice", "tournament start"}} {
		if rep := h.do(l[0], l[1]); rep.Error {
			t.Fatalf("%s: %s", l[1], rep.Text)
		}
	}
	rep := h.do("carol", "tournament standings")
	if rep.Error || rep.Image == nil || !strings.HasPrefix(rep.Image.Name, "standings-round-1-") || rep.Image.MIME != "image/png" {
		t.Fatalf("standings: %q, image %+v", rep.Text, rep.Image)
	}
	img, err := png.Decode(bytes.NewReader(rep.Image.Data))
	if err != nil || img.Bounds().Dx() != rep.Image.Width || img.Bounds().Dy() != rep.Image.Height {
		t.Fatalf("the image: %v, %v", img, err)
	}
	if rep := h.do("carol", "tournament standings page=2"); rep.Image != nil {
		t.Errorf("page 2 has an image: %+v", rep.Image.Name)
	}
}

// Issue 45, item 7: `ladder` comes with the ladder's top drawn as an
// image where the bot draws (render's table, LadderPNG, through the
// renderer port), on its first page; the names drawn are the players'.
func TestLadderImage(t *testing.T) {
	h := newHarness(t)
	h.bot.render = &render.Renderer{}
	for _, l := range [][2]string{{"carol", `ladder new "Room ladder"`}, {"alice", "ladder join"}, {"bob", "ladder join"}, {"carol", "ladder join"}, {"carol", "ladder challenge @bob"}} {
		if rep := h.do(l[0], l[1]); rep.Error {
			t.Fatalf("%s: %s", l[1], rep.Text)
		}
	}
	rep := h.do("dave", "ladder")
	if rep.Error || rep.Image == nil || !strings.HasPrefix(rep.Image.Name, "ladder-") || rep.Image.MIME != "image/png" {
		t.Fatalf("ladder: %q, image %+v", rep.Text, rep.Image)
	}
	img, err := png.Decode(bytes.NewReader(rep.Image.Data))
	if err != nil || img.Bounds().Dx() != rep.Image.Width || img.Bounds().Dy() != rep.Image.Height {
		t.Fatalf("the image: %v, %v", img, err)
	}
	// The same table as render draws it with the players' names.
	var want bytes.Buffer
	names := map[tournament.PlayerID]string{"test:alice": "alice", "test:bob": "bob", "test:carol": "carol"}
	if _, _, err := render.LadderPNG(&want, flow.LadderRules(h.ladder(1)), func(p tournament.PlayerID) string { return names[p] }, render.TableOptions{Title: "Room ladder"}); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(want.Bytes(), rep.Image.Data) {
		t.Errorf("the ladder's image is not render's table of its rungs with their names")
	}
	h.ok("erin", `ladder new "Empty"`)
	if rep := h.do("erin", "ladder L2"); rep.Error || rep.Image != nil {
		t.Errorf("an empty ladder has an image: %+v", rep)
	}
}
