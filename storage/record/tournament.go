package record

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"time"

	"github.com/gobotgo/gobot"
	"github.com/gobotgo/gobot/game"
	"github.com/gobotgo/gobot/tournament"
)

// Tournaments and ladders (gobot.Tournament, gobot.Ladder): records of
// schema 4 like the others, added with them. Ranks are stored as
// game.Rank's number (1 is 1d, 0 is 1k, -19 is 20k), so any rank a
// tournament file brings reads back; systems, states, handicap kinds and
// results as words.

var (
	systemWords = enum[tournament.System]{{tournament.McMahon, "mcmahon"}, {tournament.Swiss, "swiss"}, {tournament.RoundRobin, "roundrobin"},
		{tournament.DoubleRoundRobin, "double-roundrobin"}, {tournament.Elimination, "elimination"}}
	tstateWords   = enum[gobot.TournamentState]{{gobot.Registering, "registering"}, {gobot.Running, "running"}, {gobot.Ended, "ended"}}
	handicapWords = enum[gobot.HandicapKind]{{gobot.NoHandicap, "none"}, {gobot.McMahonHandicap, "mcmahon"}}
	tresultWords  = enum[tournament.Result]{{tournament.Unknown, ""}, {tournament.WhiteWins, "white"}, {tournament.BlackWins, "black"},
		{tournament.Jigo, "jigo"}, {tournament.BothLose, "both-lose"}, {tournament.BothWin, "both-win"}}
)

type tournamentRec struct {
	V                  int        `json:"v"`
	ID                 uint64     `json:"id"`
	Version            uint64     `json:"version"`
	Room               string     `json:"room"`
	Community          string     `json:"community,omitempty"`
	Name               string     `json:"name"`
	Organiser          string     `json:"organiser"`
	State              string     `json:"state"`
	System             string     `json:"system"`
	Rounds             int        `json:"rounds"`
	Size               int        `json:"size"`
	Rules              rulesRec   `json:"rules"`
	Clock              clockRec   `json:"clock"`
	Handicap           string     `json:"handicap"`
	HandicapCap        int        `json:"handicap_cap,omitempty"`
	Rated              bool       `json:"rated,omitempty"`
	RegistrationCloses time.Time  `json:"registration_closes,omitzero"`
	MaxPlayers         int        `json:"max_players,omitempty"`
	Bar                int        `json:"bar"`
	Floor              int        `json:"floor"`
	Players            []tplayer  `json:"players,omitempty"`
	Played             []roundRec `json:"played,omitempty"`
	ByeNext            string     `json:"bye_next,omitempty"`
	// SitsOut: the players left out of a round not paired yet, by the
	// round's index (from 0) as a string; Starts: the rounds' start
	// times by index (zero: none).
	SitsOut map[string][]string `json:"sits_out,omitempty"`
	Starts  []time.Time         `json:"starts,omitempty"`
	Due     time.Time           `json:"due,omitzero"`
	Created time.Time           `json:"created"`
}

type tplayer struct {
	ID        string `json:"id"`
	User      string `json:"user,omitempty"`
	Name      string `json:"name"`
	FirstName string `json:"first_name,omitempty"`
	Rank      int    `json:"rank"`
	Rating    int    `json:"rating,omitempty"`
	Club      string `json:"club,omitempty"`
	Country   string `json:"country,omitempty"`
	Joined    int    `json:"joined,omitempty"`
	Withdrawn bool   `json:"withdrawn,omitempty"`
}

type roundRec struct {
	Games  []pairingRec `json:"games,omitempty"`
	Byes   []string     `json:"byes,omitempty"`
	Absent []string     `json:"absent,omitempty"`
	Start  time.Time    `json:"start,omitzero"`
}

