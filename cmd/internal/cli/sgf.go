package cli

import (
	"bufio"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/gobotgo/gobot/game"
)

const sgfUsage = `Usage:
  gobot sgf replay FILE... [--rules R] [--tolerant] [--json]
  gobot sgf score FILE... [--rules R] [--dead D4,Q16,... | --no-dead] [--tolerant] [--json]

replay plays every game of every file through and prints the final
position, the captures, the number of moves and any illegal move. It
exits with status 1 when a record holds an illegal move, unless --tolerant.

score counts the position each record ends with (playing through any
illegal move): each side's stones, territory, prisoners, komi and handicap
bonus, and the result. It also exits with status 1 on an illegal move,
unless --tolerant.

Options (before or after the files):
  --rules R     ruleset: a preset (japanese, chinese, aga, new-zealand, ...)
                or options like "ko=simple,scoring=area"; default: the
                record's RU, see docs/sgf.md. The record's KM is the komi.
  --tolerant    report illegal moves, play on, and exit 0
  --dead LIST   score: stones of strings to count as dead, like D4,Q16;
                --dead "" counts no stone as dead; default: the dead
                stones the record's final territory marks (TB/TW) show,
                else gobot's automatic proposal
  --no-dead     score: no stone is dead (the same as --dead "")
  --json        one JSON object per game per line
`

// sgfUsageError is a bad command line; main exits with status 2.
type sgfUsageError struct{ msg string }

func (e sgfUsageError) Error() string { return e.msg }
func (e sgfUsageError) Unwrap() error { return ErrUsage }

// sgfOptions is a parsed `gobot sgf` command line.
type sgfOptions struct {
	cmd      string
	rules    *game.Rules // nil: from each record's RU
	tolerant bool
	dead     []string
	deadSet  bool // --dead or --no-dead given: dead is the list, even empty
	json     bool
	files    []string
}

// SGF runs `gobot sgf replay` and `gobot sgf score` (sgfUsage).
func SGF(args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		return sgfUsageError{"sgf: say what to do: replay or score (gobot sgf -h for help)"}
	}
	switch args[0] {
	case "-h", "-help", "--help", "help":
		fmt.Fprint(stdout, sgfUsage)
		return nil
	case "replay", "score":
	default:
		return sgfUsageError{fmt.Sprintf("sgf: unknown subcommand %q: use replay or score (gobot sgf -h for help)", args[0])}
	}
	opt, err := parseSGFArgs(args[0], args[1:])
	if errors.Is(err, flag.ErrHelp) {
		fmt.Fprint(stdout, sgfUsage)
		return nil
	}
	if err != nil {
		return err
	}
	out := bufio.NewWriter(stdout)
	defer out.Flush()
	s := &sgfRun{opt: opt, out: out, stderr: stderr}
	for _, f := range opt.files {
		s.file(f)
	}
	if err := out.Flush(); err != nil {
		return err
	}
	if s.failed || (s.illegal && !opt.tolerant) {
		return ExitError{1}
	}
	return nil
}

// parseSGFArgs reads flags placed anywhere among the file names.
func parseSGFArgs(cmd string, args []string) (*sgfOptions, error) {
	opt := &sgfOptions{cmd: cmd}
	fs := flag.NewFlagSet("gobot sgf "+cmd, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	rules := fs.String("rules", "", "")
	fs.BoolVar(&opt.tolerant, "tolerant", false, "")
	fs.BoolVar(&opt.json, "json", false, "")
	var dead deadFlag
	fs.Var(&dead, "dead", "")
	noDead := fs.Bool("no-dead", false, "")
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				return nil, err
			}
			return nil, sgfUsageError{fmt.Sprintf("sgf %s: %v (gobot sgf -h for help)", cmd, err)}
		}
		args = fs.Args()
		if len(args) == 0 {
			break
		}
		opt.files = append(opt.files, args[0])
		args = args[1:]
	}
	if len(opt.files) == 0 {
		return nil, sgfUsageError{fmt.Sprintf("sgf %s: name at least one SGF file (gobot sgf -h for help)", cmd)}
	}
	if *rules != "" {
		r, err := game.ParseRules(*rules)
		if err != nil {
			return nil, sgfUsageError{fmt.Sprintf("sgf %s: --rules: %v", cmd, err)}
		}
		opt.rules = &r
	}
	if dead.set || *noDead {
		if cmd != "score" {
			name := "--dead"
			if !dead.set {
				name = "--no-dead"
			}
			return nil, sgfUsageError{"sgf replay: " + name + " only goes with gobot sgf score"}
		}
		opt.deadSet = true
		for _, s := range strings.FieldsFunc(dead.list, func(r rune) bool { return r == ',' || r == ' ' }) {
			opt.dead = append(opt.dead, s)
		}
		if *noDead && len(opt.dead) > 0 {
			return nil, sgfUsageError{"sgf score: --no-dead says no stone is dead, --dead lists some: give one of them"}
		}
	}
	return opt, nil
}

