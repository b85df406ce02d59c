package game

import (
	"errors"
	"fmt"
	"io"
	"math/bits"
	"strconv"
	"strings"
)

// GameInfo is what an SGF record says about a game besides the board,
// the rules and the moves.
type GameInfo struct {
	Black, White         string        // PB, PW: player names
	BlackRank, WhiteRank string        // BR, WR
	Date                 string        // DT
	Result               string        // RE as written; WriteSGF uses the game's result when empty
	Event, Round, Place  string        // EV, RO, PC
	Name                 string        // GN
	Comment              string        // C of the root node
	TimeLimit            string        // TM: main time in seconds
	Overtime             string        // OT: overtime system, free text
	Moves                []MoveInfo    // per move, in order; may be shorter than the game
	Extra                []SGFProperty // other root properties, written back as they are
}

// MoveInfo is what a record says about one move.
type MoveInfo struct {
	Comment                    string        // C
	BlackTime, WhiteTime       string        // BL, WL: seconds left
	BlackPeriods, WhitePeriods string        // OB, OW: overtime stones or periods left
	Extra                      []SGFProperty // other properties of the move's node
}

// SGFRecord is one game read from SGF, in Go terms: the game-info of the
// root and, node by node, the setup stones and moves of the main line.
type SGFRecord struct {
	Width, Height int
	Komi          float64 // KM; 0 when absent
	HasKomi       bool
	Handicap      int    // HA; 0 when absent
	Rules         string // RU as written (decoded like the game info)
	Info          GameInfo
	Nodes         []SGFStep // the main line, root first
	Root          *SGFNode  // the whole tree, variations included, as parsed (text undecoded)
	// Warnings says what the decoding guessed or left out: an unknown RU or
	// CA, text that is not in its charset, and in tolerant decoding
	// (DecodeSGFTolerant) the values it ignored, like HA[7.5].
	Warnings []string

	skipPoints bool // decodeSGF without points
}

// SGFStep is one node of a record's main line.
type SGFStep struct {
	// Setup[Empty], Setup[Black], Setup[White] are the points the node's
	// AE, AB and AW properties set, compressed lists expanded.
	Setup [3][]Point
	// ToPlay is PL: who plays after the node (after its move, when it
	// has one); Empty when absent.
	ToPlay Color
	// Move is the node's B or W move; Move.Color is Empty for a node
	// without one. A move whose point cannot be read (off the board,
	// malformed) has MoveErr set and Raw holding the SGF text (clipped,
	// valid UTF-8).
	Move    Move
	MoveErr error
	Raw     string
	// TB and TW are the territory marks (final node: the counted
	// territory, with dead stones inside the opponent's). HasTerritory is
	// true when the node has either property, even empty.
	TB, TW       []Point
	HasTerritory bool
}

// HasSetup reports whether the step adds or removes stones.
func (s *SGFStep) HasSetup() bool {
	return len(s.Setup[Empty])+len(s.Setup[Black])+len(s.Setup[White]) > 0
}

// ReadSGF parses an SGF collection and decodes every game tree in it
// with DecodeSGF.
func ReadSGF(data []byte) ([]*SGFRecord, error) { return readSGF(data, false) }

// ReadSGFTolerant is ReadSGF with DecodeSGFTolerant.
func ReadSGFTolerant(data []byte) ([]*SGFRecord, error) { return readSGF(data, true) }

func readSGF(data []byte, tolerant bool) ([]*SGFRecord, error) {
	roots, err := ParseSGF(data)
	if err != nil {
		return nil, err
	}
	recs := make([]*SGFRecord, len(roots))
	for i, r := range roots {
		if recs[i], err = decodeSGF(r, tolerant, true); err != nil {
			if len(roots) > 1 {
				err = fmt.Errorf("game %d: %w", i+1, err)
			}
			return nil, err
		}
	}
	return recs, nil
}

// rootUsed and nodeUsed are the properties DecodeSGF reads into fields
// (or rewrites, like FF and CA); every other root property is kept in
// GameInfo.Extra.
var rootUsed = map[string]bool{
	"FF": true, "GM": true, "CA": true, "AP": true, "SZ": true, "KM": true, "HA": true, "RU": true,
	"PB": true, "PW": true, "BR": true, "WR": true, "DT": true, "RE": true, "EV": true, "RO": true,
	"PC": true, "GN": true, "C": true, "TM": true, "OT": true,
}

var nodeUsed = map[string]bool{
	"B": true, "W": true, "AB": true, "AW": true, "AE": true, "PL": true, "TB": true, "TW": true,
	"C": true, "BL": true, "WL": true, "OB": true, "OW": true,
}

// DecodeSGF reads the Go game in a game tree: size, komi, handicap, rules
// and game-info from the root (game-info from a later node of the main
// line too, as FF[4] allows), then the setup stones and moves of the main
// line. Variations stay in Root. A move whose point cannot be read is kept
// with MoveErr set, for Replay to report; other unusable values (a size
// over 25, a setup point off the board, a komi that is not a number) are
// errors.
//
// Text (names, comments, the event, RE, RU...) is decoded into UTF-8 from
// the charset the root's CA names; without CA it is taken as UTF-8 when it
// is valid UTF-8, otherwise as ISO-8859-1 (the SGF default). An unknown
// CA is read the same way, with a warning (see SGFRecord.Warnings), as is
// text that is invalid in its charset (bad bytes become U+FFFD): the text
// never stops a game from being read, and every string of the record is
// valid UTF-8.
func DecodeSGF(root *SGFNode) (*SGFRecord, error) { return decodeSGF(root, false, true) }