// pairingRec is one game of a round: the pairing and the bot's game of it.
type pairingRec struct {
	Table    int    `json:"table"`
	White    string `json:"white"`
	Black    string `json:"black"`
	Handicap int    `json:"handicap,omitempty"`
	Result   string `json:"result,omitempty"`
	Forfeit  bool   `json:"forfeit,omitempty"`
	Game     uint64 `json:"game,omitempty"`
}

// marshal writes rec as JSON with text as it is (not HTML-escaped).
func marshal(rec any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(rec); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}

func strs[T ~string](v []T) []string {
	var out []string
	for _, s := range v {
		out = append(out, string(s))
	}
	return out
}

func ids[T ~string](v []string) []T {
	var out []T
	for _, s := range v {
		out = append(out, T(s))
	}
	return out
}

// which names a record in an error: "tournament 3", "a new ladder".
func which(kind string, id uint64) string {
	if id == 0 {
		return "a new " + kind
	}
	return fmt.Sprintf("%s %d", kind, id)
}

// EncodeTournament writes a tournament in the record format; one that
// fails its Check is refused.
func EncodeTournament(t *gobot.Tournament) ([]byte, error) {
	if err := t.Check(); err != nil {
		return nil, fmt.Errorf("%s cannot be stored: %w", which("tournament", uint64(t.ID)), err)
	}
	var e errs
	rec := tournamentRec{V: Format, ID: uint64(t.ID), Version: t.Version, Room: string(t.Room), Community: string(t.Community),
		Name: t.Name, Organiser: string(t.Organiser), State: wordOf(&e, tstateWords, t.State), System: wordOf(&e, systemWords, t.System),
		Rounds: t.Rounds, Size: t.Size, Rules: encodeRules(&e, t.Rules), Clock: encodeClock(&e, t.Clock),
		Handicap: wordOf(&e, handicapWords, t.Handicap.Kind), HandicapCap: t.Handicap.Cap, Rated: t.Rated,
		RegistrationCloses: t.RegistrationCloses, MaxPlayers: t.MaxPlayers, Bar: int(t.Bar), Floor: int(t.Floor), ByeNext: string(t.ByeNext), Due: t.Due, Created: t.Created}
	for _, p := range t.Players {
		rec.Players = append(rec.Players, tplayer{ID: string(p.ID), User: string(p.User), Name: p.Name, FirstName: p.FirstName,
			Rank: int(p.Rank), Rating: p.Rating, Club: p.Club, Country: p.Country, Joined: p.Joined, Withdrawn: p.Withdrawn})
	}
	for r, ids := range t.SitsOut {
		if rec.SitsOut == nil {
			rec.SitsOut = map[string][]string{}
		}
		rec.SitsOut[strconv.Itoa(r)] = strs(ids)
	}
	rec.Starts = t.Starts
	for _, r := range t.Played {
		rr := roundRec{Byes: strs(r.Byes), Absent: strs(r.Absent), Start: r.Start}
		for i, g := range r.Games {
			rr.Games = append(rr.Games, pairingRec{Table: g.Table, White: string(g.White), Black: string(g.Black), Handicap: g.Handicap,
				Result: wordOf(&e, tresultWords, g.Result), Forfeit: g.Forfeit, Game: uint64(r.Match(i))})
		}
		rec.Played = append(rec.Played, rr)
	}
	if e.err != nil {
		return nil, fmt.Errorf("%s cannot be stored: %w", which("tournament", uint64(t.ID)), e.err)
	}
	return marshal(rec)
}

