package record

import (
	"errors"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/gobotgo/gobot"
	"github.com/gobotgo/gobot/game"
	"github.com/gobotgo/gobot/tournament"
)

var tt0 = time.Date(2026, 12, 1, 18, 0, 0, 0, time.UTC)

func testTournament(t testing.TB) *gobot.Tournament {
	t.Helper()
	rules, err := game.Preset("japanese")
	if err != nil {
		t.Fatal(err)
	}
	return &gobot.Tournament{ID: 2, Version: 3, Room: "discord:room", Community: "discord:guild:1", Name: "Winter <Cup> & co",
		Organiser: "discord:ann", State: gobot.Running, System: tournament.McMahon, Rounds: 5, Size: 19, Rules: rules,
		Clock:    gobot.TimeControl{Kind: gobot.ByoYomi, Main: 30 * time.Minute, Periods: 5, Period: 30 * time.Second},
		Handicap: gobot.HandicapPolicy{Kind: gobot.McMahonHandicap, Cap: 3}, Rated: true, RegistrationCloses: tt0, MaxPlayers: 40,
		Bar: tournament.DefaultBar, Floor: tournament.DefaultFloor,
		Players: []gobot.TournamentPlayer{
			{Player: tournament.Player{ID: "discord:ann", Name: "Ann", Rank: 2, Rating: 2200}, User: "discord:ann"},
			{Player: tournament.Player{ID: "discord:bob", Name: "Bob", FirstName: "B.", Rank: -4, Club: "Par", Country: "FR"}, User: "discord:bob"},
			{Player: tournament.Player{ID: "og:7", Name: "Cat", Rank: 0}},
			{Player: tournament.Player{ID: "discord:dan", Name: "Dan", Rank: -9, Joined: 1}, User: "discord:dan", Withdrawn: true},
		},
		Played: []gobot.TournamentRound{
			{Round: tournament.Round{Games: []tournament.Game{{Table: 1, White: "discord:ann", Black: "discord:bob", Handicap: 2, Result: tournament.WhiteWins}},
				Byes: []tournament.PlayerID{"og:7"}}, Matches: []gobot.GameID{12}, Start: tt0.Add(time.Hour)},
			{Round: tournament.Round{Games: []tournament.Game{{Table: 1, White: "og:7", Black: "discord:ann", Result: tournament.BothLose, Forfeit: true},
				{Table: 2, White: "discord:bob", Black: "discord:dan"}}, Absent: []tournament.PlayerID{}}},
		},
		Due: tt0.Add(48 * time.Hour), Created: tt0.Add(-time.Hour)}
}