// DecodeSGFTolerant is DecodeSGF that reads on past a bad HA (HA[7.5]):
// it ignores it with a warning and takes the handicap from the root's AB
// stones (their number when there are 2 or more and no AW, else none).
func DecodeSGFTolerant(root *SGFNode) (*SGFRecord, error) { return decodeSGF(root, true, true) }

// decodeSGF is DecodeSGF, or DecodeSGFTolerant when tolerant; without
// points it leaves the point lists (AE, AB, AW, TB, TW) unread, for a
// caller that reads them itself (TreeFromSGF, within its limits).
func decodeSGF(root *SGFNode, tolerant, points bool) (*SGFRecord, error) {
	r := &SGFRecord{Width: 19, Height: 19, Root: root, skipPoints: !points}
	if gm, ok := root.Get("GM"); ok && strings.TrimSpace(gm) != "1" && strings.TrimSpace(gm) != "" {
		return nil, fmt.Errorf("GM[%s] is not a game of Go (GM[1])", clipText(gm, 20))
	}
	if sz, ok := root.Get("SZ"); ok {
		w, h, err := ParseSize(clipText(strings.TrimSpace(sz), 16)) // clipped: the error quotes it
		if err != nil {
			return nil, fmt.Errorf("SZ[%s]: %w", clipText(sz, 20), err)
		}
		r.Width, r.Height = w, h
	}
	if km, ok := root.Get("KM"); ok && strings.TrimSpace(km) != "" {
		k, err := strconv.ParseFloat(strings.TrimSpace(km), 64)
		if err != nil {
			return nil, fmt.Errorf("KM[%s]: komi is not a number", clipText(km, 20))
		}
		if err := checkKomiValue(k); err != nil {
			return nil, fmt.Errorf("KM[%s]: %w", clipText(km, 20), err)
		}
		r.Komi, r.HasKomi = k, true
	}
	badHA := ""
	if ha, ok := root.Get("HA"); ok && strings.TrimSpace(ha) != "" {
		n, err := strconv.Atoi(strings.TrimSpace(ha))
		switch {
		case err == nil && n >= 0 && n < r.Width*r.Height:
			r.Handicap = n
		case !tolerant:
			return nil, fmt.Errorf("HA[%s]: %w: the handicap is a whole number of stones (a tolerant reading ignores it and counts the AB stones)", clipText(ha, 20), ErrHandicap)
		default:
			badHA = ha
		}
	}
	r.Rules, _ = root.Get("RU")
	info := &r.Info
	info.Comment, _ = root.Get("C")
	for _, p := range root.Props {
		if dst := info.field(p.ID); dst != nil {
			*dst = first(p.Values)
		}
	}
	extra := 0
	for _, p := range root.Props {
		if !rootUsed[p.ID] && !nodeUsed[p.ID] {
			extra++
		}
	}
	if extra > 0 {
		info.Extra = make([]SGFProperty, 0, extra)
	}
	for _, p := range root.Props {
		if !rootUsed[p.ID] && !nodeUsed[p.ID] {
			info.Extra = append(info.Extra, p)
		}
	}
	line := root.MainLine()
	r.Nodes = make([]SGFStep, 0, len(line))
	info.Moves = make([]MoveInfo, 0, len(line))
	for i, n := range line {
		if err := r.decodeNode(n, i == 0); err != nil {
			return nil, fmt.Errorf("node %d: %w", i, err)
		}
	}
	if len(info.Moves) == 0 {
		info.Moves = nil
	}
	if badHA != "" {
		if st := &r.Nodes[0]; len(st.Setup[Black]) >= 2 && len(st.Setup[White]) == 0 {
			r.Handicap = len(st.Setup[Black])
		}
		if r.Handicap > 0 {
			r.warn("HA[%s] is not a number of stones: ignored; handicap %d, from the AB stones", clipText(badHA, 20), r.Handicap)
		} else {
			r.warn("HA[%s] is not a number of stones: ignored; no handicap, as AB has no handicap stones", clipText(badHA, 20))
		}
	}
	ca, hasCA := root.Get("CA")
	r.decodeText(ca, hasCA)
	if strings.TrimSpace(r.Rules) != "" {
		if _, known := SGFRules(r.Rules); !known {
			r.warn("RU[%s] is not a ruleset gobot knows (the default is %s)", clipText(r.Rules, 40), defaultSGFRules)
		}
	}
	return r, nil
}

func (r *SGFRecord) warn(format string, args ...any) {
	r.Warnings = append(r.Warnings, fmt.Sprintf(format, args...))
}

// decodeText decodes every text of the record into UTF-8 (see DecodeSGF).
func (r *SGFRecord) decodeText(ca string, hasCA bool) {
	var high []string
	if r.anyHighByte() {
		r.eachText(func(s string) string {
			if hasHighByte(s) {
				high = append(high, s)
			}
			return s
		})
	}
	if len(high) == 0 && (!hasCA || isASCIIName(ca) || strings.TrimSpace(ca) == "") {
		return
	}
	d, warning := newTextDecoder(ca, hasCA, high)
	if warning != "" {
		r.Warnings = append(r.Warnings, warning)
	}
	if len(high) > 0 {
		r.eachText(d.decode)
	}
}

