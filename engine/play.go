package engine

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/gobotgo/gobot/game"
)

// Request asks for the engine's move in a game.
type Request struct {
	// Record is gobot's record of the game; the engine moves for the
	// colour to play.
	Record game.Record
	// Level is a configured level (1 weakest to 10 strongest), or 0 for
	// the engine's default strength.
	Level int
	// Cleanup is for play resumed over a disputed marking: it asks for a
	// move that captures the opponent's dead stones instead of passing.
	// Under area counting (or pass stones), while the engine's
	// final_status_list dead (or, without it, gobot's own proposal) names
	// stones of the opponent, the move is kgs-genmove_cleanup (when the
	// engine lists it); once none remain it is a plain genmove, which
	// passes when the position is settled. Under territory counting
	// without pass stones it is always a plain genmove: every stone the
	// engine plays in its own territory there costs it a point, so (as
	// KGS does under Japanese rules) it answers the opponent's moves,
	// passes when settled and holds to its dead-stone list.
	Cleanup bool
}

// Reply is the engine's move, already checked against the game.
type Reply struct {
	// Moves holds the engine's move: a play or a pass, or, when the
	// engine is Black and places free handicap stones, one move per stone
	// (it may place fewer than asked; further ones are asked for as
	// moves). Under text 004 placement the game makes White's passes
	// between them itself; they are not in Moves. Empty when the engine
	// resigns.
	Moves []game.Move
	// Resign: the engine resigns.
	Resign bool
	// Illegal is the move the engine proposed and the game refused, with
	// the reason ("D4: point is occupied"); Moves then holds a pass.
	Illegal string
}

// Move brings an engine process to the position of req.Record and asks it
// for a move for the colour to play, at req.Level. A proposal the game
// refuses becomes a pass (logged, and named in Reply.Illegal). On a
// timeout, a crash or garbage the process is killed and the error wraps
// ErrTimeout, ErrCrashed or ErrProtocol; the next request starts a new
// process and replays the game into it. An error never leaves a move
// half made: the record is the caller's and Move does not change it.
func (p *Pool) Move(ctx context.Context, req Request) (Reply, error) {
	cfg := req.Record.Config
	if g, err := game.Replay(req.Record); err != nil {
		return Reply{}, fmt.Errorf("%w: the game record does not replay: %v", ErrPosition, err)
	} else if g.Phase() != game.Playing {
		return Reply{}, fmt.Errorf("%w: the game is %s, nobody is to move", ErrPosition, g.Phase())
	}
	if err := p.Check(ctx, cfg, req.Level); err != nil {
		return Reply{}, err
	}
	c, err := p.capabilities(ctx, req.Level)
	if err != nil {
		return Reply{}, err
	}
	pos, err := newPosition(req.Record, c.commands)
	if err != nil {
		return Reply{}, err
	}
	g := pos.g
	color := g.ToMove()
	var reply Reply
	err = p.run(ctx, req.Level, false, pos.script, func(pr *proc) error {
		if err := pr.sync(ctx, pos, p.cfg.CommandTimeout); err != nil {
			return err
		}
		if err := p.setLevel(ctx, pr, req.Level); err != nil {
			return err
		}
		if pos.placing() && pr.commands["place_free_handicap"] {
			return p.placeHandicap(ctx, pr, pos, &reply)
		}
		cmd := "genmove "
		if req.Cleanup && !fillCosts(cfg.Rules) && pr.commands["kgs-genmove_cleanup"] {
			left, err := p.deadLeft(ctx, pr, pos, color.Opponent())
			if err != nil {
				return err
			}
			if left {
				cmd = "kgs-genmove_cleanup "
			}
		}
		resp, err := pr.send(ctx, p.cfg.MoveTimeout, cmd+colorArg(color))
		if err != nil {
			return err
		}
		if strings.EqualFold(resp, "resign") {
			reply.Resign = true
			return nil
		}
		pt, err := game.ParseGTP(resp, pos.size, pos.size)
		if err != nil {
			return pr.fail(fmt.Errorf("%w: engine %s answered genmove with %q, not a move: %v", ErrProtocol, p.cfg.Name, clip(resp), err))
		}
		m := game.Move{Color: color, Point: pt}
		pr.script = append(pr.script, playCmd(m, pos.size)) // the engine has played it
		if err := g.PlayMove(m); err != nil {
			reply.Illegal = err.Error()
			if v := pt.GTP(pos.size); !strings.HasPrefix(reply.Illegal, v) {
				reply.Illegal = v + ": " + reply.Illegal
			}
			p.log.Warn("engine proposed an illegal move; it passes instead", "move", pt.GTP(pos.size), "color", color.Name(), "reason", err.Error())
			m.Point = game.Pass
		}
		reply.Moves = []game.Move{m}
		return nil
	})
	if err != nil {
		return Reply{}, err
	}
	return reply, nil
}