// A tournament's record keeps its settings, players, rounds and the bot's
// games of them; the pinned record reads back the same.
func TestTournamentRecord(t *testing.T) {
	tm := testTournament(t)
	raw, err := EncodeTournament(tm)
	if err != nil {
		t.Fatal(err)
	}
	got, err := DecodeTournament(raw)
	if err != nil {
		t.Fatal(err)
	}
	tm.Played[1].Absent = nil // an empty list reads as none
	if !reflect.DeepEqual(got, tm) {
		t.Fatalf("decoded\n%+v\nwant\n%+v\nfrom %s", got, tm, raw)
	}
	const want = `{"v":4,"id":2,"version":3,"room":"discord:room","community":"discord:guild:1","name":"Winter <Cup> & co","organiser":"discord:ann",` +
		`"state":"running","system":"mcmahon","rounds":5,"size":19,"rules":{"name":"japanese","ko":"simple","scoring":"territory","suicide":false,` +
		`"pass_stones":false,"bonus":"0","komi":6.5,"placement":"fixed","cycle":"void","no_agreement":false},` +
		`"clock":{"kind":"byo-yomi","main":"30m0s","periods":5,"period":"30s"},"handicap":"mcmahon","handicap_cap":3,"rated":true,` +
		`"registration_closes":"2026-12-01T18:00:00Z","max_players":40,"bar":4,"floor":-19,"players":[` +
		`{"id":"discord:ann","user":"discord:ann","name":"Ann","rank":2,"rating":2200},` +
		`{"id":"discord:bob","user":"discord:bob","name":"Bob","first_name":"B.","rank":-4,"club":"Par","country":"FR"},` +
		`{"id":"og:7","name":"Cat","rank":0},{"id":"discord:dan","user":"discord:dan","name":"Dan","rank":-9,"joined":1,"withdrawn":true}],` +
		`"played":[{"games":[{"table":1,"white":"discord:ann","black":"discord:bob","handicap":2,"result":"white","game":12}],"byes":["og:7"],` +
		`"start":"2026-12-01T19:00:00Z"},{"games":[{"table":1,"white":"og:7","black":"discord:ann","result":"both-lose","forfeit":true},` +
		`{"table":2,"white":"discord:bob","black":"discord:dan"}]}],"due":"2026-12-03T18:00:00Z","created":"2026-12-01T17:00:00Z"}`
	if string(raw) != want {
		t.Errorf("record\n%s\nwant\n%s", raw, want)
	}
	if again, err := DecodeTournament([]byte(want)); err != nil || !reflect.DeepEqual(again, tm) {
		t.Errorf("pinned record: %+v, %v", again, err)
	}
	for _, bad := range []string{
		strings.Replace(want, `"state":"running"`, `"state":"paused"`, 1),
		strings.Replace(want, `"system":"mcmahon"`, `"system":"knockout"`, 1),
		strings.Replace(want, `"result":"white"`, `"result":"W+"`, 1),
		strings.Replace(want, `"handicap":"mcmahon"`, `"handicap":"auto"`, 1),
		strings.Replace(want, `"name":"Winter <Cup> & co"`, `"name":""`, 1),
		strings.Replace(want, `"v":4`, `"v":9`, 1),
		`{"v":4,"name":"x","system":"swiss","state":"running","handicap":"none","rules":{"ko":"simple","scoring":"area","bonus":"0","placement":"fixed","cycle":"void"},` +
			`"clock":{"kind":"none"},"played":[{"games":[{"white":"a","black":"b","game":3},{"white":"c","black":"d","game":3}]}]}`,
	} {
		if _, err := DecodeTournament([]byte(bad)); err == nil {
			t.Errorf("%s decoded", bad)
		}
	}
}

// Bounds: a name of at most MaxEventName bytes, at most
// tournament.MaxPlayers players; a game in one pairing only.
func TestTournamentRecordBounds(t *testing.T) {
	tm := testTournament(t)
	tm.Name = strings.Repeat("é", 50) // 100 bytes
	if _, err := EncodeTournament(tm); err != nil {
		t.Errorf("a 100-byte name: %v", err)
	}
	tm.Name += "x"
	if _, err := EncodeTournament(tm); !errors.Is(err, gobot.ErrTooLarge) || !strings.Contains(err.Error(), "at most 100 bytes") {
		t.Errorf("a 101-byte name: %v, want ErrTooLarge", err)
	}
	tm = testTournament(t)
	for i := len(tm.Players); i <= tournament.MaxPlayers; i++ {
		tm.Players = append(tm.Players, gobot.TournamentPlayer{Player: tournament.Player{ID: tournament.PlayerID(strings.Repeat("p", i%7+1) + string(rune('a'+i%26))), Name: "P"}})
	}
	if _, err := EncodeTournament(tm); !errors.Is(err, gobot.ErrTooLarge) || !strings.Contains(err.Error(), "at most 2000 players") {
		t.Errorf("%d players: %v, want ErrTooLarge", len(tm.Players), err)
	}
	tm = testTournament(t)
	tm.Played[1].Matches = []gobot.GameID{12, 0}
	if _, err := EncodeTournament(tm); !errors.Is(err, gobot.ErrBadEvent) {
		t.Errorf("game #12 in two rounds: %v, want ErrBadEvent", err)
	}
	tm.Played[1].Matches = []gobot.GameID{13, 14, 15}
	if _, err := EncodeTournament(tm); !errors.Is(err, gobot.ErrBadEvent) {
		t.Errorf("three games for two pairings: %v, want ErrBadEvent", err)
	}
	tm = testTournament(t)
	tm.System = 0
	if _, err := EncodeTournament(tm); !errors.Is(err, gobot.ErrBadEvent) {
		t.Errorf("no system: %v, want ErrBadEvent", err)
	}
}