// anyHighByte is a quick look for a byte ≥ 0x80 in the texts eachText
// visits (most records are ASCII).
func (r *SGFRecord) anyHighByte() bool {
	info := &r.Info
	var or byte
	high := func(s string) {
		for i := 0; i < len(s); i++ {
			or |= s[i]
		}
	}
	for _, s := range [...]string{r.Rules, info.Black, info.White, info.BlackRank, info.WhiteRank,
		info.Date, info.Result, info.Event, info.Round, info.Place, info.Name, info.Comment,
		info.TimeLimit, info.Overtime} {
		high(s)
	}
	extra := func(props []SGFProperty) {
		for _, p := range props {
			for _, v := range p.Values {
				high(v)
			}
		}
	}
	extra(info.Extra)
	for i := range info.Moves {
		mi := &info.Moves[i]
		high(mi.Comment)
		high(mi.BlackTime)
		high(mi.WhiteTime)
		high(mi.BlackPeriods)
		high(mi.WhitePeriods)
		extra(mi.Extra)
	}
	return or >= 0x80
}

// eachText replaces every text of the record by fn of it: RU, the game
// info, the move info and the extra properties (each changed one gets new
// Values, so that Root keeps what was parsed).
func (r *SGFRecord) eachText(fn func(string) string) {
	info := &r.Info
	for _, p := range [...]*string{&r.Rules, &info.Black, &info.White, &info.BlackRank, &info.WhiteRank,
		&info.Date, &info.Result, &info.Event, &info.Round, &info.Place, &info.Name, &info.Comment,
		&info.TimeLimit, &info.Overtime} {
		*p = fn(*p)
	}
	extra := func(props []SGFProperty) {
		for i := range props {
			var out []string
			for j, v := range props[i].Values {
				w := fn(v)
				if out == nil && w != v {
					out = append([]string(nil), props[i].Values...)
				}
				if out != nil {
					out[j] = w
				}
			}
			if out != nil {
				props[i].Values = out
			}
		}
	}
	extra(info.Extra)
	for i := range info.Moves {
		mi := &info.Moves[i]
		mi.Comment = fn(mi.Comment)
		mi.BlackTime, mi.WhiteTime = fn(mi.BlackTime), fn(mi.WhiteTime)
		mi.BlackPeriods, mi.WhitePeriods = fn(mi.BlackPeriods), fn(mi.WhitePeriods)
		extra(mi.Extra)
	}
}

func (r *SGFRecord) decodeNode(n *SGFNode, root bool) error {
	var st SGFStep
	var buf [2]SGFStep
	moves := buf[:0]
	var mi MoveInfo
	for _, p := range n.Props {
		var err error
		if r.skipPoints {
			switch p.ID {
			case "AE", "AB", "AW", "TB", "TW":
				continue
			}
		}
		switch p.ID {
		case "AE":
			st.Setup[Empty], err = r.pointList(p)
		case "AB":
			st.Setup[Black], err = r.pointList(p)
		case "AW":
			st.Setup[White], err = r.pointList(p)
		case "TB":
			st.TB, err = r.pointList(p)
			st.HasTerritory = true
		case "TW":
			st.TW, err = r.pointList(p)
			st.HasTerritory = true
		case "PL":
			switch strings.ToUpper(strings.TrimSpace(first(p.Values))) {
			case "B", "1":
				st.ToPlay = Black
			case "W", "2":
				st.ToPlay = White
			default:
				return fmt.Errorf("PL[%s]: the player to move is B or W", clipText(first(p.Values), 20))
			}
		case "B", "W":
			c := Black
			if p.ID == "W" {
				c = White
			}
			v := strings.TrimSpace(first(p.Values))
			m := SGFStep{Move: Move{Color: c, Point: Pass}, Raw: clipText(v, 20)}
			pt, err := ParseSGFPoint(clipText(v, 8), r.Width, r.Height) // clipped: the error quotes it
			if err != nil {
				m.MoveErr = err
			} else {
				m.Move.Point = pt
			}
			moves = append(moves, m)
		case "C":
			if !root {
				mi.Comment = first(p.Values)
			}
		case "BL":
			mi.BlackTime = first(p.Values)
		case "WL":
			mi.WhiteTime = first(p.Values)
		case "OB":
			mi.BlackPeriods = first(p.Values)
		case "OW":
			mi.WhitePeriods = first(p.Values)
		default:
			if root {
				break
			}
			// Game-info after the root (where a merged collection's games
			// part): the first on the main line counts.
			if dst := r.Info.field(p.ID); dst != nil && *dst == "" {
				*dst = first(p.Values)
				break
			}
			mi.Extra = append(mi.Extra, p)
		}
		if err != nil {
			return err
		}
	}
	if len(moves) == 0 {
		r.Nodes = append(r.Nodes, st)
		return nil
	}
	// A node with both B and W (seen in the wild) becomes two steps: the
	// setup goes with the first, PL (who plays after the node) with the
	// last.
	for i, m := range moves {
		s := st
		if i > 0 {
			s = SGFStep{TB: st.TB, TW: st.TW, HasTerritory: st.HasTerritory, ToPlay: st.ToPlay}
			mi.Extra = append([]SGFProperty(nil), mi.Extra...)
		}
		if i < len(moves)-1 {
			s.ToPlay = Empty
		}
		s.Move, s.MoveErr, s.Raw = m.Move, m.MoveErr, m.Raw
		r.Nodes = append(r.Nodes, s)
		r.Info.Moves = append(r.Info.Moves, mi)
	}
	return nil
}

