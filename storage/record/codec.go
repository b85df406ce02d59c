// Package record is gobot's on-disk record format, shared by every store:
// storage (bbolt) and storage/postgres keep these same bytes, so a record
// reads the same from either and `gobot store copy` changes no record.
// It holds the versioned encoders and decoders of games, challenges,
// players, rooms and ratings, and the frozen decoders of older schemas
// (legacy.go) that migrations use. The decoders return an error (not
// wrapped in gobot.ErrCorrupt: the caller names the record) for bytes
// that are not a current record.
package record

import (
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/gobotgo/gobot"
	"github.com/gobotgo/gobot/game"
)

// The on-disk record format (schema 4) belongs to the stores, not to
// the model: every record is JSON with "v":4, lower-case field names fixed
// here, enums as words, durations as Go duration text ("72h0m0s"),
// points and moves as SGF ("dd", "B[dd];W[]"). Renaming a field or
// reordering a constant in gobot or game changes nothing on disk; a
// change of the format gets a new version and a migration in storage's
// db.go. storage/testdata/records.golden and testdata/ratings.golden
// pin it.
//
// Schema 4 added optional fields only (team games, room votes, planned
// moves, vacation, room widgets): a schema-3 record is a schema-4 record
// without them, so the decoders read both and the stores rewrite old
// records as "v":4 when they migrate. A gobot that knows only schema 3
// refuses a schema-4 record instead of dropping what it does not know.
const Format = 4

// oldestFormat is the oldest "v" the decoders read as today's format.
const oldestFormat = 3

// dur is a duration written as text.
type dur time.Duration

func (d dur) MarshalText() ([]byte, error) { return []byte(time.Duration(d).String()), nil }

func (d *dur) UnmarshalText(b []byte) error {
	v, err := time.ParseDuration(string(b))
	*d = dur(v)
	return err
}

// enum maps a value to its word and back.
type enum[T comparable] []struct {
	v    T
	word string
}

func (e enum[T]) word(v T) (string, error) {
	for _, x := range e {
		if x.v == v {
			return x.word, nil
		}
	}
	return "", fmt.Errorf("no word for %v", v)
}

func (e enum[T]) value(word, what string) (T, error) {
	for _, x := range e {
		if x.word == word {
			return x.v, nil
		}
	}
	var zero T
	return zero, fmt.Errorf("%s %q is unknown", what, word)
}

var (
	koWords        = enum[game.KoRule]{{game.KoNone, "none"}, {game.KoSimple, "simple"}, {game.KoPositional, "positional"}, {game.KoSituational, "situational"}}
	scoringWords   = enum[game.Counting]{{game.Area, "area"}, {game.Territory, "territory"}}
	bonusWords     = enum[game.Bonus]{{game.BonusNone, "0"}, {game.BonusN, "n"}, {game.BonusNMinusOne, "n-1"}}
	placementWords = enum[game.Placement]{{game.PlacementFixed, "fixed"}, {game.PlacementFree, "free"}, {game.PlacementWhitePasses, "white-passes"}}
	cycleWords     = enum[game.CycleResult]{{game.CycleVoid, "void"}, {game.CycleDraw, "draw"}}
	colorWords     = enum[game.Color]{{game.Empty, ""}, {game.Black, "black"}, {game.White, "white"}}
	reasonWords    = enum[game.Reason]{{game.ByScore, "score"}, {game.ByResign, "resign"}, {game.ByTime, "time"}, {game.ByCycle, "cycle"}, {game.NoResult, "void"}}
	clockWords     = enum[gobot.ClockKind]{{gobot.NoClock, "none"}, {gobot.PerMove, "per-move"}, {gobot.Fischer, "fischer"}, {gobot.ByoYomi, "byo-yomi"}, {gobot.Canadian, "canadian"}, {gobot.Absolute, "absolute"}, {gobot.Simple, "simple"}}
	statusWords    = enum[gobot.ChallengeStatus]{{gobot.Pending, "pending"}, {gobot.Accepted, "accepted"}, {gobot.Declined, "declined"}, {gobot.Cancelled, "cancelled"}}
)

