package tournament

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf16"
	"unicode/utf8"

	"golang.org/x/text/encoding/charmap"

	"github.com/gobotgo/gobot/game"
)

// Meta is what an OpenGotha tournament file says about an event beyond
// its players and games: its names, place and dates, the games' settings,
// the handicap rule, and the players marked absent from rounds not yet
// paired. ReadOpenGotha fills it; WriteOpenGotha writes it.
type Meta struct {
	Name      string // the full name
	ShortName string // OpenGotha's short name (it names its files after it)
	Location  string
	Director  string
	// Begin and End are the event's first and last days; zero when not
	// known (OpenGotha then takes the day it opens the file).
	Begin, End time.Time
	Size       int     // board size; 0 is written as 19
	Komi       float64 // komi as OpenGotha keeps it, e.g. 7.5
	Clock      Clock
	Internet   bool // played on the internet (the EGF's class D)
	// Handicap is the handicap rule; nil is the system's default rule
	// (DefaultHandicap), the one gobot's pairing applies.
	Handicap *HandicapRule
	// Absent lists, by round (from 0), the registered players marked as
	// not taking part in a round that is not paired yet: they are the
	// ones to pass to Pair when that round comes.
	Absent map[int][]PlayerID
	// Notes, from ReadOpenGotha, name the settings in the file that gobot
	// keeps but does not apply, because its pairing and standings follow
	// OpenGotha's defaults for the system: "handicap correction 2 (the
	// default is 1)". Empty for a file with the defaults.
	Notes []string
}

// Clock is a tournament's time settings as OpenGotha keeps them: basic
// time, then one of four overtime systems; OpenGotha keeps the settings of
// every system, only Overtime's is used.
type Clock struct {
	BasicMinutes    int
	Overtime        Overtime
	ByoYomiSeconds  int // standard byo-yomi: the period (any number of periods)
	CanadianMoves   int // Canadian byo-yomi: this many moves …
	CanadianSeconds int // … in this many seconds
	FischerSeconds  int // Fischer: seconds added per move
}

// Overtime is a clock's system after the basic time.
type Overtime int

// The overtime systems OpenGotha knows.
const (
	SuddenDeath Overtime = iota
	ByoYomi
	Canadian
	Fischer
)

var overtimeNames = [...]string{"SUDDENDEATH", "STDBYOYOMI", "CANBYOYOMI", "FISCHER"}

// DefaultClock is the clock OpenGotha sets for a new tournament: an hour,
// then 30-second byo-yomi.
var DefaultClock = Clock{BasicMinutes: 60, Overtime: ByoYomi, ByoYomiSeconds: 30,
	CanadianMoves: 15, CanadianSeconds: 300, FischerSeconds: 10}

// bounded is the clock as OpenGotha holds it: basic time from 5 to 180
// minutes, byo-yomi periods of 5 to 120 seconds, Canadian periods of 5 to
// 25 moves in 300 to 900 seconds, Fischer increments of 1 to 60 seconds.
func (c Clock) bounded() Clock {
	c.BasicMinutes = min(max(c.BasicMinutes, 5), 180)
	c.ByoYomiSeconds = min(max(c.ByoYomiSeconds, 5), 120)
	c.CanadianMoves = min(max(c.CanadianMoves, 5), 25)
	c.CanadianSeconds = min(max(c.CanadianSeconds, 300), 900)
	c.FischerSeconds = min(max(c.FischerSeconds, 1), 60)
	c.Overtime = min(max(c.Overtime, SuddenDeath), Fischer)
	return c
}

// HandicapRule is OpenGotha's handicap rule (its HandicapParameterSet).
type HandicapRule struct {
	// BasedOnMMS takes the difference of the players' McMahon scores
	// (else of their ranks).
	BasedOnMMS bool
	// NoHandicapAbove: ranks (or scores) above it count as it, so that
	// games between players at or above it are even.
	NoHandicapAbove game.Rank
	Correction      int // stones taken off the difference
	Ceiling         int // at most this many stones
}

// DefaultHandicap is OpenGotha's handicap rule for a new tournament of the
// system, the one gobot's pairing applies: in McMahon, the McMahon-score
// difference less one, at most 9, scores above 1d's counting as 1d's;
// otherwise even games.
func DefaultHandicap(s System) HandicapRule {
	if s == McMahon {
		return HandicapRule{BasedOnMMS: true, NoHandicapAbove: 1, Correction: 1, Ceiling: 9}
	}
	return HandicapRule{NoHandicapAbove: NoFloor}
}

// MaxFileSize bounds the OpenGotha files ReadOpenGotha reads: 2,000
// players and 20 rounds of games take some 1.5 MiB.
const MaxFileSize = 4 << 20

// ErrNotExportable is what WriteOpenGotha's refusals are: a tournament
// OpenGotha cannot hold.
var ErrNotExportable = errors.New("OpenGotha cannot hold this tournament")

// ErrBadFile is what every refusal of a file by ReadOpenGotha is
// (errors.Is); its text says what is wrong in words for the organiser.
var ErrBadFile = errors.New("that file is not a tournament gobot can read")

// fileError is a refusal of a file, worded for the organiser.
type fileError string

func (e fileError) Error() string        { return string(e) }
func (e fileError) Is(target error) bool { return target == ErrBadFile }

func refuse(format string, a ...any) error { return fileError(fmt.Sprintf(format, a...)) }

// quote quotes a name from a file for an error message, cut short so
// that the message stays short.
func quote(s string) string {
	if utf8.RuneCountInString(s) > 40 {
		r := []rune(s)
		s = string(r[:39]) + "…"
	}
	return "'" + strings.ToValidUTF8(s, "?") + "'"
}

// The XML of an OpenGotha 3.51 tournament file, as much of it as gobot
// reads. OpenGotha ignores attributes it does not know; gobot writes one
// of its own, gobotSystem, for the systems OpenGotha has none of.
type ogFile struct {
	XMLName     xml.Name      `xml:"Tournament"`
	GobotSystem string        `xml:"gobotSystem,attr"`
	Players     []ogPlayer    `xml:"Players>Player"`
	Games       []ogGame      `xml:"Games>Game"`
	Byes        []ogBye       `xml:"ByePlayers>ByePlayer"`
	Teams       []struct{}    `xml:"Teams>Team"`
	ClubsGroups []struct{}    `xml:"ClubsGroups>ClubsGroup"`
	Parameters  *ogParameters `xml:"TournamentParameterSet"`
}

