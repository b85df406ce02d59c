package game

import (
	"errors"
	"fmt"
)

// Errors from Game methods; the chat layer turns them into friendly text.
var (
	ErrNotYourTurn  = errors.New("not your turn")
	ErrKo           = errors.New("that would retake the ko")
	ErrSuperko      = errors.New("that would repeat an earlier position")
	ErrSuicide      = errors.New("suicide is not allowed under these rules")
	ErrGameOver     = errors.New("the game is over")
	ErrScoring      = errors.New("the game is in the scoring phase")
	ErrNotScoring   = errors.New("the game is not in the scoring phase")
	ErrNothingUndo  = errors.New("there is no move to undo")
	ErrNoStone      = errors.New("there is no stone there")
	ErrNoAgreement  = errors.New("these rules do not remove dead stones by agreement")
	ErrHandicapPass = errors.New("place your handicap stones before passing")
)

// Phase is where a game stands.
type Phase uint8

const (
	Playing Phase = iota // moves are being made
	Scoring              // two passes: marking dead stones
	Over                 // finished with a result
)

func (p Phase) String() string { return [...]string{"playing", "scoring", "over"}[p] }

// Move is a play or a pass by one colour.
type Move struct {
	Color Color
	Point Point // Pass for a pass
}

// IsPass reports whether m is a pass.
func (m Move) IsPass() bool { return m.Point.IsPass() }

// Config is what a game starts from.
type Config struct {
	Width, Height int
	Rules         Rules
	Handicap      int // 0 or 1 = even game; 2..9 stones
}

// Record is everything needed to rebuild a game: its config, the moves
// in order, the points where play resumed after a scoring phase, the dead
// marks and acceptances of a scoring phase in progress, and a result that
// did not come from counting (resignation, time, abort).
type Record struct {
	Config   Config
	Moves    []Move
	Resumes  []int   // len(Moves) at each resume from the scoring phase
	Dead     []Point // one stone of each string marked dead
	Accepted []Color // players who accepted the current marking
	Ended    *Result // set for resign, time, abort, cycle
	// Setup (rows top to bottom as Board.Rows writes them) and SetupToMove
	// are the starting position of a game made by NewFromPosition; empty
	// for games made by New.
	Setup       []string `json:",omitempty"`
	SetupToMove Color    `json:",omitempty"`
}

// Game is one game of Go under a ruleset. The zero value is not usable;
// call New or Replay.
type Game struct {
	cfg   Config
	board *Board
	setup *Board // the position before the first move (handicap stones)

	moves      []Move
	resumes    []int
	toMove     Color
	handicapIn int // free handicap stones Black still has to place
	captures   [3]int
	passStones [3]int  // prisoners handed to each colour by the other's passes
	koPoint    int     // index White/Black may not play next (simple ko), -1
	passes     int     // consecutive passes
	seen       history // positions reached, for superko
	cycles     history // per position and player to move, times reached; only when the rules end cycles

	phase Phase
	dead  []bool // per point: the stone there is marked dead
	// proposing: the automatic dead-stone proposal is still to be made;
	// it is made on first use, so replaying records stays fast.
	proposing bool
	accepted  [3]bool
	result    *Result

	setupToMove Color // who moved first from a NewFromPosition setup
}

const (
	seenAny   = 1 << 0
	seenBlack = 1 << Black
	seenWhite = 1 << White
)

func seenBit(c Color) uint8 { return 1 << c }

// toMoveKey is mixed into the hash for the cycle count (same position,
// same player to move).
var toMoveKey = [3]uint64{0, 0x2545F4914F6CDD1D, 0x7F4A7C159E3779B9}