type rulesRec struct {
	Name        string  `json:"name"`
	Ko          string  `json:"ko"`
	Scoring     string  `json:"scoring"`
	Suicide     bool    `json:"suicide"`
	PassStones  bool    `json:"pass_stones"`
	Bonus       string  `json:"bonus"`
	Komi        float64 `json:"komi"`
	Placement   string  `json:"placement"`
	Cycle       string  `json:"cycle"`
	NoAgreement bool    `json:"no_agreement"`
}

type clockRec struct {
	Kind      string `json:"kind"`
	PerMove   dur    `json:"per_move,omitempty"`
	Main      dur    `json:"main,omitempty"`
	Increment dur    `json:"increment,omitempty"`
	Max       dur    `json:"max,omitempty"`
	Periods   int    `json:"periods,omitempty"` // byo-yomi
	Period    dur    `json:"period,omitempty"`  // byo-yomi, canadian
	Stones    int    `json:"stones,omitempty"`  // canadian
}

// overRec is a player's clock beyond the main time (gobot.Overtime).
type overRec struct {
	Periods int `json:"periods,omitempty"`
	Stones  int `json:"stones,omitempty"`
	Period  dur `json:"period,omitempty"`
}

func encodeOver(o gobot.Overtime) *overRec {
	if o == (gobot.Overtime{}) {
		return nil
	}
	return &overRec{Periods: o.Periods, Stones: o.Stones, Period: dur(o.Period)}
}

func decodeOver(o *overRec) gobot.Overtime {
	if o == nil {
		return gobot.Overtime{}
	}
	return gobot.Overtime{Periods: o.Periods, Stones: o.Stones, Period: time.Duration(o.Period)}
}

type resultRec struct {
	Winner string  `json:"winner,omitempty"`
	Margin float64 `json:"margin,omitempty"`
	Reason string  `json:"reason"`
}

type undoRec struct {
	By   string    `json:"by"`
	Move int       `json:"move"`
	Was  string    `json:"was"`
	At   time.Time `json:"at"`
}

type gameRec struct {
	V           int            `json:"v"`
	ID          uint64         `json:"id"`
	Version     uint64         `json:"version"`
	Room        string         `json:"room"`
	Thread      bool           `json:"thread,omitempty"`
	Parent      string         `json:"parent,omitempty"`
	Mirror      string         `json:"mirror,omitempty"`
	Black       string         `json:"black"`
	White       string         `json:"white"`
	Width       int            `json:"width"`
	Height      int            `json:"height"`
	Handicap    int            `json:"handicap,omitempty"`
	Rules       rulesRec       `json:"rules"`
	Setup       []string       `json:"setup,omitempty"`
	SetupToMove string         `json:"setup_to_move,omitempty"`
	Moves       string         `json:"moves,omitempty"`
	Resumes     []int          `json:"resumes,omitempty"`
	Dead        []string       `json:"dead,omitempty"`
	Accepted    []string       `json:"accepted,omitempty"`
	Ended       *resultRec     `json:"ended,omitempty"`
	MoveTimes   []time.Time    `json:"move_times,omitempty"`
	Clock       clockRec       `json:"clock"`
	LeftBlack   dur            `json:"left_black,omitempty"`
	LeftWhite   dur            `json:"left_white,omitempty"`
	OverBlack   *overRec       `json:"over_black,omitempty"`
	OverWhite   *overRec       `json:"over_white,omitempty"`
	Deadline    time.Time      `json:"deadline,omitzero"`
	Reminded    int            `json:"reminded,omitempty"`
	Due         uint8          `json:"due,omitempty"`
	TurnTime    dur            `json:"turn_time,omitempty"`
	UndoBy      string         `json:"undo_by,omitempty"`
	Undos       []undoRec      `json:"undos,omitempty"`
	Challenge   uint64         `json:"challenge,omitempty"`
	Created     time.Time      `json:"created"`
	Updated     time.Time      `json:"updated"`
	Finished    time.Time      `json:"finished,omitzero"`
	Result      string         `json:"result,omitempty"`
	Rating      *gameRatingRec `json:"rating,omitempty"`
	Engine      string         `json:"engine,omitempty"`
	EngineLevel int            `json:"engine_level,omitempty"`
	EngineDead  int            `json:"engine_dead,omitempty"`
	// Vacation: absent in a game that was never paused.
	NoVacation bool      `json:"no_vacation,omitempty"`
	PausedBy   []string  `json:"paused_by,omitempty"`
	PausedLeft dur       `json:"paused_left,omitempty"`
	PausedAt   time.Time `json:"paused_at,omitzero"`
	// Room-vote games: absent in every other game.
	Vote *voteRec `json:"vote,omitempty"`
	// Conditional moves (plan.go): absent when the game has no plan.
	Plan *planRec `json:"plan,omitempty"`
	// Teams: a team game's sides (team.go).
	Teams *teamsRec `json:"teams,omitempty"`
	// A live game's pause: absent in a game never paused.
	Pause *pauseRec `json:"pause,omitempty"`

	// The last undo refused and acceptance withdrawn, which a board
	// tells: absent when there is none.
	UndoRefused *refusalRec   `json:"undo_refused,omitempty"`
	Withdrawn   *withdrawnRec `json:"withdrawn,omitempty"`
}