// setLevel sends the level's GTP commands when the process is not at that
// level already.
func (p *Pool) setLevel(ctx context.Context, pr *proc, level int) error {
	cmds := p.cfg.Levels[level].GTP
	if strings.Join(cmds, "\n") == strings.Join(pr.levelCmd, "\n") {
		return nil
	}
	pr.levelCmd = nil
	for _, c := range cmds {
		if _, err := pr.send(ctx, p.cfg.CommandTimeout, strings.TrimSpace(c)); err != nil {
			return fmt.Errorf("setting level %d: %w", level, err)
		}
	}
	pr.levelCmd = cmds
	return nil
}

// placeHandicap asks the engine, as Black, to place all its free handicap
// stones, and keeps those the game accepts.
func (p *Pool) placeHandicap(ctx context.Context, pr *proc, pos *position, reply *Reply) error {
	n := pos.g.Config().Handicap
	resp, err := pr.send(ctx, p.cfg.MoveTimeout, fmt.Sprintf("place_free_handicap %d", n))
	if err != nil {
		return err
	}
	pr.script = nil // its handicap is on the board; gobot's record will say set_free_handicap
	var placed []game.Point
	for _, f := range strings.Fields(resp) {
		pt, err := game.ParseGTP(f, pos.size, pos.size)
		if err != nil || pt.IsPass() {
			return pr.fail(fmt.Errorf("%w: engine %s answered place_free_handicap with %q, not a list of points", ErrProtocol, p.cfg.Name, clip(resp)))
		}
		if len(placed) == n {
			break
		}
		if err := pos.g.Play(game.Black, pt); err != nil {
			p.log.Warn("engine placed a handicap stone the game refuses", "move", pt.GTP(pos.size), "reason", err.Error())
			continue
		}
		placed = append(placed, pt)
		reply.Moves = append(reply.Moves, game.Move{Color: game.Black, Point: pt})
	}
	if len(placed) == n {
		pr.script = append(slices.Clone(pos.script), "set_free_handicap "+vertices(placed, pos.size))
	}
	return nil
}

// fillCosts reports whether a stone played in one's own territory costs
// a point under r: territory counting without pass stones. (Under area
// counting the stone counts as the point did; with pass stones the
// opponent's answering pass gives a prisoner back.)
func fillCosts(r game.Rules) bool {
	return r.Scoring == game.Territory && !r.PassStones
}

// deadLeft reports whether stones of colour c are still dead in pos, as
// the engine (already at pos) judges them with final_status_list dead;
// an engine without that command, or refusing it, gets gobot's own
// proposal (game.ProposeDead) instead.
func (p *Pool) deadLeft(ctx context.Context, pr *proc, pos *position, c game.Color) (bool, error) {
	board := pos.g.Board()
	if pr.commands["final_status_list"] {
		resp, err := pr.send(ctx, p.cfg.MoveTimeout, "final_status_list dead")
		if err == nil {
			dead, err := p.parseDead(pos, resp)
			if err != nil {
				return false, pr.fail(err)
			}
			return slices.ContainsFunc(dead, func(pt game.Point) bool { return board.At(pt) == c }), nil
		}
		if !errors.Is(err, ErrRefused) {
			return false, err
		}
		p.log.Warn("engine refused final_status_list; gobot's own dead-stone proposal decides the cleanup", "err", err.Error())
	}
	dead := game.ProposeDead(board, pos.g.Rules())
	return slices.ContainsFunc(dead, func(pt game.Point) bool { return board.At(pt) == c }), nil
}

// Dead asks the engine which stones are dead in the position of rec
// (final_status_list dead) and returns every dead stone, in reading order.
// Points the engine names that hold no stone are dropped and logged.
func (p *Pool) Dead(ctx context.Context, rec game.Record) ([]game.Point, error) {
	var dead []game.Point
	err := p.ask(ctx, rec, "final_status_list dead", func(pos *position, resp string) error {
		var err error
		dead, err = p.parseDead(pos, resp)
		return err
	})
	return dead, err
}