type ogPlayer struct {
	Name          string `xml:"name,attr"`
	FirstName     string `xml:"firstName,attr"`
	Country       string `xml:"country,attr"`
	Club          string `xml:"club,attr"`
	Rank          string `xml:"rank,attr"`
	Rating        string `xml:"rating,attr"`
	SMMS          string `xml:"smmsCorrection,attr"`
	Participating string `xml:"participating,attr"`
}

type ogGame struct {
	Round    string `xml:"roundNumber,attr"`
	Table    string `xml:"tableNumber,attr"`
	White    string `xml:"whitePlayer,attr"`
	Black    string `xml:"blackPlayer,attr"`
	Known    string `xml:"knownColor,attr"`
	Handicap string `xml:"handicap,attr"`
	Result   string `xml:"result,attr"`
}

type ogBye struct {
	Round  string `xml:"roundNumber,attr"`
	Player string `xml:"player,attr"`
}

type ogParameters struct {
	General   *ogAttrs `xml:"GeneralParameterSet"`
	Handicap  *ogAttrs `xml:"HandicapParameterSet"`
	Placement []struct {
		Name   string `xml:"name,attr"`
		Number string `xml:"number,attr"`
	} `xml:"PlacementParameterSet>PlacementCriteria>PlacementCriterion"`
	Pairing *ogAttrs `xml:"PairingParameterSet"`
}

type ogAttrs struct {
	Attrs []xml.Attr `xml:",any,attr"`
}

// get returns the attribute's value, or def when it is missing (as
// OpenGotha's extractNodeValue).
func (a *ogAttrs) get(name, def string) string {
	if a != nil {
		for _, at := range a.Attrs {
			if at.Name.Local == name {
				return at.Value
			}
		}
	}
	return def
}

// OpenGotha's results, indexed by Result; the forfeit ("by default")
// results add _BYDEF.
var ogResults = [...]string{
	Unknown:   "RESULT_UNKNOWN",
	WhiteWins: "RESULT_WHITEWINS",
	BlackWins: "RESULT_BLACKWINS",
	Jigo:      "RESULT_EQUAL",
	BothLose:  "RESULT_BOTHLOSE",
	BothWin:   "RESULT_BOTHWIN",
}

// ogKey is the key OpenGotha finds a player by (Player.getKeyString): the
// name then the first name, spaces removed, in capitals as Java's
// toUpperCase makes them (ß becomes SS).
func ogKey(name, firstName string) string {
	s := strings.ReplaceAll(name+firstName, " ", "")
	return strings.ToUpper(strings.ReplaceAll(s, "ß", "SS"))
}

// javaLen is a string's length in Java characters (UTF-16 code units),
// which OpenGotha's limits count.
func javaLen(s string) int { return len(utf16.Encode([]rune(s))) }

// javaPrefix is the first n Java characters of s.
func javaPrefix(s string, n int) string {
	u := utf16.Encode([]rune(s))
	if len(u) <= n {
		return s
	}
	return string(utf16.Decode(u[:n]))
}

// OpenGotha's limits: ratings, and clubs of at most four characters
// (longer ones it cuts).
const (
	ogMinRating = -900
	ogMaxRating = 2949
	ogClubLen   = 4
)

// noFirstName is the first name written for a player who has none:
// OpenGotha needs one. ReadOpenGotha reads it back as none.
const noFirstName = "-"

// parseOGRank reads a rank as OpenGotha writes it ("3K", "2D"; a bare
// number is a kyu grade; "1P" to "9P" are 7d to 9d as OpenGotha counts
// them), bounded by 30k and 9d as OpenGotha bounds it.
func parseOGRank(s string) (game.Rank, bool) {
	s = strings.TrimSpace(s)
	if s == "" {
		return 0, false
	}
	unit := s[len(s)-1] | 0x20
	digits := s[:len(s)-1]
	if s[len(s)-1] >= '0' && s[len(s)-1] <= '9' {
		unit, digits = 'k', s
	}
	n, err := strconv.Atoi(digits)
	if err != nil || n < 0 || n > 99 || len(digits) > 2 {
		return 0, false
	}
	var r int // OpenGotha's rank: 1d is 0
	switch unit {
	case 'k':
		r = -n
	case 'd':
		r = n - 1
	case 'p':
		r = 8
		if n <= 3 {
			r = 6
		} else if n <= 6 {
			r = 7
		}
	default:
		return 0, false
	}
	return game.Rank(min(max(r, ogMinRank), ogMaxRank) + 1), true
}

// ogRankString writes a rank as OpenGotha does: "3K", "2D".
func ogRankString(r game.Rank) string {
	o := ogRank(r)
	if o >= 0 {
		return strconv.Itoa(o+1) + "D"
	}
	return strconv.Itoa(-o) + "K"
}

func atoi(s string) (int, bool) {
	n, err := strconv.Atoi(strings.TrimSpace(s))
	return n, err == nil && n >= -1_000_000_000 && n <= 1_000_000_000
}