// refusalRec is an undo request refused (gobot.UndoRefusal).
type refusalRec struct {
	Asked string `json:"asked"`
	By    string `json:"by"`
	Moves int    `json:"moves"`
	Undos int    `json:"undos,omitempty"`
}

// withdrawnRec is an acceptance of the count withdrawn (gobot.Withdrawal).
type withdrawnRec struct {
	Colors []string `json:"colors"`
	Moves  int      `json:"moves"`
	Undos  int      `json:"undos,omitempty"`
}

func encodeAnswers(e *errs, g *gobot.Match, rec *gameRec) {
	if r := g.UndoRefused; r != nil {
		rec.UndoRefused = &refusalRec{Asked: string(r.Asked), By: string(r.By), Moves: r.Moves, Undos: r.Undos}
	}
	if w := g.Withdrawn; w != nil {
		rec.Withdrawn = &withdrawnRec{Moves: w.Moves, Undos: w.Undos}
		for _, c := range w.Colors {
			rec.Withdrawn.Colors = append(rec.Withdrawn.Colors, wordOf(e, colorWords, c))
		}
	}
}

func decodeAnswers(e *errs, rec *gameRec, g *gobot.Match) {
	if r := rec.UndoRefused; r != nil {
		g.UndoRefused = &gobot.UndoRefusal{Asked: gobot.UserID(r.Asked), By: gobot.UserID(r.By), Moves: r.Moves, Undos: r.Undos}
	}
	if w := rec.Withdrawn; w != nil {
		g.Withdrawn = &gobot.Withdrawal{Moves: w.Moves, Undos: w.Undos}
		for _, s := range w.Colors {
			g.Withdrawn.Colors = append(g.Withdrawn.Colors, valueOf(e, colorWords, s, "colour"))
		}
	}
}

// pauseRec is a live game's pause (gobot.LivePause).
type pauseRec struct {
	Asked string    `json:"asked,omitempty"`
	Since time.Time `json:"since,omitzero"`
	Left  dur       `json:"left,omitempty"`
	Used  dur       `json:"used,omitempty"`
}

func encodePause(p *gobot.LivePause) *pauseRec {
	if p == nil {
		return nil
	}
	return &pauseRec{Asked: string(p.Asked), Since: p.Since, Left: dur(p.Left), Used: dur(p.Used)}
}

func decodePause(rec *pauseRec) *gobot.LivePause {
	if rec == nil {
		return nil
	}
	return &gobot.LivePause{Asked: gobot.UserID(rec.Asked), Since: rec.Since, Left: time.Duration(rec.Left), Used: time.Duration(rec.Used)}
}

// voteRec is a room-vote game's voting (gobot.Vote).
type voteRec struct {
	Window  dur         `json:"window"`
	Closes  time.Time   `json:"closes,omitzero"`
	Ballots []ballotRec `json:"ballots,omitempty"`
	Voters  []string    `json:"voters,omitempty"`
	// Absent in records written before issue 35.
	Recent [][]string `json:"recent,omitempty"`
	Left   dur        `json:"left,omitempty"`
}

type ballotRec struct {
	By   string    `json:"by"`
	Move string    `json:"move"`
	At   time.Time `json:"at"`
}

