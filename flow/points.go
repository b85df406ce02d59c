package flow

import (
	"strings"

	"github.com/gobotgo/gobot/game"
)

// FreePoints are the points of game l where a stone may go now, named
// as GTP names them, those starting with prefix, at most n: the empty
// points but a simple ko's. There are none once the game is not being
// played.
func FreePoints(l *Loaded, prefix string, n int) []string {
	if l.G.Phase() != game.Playing {
		return nil
	}
	cfg := l.G.Config()
	var out []string
	for y := 0; y < cfg.Height && len(out) < n; y++ {
		for x := 0; x < cfg.Width && len(out) < n; x++ {
			p := game.Pt(x, y)
			name := p.GTP(cfg.Height)
			if !strings.HasPrefix(name, prefix) || l.G.At(p) != game.Empty {
				continue
			}
			if k, ok := l.G.KoPoint(); ok && k == p && cfg.Rules.Ko == game.KoSimple {
				continue
			}
			out = append(out, name)
		}
	}
	return out
}