// DecodeTournament reads a tournament written by EncodeTournament. A
// round none of whose pairings has a game yet reads with Matches nil.
func DecodeTournament(raw []byte) (*gobot.Tournament, error) {
	if err := checkFormat(raw); err != nil {
		return nil, err
	}
	var rec tournamentRec
	if err := json.Unmarshal(raw, &rec); err != nil {
		return nil, err
	}
	var e errs
	t := &gobot.Tournament{ID: gobot.TournamentID(rec.ID), Version: rec.Version, Room: gobot.RoomID(rec.Room), Community: gobot.CommunityID(rec.Community),
		Name: rec.Name, Organiser: gobot.UserID(rec.Organiser), State: valueOf(&e, tstateWords, rec.State, "tournament state"),
		System: valueOf(&e, systemWords, rec.System, "pairing system"), Rounds: rec.Rounds, Size: rec.Size,
		Rules: decodeRules(&e, rec.Rules), Clock: decodeClock(&e, rec.Clock),
		Handicap: gobot.HandicapPolicy{Kind: valueOf(&e, handicapWords, rec.Handicap, "handicap"), Cap: rec.HandicapCap}, Rated: rec.Rated,
		RegistrationCloses: rec.RegistrationCloses, MaxPlayers: rec.MaxPlayers, Bar: game.Rank(rec.Bar), Floor: game.Rank(rec.Floor),
		ByeNext: tournament.PlayerID(rec.ByeNext), Due: rec.Due, Created: rec.Created, Starts: rec.Starts}
	for k, out := range rec.SitsOut {
		r, err := strconv.Atoi(k)
		if err != nil || r < 0 || r >= tournament.MaxRounds {
			return nil, fmt.Errorf("%s: round %q of its players sitting out is no round", which("tournament", rec.ID), k)
		}
		if t.SitsOut == nil {
			t.SitsOut = map[int][]tournament.PlayerID{}
		}
		t.SitsOut[r] = ids[tournament.PlayerID](out)
	}
	for _, p := range rec.Players {
		t.Players = append(t.Players, gobot.TournamentPlayer{
			Player: tournament.Player{ID: tournament.PlayerID(p.ID), Name: p.Name, FirstName: p.FirstName, Rank: game.Rank(p.Rank),
				Rating: p.Rating, Club: p.Club, Country: p.Country, Joined: p.Joined},
			User: gobot.UserID(p.User), Withdrawn: p.Withdrawn})
	}
	for _, rr := range rec.Played {
		r := gobot.TournamentRound{Round: tournament.Round{Byes: ids[tournament.PlayerID](rr.Byes), Absent: ids[tournament.PlayerID](rr.Absent)}, Start: rr.Start}
		made := false
		for _, g := range rr.Games {
			r.Games = append(r.Games, tournament.Game{Table: g.Table, White: tournament.PlayerID(g.White), Black: tournament.PlayerID(g.Black),
				Handicap: g.Handicap, Result: valueOf(&e, tresultWords, g.Result, "result"), Forfeit: g.Forfeit})
			made = made || g.Game != 0
		}
		if made {
			for _, g := range rr.Games {
				r.Matches = append(r.Matches, gobot.GameID(g.Game))
			}
		}
		t.Played = append(t.Played, r)
	}
	if e.err != nil {
		return nil, e.err
	}
	if err := t.Check(); err != nil {
		return nil, err
	}
	return t, nil
}

type ladderRec struct {
	V              int             `json:"v"`
	ID             uint64          `json:"id"`
	Version        uint64          `json:"version"`
	Room           string          `json:"room"`
	Community      string          `json:"community,omitempty"`
	Name           string          `json:"name"`
	Organiser      string          `json:"organiser"`
	Closed         bool            `json:"closed,omitempty"`
	Size           int             `json:"size"`
	Rules          rulesRec        `json:"rules"`
	Clock          clockRec        `json:"clock"`
	ChallengeRange int             `json:"challenge_range"`
	ForfeitAfter   dur             `json:"forfeit_after,omitempty"`
	Rated          bool            `json:"rated,omitempty"`
	Rungs          []string        `json:"rungs,omitempty"`
	Challenges     []ladderChalRec `json:"challenges,omitempty"`
	Log            []ladderLogRec  `json:"log,omitempty"`
	Due            time.Time       `json:"due,omitzero"`
	Created        time.Time       `json:"created"`
}