// deadFlag is --dead: the list as given, and whether it was given at all
// (--dead "" means no dead stones, no --dead means the proposal).
type deadFlag struct {
	list string
	set  bool
}

func (f *deadFlag) String() string { return f.list }

func (f *deadFlag) Set(s string) error {
	f.list, f.set = s, true
	return nil
}

// sgfRun replays or scores files and writes one report per game.
type sgfRun struct {
	opt     *sgfOptions
	out     *bufio.Writer
	stderr  io.Writer
	failed  bool // a file could not be read or replayed
	illegal bool // some record holds an illegal move
}

// jsonIllegal is one illegal move in --json output.
type jsonIllegal struct {
	Move   int    `json:"move"`
	Color  string `json:"color"`
	Point  string `json:"point"`
	Reason string `json:"reason"`
}

// jsonSide is one side's score with its parts.
type jsonSide struct {
	Stones    int     `json:"stones"`
	Territory int     `json:"territory"`
	Prisoners int     `json:"prisoners"`
	Komi      float64 `json:"komi"`
	Bonus     float64 `json:"bonus"`
	Total     float64 `json:"total"`
}

// jsonGame is one line of --json output.
type jsonGame struct {
	File     string         `json:"file"`
	Game     int            `json:"game"` // 1-based index in the file's collection
	Size     [2]int         `json:"size"`
	Rules    string         `json:"rules"`
	Komi     float64        `json:"komi"`
	Handicap int            `json:"handicap"`
	Moves    int            `json:"moves"`
	Captures map[string]int `json:"captures"`
	Board    []string       `json:"board"`
	Illegal  []jsonIllegal  `json:"illegal"`
	*jsonScore
	Result string `json:"result,omitempty"`
	jsonInfo
}

// jsonInfo is the record's game info, decoded into UTF-8, and what the
// reading noticed.
type jsonInfo struct {
	Players      map[string]string `json:"players"`       // PB, PW
	Ranks        map[string]string `json:"ranks"`         // BR, WR
	RecordResult string            `json:"record_result"` // RE as written
	Date         string            `json:"date"`          // DT
	Event        string            `json:"event"`         // EV
	RU           string            `json:"ru"`            // RU as written
	RulesFrom    string            `json:"rules_from"`    // file, default or flag
	OutOfTurn    int               `json:"out_of_turn"`   // moves played out of turn as written (--tolerant)
	Warnings     []string          `json:"warnings"`
}

// jsonScore is what `gobot sgf score --json` adds.
type jsonScore struct {
	Dead  []string            `json:"dead"`
	Score map[string]float64  `json:"score"`
	Parts map[string]jsonSide `json:"parts"`
	Count string              `json:"count"` // the counted result, even after a resignation
}

// jsonError is the --json line for a file or game that could not be read.
type jsonError struct {
	File  string `json:"file"`
	Game  int    `json:"game,omitempty"`
	Error string `json:"error"`
}

func side(s game.SideScore) jsonSide {
	return jsonSide{Stones: s.Stones, Territory: s.Territory, Prisoners: s.Prisoners, Komi: s.Komi, Bonus: s.Bonus, Total: s.Total}
}

// fail reports a file or game that could not be handled.
func (s *sgfRun) fail(file string, gameNo int, err error) {
	s.failed = true
	if s.opt.json {
		s.writeJSON(jsonError{File: file, Game: gameNo, Error: err.Error()})
		return
	}
	s.out.Flush() // keep the reports in order when both go to a terminal
	if gameNo > 0 {
		fmt.Fprintf(s.stderr, "%s: game %d: %v\n", file, gameNo, err)
	} else {
		fmt.Fprintln(s.stderr, fileError(file, err))
	}
}