// parseDead reads an answer to final_status_list dead in pos: every dead
// stone, in reading order.
func (p *Pool) parseDead(pos *position, resp string) ([]game.Point, error) {
	board := pos.g.Board()
	seen := map[game.Point]bool{}
	for _, f := range strings.Fields(resp) {
		pt, err := game.ParseGTP(f, pos.size, pos.size)
		if err != nil || pt.IsPass() {
			return nil, fmt.Errorf("%w: engine %s listed %q as a dead stone", ErrProtocol, p.cfg.Name, clip(f))
		}
		if board.At(pt) == game.Empty {
			p.log.Warn("engine lists an empty point as dead; ignored", "point", pt.GTP(pos.size))
			continue
		}
		seen[pt] = true
	}
	var dead []game.Point
	for y := range pos.size {
		for x := range pos.size {
			if pt := game.Pt(x, y); seen[pt] {
				dead = append(dead, pt)
			}
		}
	}
	return dead, nil
}

// Score asks the engine for its count of the position of rec
// (final_score), with its own view of which stones are dead.
func (p *Pool) Score(ctx context.Context, rec game.Record) (game.Result, error) {
	var res game.Result
	err := p.ask(ctx, rec, "final_score", func(_ *position, resp string) error {
		r, err := game.ParseResult(resp)
		if err != nil {
			return fmt.Errorf("%w: engine %s answered final_score with %q", ErrProtocol, p.cfg.Name, clip(resp))
		}
		res = r
		return nil
	})
	return res, err
}

// ask brings any process to the position of rec and sends one command
// with the move timeout.
func (p *Pool) ask(ctx context.Context, rec game.Record, command string, parse func(*position, string) error) error {
	if err := p.Check(ctx, rec.Config, 0); err != nil {
		return err
	}
	c, err := p.capabilities(ctx, 0)
	if err != nil {
		return err
	}
	word, _, _ := strings.Cut(command, " ")
	if !c.commands[word] {
		return fmt.Errorf("%w: %s (%s) does not list the GTP command %s", ErrUnsupported, p.cfg.Name, c.ident, word)
	}
	pos, err := newPosition(rec, c.commands)
	if err != nil {
		return err
	}
	return p.run(ctx, 0, true, pos.script, func(pr *proc) error {
		if err := pr.sync(ctx, pos, p.cfg.CommandTimeout); err != nil {
			return err
		}
		resp, err := pr.send(ctx, p.cfg.MoveTimeout, command)
		if err != nil {
			return err
		}
		if err := parse(pos, resp); err != nil {
			return pr.fail(err)
		}
		return nil
	})
}

// Review is the engine's answer to a dead-stone marking.
type Review struct {
	// Dead is the engine's own list of dead stones (see Dead).
	Dead []game.Point
	// Accept: the marking counts at least as well for the engine as its
	// own list does.
	Accept bool
}

// Review asks the engine, playing colour engine, about the dead-stone
// marking of rec (a game in its scoring phase; rec.Dead holds the
// marking). The engine accepts when the marking counts at least as well
// for it as its own final_status_list dead does; otherwise the bot resumes
// play or proposes the engine's list.
func (p *Pool) Review(ctx context.Context, rec game.Record, engine game.Color) (Review, error) {
	g, err := game.Replay(rec)
	if err != nil {
		return Review{}, fmt.Errorf("%w: the game record does not replay: %v", ErrPosition, err)
	}
	if g.Phase() != game.Scoring {
		return Review{}, fmt.Errorf("%w: the game is %s, not in its scoring phase", ErrPosition, g.Phase())
	}
	dead, err := p.Dead(ctx, rec)
	if err != nil {
		return Review{}, err
	}
	own := rec
	own.Dead, own.Accepted = dead, nil
	og, err := game.Replay(own)
	if err != nil {
		return Review{}, fmt.Errorf("%w: the engine's dead stones do not mark: %v", ErrPosition, err)
	}
	margin := func(s game.Score) float64 { return s.Side(engine).Total - s.Side(engine.Opponent()).Total }
	return Review{Dead: dead, Accept: margin(g.Score()) >= margin(og.Score())}, nil
}