// ReadOpenGotha reads an OpenGotha 3.51 tournament file (its .xml, as
// Tournament..Save writes it): the system (McMahon, Swiss; a cup as an
// elimination; a file gobot wrote for a round robin as one), rounds,
// McMahon bar and floor, players, the rounds played with their games,
// results, byes and absent players, and the general settings in Meta.
// Players get their OpenGotha key (name and first name in capitals, no
// spaces) as their ID. A player who sat out the first rounds without a
// game or a bye joined late, as gobot counts it.
//
// Every refusal is ErrBadFile (errors.Is), worded for the organiser; files
// over MaxFileSize, MaxPlayers or MaxRounds are refused.
func ReadOpenGotha(r io.Reader) (*Tournament, Meta, error) {
	data, err := io.ReadAll(io.LimitReader(r, MaxFileSize+1))
	if err != nil {
		return nil, Meta{}, err
	}
	if len(data) > MaxFileSize {
		return nil, Meta{}, refuse("that file is over %d MiB, more than an OpenGotha tournament of %d players takes", MaxFileSize>>20, MaxPlayers)
	}
	var f ogFile
	dec := xml.NewDecoder(bytes.NewReader(data))
	dec.CharsetReader = latin1Reader
	if err := dec.Decode(&f); err != nil {
		var ue xml.UnmarshalError
		var se *xml.SyntaxError
		switch {
		case errors.As(err, &se):
			return nil, Meta{}, refuse("that file is not an OpenGotha tournament: its XML is broken at line %d", se.Line)
		case err == io.EOF:
			return nil, Meta{}, refuse("that file is empty")
		case strings.Contains(err.Error(), "opening charset"):
			return nil, Meta{}, refuse("that file's encoding is not one gobot reads (UTF-8 or ISO-8859-1)")
		case errors.As(err, &ue) && strings.Contains(string(ue), "expected element type <Tournament>"):
			return nil, Meta{}, refuse("that file is not an OpenGotha tournament (no <Tournament> element)")
		}
		return nil, Meta{}, refuse("that file is not an OpenGotha tournament: %s", quote(err.Error()))
	}
	return f.tournament()
}

// latin1Reader lets the decoder read files declared in ISO-8859-1 or
// its kin, as some older OpenGotha files are.
func latin1Reader(charset string, in io.Reader) (io.Reader, error) {
	switch strings.ToLower(charset) {
	case "iso-8859-1", "iso8859-1", "latin1":
		return charmap.ISO8859_1.NewDecoder().Reader(in), nil
	case "iso-8859-15", "iso8859-15", "latin9":
		return charmap.ISO8859_15.NewDecoder().Reader(in), nil
	case "windows-1252", "cp1252":
		return charmap.Windows1252.NewDecoder().Reader(in), nil
	}
	return nil, errors.New("not UTF-8 or ISO-8859-1")
}