func encodeVote(v *gobot.Vote) *voteRec {
	if v == nil {
		return nil
	}
	rec := &voteRec{Window: dur(v.Window), Closes: v.Closes, Left: dur(v.Left)}
	for _, turn := range v.Recent {
		var us []string
		for _, u := range turn {
			us = append(us, string(u))
		}
		rec.Recent = append(rec.Recent, us)
	}
	for _, b := range v.Ballots {
		rec.Ballots = append(rec.Ballots, ballotRec{By: string(b.By), Move: b.Move, At: b.At})
	}
	for _, u := range v.Voters {
		rec.Voters = append(rec.Voters, string(u))
	}
	return rec
}

func decodeVote(rec *voteRec) *gobot.Vote {
	if rec == nil {
		return nil
	}
	v := &gobot.Vote{Window: time.Duration(rec.Window), Closes: rec.Closes, Left: time.Duration(rec.Left)}
	for _, turn := range rec.Recent {
		us := []gobot.UserID{} // a turn nobody voted in stays a turn
		for _, u := range turn {
			us = append(us, gobot.UserID(u))
		}
		v.Recent = append(v.Recent, us)
	}
	for _, b := range rec.Ballots {
		v.Ballots = append(v.Ballots, gobot.Ballot{By: gobot.UserID(b.By), Move: b.Move, At: b.At})
	}
	for _, u := range rec.Voters {
		v.Voters = append(v.Voters, gobot.UserID(u))
	}
	return v

}

type challengeRec struct {
	V        int                 `json:"v"`
	ID       uint64              `json:"id"`
	Room     string              `json:"room"`
	Mirror   string              `json:"mirror,omitempty"`
	From     string              `json:"from"`
	To       string              `json:"to,omitempty"`
	Width    int                 `json:"width"`
	Height   int                 `json:"height"`
	Handicap int                 `json:"handicap,omitempty"`
	Rules    rulesRec            `json:"rules"`
	Color    string              `json:"color"`
	Clock    clockRec            `json:"clock"`
	Created  time.Time           `json:"created"`
	Status   string              `json:"status"`
	Game     uint64              `json:"game,omitempty"`
	Message  string              `json:"message,omitempty"`
	Answered time.Time           `json:"answered,omitzero"`
	Rating   *challengeRatingRec `json:"rating,omitempty"`
	// Vacation: vacation=off.
	NoVacation bool `json:"no_vacation,omitempty"`
	// Room-vote challenges: the voting window (absent: not a vote game).
	VoteWindow dur `json:"vote_window,omitempty"`
	// Teams: a team challenge's sides (team.go).
	Teams *teamsRec `json:"teams,omitempty"`
}

type playerRec struct {
	V        int       `json:"v"`
	ID       string    `json:"id"`
	Name     string    `json:"name"`
	Notify   string    `json:"notify,omitempty"`
	NotifyOn string    `json:"notify_on,omitempty"`
	Theme    string    `json:"theme,omitempty"`
	Confirm  string    `json:"confirm,omitempty"`
	Updated  time.Time `json:"updated"`
	// Vacation: absent for a player who never started a game or a
	// vacation.
	Vacation *vacationRec `json:"vacation,omitempty"`
}

type vacationRec struct {
	FirstGame time.Time `json:"first_game,omitzero"`
	Left      dur       `json:"left"`
	Weeks     int       `json:"weeks,omitempty"`
	Start     time.Time `json:"start,omitzero"`
	End       time.Time `json:"end,omitzero"`
	Reminded  bool      `json:"reminded,omitempty"`
	Room      string    `json:"room,omitempty"`
}

type roomRec struct {
	V         int       `json:"v"`
	ID        string    `json:"id"`
	Rules     string    `json:"rules,omitempty"`
	Width     int       `json:"width,omitempty"`
	Height    int       `json:"height,omitempty"`
	Komi      *float64  `json:"komi,omitempty"`
	Clock     string    `json:"clock,omitempty"`
	Threads   bool      `json:"threads,omitempty"`
	NoEngines bool      `json:"no_engines,omitempty"`
	Updated   time.Time `json:"updated"`
	Widget    bool      `json:"widget,omitempty"` // Matrix widget
	// LiveImages: absent for the default, "last".
	LiveImages string `json:"live_images,omitempty"`
}