// field returns the GameInfo field of a game-info property (C aside, which
// is game-info only in the root), or nil.
func (info *GameInfo) field(id string) *string {
	switch id {
	case "PB":
		return &info.Black
	case "PW":
		return &info.White
	case "BR":
		return &info.BlackRank
	case "WR":
		return &info.WhiteRank
	case "DT":
		return &info.Date
	case "RE":
		return &info.Result
	case "EV":
		return &info.Event
	case "RO":
		return &info.Round
	case "PC":
		return &info.Place
	case "GN":
		return &info.Name
	case "TM":
		return &info.TimeLimit
	case "OT":
		return &info.Overtime
	}
	return nil
}

func first(vals []string) string {
	if len(vals) == 0 {
		return ""
	}
	return vals[0]
}

// pointList expands a list of points and rectangles ("do:gq", corners
// in either order) into its points, each once: a point listed again, or
// inside rectangles that overlap, counts where it first appears. A list
// therefore holds at most the board's points whatever it repeats, and a
// rectangle costs a row's work per line rather than a point's.
func (r *SGFRecord) pointList(p SGFProperty) ([]Point, error) {
	var (
		seen pointSet
		out  []Point
	)
	for _, v := range p.Values {
		v = strings.TrimSpace(v)
		if v == "" {
			continue
		}
		a, b, rect := strings.Cut(v, ":")
		p1, err := r.setupPoint(a)
		if err != nil {
			return nil, fmt.Errorf("%s[%s]: %w", p.ID, clipText(v, 20), err)
		}
		p2 := p1
		if rect {
			if p2, err = r.setupPoint(b); err != nil {
				return nil, fmt.Errorf("%s[%s]: %w", p.ID, clipText(v, 20), err)
			}
		}
		out = seen.addRect(out, p1, p2)
	}
	return out, nil
}

// pointSet is a set of points of a board of at most MaxSize×MaxSize: a
// row of bits per line.
type pointSet [MaxSize]uint32

// addRect adds the points of the rectangle with corners p and q (on the
// board) to the set, appending those it did not hold to out, line by
// line.
func (s *pointSet) addRect(out []Point, p, q Point) []Point {
	x0, x1 := min(p.X, q.X), max(p.X, q.X)
	row := uint32(1)<<(x1+1) - uint32(1)<<x0
	for y := min(p.Y, q.Y); y <= max(p.Y, q.Y); y++ {
		fresh := row &^ s[y]
		s[y] |= fresh
		for ; fresh != 0; fresh &= fresh - 1 {
			out = append(out, Point{int8(bits.TrailingZeros32(fresh)), y})
		}
	}
	return out
}

// add adds p to the set and reports whether it was not in it.
func (s *pointSet) add(p Point) bool {
	if s[p.Y]>>p.X&1 != 0 {
		return false
	}
	s[p.Y] |= 1 << p.X
	return true
}

// onePerPoint leaves each point in one of a node's setup lists (AE, AB,
// AW): the one that decides it, as they are applied in that order (AW
// over AB over AE). The position the node sets is the same, and the
// lists together hold at most the board's points.
func onePerPoint(setup *[3][]Point) {
	var set pointSet
	for _, c := range []Color{White, Black, Empty} {
		kept := setup[c][:0]
		for _, p := range setup[c] {
			if set.add(p) {
				kept = append(kept, p)
			}
		}
		if len(kept) == 0 {
			kept = nil
		}
		setup[c] = kept
	}
}

func (r *SGFRecord) setupPoint(s string) (Point, error) {
	if s == "" {
		return Point{}, fmt.Errorf("empty point: %w", ErrBadCoord)
	}
	p, err := ParseSGFPoint(clipText(s, 8), r.Width, r.Height) // clipped: the error quotes it
	if err == nil && p.IsPass() {
		err = fmt.Errorf("SGF point %q is %w (board is %s)", s, ErrOffBoard, SizeString(r.Width, r.Height))
	}
	return p, err
}

// MoveCount returns how many moves (passes included) the main line holds.
func (r *SGFRecord) MoveCount() int {
	n := 0
	for i := range r.Nodes {
		if r.Nodes[i].Move.Color != Empty {
			n++
		}
	}
	return n
}

// Where the ruleset of a replay came from, as SGFRecord.RecordRules and
// gobot sgf --json ("rules_from") say it.
const (
	RulesFromFile    = "file"    // the record's RU names it
	RulesFromDefault = "default" // no RU, or one gobot does not know: defaultSGFRules
	RulesFromFlag    = "flag"    // the caller chose it (gobot sgf --rules)
)

// defaultSGFRules is the ruleset of a record whose RU is missing or
// unknown.
const defaultSGFRules = "chinese"