func (f *ogFile) tournament() (*Tournament, Meta, error) {
	var m Meta
	p := f.Parameters
	if p == nil || p.General == nil {
		return nil, m, refuse("that file has no tournament settings (no <GeneralParameterSet>): save it again from OpenGotha")
	}
	t := &Tournament{}
	// The system, from the first placement criterion, as OpenGotha's
	// tournamentType.
	crit := make([]string, 6)
	for i := range crit {
		crit[i] = "NULL"
	}
	for _, c := range p.Placement {
		n, ok := atoi(c.Number)
		if !ok || n < 1 || n > len(crit) {
			return nil, m, refuse("that file's placement criterion number %s is not 1 to 6", quote(c.Number))
		}
		crit[n-1] = c.Name
	}
	switch crit[0] {
	case "MMS":
		t.System = McMahon
	case "NBW":
		t.System = Swiss
		switch f.GobotSystem {
		case RoundRobin.String():
			t.System = RoundRobin
		case DoubleRoundRobin.String():
			t.System = DoubleRoundRobin
		}
	case "CPS":
		t.System = Elimination
	case "CAT":
		return nil, m, refuse("that file is a Swiss tournament with categories, which gobot does not run")
	default:
		return nil, m, refuse("that file's tournament places players by %s first: gobot runs McMahon (MMS), Swiss (NBW) and cup (CPS) tournaments", quote(crit[0]))
	}

	g := p.General
	rounds, ok := atoi(g.get("numberOfRounds", "5"))
	if !ok || rounds < 1 || rounds > MaxRounds {
		return nil, m, refuse("that file's number of rounds %s is not 1 to %d", quote(g.get("numberOfRounds", "")), MaxRounds)
	}
	t.Rounds = rounds
	if t.System == McMahon {
		bar, okb := parseOGRank(g.get("genMMBar", "4D"))
		floor, okf := parseOGRank(g.get("genMMFloor", "20K"))
		if !okb || !okf {
			return nil, m, refuse("that file's McMahon bar %s or floor %s is not a rank like 4D or 20K", quote(g.get("genMMBar", "4D")), quote(g.get("genMMFloor", "20K")))
		}
		t.Bar, t.Floor = bar, floor
	}
	if err := f.readMeta(&m, t.System, crit); err != nil {
		return nil, m, err
	}

	// Players.
	if len(f.Players) > MaxPlayers {
		return nil, m, refuse("that file has %d players; gobot runs tournaments of at most %d", len(f.Players), MaxPlayers)
	}
	byKey := make(map[string]int, len(f.Players)) // the file's keys
	byID := make(map[PlayerID]int, len(f.Players))
	participating := make([]string, len(f.Players))
	smms := 0
	for i, op := range f.Players {
		name, first := op.Name, op.FirstName
		if strings.TrimSpace(name) == "" {
			return nil, m, refuse("player %d of that file has no name", i+1)
		}
		if first == noFirstName {
			first = ""
		}
		key := ogKey(name, op.FirstName)
		if j, dup := byKey[key]; dup {
			if f.Players[j].Name == op.Name && f.Players[j].FirstName == op.FirstName {
				return nil, m, refuse("player %s appears twice", quote(strings.TrimSpace(op.Name+" "+op.FirstName)))
			}
			return nil, m, refuse("players %s and %s have the same name for OpenGotha", quote(f.Players[j].Name+" "+f.Players[j].FirstName), quote(op.Name+" "+op.FirstName))
		}
		byKey[key] = i
		// The ID is the key gobot writes, which differs from the file's
		// only for a player without a first name (OpenGotha needs one).
		id := PlayerID(ogKey(name, noFirstName))
		if first != "" {
			id = PlayerID(key)
		}
		if j, dup := byID[id]; dup {
			return nil, m, refuse("players %s and %s have the same name for OpenGotha", quote(f.Players[j].Name+" "+f.Players[j].FirstName), quote(op.Name+" "+op.FirstName))
		}
		byID[id] = i
		who := quote(strings.TrimSpace(op.Name + " " + op.FirstName))
		if op.Rank == "" {
			op.Rank = "30K" // as OpenGotha reads a player without one
		}
		rank, ok := parseOGRank(op.Rank)
		if !ok {
			return nil, m, refuse("player %s has rank %s, not a rank like 5K or 2D", who, quote(op.Rank))
		}
		rating := ogMinRating // as OpenGotha reads a player without one
		if op.Rating != "" {
			if rating, ok = atoi(op.Rating); !ok {
				return nil, m, refuse("player %s has rating %s, not a number", who, quote(op.Rating))
			}
		}
		if c := javaLen(op.Country); c == 1 || c > 2 {
			return nil, m, refuse("player %s has country %s: OpenGotha writes countries in two letters", who, quote(op.Country))
		}
		if n, ok := atoi(op.SMMS); ok && n != 0 {
			smms++
		} else if !ok && op.SMMS != "" {
			return nil, m, refuse("player %s has McMahon correction %s, not a number", who, quote(op.SMMS))
		}
		participating[i] = op.Participating
		t.Players = append(t.Players, Player{ID: id, Name: name, FirstName: first, Rank: rank,
			Rating: min(max(rating, ogMinRating), ogMaxRating), Club: javaPrefix(op.Club, ogClubLen), Country: op.Country})
	}
	if smms > 0 {
		m.Notes = append(m.Notes, fmt.Sprintf("%d players' McMahon score corrections", smms))
	}
	player := func(key string, round int) (int, error) {
		i, ok := byKey[key]
		if !ok {
			return 0, refuse("round %d names a player who is not registered (%s)", round, quote(key))
		}
		return i, nil
	}

	// Games and byes, round by round.
	type slot struct {
		game *Game
		bye  bool
	}
	var played [][]Game
	var byes [][]PlayerID
	at := make([]map[int]slot, MaxRounds) // round → player → their game or bye
	tables := make(map[[2]int]bool)       // round, table
	for _, og := range f.Games {
		r, ok := atoi(og.Round)
		if !ok || r < 1 || r > MaxRounds {
			return nil, m, refuse("a game of that file is in round %s: OpenGotha's rounds go from 1 to %d", quote(og.Round), MaxRounds)
		}
		table, ok := atoi(og.Table)
		if !ok || table < 1 || table > MaxPlayers/2 {
			return nil, m, refuse("a game of round %d is at table %s, not 1 to %d", r, quote(og.Table), MaxPlayers/2)
		}
		w, err := player(og.White, r)
		if err != nil {
			return nil, m, err
		}
		b, err := player(og.Black, r)
		if err != nil {
			return nil, m, err
		}
		if w == b {
			return nil, m, refuse("%s plays themself in round %d", quote(t.Players[w].displayName()), r)
		}
		hd, ok := atoi(og.Handicap)
		if og.Handicap == "" {
			hd, ok = 0, true
		}
		if !ok || hd < 0 || hd > game.MaxHandicap {
			return nil, m, refuse("the game at table %d of round %d has handicap %s, not 0 to %d", table, r, quote(og.Handicap), game.MaxHandicap)
		}
		res, forfeit, ok := parseOGResult(og.Result)
		if !ok {
			return nil, m, refuse("the game at table %d of round %d has result %s, not one OpenGotha writes", table, r, quote(og.Result))
		}
		if og.Known == "false" {
			m.Notes = appendOnce(m.Notes, "games whose colours are not known (read as written)")
		}
		for len(played) < r {
			played = append(played, nil)
			byes = append(byes, nil)
		}
		if tables[[2]int{r, table}] {
			return nil, m, refuse("round %d has two games at table %d", r, table)
		}
		tables[[2]int{r, table}] = true
		played[r-1] = append(played[r-1], Game{Table: table, White: t.Players[w].ID, Black: t.Players[b].ID,
			Handicap: hd, Result: res, Forfeit: forfeit})
	}
	for r := range played {
		slices.SortStableFunc(played[r], func(a, b Game) int { return a.Table - b.Table })
		at[r] = make(map[int]slot)
		for gi := range played[r] {
			gm := &played[r][gi]
			for _, id := range []PlayerID{gm.White, gm.Black} {
				i := byID[id]
				if _, twice := at[r][i]; twice {
					return nil, m, refuse("%s has two games in round %d", quote(t.Players[i].displayName()), r+1)
				}
				at[r][i] = slot{game: gm}
			}
		}
	}
	for _, ob := range f.Byes {
		r, ok := atoi(ob.Round)
		if !ok || r < 1 || r > MaxRounds {
			return nil, m, refuse("a bye of that file is in round %s: OpenGotha's rounds go from 1 to %d", quote(ob.Round), MaxRounds)
		}
		i, err := player(ob.Player, r)
		if err != nil {
			return nil, m, err
		}
		for len(played) < r {
			played = append(played, nil)
			byes = append(byes, nil)
		}
		if at[r-1] == nil {
			at[r-1] = make(map[int]slot)
		}
		if s, taken := at[r-1][i]; taken {
			if s.bye {
				return nil, m, refuse("%s has the bye twice in round %d", quote(t.Players[i].displayName()), r)
			}
			return nil, m, refuse("%s has both a game and the bye in round %d", quote(t.Players[i].displayName()), r)
		}
		if len(byes[r-1]) > 0 && t.System != Elimination {
			return nil, m, refuse("round %d gives the bye to two players", r)
		}
		at[r-1][i] = slot{bye: true}
		byes[r-1] = append(byes[r-1], t.Players[i].ID)
	}
	if len(played) > t.Rounds {
		t.Rounds = len(played) // as OpenGotha's updateNumberOfRoundsIfNecesary
	}

	// Who joined when, and who sat out: a player who sat out the first
	// rounds without a game or a bye joined after them.
	sits := func(i, r int) bool {
		if r < len(played) {
			if _, ok := at[r][i]; ok {
				return false
			}
		}
		return r < len(participating[i]) && participating[i][r] == '0'
	}
	t.Played = make([]Round, len(played))
	for i := range t.Players {
		j := 0
		for j < len(played) && sits(i, j) {
			j++
		}
		t.Players[i].Joined = j
		for r := j; r < MaxRounds; r++ {
			if !sits(i, r) {
				continue
			}
			if r < len(played) {
				t.Played[r].Absent = append(t.Played[r].Absent, t.Players[i].ID)
			} else {
				if m.Absent == nil {
					m.Absent = make(map[int][]PlayerID)
				}
				m.Absent[r] = append(m.Absent[r], t.Players[i].ID)
			}
		}
	}
	for r := range played {
		t.Played[r].Games = played[r]
		t.Played[r].Byes = byes[r]
	}
	if len(f.Teams) > 0 {
		m.Notes = append(m.Notes, "teams")
	}
	if len(f.ClubsGroups) > 0 {
		m.Notes = append(m.Notes, "groups of clubs")
	}
	if err := t.check(); err != nil {
		return nil, m, refuse("that file's rounds do not hold together (%s)", strings.TrimPrefix(err.Error(), ErrBadTournament.Error()+": "))
	}
	return t, m, nil
}