// errs collects the first error of a run of conversions.
type errs struct{ err error }

func (e *errs) add(err error) {
	if e.err == nil {
		e.err = err
	}
}

func wordOf[T comparable](e *errs, m enum[T], v T) string {
	w, err := m.word(v)
	e.add(err)
	return w
}

func valueOf[T comparable](e *errs, m enum[T], word, what string) T {
	v, err := m.value(word, what)
	e.add(err)
	return v
}

// sgfCoord writes a point as SGF letters ("" for a pass).
func sgfCoord(p game.Point) (string, error) {
	if p.IsPass() {
		return "", nil
	}
	letter := func(i int8) (byte, error) {
		switch {
		case i >= 0 && i < 26:
			return 'a' + byte(i), nil
		case i >= 26 && i < 52:
			return 'A' + byte(i-26), nil
		}
		return 0, fmt.Errorf("point (%d,%d) has no SGF letters", p.X, p.Y)
	}
	x, err := letter(p.X)
	if err != nil {
		return "", err
	}
	y, err := letter(p.Y)
	return string([]byte{x, y}), err
}

func parseSGFCoord(s string) (game.Point, error) {
	if s == "" {
		return game.Pass, nil
	}
	index := func(c byte) (int, bool) {
		switch {
		case c >= 'a' && c <= 'z':
			return int(c - 'a'), true
		case c >= 'A' && c <= 'Z':
			return int(c-'A') + 26, true
		}
		return 0, false
	}
	if len(s) != 2 {
		return game.Point{}, fmt.Errorf("point %q is not two SGF letters", s)
	}
	x, okx := index(s[0])
	y, oky := index(s[1])
	if !okx || !oky {
		return game.Point{}, fmt.Errorf("point %q is not two SGF letters", s)
	}
	return game.Pt(x, y), nil
}

func moveText(m game.Move) (string, error) {
	c := "B"
	switch m.Color {
	case game.Black:
	case game.White:
		c = "W"
	default:
		return "", fmt.Errorf("move by colour %d", m.Color)
	}
	p, err := sgfCoord(m.Point)
	return c + "[" + p + "]", err
}

func parseMove(s string) (game.Move, error) {
	if len(s) < 3 || s[1] != '[' || s[len(s)-1] != ']' {
		return game.Move{}, fmt.Errorf("move %q is not like B[dd]", s)
	}
	var m game.Move
	switch s[0] {
	case 'B':
		m.Color = game.Black
	case 'W':
		m.Color = game.White
	default:
		return game.Move{}, fmt.Errorf("move %q: colour is B or W", s)
	}
	p, err := parseSGFCoord(s[2 : len(s)-1])
	m.Point = p
	return m, err
}

func encodeRules(e *errs, r game.Rules) rulesRec {
	return rulesRec{Name: r.Name, Ko: wordOf(e, koWords, r.Ko), Scoring: wordOf(e, scoringWords, r.Scoring),
		Suicide: r.Suicide, PassStones: r.PassStones, Bonus: wordOf(e, bonusWords, r.Bonus), Komi: r.Komi,
		Placement: wordOf(e, placementWords, r.Placement), Cycle: wordOf(e, cycleWords, r.Cycle), NoAgreement: r.NoAgreement}
}

func decodeRules(e *errs, r rulesRec) game.Rules {
	return game.Rules{Name: r.Name, Ko: valueOf(e, koWords, r.Ko, "ko"), Scoring: valueOf(e, scoringWords, r.Scoring, "scoring"),
		Suicide: r.Suicide, PassStones: r.PassStones, Bonus: valueOf(e, bonusWords, r.Bonus, "bonus"), Komi: r.Komi,
		Placement: valueOf(e, placementWords, r.Placement, "placement"), Cycle: valueOf(e, cycleWords, r.Cycle, "cycle"), NoAgreement: r.NoAgreement}
}

func encodeClock(e *errs, c gobot.TimeControl) clockRec {
	return clockRec{Kind: wordOf(e, clockWords, c.Kind), PerMove: dur(c.PerMove), Main: dur(c.Main), Increment: dur(c.Increment), Max: dur(c.Max),
		Periods: c.Periods, Period: dur(c.Period), Stones: c.Stones}
}