func testLadder() *gobot.Ladder {
	return &gobot.Ladder{ID: 4, Version: 7, Room: "matrix:!room", Community: "matrix:!room", Name: "Room ladder", Organiser: "matrix:@ann",
		Size: 9, Clock: gobot.TimeControl{Kind: gobot.PerMove, PerMove: 72 * time.Hour}, ChallengeRange: 3, ForfeitAfter: 7 * 24 * time.Hour, Rated: true,
		Rungs: []gobot.UserID{"matrix:@ann", "matrix:@bob", "matrix:@cat", "matrix:@dan"},
		Challenges: []gobot.LadderChallenge{{Challenger: "matrix:@dan", Defender: "matrix:@bob", Game: 31, Made: tt0, Deadline: tt0.Add(7 * 24 * time.Hour)},
			{Challenger: "matrix:@cat", Defender: "matrix:@ann", Made: tt0}},
		Log: []gobot.LadderResult{{Challenger: "matrix:@bob", Defender: "matrix:@ann", Game: 30, Winner: "matrix:@ann", At: tt0.Add(-time.Hour)},
			{Challenger: "matrix:@cat", Defender: "matrix:@bob", Forfeit: true, Winner: "matrix:@cat", At: tt0.Add(-time.Minute)}},
		Due: tt0.Add(7 * 24 * time.Hour), Created: tt0.Add(-24 * time.Hour)}
}

// A ladder's record keeps its settings, rungs, challenges and results.
func TestLadderRecord(t *testing.T) {
	l := testLadder()
	raw, err := EncodeLadder(l)
	if err != nil {
		t.Fatal(err)
	}
	got, err := DecodeLadder(raw)
	if err != nil || !reflect.DeepEqual(got, l) {
		t.Fatalf("decoded\n%+v (%v)\nwant\n%+v\nfrom %s", got, err, l, raw)
	}
	const want = `{"v":4,"id":4,"version":7,"room":"matrix:!room","community":"matrix:!room","name":"Room ladder","organiser":"matrix:@ann",` +
		`"size":9,"rules":{"name":"","ko":"none","scoring":"area","suicide":false,"pass_stones":false,"bonus":"0","komi":0,"placement":"fixed",` +
		`"cycle":"void","no_agreement":false},"clock":{"kind":"per-move","per_move":"72h0m0s"},"challenge_range":3,"forfeit_after":"168h0m0s",` +
		`"rated":true,"rungs":["matrix:@ann","matrix:@bob","matrix:@cat","matrix:@dan"],"challenges":[{"challenger":"matrix:@dan",` +
		`"defender":"matrix:@bob","game":31,"made":"2026-12-01T18:00:00Z","deadline":"2026-12-08T18:00:00Z"},{"challenger":"matrix:@cat",` +
		`"defender":"matrix:@ann","made":"2026-12-01T18:00:00Z"}],"log":[{"challenger":"matrix:@bob","defender":"matrix:@ann","game":30,` +
		`"winner":"matrix:@ann","at":"2026-12-01T17:00:00Z"},{"challenger":"matrix:@cat","defender":"matrix:@bob","winner":"matrix:@cat",` +
		`"forfeit":true,"at":"2026-12-01T17:59:00Z"}],"due":"2026-12-08T18:00:00Z","created":"2026-11-30T18:00:00Z"}`
	if string(raw) != want {
		t.Errorf("record\n%s\nwant\n%s", raw, want)
	}
	for _, bad := range []string{
		strings.Replace(want, `"kind":"per-move"`, `"kind":"hourglass"`, 1),
		strings.Replace(want, `"rungs":["matrix:@ann","matrix:@bob"`, `"rungs":["matrix:@ann","matrix:@ann"`, 1),
		strings.Replace(want, `"game":30`, `"game":31`, 1),
		strings.Replace(want, `"forfeit_after":"168h0m0s"`, `"forfeit_after":"a week"`, 1),
	} {
		if _, err := DecodeLadder([]byte(bad)); err == nil {
			t.Errorf("%s decoded", bad)
		}
	}
}