// New starts a game. Fixed handicap stones are placed at once; with free
// placement Black places them as moves.
func New(cfg Config) (*Game, error) {
	b, err := NewBoard(cfg.Width, cfg.Height)
	if err != nil {
		return nil, err
	}
	if cfg.Handicap < 0 || cfg.Handicap > MaxHandicap {
		return nil, fmt.Errorf("%w: handicap is 0 to %d stones, not %d", ErrHandicap, MaxHandicap, cfg.Handicap)
	}
	if err := checkKomiValue(cfg.Rules.Komi); err != nil {
		return nil, err
	}
	if cfg.Handicap >= cfg.Width*cfg.Height {
		return nil, fmt.Errorf("%w: %d stones do not fit on a %s board", ErrHandicap, cfg.Handicap, SizeString(cfg.Width, cfg.Height))
	}
	g := &Game{cfg: cfg, board: b, toMove: Black, koPoint: -1, moves: make([]Move, 0, cfg.Width*cfg.Height/2),
		seen: newHistory(cfg.Width * cfg.Height / 2), dead: make([]bool, cfg.Width*cfg.Height)}
	if cfg.Handicap >= 2 {
		if cfg.Rules.Placement == PlacementFixed {
			pts, err := FixedHandicap(cfg.Handicap, cfg.Width, cfg.Height)
			if err != nil {
				return nil, err
			}
			for _, p := range pts {
				b.set(b.index(p), Black)
			}
			g.toMove = White
		} else {
			g.handicapIn = cfg.Handicap
		}
	}
	g.setup = b.Clone()
	// The starting position counts as seen for positional superko; placed
	// handicap stones count as created by Black.
	g.seen.add(b.hash, seenAny)
	if g.toMove == White {
		g.seen.add(b.hash, seenBlack)
	}
	if cfg.Rules.Ko == KoNone || cfg.Rules.Ko == KoSimple {
		g.cycles = newHistory(cfg.Width * cfg.Height / 2)
		g.cycles.set(b.hash^toMoveKey[g.toMove], 1)
	}
	return g, nil
}

// Replay rebuilds a game from its record, checking every move.
func Replay(r Record) (*Game, error) {
	g, err := start(r)
	if err != nil {
		return nil, err
	}
	ri := 0
	for i, m := range r.Moves {
		for ri < len(r.Resumes) && r.Resumes[ri] == i {
			if err := g.Resume(); err != nil {
				return nil, fmt.Errorf("resume before move %d: %w", i+1, err)
			}
			ri++
		}
		if i < len(g.moves) { // a White handicap pass the game made itself (text 004)
			if g.moves[i] != m {
				return nil, fmt.Errorf("move %d (%s %s): the game made a handicap pass there", i+1, m.Color.Name(), m.Point.GTP(g.cfg.Height))
			}
			continue
		}
		if err := g.PlayMove(m); err != nil {
			return nil, fmt.Errorf("move %d (%s %s): %w", i+1, m.Color.Name(), m.Point.GTP(g.cfg.Height), err)
		}
	}
	for ; ri < len(r.Resumes); ri++ {
		if r.Resumes[ri] != len(r.Moves) {
			return nil, fmt.Errorf("resume after move %d is out of order", r.Resumes[ri])
		}
		if err := g.Resume(); err != nil {
			return nil, fmt.Errorf("resume after the last move: %w", err)
		}
	}
	if g.phase == Scoring {
		g.proposing = false
		for _, p := range r.Dead {
			if err := g.toggle(p, true); err != nil {
				return nil, fmt.Errorf("dead mark %s: %w", p.GTP(g.cfg.Height), err)
			}
		}
		for _, c := range r.Accepted {
			if c == Black || c == White {
				g.accepted[c] = true
			}
		}
		if g.accepted[Black] && g.accepted[White] {
			g.finish(g.Score().Result)
		}
	}
	if r.Ended != nil && g.phase != Over {
		res := *r.Ended
		g.result = &res
		g.phase = Over
	}
	return g, nil
}

// Record returns what Replay needs to rebuild this game.
func (g *Game) Record() Record {
	r := Record{Config: g.cfg, Moves: append([]Move(nil), g.moves...), Resumes: append([]int(nil), g.resumes...)}
	r.Setup, r.SetupToMove = g.setupRecord()
	if g.phase == Scoring {
		r.Dead = g.DeadStrings()
		for _, c := range []Color{Black, White} {
			if g.accepted[c] {
				r.Accepted = append(r.Accepted, c)
			}
		}
	}
	if g.phase == Over && g.result != nil && g.result.Reason != ByScore {
		res := *g.result
		r.Ended = &res
	}
	if g.phase == Over && g.result != nil && g.result.Reason == ByScore {
		r.Dead = g.DeadStrings()
		r.Accepted = []Color{Black, White}
	}
	return r
}

// Config returns the game's configuration.
func (g *Game) Config() Config { return g.cfg }

// Rules returns the game's ruleset.
func (g *Game) Rules() Rules { return g.cfg.Rules }

// Board returns a copy of the current position.
func (g *Game) Board() *Board { return g.board.Clone() }

// Setup returns a copy of the position before the first move.
func (g *Game) Setup() *Board { return g.setup.Clone() }

// At returns the colour at p in the current position.
func (g *Game) At(p Point) Color { return g.board.At(p) }