// ruWords maps RU spellings found in records, and the words of longer RU
// values ("Japanese 1989", "Tromp/Taylor", "AGA rules"), to presets. Keys
// are lower-case with everything but letters and digits removed. Ing's
// rules (GOE, Ing) have no preset: new-zealand is the one that shares
// their area counting, legal suicide and superko; chinese would refuse
// their legal suicides.
var ruWords = map[string]string{
	"japanese": "japanese", "japan": "japanese", "jp": "japanese", "jpn": "japanese", "jap": "japanese",
	"nihon": "japanese", "territory": "japanese",
	"korean": "korean", "korea": "korean", "kr": "korean", "kor": "korean",
	"chinese": "chinese", "china": "chinese", "cn": "chinese", "chn": "chinese",
	"aga": "aga", "american": "aga",
	"nz": "new-zealand", "newzealand": "new-zealand", "zealand": "new-zealand",
	"tt": "tromp-taylor", "tromptaylor": "tromp-taylor", "tromp": "tromp-taylor", "taylor": "tromp-taylor",
	"ing": "new-zealand", "goe": "new-zealand", "ingrules": "new-zealand",
	"bga": "bga", "british": "bga", "uk": "bga",
}

// SGFRules returns the ruleset an SGF RU value names, case and
// punctuation aside: a preset in any spelling Preset or ruWords knows
// (Japanese, JP, Chinese, CN, Korean, KR, AGA, New Zealand, NZ,
// Tromp-Taylor, Tromp/Taylor, TT, TT--, Ing, GOE, BGA, British...), a
// longer value with such a word in it ("Japanese 1989 rules"), or a list
// of gobot rules options (what WriteSGF writes for a custom ruleset);
// known is then true. Anything else, an empty RU included, gives
// defaultSGFRules (chinese) with known false. The komi is the preset's; a
// record's KM replaces it (see SGFRecord.Config).
func SGFRules(ru string) (r Rules, known bool) {
	t := strings.TrimSpace(ru)
	if strings.Contains(t, "=") {
		if p, err := ParseRules(t); err == nil {
			return p, true
		}
	}
	words := strings.FieldsFunc(strings.ToLower(t), func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9')
	})
	if len(words) > 0 {
		name, ok := ruWords[strings.Join(words, "")]
		if !ok {
			name = strings.Join(words, "-")
		}
		if p, err := Preset(name); err == nil {
			return p, true
		}
		for _, w := range words {
			if name, ok := ruWords[w]; ok {
				p, _ := Preset(name)
				return p, true
			}
		}
	}
	p, _ := Preset(defaultSGFRules)
	return p, false
}

// RecordRules returns the ruleset the record's RU names (see SGFRules)
// and where it came from: RulesFromFile, or RulesFromDefault when RU is
// missing or unknown.
func (r *SGFRecord) RecordRules() (Rules, string) {
	rules, known := SGFRules(r.Rules)
	if known {
		return rules, RulesFromFile
	}
	return rules, RulesFromDefault
}

// sgfRuleNames are the RU values FF[4] names for presets ("AGA", "NZ",
// "Japanese"; "Chinese" as other programs write it). Preset reads them
// back, in any case.
var sgfRuleNames = map[string]string{"japanese": "Japanese", "aga": "AGA", "new-zealand": "NZ", "chinese": "Chinese"}

// sgfRulesValue is what WriteSGF puts in RU: the preset name, or the full
// list of options (komi aside: KM has it) for anything else.
func sgfRulesValue(r Rules) string {
	if r.IsPreset() {
		if v, ok := sgfRuleNames[r.Name]; ok {
			return v
		}
		return r.Name
	}
	sui, ps, agr := "forbidden", "off", "on"
	if r.Suicide {
		sui = "allowed"
	}
	if r.PassStones {
		ps = "on"
	}
	if r.NoAgreement {
		agr = "off"
	}
	return fmt.Sprintf("ko=%s scoring=%s suicide=%s passstones=%s bonus=%s handicap=%s cycle=%s agreement=%s",
		r.Ko, r.Scoring, sui, ps, r.Bonus, r.Placement, r.Cycle, agr)
}

// Config returns the game configuration of the record under rules: the
// record's size and handicap, and its komi (KM, or 0 when the record has
// none — the SGF convention for games without komi).
func (r *SGFRecord) Config(rules Rules) Config {
	rules.Komi = r.Komi
	return Config{Width: r.Width, Height: r.Height, Rules: rules, Handicap: r.Handicap}
}

// IllegalMove is a move of a record that the rules do not allow.
type IllegalMove struct {
	Number int    // 1-based, counting every B and W of the main line
	Move   Move   // the move (its Point is Pass when it could not be read)
	Point  string // in GTP form ("D4", "pass"), or the SGF text when unreadable
	Err    error  // why: ErrKo, ErrSuicide, ErrOccupied... (use errors.Is)
}

// Reason returns the explanation in words, without repeating the point.
func (m IllegalMove) Reason() string {
	return strings.TrimPrefix(m.Err.Error(), m.Point+": ")
}

func (m IllegalMove) String() string {
	return fmt.Sprintf("move %d (%s %s): %s", m.Number, m.Move.Color.Name(), m.Point, m.Reason())
}

