package chat

import (
	"bytes"
	"image/png"
	"strings"
	"testing"

	"github.com/gobotgo/gobot/render"
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
