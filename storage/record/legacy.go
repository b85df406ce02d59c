package record

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/gobotgo/gobot"
	"github.com/gobotgo/gobot/game"
)

// Schema 1 and 2 stored the model structs as encoding/json wrote them:
// Go field names, enums as their iota numbers, durations as
// nanoseconds, points as {"X":3,"Y":3}. These frozen copies read those
// records (testdata/schema2.txt shows them) whatever the model becomes;
// the tables give each old number its meaning.

var (
	v2Ko        = []game.KoRule{game.KoNone, game.KoSimple, game.KoPositional, game.KoSituational}
	v2Scoring   = []game.Counting{game.Area, game.Territory}
	v2Bonus     = []game.Bonus{game.BonusNone, game.BonusN, game.BonusNMinusOne}
	v2Placement = []game.Placement{game.PlacementFixed, game.PlacementFree, game.PlacementWhitePasses}
	v2Cycle     = []game.CycleResult{game.CycleVoid, game.CycleDraw}
	v2Color     = []game.Color{game.Empty, game.Black, game.White}
	v2Reason    = []game.Reason{game.ByScore, game.ByResign, game.ByTime, game.ByCycle, game.NoResult}
	v2ClockKind = []gobot.ClockKind{gobot.NoClock, gobot.PerMove, gobot.Fischer}
	v2Status    = []gobot.ChallengeStatus{gobot.Pending, gobot.Accepted, gobot.Declined, gobot.Cancelled}
)

func v2[T any](e *errs, table []T, n int, what string) T {
	if n < 0 || n >= len(table) {
		e.add(fmt.Errorf("%s %d is unknown", what, n))
		var zero T
		return zero
	}
	return table[n]
}

type v2Point struct{ X, Y int8 }

type v2Move struct {
	Color int
	Point v2Point
}

type v2Rules struct {
	Name        string
	Ko          int
	Scoring     int
	Suicide     bool
	PassStones  bool
	Bonus       int
	Komi        float64
	Placement   int
	Cycle       int
	NoAgreement bool
}

type v2Config struct {
	Width, Height int
	Rules         v2Rules
	Handicap      int
}

type v2Clock struct {
	Kind                          int
	PerMove, Main, Increment, Max time.Duration
}

type v2Game struct {
	ID, Version   uint64
	Room          string
	Thread        bool
	Parent, Black string
	White         string
	Record        struct {
		Config   v2Config
		Moves    []v2Move
		Resumes  []int
		Dead     []v2Point
		Accepted []byte // []game.Color: encoding/json wrote it as base64
		Ended    *struct {
			Winner int
			Margin float64
			Reason int
		}
		Setup       []string
		SetupToMove int
	}
	MoveTimes []time.Time
	Clock     v2Clock
	Left      [3]time.Duration
	Deadline  time.Time
	Reminded  int
	UndoBy    string
	Undos     []struct {
		By   string
		Move int
		Was  v2Move
		At   time.Time
	}
	Challenge                  uint64
	Created, Updated, Finished time.Time
	Result                     string
}

func (m v2Move) move(e *errs) game.Move {
	return game.Move{Color: v2(e, v2Color, m.Color, "colour"), Point: game.Point(m.Point)}
}

func (r v2Rules) rules(e *errs) game.Rules {
	return game.Rules{Name: r.Name, Ko: v2(e, v2Ko, r.Ko, "ko"), Scoring: v2(e, v2Scoring, r.Scoring, "scoring"),
		Suicide: r.Suicide, PassStones: r.PassStones, Bonus: v2(e, v2Bonus, r.Bonus, "bonus"), Komi: r.Komi,
		Placement: v2(e, v2Placement, r.Placement, "placement"), Cycle: v2(e, v2Cycle, r.Cycle, "cycle"), NoAgreement: r.NoAgreement}
}

func (c v2Clock) clock(e *errs) gobot.TimeControl {
	return gobot.TimeControl{Kind: v2(e, v2ClockKind, c.Kind, "clock kind"), PerMove: c.PerMove, Main: c.Main, Increment: c.Increment, Max: c.Max}
}