func appendOnce(s []string, v string) []string {
	if slices.Contains(s, v) {
		return s
	}
	return append(s, v)
}

// displayName is the player's name as a person reads it.
func (p *Player) displayName() string {
	return strings.TrimSpace(p.Name + " " + p.FirstName)
}

func parseOGResult(s string) (Result, bool, bool) {
	if s == "" {
		return Unknown, false, true
	}
	base, forfeit := strings.CutSuffix(s, "_BYDEF")
	for r, name := range ogResults {
		if name == base && (!forfeit || Result(r) != Unknown) {
			return Result(r), forfeit, true
		}
	}
	return Unknown, false, false
}

// readMeta reads the general and handicap settings, and notes the
// settings that differ from the defaults gobot applies.
func (f *ogFile) readMeta(m *Meta, sys System, crit []string) error {
	g, h := f.Parameters.General, f.Parameters.Handicap
	m.Name = g.get("name", "")
	m.ShortName = g.get("shortName", "")
	m.Location = g.get("location", "")
	m.Director = g.get("director", "")
	m.Begin = ogDate(g.get("beginDate", ""))
	m.End = ogDate(g.get("endDate", ""))
	m.Internet = g.get("bInternet", "false") == "true"
	size, ok := atoi(g.get("size", "19"))
	if !ok || size < game.MinSize || size > game.MaxSize {
		return refuse("that file's board size %s is not %d to %d", quote(g.get("size", "")), game.MinSize, game.MaxSize)
	}
	m.Size = size
	komi, err := strconv.ParseFloat(strings.TrimSpace(g.get("komi", "7.5")), 64)
	if err != nil || komi != komi || komi > 1000 || komi < -1000 {
		return refuse("that file's komi %s is not a number like 6.5", quote(g.get("komi", "")))
	}
	m.Komi = komi
	c := DefaultClock
	c.Overtime = Canadian // OpenGotha's default when the file names none
	for i, n := range overtimeNames {
		if g.get("complementaryTimeSystem", "") == n {
			c.Overtime = Overtime(i)
		}
	}
	for _, v := range []struct {
		name string
		to   *int
	}{{"basicTime", &c.BasicMinutes}, {"stdByoYomiTime", &c.ByoYomiSeconds}, {"nbMovesCanTime", &c.CanadianMoves},
		{"canByoYomiTime", &c.CanadianSeconds}, {"fischerTime", &c.FischerSeconds}} {
		if n, ok := atoi(g.get(v.name, "")); ok && n >= 0 {
			*v.to = n
		}
	}
	m.Clock = c.bounded()

	hr := DefaultHandicap(sys)
	hr.BasedOnMMS = h.get("hdBasedOnMMS", "true") == "true"
	if r, ok := parseOGRank(h.get("hdNoHdRankThreshold", "1D")); ok {
		hr.NoHandicapAbove = r
	}
	if n, ok := atoi(h.get("hdCorrection", "1")); ok {
		hr.Correction = n
	}
	if n, ok := atoi(h.get("hdCeiling", "9")); ok {
		hr.Ceiling = n
	}
	m.Handicap = &hr
	if sys == Elimination {
		return nil // a cup's parameters are OpenGotha's; gobot's bracket is its own
	}
	def := DefaultHandicap(sys)
	if hr != def {
		m.Notes = append(m.Notes, fmt.Sprintf("a handicap rule of its own (correction %d, at most %d stones)", hr.Correction, hr.Ceiling))
	}
	want := ogDefaults(sys)
	for _, a := range want.general {
		if v := g.get(a[0], a[1]); v != a[1] && a[0] != "genMMBar" && a[0] != "genMMFloor" {
			m.Notes = append(m.Notes, generalNote(a[0], v, a[1]))
		}
	}
	if got := strings.Join(crit, " "); got != strings.Join(want.placement, " ") {
		m.Notes = append(m.Notes, fmt.Sprintf("placement by %s (gobot places by %s)", strings.Join(slices.DeleteFunc(slices.Clone(crit), isNull), ", "), strings.Join(slices.DeleteFunc(slices.Clone(want.placement), isNull), ", ")))
	}
	var pairing []string
	for _, a := range want.pairing {
		if v := f.Parameters.Pairing.get(a[0], a[1]); v != a[1] {
			pairing = append(pairing, a[0])
		}
	}
	if len(pairing) > 0 {
		if len(pairing) > 3 {
			pairing = append(pairing[:3], "…")
		}
		m.Notes = append(m.Notes, "pairing parameters of its own ("+strings.Join(pairing, ", ")+")")
	}
	return nil
}

func isNull(s string) bool { return s == "NULL" }

// generalLabels name OpenGotha's general settings that gobot does not
// apply, for the organiser; the points are kept doubled in the file.
var generalLabels = map[string]string{
	"genMMS2ValueAbsent":                "McMahon points for a round sat out",
	"genMMS2ValueBye":                   "McMahon points for a bye",
	"genNBW2ValueAbsent":                "wins for a round sat out",
	"genNBW2ValueBye":                   "wins for a bye",
	"genRoundDownNBWMMS":                "points for byes and absences rounded down",
	"genCountNotPlayedGamesAsHalfPoint": "games not played counted as half a point",
	"genMMZero":                         "McMahon score zero at",
	"numberOfCategories":                "categories",
}

