package game

import (
	"fmt"
	"strings"
)

// NewFromPosition starts a game from an arbitrary position — the setup
// stones of an SGF record (AB, AW, AE), a problem, a position to study —
// with toMove to play first. The position is taken as it is (no captures),
// and it counts as seen for superko, as the starting position of New does.
//
// cfg.Handicap is kept for scoring only (the White bonus): no stones are
// placed and no free placement follows, because the setup already holds
// the handicap stones.
func NewFromPosition(cfg Config, setup *Board, toMove Color) (*Game, error) {
	if setup == nil {
		return nil, fmt.Errorf("no setup position given")
	}
	if err := CheckSize(cfg.Width, cfg.Height); err != nil {
		return nil, err
	}
	if setup.w != cfg.Width || setup.h != cfg.Height {
		return nil, fmt.Errorf("setup board is %s but the game is %s", SizeString(setup.w, setup.h), SizeString(cfg.Width, cfg.Height))
	}
	if toMove != Black && toMove != White {
		return nil, fmt.Errorf("the player to move must be Black or White, not %s", toMove.Name())
	}
	if cfg.Handicap < 0 || cfg.Handicap >= cfg.Width*cfg.Height {
		return nil, fmt.Errorf("%w: %d stones on a %s board", ErrHandicap, cfg.Handicap, SizeString(cfg.Width, cfg.Height))
	}
	if err := checkKomiValue(cfg.Rules.Komi); err != nil {
		return nil, err
	}
	return fromPosition(cfg, setup.Clone(), toMove, history{}), nil
}

// fromPosition makes a game at board b (which the game takes over) with
// toMove to play. seen, when not nil, is the superko history to continue
// (also taken over); otherwise the history starts with b.
func fromPosition(cfg Config, b *Board, toMove Color, seen history) *Game {
	g := &Game{cfg: cfg, board: b, setup: b.Clone(), toMove: toMove, koPoint: -1, moves: make([]Move, 0, cfg.Width*cfg.Height/2),
		seen: seen, dead: make([]bool, cfg.Width*cfg.Height), setupToMove: toMove}
	if g.seen.keys == nil {
		g.seen = newHistory(cfg.Width * cfg.Height / 2)
	}
	g.seen.add(b.hash, seenAny)
	if cfg.Rules.Ko == KoNone || cfg.Rules.Ko == KoSimple {
		g.cycles = newHistory(cfg.Width * cfg.Height / 2)
		g.cycles.set(b.hash^toMoveKey[toMove], 1)
	}
	return g
}

// continueAt replaces g by a game at position b with toMove to play that
// keeps g's superko history, captures and pass stones. The tolerant SGF
// replay uses it to go on after an illegal move it forced on the board, a
// move out of turn, or setup stones in the middle of a record; the new
// game's Record starts from b. mover, when not Empty, is who created b (for
// situational superko).
func (g *Game) continueAt(b *Board, toMove, mover Color) *Game {
	ng := fromPosition(g.cfg, b, toMove, g.seen)
	if mover != Empty {
		ng.seen.add(b.hash, seenBit(mover))
	}
	ng.captures = g.captures
	ng.passStones = g.passStones
	g.seen = history{} // the history now belongs to ng
	return ng
}

// setupRecord returns the starting position Record needs to rebuild g:
// nil for a game made by New.
func (g *Game) setupRecord() ([]string, Color) {
	if g.setupToMove == Empty {
		return nil, Empty
	}
	return g.setup.Rows(), g.setupToMove
}

// start makes the game a Record begins from.
func start(r Record) (*Game, error) {
	if len(r.Setup) == 0 {
		return New(r.Config)
	}
	b, err := ParseBoard(strings.Join(r.Setup, "\n"))
	if err != nil {
		return nil, fmt.Errorf("setup position: %w", err)
	}
	return NewFromPosition(r.Config, b, r.SetupToMove)
}