func decodeClock(e *errs, c clockRec) gobot.TimeControl {
	return gobot.TimeControl{Kind: valueOf(e, clockWords, c.Kind, "clock kind"), PerMove: time.Duration(c.PerMove), Main: time.Duration(c.Main),
		Increment: time.Duration(c.Increment), Max: time.Duration(c.Max), Periods: c.Periods, Period: time.Duration(c.Period), Stones: c.Stones}
}

func EncodeMatch(g *gobot.Match) ([]byte, error) {
	var e errs
	r := g.Record
	if g.Over[game.Empty] != (gobot.Overtime{}) {
		e.add(fmt.Errorf("overtime for no colour: %v", g.Over[game.Empty]))
	}
	if g.Left[game.Empty] != 0 {
		e.add(fmt.Errorf("time left for no colour: %v", g.Left[game.Empty]))
	}
	rec := gameRec{V: Format, ID: uint64(g.ID), Version: g.Version, Room: string(g.Room), Thread: g.Thread, Parent: string(g.Parent), Mirror: string(g.Mirror),
		Black: string(g.Black), White: string(g.White),
		Width: r.Config.Width, Height: r.Config.Height, Handicap: r.Config.Handicap, Rules: encodeRules(&e, r.Config.Rules),
		Setup: r.Setup, Resumes: r.Resumes, MoveTimes: g.MoveTimes, Clock: encodeClock(&e, g.Clock),
		LeftBlack: dur(g.Left[game.Black]), LeftWhite: dur(g.Left[game.White]),
		OverBlack: encodeOver(g.Over[game.Black]), OverWhite: encodeOver(g.Over[game.White]), Deadline: g.Deadline, Due: uint8(g.Due), Reminded: g.Reminded, TurnTime: dur(g.TurnTime),
		UndoBy: string(g.UndoBy), Challenge: uint64(g.Challenge), Created: g.Created, Updated: g.Updated, Finished: g.Finished, Result: g.Result,
		Rating: encodeGameRating(g.Rating), Engine: g.Engine, EngineLevel: g.EngineLevel, EngineDead: g.EngineDead,
		NoVacation: g.NoVacation, PausedLeft: dur(g.PausedLeft), PausedAt: g.PausedAt, Vote: encodeVote(g.Vote), Pause: encodePause(g.Pause)}
	for _, u := range g.PausedBy {
		rec.PausedBy = append(rec.PausedBy, string(u))
	}
	rec.Teams = encodeTeams(&e, g.Teams)
	encodeAnswers(&e, g, &rec)
	if r.SetupToMove != game.Empty {
		rec.SetupToMove = wordOf(&e, colorWords, r.SetupToMove)
	}
	moves := make([]string, len(r.Moves))
	for i, m := range r.Moves {
		s, err := moveText(m)
		e.add(err)
		moves[i] = s
	}
	rec.Moves = strings.Join(moves, ";")
	for _, p := range r.Dead {
		s, err := sgfCoord(p)
		e.add(err)
		rec.Dead = append(rec.Dead, s)
	}
	for _, c := range r.Accepted {
		rec.Accepted = append(rec.Accepted, wordOf(&e, colorWords, c))
	}
	if r.Ended != nil {
		rec.Ended = &resultRec{Winner: wordOf(&e, colorWords, r.Ended.Winner), Margin: r.Ended.Margin, Reason: wordOf(&e, reasonWords, r.Ended.Reason)}
	}
	rec.Plan = encodePlan(&e, g.Plan)
	for _, u := range g.Undos {
		was, err := moveText(u.Was)
		e.add(err)
		rec.Undos = append(rec.Undos, undoRec{By: string(u.By), Move: u.Move, Was: was, At: u.At})
	}
	if e.err != nil {
		return nil, fmt.Errorf("game #%d cannot be stored: %w", g.ID, e.err)
	}
	return json.Marshal(rec)
}

// checkFormat reads a record's "v".
func checkFormat(raw []byte) error {
	var v struct {
		V int `json:"v"`
	}
	if err := json.Unmarshal(raw, &v); err != nil {
		return err
	}
	if v.V < oldestFormat || v.V > Format {
		return fmt.Errorf("record format %d, want %d", v.V, Format)
	}
	return nil
}