// SGFReplay is the outcome of replaying a record.
type SGFReplay struct {
	// Game is the game at the end of the main line (or at the illegal move
	// where a strict replay stopped). After the tolerant replay forced a
	// move or met setup stones in mid-record, Game starts from that
	// position (its Record does too) but keeps the captures and the
	// superko history of everything before.
	Game    *Game
	Moves   int // B and W nodes replayed, illegal ones included
	Illegal []IllegalMove
	// Stopped is true when a strict replay stopped at an illegal move.
	Stopped bool
	// OutOfTurn counts the moves the tolerant replay played out of turn,
	// as the record gives them: two moves of one colour in a row (passes
	// left out of the record), or a move against the PL before it. Each is
	// in Illegal too, with ErrNotYourTurn.
	OutOfTurn int
}

// Replay plays the record's main line under rules (see Config): setup
// stones, then moves. Without tolerant, it stops at the first illegal move
// and reports it. With tolerant, it reports every illegal move and goes
// on: a move out of turn is played by the colour the record gives, a move
// the rules forbid (ko, superko, suicide) is forced on the board with the
// usual captures, and a move on an occupied or unreadable point is
// skipped; in every case the opponent of the mover is next.
//
// The starting position is the root's setup stones. HA without AB means
// Black's first moves are the handicap stones (free placement), unless
// White moves before Black has placed them all; then the fixed points are
// used. A resignation, a loss on time or a void game in RE ends the game;
// after the last two passes, TB and TW marks in the last node decide the
// dead stones (a stone inside the opponent's territory is dead) and the
// game ends counted.
func (r *SGFRecord) Replay(rules Rules, tolerant bool) (*SGFReplay, error) {
	return r.Walk(rules, tolerant, nil)
}

// Walk is Replay calling fn with the game at the start (move 0) and after
// each B or W node of the main line (move = its number, illegal moves
// included), for drawing every position of a record. fn may read g but
// must not change it or keep it.
func (r *SGFRecord) Walk(rules Rules, tolerant bool, fn func(move int, g *Game)) (*SGFReplay, error) {
	cfg := r.Config(rules)
	g, err := r.start(cfg)
	if err != nil {
		return nil, err
	}
	out := &SGFReplay{}
	if fn != nil {
		fn(0, g)
	}
	var nextMove []Color // per node, the colour of the next move; made when needed
	// pl names the PL that set the turn since the last move, for the
	// error when the next move is the other colour's.
	pl := ""
	if root := &r.Nodes[0]; root.ToPlay != Empty && root.Move.Color == Empty {
		pl = "PL[" + root.ToPlay.String() + "] in the root"
	}
	for i := range r.Nodes {
		st := &r.Nodes[i]
		m := st.Move
		if i > 0 && st.HasSetup() {
			if nextMove == nil {
				nextMove = r.nextColors()
			}
			next := Empty
			if m.Color == Empty {
				next = st.ToPlay
			}
			if next == Empty {
				next = nextMove[i]
			}
			if next == Empty {
				next = g.toMove
			}
			b := g.board.Clone()
			applySetup(b, st)
			g = g.continueAt(b, next, Empty)
		}
		if m.Color == Empty {
			if st.ToPlay != Empty && g.phase == Playing {
				if i > 0 {
					pl = fmt.Sprintf("PL[%s] in node %d", st.ToPlay, i)
				}
				if st.ToPlay != g.toMove {
					g = g.continueAt(g.board.Clone(), st.ToPlay, Empty)
				}
			}
			continue
		}
		out.Moves++
		if !r.replayMove(g, st, out, pl) {
			if !tolerant {
				out.Stopped = true
				break
			}
			if errors.Is(out.Illegal[len(out.Illegal)-1].Err, ErrNotYourTurn) {
				out.OutOfTurn++
			}
			g = g.force(m, st.MoveErr == nil)
		}
		pl = ""
		// PL beside a move says who plays after it.
		if st.ToPlay != Empty && g.phase == Playing {
			pl = fmt.Sprintf("PL[%s] after move %d", st.ToPlay, out.Moves)
			if st.ToPlay != g.toMove {
				g = g.continueAt(g.board.Clone(), st.ToPlay, Empty)
			}
		}
		if fn != nil {
			fn(out.Moves, g)
		}
	}
	if !out.Stopped {
		r.finish(g)
	}
	out.Game = g
	return out, nil
}

// replayMove plays the move of st on g, or records it in out.Illegal and
// returns false. pl names the PL that gave the turn, if any.
func (r *SGFRecord) replayMove(g *Game, st *SGFStep, out *SGFReplay, pl string) bool {
	m := st.Move
	if m.Color == White && m.IsPass() && st.MoveErr == nil && g.handicapIn > 0 && g.toMove == Black && g.phase == Playing {
		// White's passes while Black places free handicap stones (text
		// 004; the game makes them itself under white-passes).
		return true
	}
	ill := IllegalMove{Number: out.Moves, Move: m}
	if st.MoveErr != nil {
		ill.Point, ill.Err = st.Raw, st.MoveErr
	} else {
		if g.phase == Scoring {
			g.Resume()
		}
		if ill.Err = g.PlayMove(m); ill.Err == nil {
			return true
		}
		if pl != "" && errors.Is(ill.Err, ErrNotYourTurn) {
			ill.Err = fmt.Errorf("%w: %s gives %s the move", ErrNotYourTurn, pl, g.toMove.Name())
		}
		ill.Point = m.Point.GTP(r.Height)
	}
	out.Illegal = append(out.Illegal, ill)
	return false
}