// generalNote words a general setting that differs from the default:
// "McMahon points for a bye: 0 (the default is 1)".
func generalNote(name, v, def string) string {
	label := generalLabels[name]
	if strings.Contains(name, "2Value") {
		half := func(s string) string {
			if n, ok := atoi(s); ok {
				return Points(2 * n).String()
			}
			return s
		}
		v, def = half(v), half(def)
	}
	return fmt.Sprintf("%s: %s (the default is %s)", label, quote(v), def)
}

// ogDate reads a date as OpenGotha writes it; zero when it is not one.
func ogDate(s string) time.Time {
	d, err := time.Parse("2006-01-02", s)
	if err != nil || d.Year() <= 1900 {
		return time.Time{}
	}
	return d
}

// ogParameterSets are the attributes of the parameter sets OpenGotha 3.51
// fills in for a new tournament of a system (TournamentParameterSet's
// initForMM, initForSwiss, initForCup), in the order it writes them
// (alphabetical); general holds those of GeneralParameterSet that do not
// come from the tournament or Meta.
type ogParameterSets struct {
	general   [][2]string
	placement []string
	pairing   [][2]string
	display   string // DPParameterSet's gameFormat
}

func ogDefaults(s System) ogParameterSets {
	general := func(bar, floor, mmsAbsent, mmsBye, nbwBye string) [][2]string {
		return [][2]string{{"genCountNotPlayedGamesAsHalfPoint", "false"}, {"genMMBar", bar}, {"genMMFloor", floor},
			{"genMMS2ValueAbsent", mmsAbsent}, {"genMMS2ValueBye", mmsBye}, {"genMMZero", "30K"},
			{"genNBW2ValueAbsent", "0"}, {"genNBW2ValueBye", nbwBye}, {"genRoundDownNBWMMS", "true"},
			{"numberOfCategories", "1"}}
	}
	pairing := func(add2, seed1, seed2, geo, defSec, nbWins, country, club, rankThreshold string) [][2]string {
		return [][2]string{{"paiBaAvoidDuplGame", "500000000000000"}, {"paiBaBalanceWB", "1000000"},
			{"paiBaDeterministic", "true"}, {"paiBaRandom", "0"},
			{"paiMaAdditionalPlacementCritSystem1", "Rating"}, {"paiMaAdditionalPlacementCritSystem2", add2},
			{"paiMaAvoidMixingCategories", "0"}, {"paiMaCompensateDUDD", "true"},
			{"paiMaDUDDLowerMode", "MID"}, {"paiMaDUDDUpperMode", "MID"}, {"paiMaDUDDWeight", "100000000"},
			{"paiMaLastRoundForSeedSystem1", "2"}, {"paiMaMaximizeSeeding", "5000000"},
			{"paiMaMinimizeScoreDifference", "100000000000"}, {"paiMaSeedSystem1", seed1}, {"paiMaSeedSystem2", seed2},
			{"paiSeAvoidSameGeo", geo}, {"paiSeBarThresholdActive", "true"}, {"paiSeDefSecCrit", defSec},
			{"paiSeMinimizeHandicap", "0"}, {"paiSeNbWinsThresholdActive", nbWins},
			{"paiSePreferMMSDiffRatherThanSameClub", club}, {"paiSePreferMMSDiffRatherThanSameCountry", country},
			{"paiSeRankThreshold", rankThreshold}, {"paiStandardNX1Factor", "0.5"}}
	}
	switch s {
	case McMahon:
		return ogParameterSets{
			general:   general("4D", "20K", "1", "2", "2"),
			placement: []string{"MMS", "SOSM", "SOSOSM", "NULL", "NULL", "NULL"},
			pairing:   pairing("NULL", "SPLITANDRANDOM", "SPLITANDSLIP", "100000000000", "100000000000", "false", "1", "3", "1D"),
			display:   "full",
		}
	case Elimination:
		return ogParameterSets{
			general:   general("9D", "30K", "0", "0", "0"),
			placement: []string{"CPS", "NULL", "NULL", "NULL", "NULL", "NULL"},
			pairing:   pairing("Rating", "SPLITANDFOLD", "SPLITANDFOLD", "0", "20000000000000", "true", "0", "0", "30K"),
			display:   "short",
		}
	}
	return ogParameterSets{
		general:   general("9D", "30K", "1", "2", "2"),
		placement: []string{"NBW", "SOSW", "SOSOSW", "NULL", "NULL", "NULL"},
		pairing:   pairing("Rating", "SPLITANDSLIP", "SPLITANDSLIP", "0", "20000000000000", "true", "0", "0", "30K"),
		display:   "short",
	}
}