func DecodeMatch(raw []byte) (*gobot.Match, error) {
	if err := checkFormat(raw); err != nil {
		return nil, err
	}
	var rec gameRec
	if err := json.Unmarshal(raw, &rec); err != nil {
		return nil, err
	}
	var e errs
	g := &gobot.Match{ID: gobot.GameID(rec.ID), Version: rec.Version, Room: gobot.RoomID(rec.Room), Thread: rec.Thread, Parent: gobot.RoomID(rec.Parent), Mirror: gobot.RoomID(rec.Mirror),
		Black: gobot.UserID(rec.Black), White: gobot.UserID(rec.White), MoveTimes: rec.MoveTimes, Clock: decodeClock(&e, rec.Clock),
		Deadline: rec.Deadline, Due: gobot.DueKind(rec.Due), Reminded: rec.Reminded, TurnTime: time.Duration(rec.TurnTime), UndoBy: gobot.UserID(rec.UndoBy), Challenge: gobot.ChallengeID(rec.Challenge),
		Created: rec.Created, Updated: rec.Updated, Finished: rec.Finished, Result: rec.Result, Rating: decodeGameRating(rec.Rating),
		Engine: rec.Engine, EngineLevel: rec.EngineLevel, EngineDead: rec.EngineDead,
		NoVacation: rec.NoVacation, PausedLeft: time.Duration(rec.PausedLeft), PausedAt: rec.PausedAt, Vote: decodeVote(rec.Vote), Pause: decodePause(rec.Pause)}
	for _, u := range rec.PausedBy {
		g.PausedBy = append(g.PausedBy, gobot.UserID(u))
	}
	g.Teams = decodeTeams(&e, rec.Teams)
	decodeAnswers(&e, &rec, g)
	g.Left[game.Black], g.Left[game.White] = time.Duration(rec.LeftBlack), time.Duration(rec.LeftWhite)
	g.Over[game.Black], g.Over[game.White] = decodeOver(rec.OverBlack), decodeOver(rec.OverWhite)
	r := &g.Record
	r.Config = game.Config{Width: rec.Width, Height: rec.Height, Handicap: rec.Handicap, Rules: decodeRules(&e, rec.Rules)}
	r.Setup, r.Resumes = rec.Setup, rec.Resumes
	if rec.SetupToMove != "" {
		r.SetupToMove = valueOf(&e, colorWords, rec.SetupToMove, "setup colour")
	}
	if rec.Moves != "" {
		for _, s := range strings.Split(rec.Moves, ";") {
			m, err := parseMove(s)
			e.add(err)
			r.Moves = append(r.Moves, m)
		}
	}
	for _, s := range rec.Dead {
		p, err := parseSGFCoord(s)
		e.add(err)
		r.Dead = append(r.Dead, p)
	}
	for _, s := range rec.Accepted {
		r.Accepted = append(r.Accepted, valueOf(&e, colorWords, s, "colour"))
	}
	if rec.Ended != nil {
		r.Ended = &game.Result{Winner: valueOf(&e, colorWords, rec.Ended.Winner, "winner"), Margin: rec.Ended.Margin,
			Reason: valueOf(&e, reasonWords, rec.Ended.Reason, "result reason")}
	}
	for _, u := range rec.Undos {
		was, err := parseMove(u.Was)
		e.add(err)
		g.Undos = append(g.Undos, gobot.Undo{By: gobot.UserID(u.By), Move: u.Move, Was: was, At: u.At})
	}
	g.Plan = decodePlan(&e, rec.Plan)
	return g, e.err
}

func EncodeChallenge(c *gobot.Challenge) ([]byte, error) {
	var e errs
	rec := challengeRec{V: Format, ID: uint64(c.ID), Room: string(c.Room), Mirror: string(c.Mirror), From: string(c.From), To: string(c.To),
		Width: c.Config.Width, Height: c.Config.Height, Handicap: c.Config.Handicap, Rules: encodeRules(&e, c.Config.Rules),
		Color: c.Color, Clock: encodeClock(&e, c.Clock), Created: c.Created, Status: wordOf(&e, statusWords, c.Status),
		Game: uint64(c.Game), Message: c.Message, Answered: c.Answered, Rating: encodeChallengeRating(c.Rating), NoVacation: c.NoVacation,
		VoteWindow: dur(c.VoteWindow)}
	rec.Teams = encodeTeams(&e, c.Teams)
	if e.err != nil {
		return nil, fmt.Errorf("challenge #%d cannot be stored: %w", c.ID, e.err)
	}
	return json.Marshal(rec)
}