// fileError puts the file's name before err: "board.png is not an SGF
// file (…)" for a file that is no SGF record at all, "FILE: err" else.
func fileError(file string, err error) error {
	if errors.Is(err, game.ErrNotSGF) {
		return fmt.Errorf("%s is %w", file, err)
	}
	return fmt.Errorf("%s: %w", file, err)
}

func (s *sgfRun) writeJSON(v any) {
	b, err := json.Marshal(v)
	if err != nil {
		s.failed = true
		fmt.Fprintln(s.stderr, "gobot sgf: writing JSON:", err)
		return
	}
	s.out.Write(b)
	s.out.WriteByte('\n')
}

func (s *sgfRun) file(name string) {
	data, err := os.ReadFile(name)
	if err != nil {
		s.fail(name, 0, err)
		return
	}
	roots, err := game.ParseSGF(data)
	if err != nil {
		s.fail(name, 0, err)
		return
	}
	decode := game.DecodeSGF
	if s.opt.tolerant {
		decode = game.DecodeSGFTolerant
	}
	for i, root := range roots {
		rec, err := decode(root)
		if err != nil {
			s.fail(name, i+1, err)
			continue
		}
		s.game(name, i+1, len(roots), rec)
	}
}

func (s *sgfRun) game(file string, no, of int, rec *game.SGFRecord) {
	rules, rulesFrom := rec.RecordRules()
	if s.opt.rules != nil {
		rules, rulesFrom = *s.opt.rules, game.RulesFromFlag
	}
	// score always plays a record through, so that it counts the position
	// the record ends with; the illegal moves are reported all the same.
	rep, err := rec.Replay(rules, s.opt.tolerant || s.opt.cmd == "score")
	if err != nil {
		s.fail(file, no, err)
		return
	}
	if len(rep.Illegal) > 0 {
		s.illegal = true
	}
	g := rep.Game
	cfg := g.Config()
	b := g.Board()
	var dead []bool
	var sc game.Score
	if s.opt.cmd == "score" {
		if dead, err = s.deadMarks(g, b, rec); err != nil {
			s.fail(file, no, err)
			return
		}
		sc = game.Count(b, dead, cfg, [3]int{0,
			g.Captures(game.Black) + g.PassStones(game.Black),
			g.Captures(game.White) + g.PassStones(game.White)})
	}
	result := ""
	if res, ok := g.Result(); ok && (s.opt.cmd == "replay" || res.Reason != game.ByScore) {
		result = res.String()
	} else if s.opt.cmd == "score" {
		result = sc.Result.String()
	}
	if s.opt.json {
		j := &jsonGame{File: file, Game: no, Size: [2]int{cfg.Width, cfg.Height}, Rules: rules.Name,
			Komi: cfg.Rules.Komi, Handicap: cfg.Handicap, Moves: rep.Moves, Board: b.Rows(),
			Captures: map[string]int{"B": g.Captures(game.Black), "W": g.Captures(game.White)},
			Illegal:  []jsonIllegal{}, Result: result}
		for _, ill := range rep.Illegal {
			j.Illegal = append(j.Illegal, jsonIllegal{ill.Number, ill.Move.Color.String(), ill.Point, ill.Reason()})
		}
		info := rec.Info
		j.jsonInfo = jsonInfo{
			Players:      map[string]string{"B": info.Black, "W": info.White},
			Ranks:        map[string]string{"B": info.BlackRank, "W": info.WhiteRank},
			RecordResult: info.Result, Date: info.Date, Event: info.Event,
			RU: rec.Rules, RulesFrom: rulesFrom, OutOfTurn: rep.OutOfTurn,
			Warnings: append([]string{}, rec.Warnings...),
		}
		if s.opt.cmd == "score" {
			js := &jsonScore{Dead: []string{}, Count: sc.Result.String(),
				Score: map[string]float64{"B": sc.Black.Total, "W": sc.White.Total},
				Parts: map[string]jsonSide{"B": side(sc.Black), "W": side(sc.White)}}
			for _, p := range deadStrings(b, dead) {
				js.Dead = append(js.Dead, p.GTP(cfg.Height))
			}
			j.jsonScore = js
		}
		s.writeJSON(j)
		return
	}
	w := s.out
	title := file
	if of > 1 {
		title = fmt.Sprintf("%s, game %d of %d", file, no, of)
	}
	fmt.Fprintf(w, "== %s\n", title)
	fmt.Fprintf(w, "%s, %s rules", game.SizeString(cfg.Width, cfg.Height), rules.Name)
	if rulesFrom == game.RulesFromDefault {
		fmt.Fprint(w, " (the default)")
	}
	fmt.Fprintf(w, ", komi %s", game.FormatKomi(cfg.Rules.Komi))
	if cfg.Handicap >= 2 {
		fmt.Fprintf(w, ", handicap %d", cfg.Handicap)
	}
	fmt.Fprintf(w, ", %d moves\n", rep.Moves)
	for _, warning := range rec.Warnings {
		fmt.Fprintf(w, "Warning: %s\n", warning)
	}
	writeBoard(w, b, dead)
	fmt.Fprintf(w, "Captures: Black %d, White %d\n", g.Captures(game.Black), g.Captures(game.White))
	switch {
	case len(rep.Illegal) == 0:
		fmt.Fprintln(w, "Illegal moves: none")
	default:
		fmt.Fprintf(w, "Illegal moves: %d", len(rep.Illegal))
		if rep.Stopped {
			fmt.Fprint(w, " (replay stopped at the first; --tolerant plays on)")
		}
		fmt.Fprintln(w)
		for _, ill := range rep.Illegal {
			fmt.Fprintf(w, "  move %d, %s %s: %s\n", ill.Number, ill.Move.Color.Name(), ill.Point, ill.Reason())
		}
		if rep.OutOfTurn > 0 {
			fmt.Fprintf(w, "Moves out of turn, played as written: %d\n", rep.OutOfTurn)
		}
	}
	if s.opt.cmd == "score" {
		writeScore(w, b, dead, sc)
		fmt.Fprintf(w, "Result: %s", resultText(result))
		if count := sc.Result.String(); result != count {
			if count == "0" {
				count = "a draw"
			}
			fmt.Fprintf(w, " (the count says %s)", count)
		}
		fmt.Fprintln(w)
	} else if result != "" {
		fmt.Fprintf(w, "Result: %s\n", resultText(result))
	}
	fmt.Fprintln(w)
}