// WriteOpenGotha writes the tournament as an OpenGotha 3.51 tournament
// file (Tournament..Open reads it): its players, rounds, games, results,
// byes and absences, the parameter sets OpenGotha fills in for a new
// tournament of the system (with the tournament's McMahon bar and floor,
// and m's handicap rule if it has one), and m's general settings. A round
// robin is written as a Swiss tournament (OpenGotha has no such system)
// and an elimination as a cup. A player without a first name is written
// with "-" (OpenGotha needs one), a club cut to four characters, a rating
// bounded to OpenGotha's -900 to 2949.
func WriteOpenGotha(w io.Writer, t *Tournament, m Meta) error {
	if err := t.check(); err != nil {
		return err
	}
	if len(t.Played) > MaxRounds {
		return fmt.Errorf("%w: it keeps at most %d rounds", ErrNotExportable, MaxRounds)
	}
	keys := make(map[PlayerID]string, len(t.Players))
	byKey := make(map[string]*Player, len(t.Players))
	for i := range t.Players {
		p := &t.Players[i]
		name, first := p.ogNames()
		if strings.TrimSpace(name) == "" {
			return fmt.Errorf("%w: player %s has no name", ErrNotExportable, p.ID)
		}
		if c := javaLen(p.Country); c == 1 || c > 2 {
			return fmt.Errorf("%w: %s's country %s is not two letters", ErrNotExportable, quote(p.displayName()), quote(p.Country))
		}
		for _, s := range []string{name, first, p.Club, p.Country} {
			if !xmlText(s) {
				return fmt.Errorf("%w: %s's name or club has a character a file cannot hold", ErrNotExportable, quote(p.displayName()))
			}
		}
		k := ogKey(name, first)
		if q := byKey[k]; q != nil {
			return fmt.Errorf("%w: %s and %s have the same name for it (it ignores spaces and case)", ErrNotExportable, quote(q.displayName()), quote(p.displayName()))
		}
		byKey[k], keys[p.ID] = p, k
	}
	for _, s := range []string{m.Name, m.ShortName, m.Location, m.Director} {
		if !xmlText(s) {
			return fmt.Errorf("%w: the tournament's name or place has a character a file cannot hold", ErrNotExportable)
		}
	}
	def := ogDefaults(t.System)
	var b bytes.Buffer
	b.WriteString(`<?xml version="1.0" encoding="UTF-8" standalone="no"?>` + "\n")
	root := [][2]string{{"dataVersion", "201"}, {"externalIPAddress", "127.0.0.1"}, {"fullVersionNumber", "3.51.02"}}
	if t.System == RoundRobin || t.System == DoubleRoundRobin {
		root = append(root, [2]string{"gobotSystem", t.System.String()})
	}
	root = append(root, [2]string{"runningMode", "UNDEFINED"})
	element(&b, 0, "Tournament", root, true)

	// Players, with the rounds they take part in.
	sits := sitsOut(t, m)
	element(&b, 1, "Players", nil, len(t.Players) > 0)
	for i := range t.Players {
		p := &t.Players[i]
		name, first := p.ogNames()
		part := participating(sits[p.ID])
		rank := ogRankString(p.Rank)
		element(&b, 2, "Player", [][2]string{{"agaExpirationDate", ""}, {"agaId", ""}, {"club", javaPrefix(p.Club, ogClubLen)},
			{"country", p.Country}, {"egfPin", ""}, {"ffgLicence", ""}, {"ffgLicenceStatus", ""}, {"firstName", first},
			{"grade", rank}, {"name", name}, {"participating", string(part)}, {"rank", rank},
			{"rating", strconv.Itoa(min(max(p.Rating, ogMinRating), ogMaxRating))}, {"ratingOrigin", "MAN"},
			{"registeringStatus", "FIN"}, {"smmsCorrection", "0"}}, false)
	}
	closeElement(&b, 1, "Players", len(t.Players) > 0)

	// Games, each round's tables numbered from 1 unless they already are
	// distinct (OpenGotha keeps one game a table).
	games := 0
	for _, rd := range t.Played {
		games += len(rd.Games)
	}
	element(&b, 1, "Games", nil, games > 0)
	for r, rd := range t.Played {
		tables := make([]int, len(rd.Games))
		seen := make(map[int]bool)
		renumber := false
		for i, g := range rd.Games {
			tables[i] = g.Table
			if g.Table < 1 || seen[g.Table] {
				renumber = true
			}
			seen[g.Table] = true
		}
		for i, g := range rd.Games {
			if renumber {
				tables[i] = i + 1
			}
			res := ogResults[g.Result]
			if g.Forfeit && g.Result != Unknown {
				res += "_BYDEF"
			}
			element(&b, 2, "Game", [][2]string{{"blackPlayer", keys[g.Black]}, {"handicap", strconv.Itoa(g.Handicap)},
				{"knownColor", "true"}, {"result", res}, {"roundNumber", strconv.Itoa(r + 1)},
				{"tableNumber", strconv.Itoa(tables[i])}, {"whitePlayer", keys[g.White]}}, false)
		}
	}
	closeElement(&b, 1, "Games", games > 0)
	byes := 0
	for _, rd := range t.Played {
		byes += len(rd.Byes)
	}
	if byes > 0 {
		element(&b, 1, "ByePlayers", nil, true)
		for r, rd := range t.Played {
			for _, id := range rd.Byes {
				element(&b, 2, "ByePlayer", [][2]string{{"player", keys[id]}, {"roundNumber", strconv.Itoa(r + 1)}}, false)
			}
		}
		closeElement(&b, 1, "ByePlayers", true)
	}

	// Parameters.
	element(&b, 1, "TournamentParameterSet", nil, true)
	c := m.Clock.bounded()
	size := m.Size
	if size == 0 {
		size = 19
	}
	short := m.ShortName
	if short == "" {
		short = m.Name
	}
	gen := [][2]string{{"bInternet", strconv.FormatBool(m.Internet)}, {"basicTime", strconv.Itoa(c.BasicMinutes)},
		{"beginDate", writeDate(m.Begin)}, {"canByoYomiTime", strconv.Itoa(c.CanadianSeconds)},
		{"complementaryTimeSystem", overtimeNames[c.Overtime]},
		{"director", m.Director}, {"endDate", writeDate(m.End)}, {"fischerTime", strconv.Itoa(c.FischerSeconds)}}
	for _, a := range def.general {
		switch {
		case a[0] == "genMMBar" && t.System == McMahon:
			a[1] = ogRankString(t.Bar)
		case a[0] == "genMMFloor" && t.System == McMahon:
			a[1] = ogRankString(t.Floor)
		}
		if a[0] == "numberOfCategories" {
			gen = append(gen, [2]string{"komi", game.FormatKomi(m.Komi)}, [2]string{"location", m.Location},
				[2]string{"name", m.Name}, [2]string{"nbMovesCanTime", strconv.Itoa(c.CanadianMoves)})
		}
		gen = append(gen, a)
	}
	gen = append(gen, [2]string{"numberOfRounds", strconv.Itoa(ogRounds(t))},
		[2]string{"shortName", short}, [2]string{"size", strconv.Itoa(size)},
		[2]string{"stdByoYomiTime", strconv.Itoa(c.ByoYomiSeconds)})
	element(&b, 2, "GeneralParameterSet", gen, false)
	hr := DefaultHandicap(t.System)
	if m.Handicap != nil {
		hr = *m.Handicap
	}
	element(&b, 2, "HandicapParameterSet", [][2]string{{"hdBasedOnMMS", strconv.FormatBool(hr.BasedOnMMS)},
		{"hdCeiling", strconv.Itoa(hr.Ceiling)}, {"hdCorrection", strconv.Itoa(hr.Correction)},
		{"hdNoHdRankThreshold", ogRankString(hr.NoHandicapAbove)}}, false)
	element(&b, 2, "PlacementParameterSet", nil, true)
	element(&b, 3, "PlacementCriteria", nil, true)
	for i, name := range def.placement {
		element(&b, 4, "PlacementCriterion", [][2]string{{"name", name}, {"number", strconv.Itoa(i + 1)}}, false)
	}
	closeElement(&b, 3, "PlacementCriteria", true)
	closeElement(&b, 2, "PlacementParameterSet", true)
	element(&b, 2, "PairingParameterSet", def.pairing, false)
	element(&b, 2, "DPParameterSet", [][2]string{{"displayClCol", "true"}, {"displayCoCol", "true"},
		{"displayIndGamesInMatches", "true"}, {"displayNPPlayers", "false"}, {"displayNumCol", "true"},
		{"displayPlCol", "true"}, {"gameFormat", def.display}, {"playerSortType", "name"}, {"showByePlayer", "true"},
		{"showNotFinallyRegisteredPlayers", "true"}, {"showNotPairedPlayers", "true"},
		{"showNotParticipatingPlayers", "false"}, {"showPlayerClub", "true"}, {"showPlayerCountry", "false"},
		{"showPlayerGrade", "true"}}, false)
	element(&b, 2, "PublishParameterSet", [][2]string{{"exportToLocalFile", "true"}, {"htmlAutoScroll", "false"}, {"print", "true"}}, false)
	closeElement(&b, 1, "TournamentParameterSet", true)
	element(&b, 1, "TeamTournamentParameterSet", nil, true)
	element(&b, 2, "TeamGeneralParameterSet", [][2]string{{"teamSize", "4"}}, false)
	element(&b, 2, "TeamPlacementParameterSet", nil, true)
	element(&b, 3, "PlacementCriteria", nil, true)
	for i, name := range []string{"TEAMP", "BDW", "BDW3U", "BDW2U", "BDW1U", "MNR"} {
		element(&b, 4, "PlacementCriterion", [][2]string{{"name", name}, {"number", strconv.Itoa(i + 1)}}, false)
	}
	closeElement(&b, 3, "PlacementCriteria", true)
	closeElement(&b, 2, "TeamPlacementParameterSet", true)
	closeElement(&b, 1, "TeamTournamentParameterSet", true)
	closeElement(&b, 0, "Tournament", true)
	_, err := w.Write(b.Bytes())
	return err
}