func DecodeChallenge(raw []byte) (*gobot.Challenge, error) {
	if err := checkFormat(raw); err != nil {
		return nil, err
	}
	var rec challengeRec
	if err := json.Unmarshal(raw, &rec); err != nil {
		return nil, err
	}
	var e errs
	c := &gobot.Challenge{ID: gobot.ChallengeID(rec.ID), Room: gobot.RoomID(rec.Room), Mirror: gobot.RoomID(rec.Mirror), From: gobot.UserID(rec.From), To: gobot.UserID(rec.To),
		Config: game.Config{Width: rec.Width, Height: rec.Height, Handicap: rec.Handicap, Rules: decodeRules(&e, rec.Rules)},
		Color:  rec.Color, Clock: decodeClock(&e, rec.Clock), Created: rec.Created, Status: valueOf(&e, statusWords, rec.Status, "status"),
		Game: gobot.GameID(rec.Game), Message: rec.Message, Answered: rec.Answered, Rating: decodeChallengeRating(rec.Rating), NoVacation: rec.NoVacation,
		VoteWindow: time.Duration(rec.VoteWindow)}
	c.Teams = decodeTeams(&e, rec.Teams)
	return c, e.err
}

func EncodePlayer(p *gobot.Player) ([]byte, error) {
	rec := playerRec{V: Format, ID: string(p.ID), Name: p.Name, Notify: p.Notify, NotifyOn: p.NotifyOn, Theme: p.Theme, Confirm: p.Confirm, Updated: p.Updated}
	if v := p.Vacation; v != nil {
		rec.Vacation = &vacationRec{FirstGame: v.FirstGame, Left: dur(v.Left), Weeks: v.Weeks, Start: v.Start, End: v.End, Reminded: v.Reminded, Room: string(v.Room)}
	}
	return json.Marshal(rec)
}

func DecodePlayer(raw []byte) (*gobot.Player, error) {
	if err := checkFormat(raw); err != nil {
		return nil, err
	}
	var rec playerRec
	if err := json.Unmarshal(raw, &rec); err != nil {
		return nil, err
	}
	p := &gobot.Player{ID: gobot.UserID(rec.ID), Name: rec.Name, Notify: rec.Notify, NotifyOn: rec.NotifyOn, Theme: rec.Theme, Confirm: rec.Confirm, Updated: rec.Updated}
	if v := rec.Vacation; v != nil {
		p.Vacation = &gobot.Vacation{FirstGame: v.FirstGame, Left: time.Duration(v.Left), Weeks: v.Weeks, Start: v.Start, End: v.End, Reminded: v.Reminded, Room: gobot.RoomID(v.Room)}
	}
	return p, nil
}

func EncodeRoom(r *gobot.Room) ([]byte, error) {
	return json.Marshal(roomRec{V: Format, ID: string(r.ID), Rules: r.Rules, Width: r.Width, Height: r.Height, Komi: r.Komi,
		Clock: r.Clock, Threads: r.Threads, NoEngines: r.NoEngines, Updated: r.Updated, Widget: r.Widget, LiveImages: r.LiveImages})
}

func DecodeRoom(raw []byte) (*gobot.Room, error) {
	if err := checkFormat(raw); err != nil {
		return nil, err
	}
	var rec roomRec
	if err := json.Unmarshal(raw, &rec); err != nil {
		return nil, err
	}
	return &gobot.Room{ID: gobot.RoomID(rec.ID), Rules: rec.Rules, Width: rec.Width, Height: rec.Height, Komi: rec.Komi, Clock: rec.Clock,
		Threads: rec.Threads, NoEngines: rec.NoEngines, Updated: rec.Updated, Widget: rec.Widget, LiveImages: rec.LiveImages}, nil
}