// Moves returns the moves played so far (handicap placements and passes
// included).
func (g *Game) Moves() []Move { return append([]Move(nil), g.moves...) }

// MoveCount returns how many moves (passes included) have been made:
// the record's length.
func (g *Game) MoveCount() int { return len(g.moves) }

// Automatic reports whether move i (from 0) is a pass the game made for
// White while Black places handicap stones (white-passes placement,
// text 004): no player made it.
func (g *Game) Automatic(i int) bool {
	return g.cfg.Rules.Placement == PlacementWhitePasses && g.cfg.Handicap >= 2 && i >= 0 && i < min(len(g.moves), 2*g.cfg.Handicap-1) &&
		g.moves[i].Color == White && g.moves[i].IsPass()
}

// MoveNumber returns how many moves the players have made (passes
// included, White's automatic passes not): the number a player gives the
// last move, as with free placement, where Black's n handicap stones are
// moves 1 to n.
func (g *Game) MoveNumber() int { return g.Number(len(g.moves) - 1) }

// Number returns the number players give move i (from 0): i+1 less the
// automatic passes before it.
func (g *Game) Number(i int) int {
	n := i + 1
	for j := 0; j <= i && j < 2*g.cfg.Handicap-1; j++ {
		if g.Automatic(j) {
			n--
		}
	}
	return n
}

// LastMove returns the last move a player made (not an automatic pass)
// and whether there is one.
func (g *Game) LastMove() (Move, bool) {
	for i := len(g.moves) - 1; i >= 0; i-- {
		if !g.Automatic(i) {
			return g.moves[i], true
		}
	}
	return Move{}, false
}

// ToMove returns the colour whose turn it is.
func (g *Game) ToMove() Color { return g.toMove }

// Phase returns the game's phase.
func (g *Game) Phase() Phase { return g.phase }

// HandicapLeft returns how many free handicap stones Black still places.
func (g *Game) HandicapLeft() int { return g.handicapIn }

// Captures returns how many stones colour c has captured by playing
// (opponent suicides included), not counting pass stones or dead stones.
func (g *Game) Captures(c Color) int { return g.captures[c] }

// PassStones returns the prisoners colour c received for the opponent's
// passes (rules with pass stones only).
func (g *Game) PassStones(c Color) int { return g.passStones[c] }

// KoPoint returns the point the player to move may not play because of
// the simple ko rule, if any.
func (g *Game) KoPoint() (Point, bool) {
	if g.koPoint < 0 {
		return Point{}, false
	}
	return g.board.point(g.koPoint), true
}

// Result returns the result once the game is over.
func (g *Game) Result() (Result, bool) {
	if g.result == nil {
		return Result{}, false
	}
	return *g.result, true
}

// Play makes colour c play at p (or pass when p is Pass).
func (g *Game) Play(c Color, p Point) error { return g.PlayMove(Move{c, p}) }

// PlayMove plays m, checking turn, phase, the point, suicide and ko under
// the game's rules. On error nothing changes.
func (g *Game) PlayMove(m Move) error {
	switch g.phase {
	case Over:
		return ErrGameOver
	case Scoring:
		return ErrScoring
	}
	if m.Color != g.toMove {
		return fmt.Errorf("%w: it is %s's move", ErrNotYourTurn, g.toMove.Name())
	}
	if m.IsPass() {
		if g.handicapIn > 0 {
			return ErrHandicapPass
		}
		g.pass(m.Color, true)
		return nil
	}
	b := g.board
	if !m.Point.In(b.w, b.h) {
		return fmt.Errorf("%s is %w", m.Point.GTP(b.h), ErrOffBoard)
	}
	i := b.index(m.Point)
	if b.cells[i] != Empty {
		return fmt.Errorf("%s: %w", m.Point.GTP(b.h), ErrOccupied)
	}
	rules := &g.cfg.Rules
	if i == g.koPoint && rules.Ko == KoSimple {
		return ErrKo
	}
	captured, suicided := b.play(m.Color, i)
	if suicided > 0 && !rules.Suicide {
		b.takeBack(m.Color, i, captured)
		return ErrSuicide
	}
	switch rules.Ko {
	case KoPositional:
		if g.seen.get(b.hash)&seenAny != 0 {
			b.takeBack(m.Color, i, captured)
			return ErrSuperko
		}
	case KoSituational:
		if g.seen.get(b.hash)&seenBit(m.Color) != 0 {
			b.takeBack(m.Color, i, captured)
			return ErrSuperko
		}
	}
	g.koPoint = -1
	if rules.Ko == KoSimple && captured == 1 && suicided == 0 {
		g.koPoint = g.simpleKo(i)
	}
	g.captures[m.Color] += captured
	g.captures[m.Color.Opponent()] += suicided
	g.moves = append(g.moves, m)
	g.passes = 0
	g.seen.add(b.hash, seenAny|seenBit(m.Color))
	g.advance(m.Color, true)
	return nil
}