// nextColors returns, per node, the colour of the first move at or after
// it (Empty when none follows).
func (r *SGFRecord) nextColors() []Color {
	out := make([]Color, len(r.Nodes))
	next := Empty
	for i := len(r.Nodes) - 1; i >= 0; i-- {
		if c := r.Nodes[i].Move.Color; c != Empty {
			next = c
		}
		out[i] = next
	}
	return out
}

// nextColor guesses who is to play at node i: the colour of the next move
// in the record, or def when no move follows.
func (r *SGFRecord) nextColor(i int, def Color) Color {
	for ; i < len(r.Nodes); i++ {
		if c := r.Nodes[i].Move.Color; c != Empty {
			return c
		}
	}
	return def
}

func applySetup(b *Board, st *SGFStep) {
	for _, c := range []Color{Empty, Black, White} {
		for _, p := range st.Setup[c] {
			b.set(b.index(p), c)
		}
	}
}

// start makes the game the record begins from.
func (r *SGFRecord) start(cfg Config) (*Game, error) {
	root := &r.Nodes[0]
	if !root.HasSetup() {
		if cfg.Handicap >= 2 {
			switch r.handicapMoves(cfg.Handicap) {
			case Black:
				if cfg.Rules.Placement == PlacementFixed {
					cfg.Rules.Placement = PlacementFree
				}
			case White:
				cfg.Rules.Placement = PlacementFixed
				if _, err := FixedHandicap(cfg.Handicap, cfg.Width, cfg.Height); err != nil {
					b, _ := NewBoard(cfg.Width, cfg.Height)
					return NewFromPosition(cfg, b, r.nextColor(0, Black))
				}
			}
		}
		return New(cfg)
	}
	b, err := NewBoard(cfg.Width, cfg.Height)
	if err != nil {
		return nil, err
	}
	applySetup(b, root)
	if cfg.Handicap >= 2 && cfg.Rules.Placement == PlacementFixed && len(root.Setup[White]) == 0 {
		if g, err := New(cfg); err == nil && g.board.Equal(b) && r.nextColor(0, White) == White {
			return g, nil
		}
	}
	toMove := root.ToPlay
	if toMove == Empty || root.Move.Color != Empty { // PL beside a move is for after it
		toMove = r.nextColor(0, Black)
	}
	return NewFromPosition(cfg, b, toMove)
}

// handicapMoves tells how a record without AB places n handicap stones:
// Black when its first stones are Black's (free placement; White's passes
// aside), White when White plays a stone before Black has placed n (so the
// stones are on the fixed points), Empty when the record has no stones.
func (r *SGFRecord) handicapMoves(n int) Color {
	placed := 0
	for i := range r.Nodes {
		m := r.Nodes[i].Move
		switch {
		case m.Color == Black && !m.IsPass():
			placed++
			if placed == n {
				return Black
			}
		case m.Color == White && !m.IsPass():
			return White
		}
	}
	if placed > 0 {
		return Black
	}
	return Empty
}

// force plays m after the rules refused it, as the tolerant replay does,
// and returns the game to go on with. onBoard is false for a move whose
// point could not be read, which is skipped.
func (g *Game) force(m Move, onBoard bool) *Game {
	b := g.board.Clone()
	if !onBoard {
		return g.continueAt(b, m.Color.Opponent(), Empty)
	}
	if g.phase == Playing && m.Color != g.toMove {
		// Out of turn: let that colour play, and force only if still refused.
		ng := g.continueAt(b, m.Color, Empty)
		if ng.PlayMove(m) == nil {
			return ng
		}
		g, b = ng, ng.board.Clone()
	}
	captured, suicided := 0, 0
	if !m.IsPass() && m.Point.In(b.w, b.h) && b.At(m.Point) == Empty {
		captured, suicided = b.play(m.Color, b.index(m.Point))
	}
	ng := g.continueAt(b, m.Color.Opponent(), m.Color)
	ng.captures[m.Color] += captured
	ng.captures[m.Color.Opponent()] += suicided
	return ng
}

// finish ends the game as the record says. After the last two passes,
// TB/TW in the last node give the dead marks, and a counted RE ends the
// game with the count; a resignation, a loss on time or a void game in RE
// ends it with that result.
func (r *SGFRecord) finish(g *Game) {
	last := &r.Nodes[len(r.Nodes)-1]
	res, err := ParseResult(r.Info.Result)
	known := err == nil
	if g.phase == Scoring && last.HasTerritory {
		clear(g.dead)
		g.proposing = false
		for _, t := range []struct {
			pts   []Point
			owner Color
		}{{last.TB, Black}, {last.TW, White}} {
			for _, p := range t.pts {
				if c := g.board.At(p); c == t.owner.Opponent() && !g.dead[g.board.index(p)] && !g.cfg.Rules.NoAgreement {
					g.toggle(p, true)
				}
			}
		}
		if known && res.Reason == ByScore {
			g.Accept(Black)
			g.Accept(White)
			return
		}
	}
	if g.phase == Over {
		return
	}
	if known {
		switch res.Reason {
		case ByResign, ByTime, NoResult:
			g.finish(res)
		}
	}
}

// ErrBadResult is returned by ParseResult for a result it cannot read.
var ErrBadResult = errors.New("not an SGF result")