// resultText is a result in SGF's RE form as the text output shows it:
// a draw, "0" in SGF, in words with the SGF value after it. (--json keeps
// the RE form.)
func resultText(re string) string {
	if re == "0" {
		return "draw (0)"
	}
	return re
}

// deadMarks returns, per point, whether the stone there counts as dead:
// the strings through the --dead points (none for --dead "" or
// --no-dead); when neither is given, the stones the record's final
// territory marks show dead (a black stone on White's territory, TW, and
// the other way round: what the players agreed), else gobot's proposal.
func (s *sgfRun) deadMarks(g *game.Game, b *game.Board, rec *game.SGFRecord) ([]bool, error) {
	w, h := b.Width(), b.Height()
	dead := make([]bool, w*h)
	mark := func(p game.Point) {
		stones, _ := b.StringAt(p)
		for _, q := range stones {
			dead[int(q.Y)*w+int(q.X)] = true
		}
	}
	if !s.opt.deadSet && !g.Rules().NoAgreement && len(rec.Nodes) > 0 && rec.Nodes[len(rec.Nodes)-1].HasTerritory {
		last := rec.Nodes[len(rec.Nodes)-1]
		for c, marks := range map[game.Color][]game.Point{game.White: last.TB, game.Black: last.TW} {
			for _, p := range marks {
				if p.In(w, h) && b.At(p) == c {
					dead[int(p.Y)*w+int(p.X)] = true
				}
			}
		}
		return dead, nil
	}
	if !s.opt.deadSet || len(s.opt.dead) == 0 {
		if !s.opt.deadSet && !g.Rules().NoAgreement {
			for _, p := range game.ProposeDead(b, g.Rules()) {
				mark(p)
			}
		}
		return dead, nil
	}
	if g.Rules().NoAgreement {
		return nil, fmt.Errorf("--dead: %w: every stone on the board counts", game.ErrNoAgreement)
	}
	for _, d := range s.opt.dead {
		p, err := game.ParseGTP(d, w, h)
		if errors.Is(err, game.ErrOffBoard) {
			return nil, offBoard(d, w, h)
		}
		if err != nil {
			return nil, fmt.Errorf("--dead: %w", err)
		}
		if p.IsPass() || b.At(p) == game.Empty {
			return nil, fmt.Errorf("--dead: %s: %w", d, game.ErrNoStone)
		}
		mark(p)
	}
	return dead, nil
}

// offBoardError is a --dead point that is not on this record's board; it
// wraps game.ErrOffBoard.
type offBoardError struct{ msg string }