// simpleKo returns the point the opponent may not retake after a play at
// i that captured exactly one stone, or -1 when it is no ko: the new stone
// must stand alone with the captured point as its only liberty.
func (g *Game) simpleKo(i int) int { return g.board.koAfter(i) }

// pass records a pass by c. real is false for the passes White makes
// during text 004's handicap placement, which hand over no pass stone.
func (g *Game) pass(c Color, real bool) {
	g.moves = append(g.moves, Move{c, Pass})
	g.koPoint = -1
	g.seen.add(g.board.hash, seenAny|seenBit(c))
	if !real {
		g.toMove = c.Opponent()
		return
	}
	if g.cfg.Rules.PassStones {
		g.passStones[c.Opponent()]++
	}
	g.passes++
	// Two passes in a row end play; with pass stones White must pass last
	// (text 003), so a Black pass after White's leaves White to move.
	if g.passes >= 2 && (!g.cfg.Rules.PassStones || c == White) {
		g.toMove = c.Opponent()
		g.enterScoring()
		return
	}
	g.advance(c, false)
}

// advance hands the turn on after c moved (played a stone when played
// is true, else passed), handling free handicap placement and the cycle
// rule. Only positions reached by playing a stone count towards a cycle:
// a pass leaves the board as it was, and passing again after play
// resumed over a disputed count is how the game ends, not a cycle.
func (g *Game) advance(c Color, played bool) {
	next := c.Opponent()
	if g.handicapIn > 0 && c == Black {
		g.handicapIn--
		if g.handicapIn > 0 {
			if g.cfg.Rules.Placement == PlacementWhitePasses {
				g.pass(White, false)
			}
			next = Black
		}
	}
	g.toMove = next
	if g.cycles.keys != nil && played {
		if g.cycles.inc(g.board.hash^toMoveKey[next]) >= 3 {
			r := Result{Reason: ByCycle}
			if g.cfg.Rules.Cycle == CycleVoid {
				r.Reason = NoResult
			}
			g.finish(r)
		}
	}
}

func (g *Game) enterScoring() {
	g.phase = Scoring
	clear(g.dead)
	g.accepted = [3]bool{}
	g.proposing = !g.cfg.Rules.NoAgreement
}

// settle makes the automatic dead-stone proposal if it is due.
func (g *Game) settle() {
	if !g.proposing {
		return
	}
	g.proposing = false
	for _, p := range ProposeDead(g.board, g.cfg.Rules) {
		g.toggle(p, true)
	}
}

func (g *Game) finish(r Result) {
	g.result = &r
	g.phase = Over
}

// Resign ends the game with a win for c's opponent.
func (g *Game) Resign(c Color) error {
	if g.phase == Over {
		return ErrGameOver
	}
	g.finish(Result{Winner: c.Opponent(), Reason: ByResign})
	return nil
}

// Timeout ends the game with a win on time for c's opponent.
func (g *Game) Timeout(c Color) error {
	if g.phase == Over {
		return ErrGameOver
	}
	g.finish(Result{Winner: c.Opponent(), Reason: ByTime})
	return nil
}

// Abort ends the game with no result.
func (g *Game) Abort() error {
	if g.phase == Over {
		return ErrGameOver
	}
	g.finish(Result{Reason: NoResult})
	return nil
}