// ogRounds is the number of rounds written for the tournament: its
// rounds, or for a round robin or an elimination without a number the
// rounds it takes; at least those played, at most OpenGotha's 20.
func ogRounds(t *Tournament) int {
	n := t.Rounds
	if n == 0 {
		switch t.System {
		case RoundRobin, DoubleRoundRobin:
			n = RoundRobinRounds(len(t.Players), t.System == DoubleRoundRobin)
		case Elimination:
			for 1<<n < len(t.Players) {
				n++
			}
		}
	}
	return min(max(n, len(t.Played), 1), MaxRounds)
}

// sitsOut tells, for each player and each of OpenGotha's rounds, whether
// the player does not take part: rounds before joining, rounds sat out,
// and the rounds to come m marks them absent from.
func sitsOut(t *Tournament, m Meta) map[PlayerID][]bool {
	sits := make(map[PlayerID][]bool, len(t.Players))
	for i := range t.Players {
		p := &t.Players[i]
		s := make([]bool, MaxRounds)
		for r := 0; r < p.Joined && r < MaxRounds; r++ {
			s[r] = true
		}
		sits[p.ID] = s
	}
	for r, rd := range t.Played {
		for _, id := range rd.Absent {
			sits[id][r] = true
		}
	}
	for r, ids := range m.Absent {
		if r >= len(t.Played) && r < MaxRounds {
			for _, id := range ids {
				if s := sits[id]; s != nil {
					s[r] = true
				}
			}
		}
	}
	return sits
}

// participating writes OpenGotha's participation flags: a 1 for each
// round a player takes part in, a 0 for each they do not.
func participating(sits []bool) string {
	part := make([]byte, len(sits))
	for r, s := range sits {
		part[r] = '1'
		if s {
			part[r] = '0'
		}
	}
	return string(part)
}

// ogNames is the name and first name written for the player.
func (p *Player) ogNames() (string, string) {
	if p.FirstName == "" {
		return p.Name, noFirstName
	}
	return p.Name, p.FirstName
}

func writeDate(d time.Time) string {
	if d.IsZero() {
		return ""
	}
	return d.Format("2006-01-02")
}

// element writes an element's start tag, indented four spaces a level as
// OpenGotha indents; an element without content closes itself.
func element(b *bytes.Buffer, depth int, name string, attrs [][2]string, content bool) {
	b.WriteString(strings.Repeat("    ", depth))
	b.WriteString("<" + name)
	for _, a := range attrs {
		b.WriteString(" " + a[0] + `="`)
		escapeAttr(b, a[1])
		b.WriteString(`"`)
	}
	if content {
		b.WriteString(">\n")
	} else {
		b.WriteString("/>\n")
	}
}

func closeElement(b *bytes.Buffer, depth int, name string, content bool) {
	if content {
		b.WriteString(strings.Repeat("    ", depth) + "</" + name + ">\n")
	}
}

func escapeAttr(b *bytes.Buffer, s string) {
	for _, r := range s {
		switch r {
		case '&':
			b.WriteString("&amp;")
		case '<':
			b.WriteString("&lt;")
		case '>':
			b.WriteString("&gt;")
		case '"':
			b.WriteString("&quot;")
		case '\t':
			b.WriteString("&#9;")
		case '\n':
			b.WriteString("&#10;")
		case '\r':
			b.WriteString("&#13;")
		default:
			b.WriteRune(r)
		}
	}
}

// xmlText reports whether s is valid UTF-8 made only of characters XML
// 1.0 can hold.
func xmlText(s string) bool {
	if !utf8.ValidString(s) {
		return false
	}
	for _, r := range s {
		switch {
		case r == '\t' || r == '\n' || r == '\r':
		case r < 0x20, r >= 0xD800 && r <= 0xDFFF, r == 0xFFFE, r == 0xFFFF:
			return false
		}
	}
	return true
}