func (e offBoardError) Error() string { return e.msg }
func (e offBoardError) Unwrap() error { return game.ErrOffBoard }

// offBoard says which part of d, a well-formed GTP coordinate that
// game.ParseGTP found off the w×h board, is not on it: "--dead Z99: there
// is no column Z on a 19x19 board (columns A to T, no I)".
func offBoard(d string, w, h int) error {
	t := strings.ToUpper(strings.TrimSpace(d))
	col := strings.IndexByte(gtpColumns, t[0])
	row, _ := strconv.Atoi(t[1:])
	cols := "columns A to " + gtpColumns[w-1:w]
	if w > 8 {
		cols += ", no I"
	}
	rows := fmt.Sprintf("rows 1 to %d", h)
	var what, which string
	switch badCol, badRow := col >= w, row < 1 || row > h; {
	case badCol && badRow:
		what, which = fmt.Sprintf("no column %c and no row %d", t[0], row), cols+"; "+rows
	case badCol:
		what, which = fmt.Sprintf("no column %c", t[0]), cols
	default:
		what, which = fmt.Sprintf("no row %d", row), rows
	}
	return offBoardError{fmt.Sprintf("--dead %s: there is %s on a %s board (%s)", t, what, game.SizeString(w, h), which)}
}

// gtpColumns are the column letters of GTP coordinates (no I).
const gtpColumns = "ABCDEFGHJKLMNOPQRSTUVWXYZ"

// deadStrings returns one stone (the first in reading order) of each
// dead string.
func deadStrings(b *game.Board, dead []bool) []game.Point {
	w := b.Width()
	done := make([]bool, len(dead))
	var out []game.Point
	for i, d := range dead {
		if !d || done[i] {
			continue
		}
		p := game.Pt(i%w, i/w)
		out = append(out, p)
		stones, _ := b.StringAt(p)
		for _, q := range stones {
			done[int(q.Y)*w+int(q.X)] = true
		}
	}
	return out
}

// writeBoard draws b with GTP coordinates: X black, O white, . empty;
// dead stones (when dead is not nil) as x and o.
func writeBoard(w io.Writer, b *game.Board, dead []bool) {
	const letters = "ABCDEFGHJKLMNOPQRSTUVWXYZ"
	width, h := b.Width(), b.Height()
	var sb strings.Builder
	header := "   "
	for x := 0; x < width; x++ {
		header += " " + letters[x:x+1]
	}
	sb.WriteString(header + "\n")
	for y := 0; y < h; y++ {
		fmt.Fprintf(&sb, "%2d ", h-y)
		for x := 0; x < width; x++ {
			c := ".XO"[b.At(game.Pt(x, y))]
			if dead != nil && dead[y*width+x] {
				c += 'a' - 'A'
			}
			sb.WriteByte(' ')
			sb.WriteByte(c)
		}
		fmt.Fprintf(&sb, " %d\n", h-y)
	}
	sb.WriteString(header + "\n")
	io.WriteString(w, sb.String())
}

func writeScore(w io.Writer, b *game.Board, dead []bool, sc game.Score) {
	var names []string
	for _, p := range deadStrings(b, dead) {
		names = append(names, p.GTP(b.Height()))
	}
	if len(names) == 0 {
		fmt.Fprintln(w, "Dead stones: none")
	} else {
		fmt.Fprintf(w, "Dead stones: the strings at %s\n", strings.Join(names, ", "))
	}
	num := func(f float64) string { return game.FormatKomi(f) }
	fmt.Fprintf(w, "%-10s %8s %8s\n", "", "Black", "White")
	fmt.Fprintf(w, "%-10s %8d %8d\n", "Stones", sc.Black.Stones, sc.White.Stones)
	fmt.Fprintf(w, "%-10s %8d %8d\n", "Territory", sc.Black.Territory, sc.White.Territory)
	fmt.Fprintf(w, "%-10s %8d %8d\n", "Prisoners", sc.Black.Prisoners, sc.White.Prisoners)
	fmt.Fprintf(w, "%-10s %8s %8s\n", "Komi", num(sc.Black.Komi), num(sc.White.Komi))
	fmt.Fprintf(w, "%-10s %8s %8s\n", "Bonus", num(sc.Black.Bonus), num(sc.White.Bonus))
	fmt.Fprintf(w, "%-10s %8s %8s\n", "Total", num(sc.Black.Total), num(sc.White.Total))
}