type ladderChalRec struct {
	Challenger string    `json:"challenger"`
	Defender   string    `json:"defender"`
	Game       uint64    `json:"game,omitempty"`
	Made       time.Time `json:"made"`
	Deadline   time.Time `json:"deadline,omitzero"`
}

type ladderLogRec struct {
	Challenger string    `json:"challenger"`
	Defender   string    `json:"defender"`
	Game       uint64    `json:"game,omitempty"`
	Winner     string    `json:"winner,omitempty"`
	Forfeit    bool      `json:"forfeit,omitempty"`
	At         time.Time `json:"at"`
}

// EncodeLadder writes a ladder in the record format; one that fails its
// Check is refused.
func EncodeLadder(l *gobot.Ladder) ([]byte, error) {
	if err := l.Check(); err != nil {
		return nil, fmt.Errorf("%s cannot be stored: %w", which("ladder", uint64(l.ID)), err)
	}
	var e errs
	rec := ladderRec{V: Format, ID: uint64(l.ID), Version: l.Version, Room: string(l.Room), Community: string(l.Community), Name: l.Name,
		Organiser: string(l.Organiser), Closed: l.Closed, Size: l.Size, Rules: encodeRules(&e, l.Rules), Clock: encodeClock(&e, l.Clock),
		ChallengeRange: l.ChallengeRange, ForfeitAfter: dur(l.ForfeitAfter), Rated: l.Rated, Rungs: strs(l.Rungs), Due: l.Due, Created: l.Created}
	for _, c := range l.Challenges {
		rec.Challenges = append(rec.Challenges, ladderChalRec{Challenger: string(c.Challenger), Defender: string(c.Defender),
			Game: uint64(c.Game), Made: c.Made, Deadline: c.Deadline})
	}
	for _, r := range l.Log {
		rec.Log = append(rec.Log, ladderLogRec{Challenger: string(r.Challenger), Defender: string(r.Defender), Game: uint64(r.Game),
			Winner: string(r.Winner), Forfeit: r.Forfeit, At: r.At})
	}
	if e.err != nil {
		return nil, fmt.Errorf("%s cannot be stored: %w", which("ladder", uint64(l.ID)), e.err)
	}
	return marshal(rec)
}

// DecodeLadder reads a ladder written by EncodeLadder.
func DecodeLadder(raw []byte) (*gobot.Ladder, error) {
	if err := checkFormat(raw); err != nil {
		return nil, err
	}
	var rec ladderRec
	if err := json.Unmarshal(raw, &rec); err != nil {
		return nil, err
	}
	var e errs
	l := &gobot.Ladder{ID: gobot.LadderID(rec.ID), Version: rec.Version, Room: gobot.RoomID(rec.Room), Community: gobot.CommunityID(rec.Community),
		Name: rec.Name, Organiser: gobot.UserID(rec.Organiser), Closed: rec.Closed, Size: rec.Size, Rules: decodeRules(&e, rec.Rules),
		Clock: decodeClock(&e, rec.Clock), ChallengeRange: rec.ChallengeRange, ForfeitAfter: time.Duration(rec.ForfeitAfter), Rated: rec.Rated,
		Rungs: ids[gobot.UserID](rec.Rungs), Due: rec.Due, Created: rec.Created}
	for _, c := range rec.Challenges {
		l.Challenges = append(l.Challenges, gobot.LadderChallenge{Challenger: gobot.UserID(c.Challenger), Defender: gobot.UserID(c.Defender),
			Game: gobot.GameID(c.Game), Made: c.Made, Deadline: c.Deadline})
	}
	for _, r := range rec.Log {
		l.Log = append(l.Log, gobot.LadderResult{Challenger: gobot.UserID(r.Challenger), Defender: gobot.UserID(r.Defender),
			Game: gobot.GameID(r.Game), Winner: gobot.UserID(r.Winner), Forfeit: r.Forfeit, At: r.At})
	}
	if e.err != nil {
		return nil, e.err
	}
	if err := l.Check(); err != nil {
		return nil, err
	}
	return l, nil
}