// DecodeMatchV2 reads a game as schema 1 and 2 stored it.
func DecodeMatchV2(raw []byte) (*gobot.Match, error) {
	var rec v2Game
	if err := json.Unmarshal(raw, &rec); err != nil {
		return nil, err
	}
	var e errs
	g := &gobot.Match{ID: gobot.GameID(rec.ID), Version: rec.Version, Room: gobot.RoomID(rec.Room), Thread: rec.Thread, Parent: gobot.RoomID(rec.Parent),
		Black: gobot.UserID(rec.Black), White: gobot.UserID(rec.White), MoveTimes: rec.MoveTimes, Clock: rec.Clock.clock(&e), Left: rec.Left,
		Deadline: rec.Deadline, Reminded: rec.Reminded, UndoBy: gobot.UserID(rec.UndoBy), Challenge: gobot.ChallengeID(rec.Challenge),
		Created: rec.Created, Updated: rec.Updated, Finished: rec.Finished, Result: rec.Result}
	in, r := rec.Record, &g.Record
	r.Config = game.Config{Width: in.Config.Width, Height: in.Config.Height, Handicap: in.Config.Handicap, Rules: in.Config.Rules.rules(&e)}
	r.Resumes, r.Setup = in.Resumes, in.Setup
	r.SetupToMove = v2(&e, v2Color, in.SetupToMove, "setup colour")
	for _, m := range in.Moves {
		r.Moves = append(r.Moves, m.move(&e))
	}
	for _, p := range in.Dead {
		r.Dead = append(r.Dead, game.Point(p))
	}
	for _, c := range in.Accepted {
		r.Accepted = append(r.Accepted, v2(&e, v2Color, int(c), "colour"))
	}
	if in.Ended != nil {
		r.Ended = &game.Result{Winner: v2(&e, v2Color, in.Ended.Winner, "winner"), Margin: in.Ended.Margin, Reason: v2(&e, v2Reason, in.Ended.Reason, "result reason")}
	}
	for _, u := range rec.Undos {
		g.Undos = append(g.Undos, gobot.Undo{By: gobot.UserID(u.By), Move: u.Move, Was: u.Was.move(&e), At: u.At})
	}
	return g, e.err
}

type v2Challenge struct {
	ID       uint64
	Room     string
	From, To string
	Config   v2Config
	Color    string
	Clock    v2Clock
	Created  time.Time
	Status   int
	Game     uint64
	Message  string
	Answered time.Time
}

func DecodeChallengeV2(raw []byte) (*gobot.Challenge, error) {
	var rec v2Challenge
	if err := json.Unmarshal(raw, &rec); err != nil {
		return nil, err
	}
	var e errs
	c := &gobot.Challenge{ID: gobot.ChallengeID(rec.ID), Room: gobot.RoomID(rec.Room), From: gobot.UserID(rec.From), To: gobot.UserID(rec.To),
		Config: game.Config{Width: rec.Config.Width, Height: rec.Config.Height, Handicap: rec.Config.Handicap, Rules: rec.Config.Rules.rules(&e)},
		Color:  rec.Color, Clock: rec.Clock.clock(&e), Created: rec.Created, Status: v2(&e, v2Status, rec.Status, "status"),
		Game: gobot.GameID(rec.Game), Message: rec.Message, Answered: rec.Answered}
	return c, e.err
}

func DecodePlayerV2(raw []byte) (*gobot.Player, error) {
	var rec struct {
		ID, Name, Notify, Theme string
		Updated                 time.Time
	}
	if err := json.Unmarshal(raw, &rec); err != nil {
		return nil, err
	}
	return &gobot.Player{ID: gobot.UserID(rec.ID), Name: rec.Name, Notify: rec.Notify, Theme: rec.Theme, Updated: rec.Updated}, nil
}

func DecodeRoomV2(raw []byte) (*gobot.Room, error) {
	var rec struct {
		ID, Rules     string
		Width, Height int
		Komi          *float64
		Clock         string
		Threads       bool
		Updated       time.Time
	}
	if err := json.Unmarshal(raw, &rec); err != nil {
		return nil, err
	}
	return &gobot.Room{ID: gobot.RoomID(rec.ID), Rules: rec.Rules, Width: rec.Width, Height: rec.Height, Komi: rec.Komi, Clock: rec.Clock,
		Threads: rec.Threads, Updated: rec.Updated}, nil
}