// A ladder holds at most MaxLadderRungs players and MaxLadderLog results;
// AddResult keeps the newest.
func TestLadderBounds(t *testing.T) {
	l := testLadder()
	for i := range gobot.MaxLadderRungs {
		l.Rungs = append(l.Rungs, gobot.UserID("t:"+strings.Repeat("x", i/26+1)+string(rune('a'+i%26))))
	}
	if _, err := EncodeLadder(l); !errors.Is(err, gobot.ErrTooLarge) || !strings.Contains(err.Error(), "at most 2000 players") {
		t.Errorf("%d rungs: %v, want ErrTooLarge", len(l.Rungs), err)
	}
	l = testLadder()
	l.Name = strings.Repeat("n", gobot.MaxEventName+1)
	if _, err := EncodeLadder(l); !errors.Is(err, gobot.ErrTooLarge) {
		t.Errorf("a 101-byte name: %v, want ErrTooLarge", err)
	}
	l = testLadder()
	for i := range gobot.MaxLadderLog + 5 {
		l.AddResult(gobot.LadderResult{Challenger: "matrix:@dan", Defender: "matrix:@cat", Game: gobot.GameID(1000 + i), At: tt0})
	}
	if len(l.Log) != gobot.MaxLadderLog || l.Log[0].Game != 1005 || l.Log[len(l.Log)-1].Game != gobot.GameID(1000+gobot.MaxLadderLog+4) {
		t.Errorf("log after %d results: %d kept, from game #%d", gobot.MaxLadderLog+7, len(l.Log), l.Log[0].Game)
	}
	if _, err := EncodeLadder(l); err != nil {
		t.Errorf("a full log: %v", err)
	}
	l.Log = append(l.Log, gobot.LadderResult{At: tt0})
	if _, err := EncodeLadder(l); !errors.Is(err, gobot.ErrTooLarge) {
		t.Errorf("a log over the bound: %v, want ErrTooLarge", err)
	}
}

// FuzzDecodeTournament: any bytes decode cleanly (or not at all), and a
// tournament decoded encodes and reads back the same.
func FuzzDecodeTournament(f *testing.F) {
	raw, err := EncodeTournament(testTournament(f))
	if err != nil {
		f.Fatal(err)
	}
	f.Add(raw)
	f.Fuzz(func(t *testing.T, raw []byte) {
		v, err := DecodeTournament(raw)
		if err != nil {
			return
		}
		again, err := EncodeTournament(v)
		if err != nil {
			t.Fatalf("decoded %s but cannot encode it: %v", raw, err)
		}
		v2, err := DecodeTournament(again)
		if err != nil || !reflect.DeepEqual(v, v2) {
			t.Fatalf("round trip of %s:\n%s\n%+v\n%+v (%v)", raw, again, v, v2, err)
		}
	})
}

// FuzzDecodeLadder is FuzzDecodeTournament for ladders.
func FuzzDecodeLadder(f *testing.F) {
	raw, err := EncodeLadder(testLadder())
	if err != nil {
		f.Fatal(err)
	}
	f.Add(raw)
	f.Fuzz(func(t *testing.T, raw []byte) {
		v, err := DecodeLadder(raw)
		if err != nil {
			return
		}
		again, err := EncodeLadder(v)
		if err != nil {
			t.Fatalf("decoded %s but cannot encode it: %v", raw, err)
		}
		v2, err := DecodeLadder(again)
		if err != nil || !reflect.DeepEqual(v, v2) {
			t.Fatalf("round trip of %s:\n%s\n%+v\n%+v (%v)", raw, again, v, v2, err)
		}
	})
}

// A tournament's schedule (the rounds' start times) and the players an
// imported file left out of rounds to come read back as written; an
// older record, without them, reads with none; a round that is no
// round is refused.
func TestTournamentRecordSchedule(t *testing.T) {
	tm := testTournament(t)
	tm.Played[1].Absent = nil
	tm.Starts = []time.Time{{}, {}, tt0.Add(72 * time.Hour)}
	tm.SitsOut = map[int][]tournament.PlayerID{3: {"og:7"}, 4: {"og:7", "discord:bob"}}
	raw, err := EncodeTournament(tm)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(raw), `"sits_out":{"3":["og:7"],"4":["og:7","discord:bob"]},"starts":["0001-01-01T00:00:00Z","0001-01-01T00:00:00Z","2026-12-04T18:00:00Z"]`) {
		t.Errorf("record %s", raw)
	}
	got, err := DecodeTournament(raw)
	if err != nil || !reflect.DeepEqual(got, tm) {
		t.Fatalf("decoded %+v, %v\nwant %+v", got, err, tm)
	}
	if got.StartOf(3) != tt0.Add(72*time.Hour) || !got.StartOf(2).IsZero() || got.StartOf(1) != tt0 || !got.StartOf(4).IsZero() {
		t.Errorf("StartOf: %v %v %v %v", got.StartOf(1), got.StartOf(2), got.StartOf(3), got.StartOf(4))
	}
	if _, err := DecodeTournament([]byte(strings.Replace(string(raw), `"3":["og:7"]`, `"x":["og:7"]`, 1))); err == nil {
		t.Error("a round that is no round decoded")
	}
}