// ParseResult reads an SGF RE value: "B+3.5", "W+R" (or "W+Resign"),
// "B+T" ("B+Time"), "0" / "Draw" / "Jigo", "Void". A win with no margin
// ("B+") reads as a win by 0 points.
func ParseResult(s string) (Result, error) {
	t := strings.TrimSpace(s)
	switch strings.ToLower(t) {
	case "0", "draw", "jigo":
		return Result{Reason: ByScore}, nil
	case "void":
		return Result{Reason: NoResult}, nil
	}
	bad := fmt.Errorf("RE[%s]: %w (like B+3.5, W+R, B+T, 0 or Void)", s, ErrBadResult)
	if len(t) < 2 || t[1] != '+' {
		return Result{}, bad
	}
	var res Result
	switch t[0] {
	case 'B', 'b':
		res.Winner = Black
	case 'W', 'w':
		res.Winner = White
	default:
		return Result{}, bad
	}
	switch m := strings.ToLower(t[2:]); m {
	case "r", "resign":
		res.Reason = ByResign
	case "t", "time":
		res.Reason = ByTime
	case "":
		res.Reason = ByScore
	default:
		k, err := strconv.ParseFloat(m, 64)
		if err != nil || k < 0 {
			return Result{}, bad
		}
		res.Reason, res.Margin = ByScore, k
	}
	return res, nil
}

// WriteSGF writes g as an SGF FF[4] record: FF, GM, CA, AP, SZ ("19" or
// "W:H"), KM, RU (the preset name, or the rules options for a custom
// ruleset), HA, the game-info of info, AB/AW for the starting position
// (fixed handicap stones or a NewFromPosition setup), then one node per
// move with pass as "[]". The result is info.Result, or the game's own
// when it is over; a counted game's last node gets TB/TW marks (territory,
// dead stones inside the opponent's) that DecodeSGF and Replay read back.
func WriteSGF(w io.Writer, g *Game, info GameInfo) error {
	cfg := g.cfg
	root := &SGFNode{}
	add := func(n *SGFNode, id string, vals ...string) {
		if len(vals) == 0 || (len(vals) == 1 && vals[0] == "") {
			return
		}
		n.Props = append(n.Props, SGFProperty{ID: id, Values: vals})
	}
	add(root, "FF", "4")
	add(root, "GM", "1")
	add(root, "CA", "UTF-8")
	add(root, "AP", "gobot")
	if cfg.Width == cfg.Height {
		add(root, "SZ", strconv.Itoa(cfg.Width))
	} else {
		add(root, "SZ", strconv.Itoa(cfg.Width)+":"+strconv.Itoa(cfg.Height))
	}
	add(root, "KM", FormatKomi(cfg.Rules.Komi))
	add(root, "RU", sgfRulesValue(cfg.Rules))
	if cfg.Handicap != 0 {
		add(root, "HA", strconv.Itoa(cfg.Handicap))
	}
	result := info.Result
	if res, ok := g.Result(); ok && result == "" {
		result = res.String()
	}
	for _, f := range []struct{ id, v string }{
		{"PB", info.Black}, {"BR", info.BlackRank}, {"PW", info.White}, {"WR", info.WhiteRank},
		{"DT", info.Date}, {"EV", info.Event}, {"RO", info.Round}, {"PC", info.Place},
		{"GN", info.Name}, {"TM", info.TimeLimit}, {"OT", info.Overtime}, {"RE", result},
		{"C", info.Comment},
	} {
		add(root, f.id, f.v)
	}
	root.Props = append(root.Props, info.Extra...)
	add(root, "AB", sgfPoints(g.setup.Stones(Black))...)
	add(root, "AW", sgfPoints(g.setup.Stones(White))...)
	if g.setupToMove != Empty {
		add(root, "PL", g.setupToMove.String())
	}
	parent := root
	for i, m := range g.moves {
		n := &SGFNode{}
		n.Props = append(n.Props, SGFProperty{ID: m.Color.String(), Values: []string{m.Point.SGF()}})
		if i < len(info.Moves) {
			mi := info.Moves[i]
			add(n, "C", mi.Comment)
			add(n, "BL", mi.BlackTime)
			add(n, "OB", mi.BlackPeriods)
			add(n, "WL", mi.WhiteTime)
			add(n, "OW", mi.WhitePeriods)
			n.Props = append(n.Props, mi.Extra...)
		}
		parent.Children = []*SGFNode{n}
		parent = n
	}
	if res, ok := g.Result(); g.phase == Scoring || (ok && res.Reason == ByScore) {
		s := g.Score()
		var tb, tw []Point
		for i, o := range s.Owner {
			c := g.board.cells[i]
			switch {
			case g.dead[i] && c == Black:
				tw = append(tw, g.board.point(i))
			case g.dead[i] && c == White:
				tb = append(tb, g.board.point(i))
			case c == Empty && o == Black:
				tb = append(tb, g.board.point(i))
			case c == Empty && o == White:
				tw = append(tw, g.board.point(i))
			}
		}
		// Both always, even empty (an elist), so that a reader can tell a
		// counted end with nothing dead from a record without marks.
		parent.Props = append(parent.Props, SGFProperty{ID: "TB", Values: sgfPoints(tb)}, SGFProperty{ID: "TW", Values: sgfPoints(tw)})
	}
	return WriteSGFTree(w, root)
}

func sgfPoints(pts []Point) []string {
	out := make([]string, len(pts))
	for i, p := range pts {
		out[i] = p.SGF()
	}
	return out
}
