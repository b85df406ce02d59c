package engine

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/gobotgo/gobot/game"
)

// A position is a game.Record translated to the GTP commands that bring
// an engine to it: the board size, komi and rules, the handicap or setup
// stones, then one play per move.
type position struct {
	g      *game.Game // the record replayed
	size   int
	script []string
	expect map[string]string // command -> its expected answer (sortedFields)
}

// maxUndo is how many of its own moves an engine is asked to undo before
// the position is sent again from an empty board.
const maxUndo = 16

// newPosition replays rec and writes its script for an engine that lists
// the given commands.
func newPosition(rec game.Record, commands map[string]bool) (*position, error) {
	g, err := game.Replay(rec)
	if err != nil {
		return nil, fmt.Errorf("%w: the game record does not replay: %v", ErrPosition, err)
	}
	cfg := rec.Config
	if cfg.Width != cfg.Height {
		return nil, fmt.Errorf("%w: GTP engines play square boards only, not %s", ErrUnsupported, game.SizeString(cfg.Width, cfg.Height))
	}
	n := cfg.Width
	pos := &position{g: g, size: n}
	s := []string{fmt.Sprintf("boardsize %d", n), "clear_board"}
	komi := cfg.Rules.Komi + cfg.Rules.HandicapBonus(cfg.Handicap)
	if commands["kgs-rules"] {
		name, bonus := kgsRules(cfg.Rules)
		s = append(s, "kgs-rules "+name)
		komi -= bonusPoints(bonus, cfg.Handicap)
	}
	s = append(s, "komi "+game.FormatKomi(komi))

	moves := rec.Moves
	switch {
	case len(rec.Setup) > 0:
		b := g.Setup()
		for _, c := range []game.Color{game.Black, game.White} {
			for _, p := range b.Stones(c) {
				s = append(s, playCmd(game.Move{Color: c, Point: p}, n))
			}
		}
	case cfg.Handicap >= 2 && cfg.Rules.Placement == game.PlacementFixed:
		pts, err := game.FixedHandicap(cfg.Handicap, n, n)
		if err != nil {
			return nil, fmt.Errorf("%w: %v", ErrPosition, err)
		}
		switch {
		case commands["set_free_handicap"]:
			s = append(s, "set_free_handicap "+vertices(pts, n))
		case commands["fixed_handicap"]:
			c := fmt.Sprintf("fixed_handicap %d", cfg.Handicap)
			s = append(s, c)
			pos.expect = map[string]string{c: sortedFields(vertices(pts, n))}
		default:
			for _, p := range pts {
				s = append(s, playCmd(game.Move{Color: game.Black, Point: p}, n))
			}
		}
	case cfg.Handicap >= 2:
		// Free placement: Black's first moves are the stones (with White's
		// passes between them under text 004). Once all are placed they go
		// to the engine as one set_free_handicap.
		block := cfg.Handicap
		if cfg.Rules.Placement == game.PlacementWhitePasses {
			block = 2*cfg.Handicap - 1
		}
		if len(moves) >= block && commands["set_free_handicap"] {
			var pts []game.Point
			for _, m := range moves[:block] {
				if m.Color == game.Black {
					pts = append(pts, m.Point)
				}
			}
			s = append(s, "set_free_handicap "+vertices(pts, n))
			moves = moves[block:]
		}
	}
	for _, m := range moves {
		s = append(s, playCmd(m, n))
	}
	pos.script = s
	return pos, nil
}

// placing reports whether Black is to place all its free handicap stones.
func (pos *position) placing() bool {
	cfg := pos.g.Config()
	return cfg.Handicap >= 2 && pos.g.HandicapLeft() == cfg.Handicap && pos.g.ToMove() == game.Black
}

func playCmd(m game.Move, size int) string {
	return "play " + colorArg(m.Color) + " " + strings.ToLower(m.Point.GTP(size))
}

func colorArg(c game.Color) string {
	if c == game.White {
		return "w"
	}
	return "b"
}

func vertices(pts []game.Point, size int) string {
	v := make([]string, len(pts))
	for i, p := range pts {
		v[i] = strings.ToLower(p.GTP(size))
	}
	return strings.Join(v, " ")
}

// kgsRules picks the kgs-rules ruleset closest to r, and the handicap
// bonus that ruleset gives White.
func kgsRules(r game.Rules) (string, game.Bonus) {
	switch {
	case r.Scoring == game.Territory:
		return "japanese", game.BonusNone
	case r.Suicide:
		return "new_zealand", game.BonusNone
	case r.Bonus == game.BonusNMinusOne:
		return "aga", game.BonusNMinusOne
	}
	return "chinese", game.BonusN
}

func bonusPoints(b game.Bonus, handicap int) float64 {
	return game.Rules{Bonus: b}.HandicapBonus(handicap)
}

// sync brings the engine to the position of script: it keeps what the
// engine already has in common with it, undoes a few moves where that is
// enough, and otherwise starts again from boardsize.
func (p *proc) sync(ctx context.Context, pos *position, timeout time.Duration) error {
	script := pos.script
	k := 0
	for k < len(p.script) && k < len(script) && p.script[k] == script[k] {
		k++
	}
	if extra := p.script[k:]; len(extra) > 0 {
		undo := p.commands["undo"] && len(extra) <= maxUndo
		for _, c := range extra {
			undo = undo && strings.HasPrefix(c, "play ")
		}
		if undo {
			for len(p.script) > k {
				if _, err := p.send(ctx, timeout, "undo"); err != nil {
					p.script = nil // unsure what the engine holds now
					return err
				}
				p.script = p.script[:len(p.script)-1]
			}
		} else {
			p.script, k = nil, 0
		}
	}
	for _, c := range script[k:] {
		resp, err := p.send(ctx, timeout, c)
		if err != nil {
			return fmt.Errorf("bringing the engine to the game's position: %w", err)
		}
		if want, ok := pos.expect[c]; ok && sortedFields(resp) != want {
			// fixed_handicap: the engine chose the points; they must be gobot's.
			p.script = nil
			return fmt.Errorf("%w: engine %s put its handicap stones on %s, the game has them on %s", ErrUnsupported, p.name, clip(sortedFields(resp)), want)
		}
		p.script = append(p.script, c)
	}
	return nil
}

// sortedFields normalises a vertex list for comparison.
func sortedFields(s string) string {
	f := strings.Fields(strings.ToLower(s))
	slices.Sort(f)
	return strings.Join(f, " ")
}