// Undo takes back the last move a player made (a pass included; White's
// automatic passes go with the Black stone before them). It works while
// playing or in the scoring phase, which it leaves.
func (g *Game) Undo() error {
	if g.phase == Over {
		return ErrGameOver
	}
	n := len(g.moves)
	for n > 0 && g.Automatic(n-1) {
		n--
	}
	if n == 0 {
		return ErrNothingUndo
	}
	r := Record{Config: g.cfg, Moves: g.moves[:n-1], Resumes: g.resumes}
	r.Setup, r.SetupToMove = g.setupRecord()
	// A White pass made for the handicap goes back with its Black stone.
	for len(r.Moves) > 0 && g.cfg.Rules.Placement == PlacementWhitePasses && g.cfg.Handicap >= 2 && len(r.Moves) < 2*g.cfg.Handicap-1 && r.Moves[len(r.Moves)-1].Color == White && r.Moves[len(r.Moves)-1].IsPass() {
		r.Moves = r.Moves[:len(r.Moves)-1]
	}
	for len(r.Resumes) > 0 && r.Resumes[len(r.Resumes)-1] > len(r.Moves) {
		r.Resumes = r.Resumes[:len(r.Resumes)-1]
	}
	ng, err := Replay(r)
	if err != nil {
		return fmt.Errorf("undo: %w", err)
	}
	*g = *ng
	return nil
}

// Resume leaves the scoring phase and goes back to play: the opponent of
// the player who passed last moves next, so the player who ended the game
// by passing lets the other respond (disputes are settled by playing on).
func (g *Game) Resume() error {
	if g.phase != Scoring {
		return ErrNotScoring
	}
	g.phase = Playing
	g.passes = 0
	clear(g.dead)
	g.accepted = [3]bool{}
	g.proposing = false
	g.resumes = append(g.resumes, len(g.moves))
	if m, ok := g.LastMove(); ok {
		g.toMove = m.Color.Opponent()
	}
	return nil
}

// ToggleDead flips the dead mark of the string at p (and, when group is
// true, of every string of that colour in the same region: strings of one
// colour reachable from p through empty points or through the strings of
// that colour). It clears both players' acceptance.
func (g *Game) ToggleDead(p Point, group bool) error {
	if g.phase != Scoring {
		return ErrNotScoring
	}
	if g.cfg.Rules.NoAgreement {
		return ErrNoAgreement
	}
	if !p.In(g.board.w, g.board.h) {
		return fmt.Errorf("%s is %w", p.GTP(g.board.h), ErrOffBoard)
	}
	if g.board.At(p) == Empty {
		return fmt.Errorf("%s: %w", p.GTP(g.board.h), ErrNoStone)
	}
	g.settle()
	mark := !g.dead[g.board.index(p)]
	pts := []Point{p}
	if group {
		pts = g.board.groupAt(p)
	}
	for _, q := range pts {
		if err := g.toggle(q, mark); err != nil {
			return err
		}
	}
	g.accepted = [3]bool{}
	return nil
}

func (g *Game) toggle(p Point, dead bool) error {
	if !p.In(g.board.w, g.board.h) || g.board.At(p) == Empty {
		return fmt.Errorf("%s: %w", p.GTP(g.board.h), ErrNoStone)
	}
	g.board.markString(g.board.index(p), g.dead, dead)
	return nil
}

// IsDead reports whether the stone at p is marked dead.
func (g *Game) IsDead(p Point) bool {
	g.settle()
	return p.In(g.board.w, g.board.h) && g.dead[g.board.index(p)]
}

// DeadStones returns every stone marked dead, in reading order.
func (g *Game) DeadStones() []Point {
	g.settle()
	var out []Point
	for i, d := range g.dead {
		if d {
			out = append(out, g.board.point(i))
		}
	}
	return out
}

// DeadStrings returns one stone of each string marked dead.
func (g *Game) DeadStrings() []Point {
	g.settle()
	var out []Point
	done := make([]bool, len(g.dead))
	for i, d := range g.dead {
		if !d || done[i] {
			continue
		}
		p := g.board.point(i)
		out = append(out, p)
		stones, _ := g.board.StringAt(p)
		for _, s := range stones {
			done[g.board.index(s)] = true
		}
	}
	return out
}

// Accept records that c accepts the current dead-stone marking. When both
// players have accepted the same marking, the game ends with the counted
// result, which Accept returns with true.
func (g *Game) Accept(c Color) (Result, bool, error) {
	if g.phase != Scoring {
		return Result{}, false, ErrNotScoring
	}
	g.accepted[c] = true
	if g.accepted[Black] && g.accepted[White] {
		s := g.Score()
		g.finish(s.Result)
		return s.Result, true, nil
	}
	return Result{}, false, nil
}

// Accepted reports whether c has accepted the current marking.
func (g *Game) Accepted(c Color) bool { return g.accepted[c] }

// Score counts the current position with the current dead marks.
func (g *Game) Score() Score {
	g.settle()
	return Count(g.board, g.dead, g.cfg, [3]int{0, g.captures[Black] + g.passStones[Black], g.captures[White] + g.passStones[White]})
}
