package storage

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/gobotgo/gobot/storage/record"

	"github.com/gobotgo/gobot"
	"github.com/gobotgo/gobot/game"
	bolt "go.etcd.io/bbolt"
)

var writeSchema2 = flag.Bool("write-schema2", false, "write testdata/schema2.db with the schema-2 code (only that code can)")

// fixture is every kind of record gobot stores, built the same way on
// every run: the content of testdata/schema2.db.
type fixture struct {
	games      []*gobot.Match
	challenges []*gobot.Challenge
	players    []*gobot.Player
	rooms      []*gobot.Room
	state      [][3]string // ns, key, value
	events     []string    // marked at f0 + i minutes
	links      []linkGen   // web link generations
}

type linkGen struct {
	game gobot.GameID
	user gobot.UserID
	gen  uint64
}

var f0 = time.Date(2026, 11, 20, 9, 30, 0, 0, time.UTC)

// fixtureGame plays moves ("D4", "pass"; "dead C3", "accept", "resume",
// "undo", "resign", "timeout", "abort") on a new game and returns it
// stored-ready.
func fixtureGame(t testing.TB, rules string, w, h, handicap int, moves string) (*gobot.Match, *game.Game) {
	t.Helper()
	r, err := game.ParseRules(rules)
	if err != nil {
		t.Fatal(err)
	}
	if handicap >= 2 {
		r.Komi = r.DefaultKomi(w, h, handicap)
	}
	g, err := game.New(game.Config{Width: w, Height: h, Rules: r, Handicap: handicap})
	if err != nil {
		t.Fatal(err)
	}
	match := &gobot.Match{Room: "discord:100", Black: "discord:1", White: "discord:2", Created: f0, Updated: f0}
	at := f0
	for _, m := range strings.Fields(moves) {
		at = at.Add(time.Hour)
		c := g.ToMove()
		var err error
		switch verb, arg, _ := strings.Cut(m, ":"); verb {
		case "pass":
			err = g.Play(c, game.Pass)
		case "dead":
			p, perr := game.ParseGTP(arg, w, h)
			if perr != nil {
				t.Fatal(perr)
			}
			err = g.ToggleDead(p, true)
		case "accept-black":
			_, _, err = g.Accept(game.Black)
		case "accept-white":
			_, _, err = g.Accept(game.White)
		case "resume":
			err = g.Resume()
		case "undo":
			last, _ := g.LastMove()
			n := g.MoveCount()
			err = g.Undo()
			match.Undos = append(match.Undos, gobot.Undo{By: "discord:2", Move: n, Was: last, At: at})
			match.MoveTimes = match.MoveTimes[:len(match.MoveTimes)-1]
			continue
		case "resign":
			err = g.Resign(c)
		case "timeout":
			err = g.Timeout(c)
		case "abort":
			err = g.Abort()
		default:
			p, perr := game.ParseGTP(m, w, h)
			if perr != nil {
				t.Fatal(perr)
			}
			err = g.Play(c, p)
		}
		if err != nil {
			t.Fatalf("%s: %s: %v", rules, m, err)
		}
		if len(match.MoveTimes) < g.MoveCount() {
			match.MoveTimes = append(match.MoveTimes, at)
		}
	}
	match.Record = g.Record()
	match.Updated = at
	if res, over := g.Result(); over {
		match.Finished, match.Result = at, res.String()
	}
	return match, g
}

func buildFixture(t testing.TB) fixture {
	var f fixture
	add := func(match *gobot.Match) *gobot.Match { f.games = append(f.games, match); return match }

	// 1: japanese 19×19, per-move clock, a reminder sent, an undo asked.
	g, _ := fixtureGame(t, "japanese", 19, 19, 0, "Q16 D4 R4 undo D3 C17")
	g.Clock = gobot.TimeControl{Kind: gobot.PerMove, PerMove: 72 * time.Hour}
	g.Deadline, g.Reminded, g.UndoBy = g.Updated.Add(72*time.Hour), 1, "discord:1"
	g.Challenge = 1
	add(g)
	// 2: chinese 13×13, three free handicap stones, Fischer clock.
	g, _ = fixtureGame(t, "chinese", 13, 13, 3, "D4 K10 D10 K4 G7")
	g.Clock = gobot.TimeControl{Kind: gobot.Fischer, Main: 72 * time.Hour, Increment: 24 * time.Hour, Max: 168 * time.Hour}
	g.Left = [3]time.Duration{0, 90 * time.Hour, 100 * time.Hour}
	g.Deadline = g.Updated.Add(100 * time.Hour)
	g.Room, g.Black, g.White = "matrix:!abc:example.org", "matrix:@ann:example.org", "matrix:@bob:example.org"
	add(g)
	// 3: aga 9×9 with two fixed handicap stones.
	g, _ = fixtureGame(t, "aga", 9, 9, 2, "E5 E3 pass")
	add(g)
	// 4: new-zealand 9×9, two stones while White passes.
	g, _ = fixtureGame(t, "new-zealand", 9, 9, 2, "C3 G7 E5 D4")
	add(g)
	// 5..9: the other presets, even games with a pass in them.
	for _, r := range []string{"tromp-taylor", "simple", "complete", "bga", "korean"} {
		g, _ = fixtureGame(t, r, 9, 9, 0, "E5 pass C3 G7")
		add(g)
	}
	// 10: scoring phase, a dead stone marked, Black accepted.
	g, _ = fixtureGame(t, "japanese", 9, 9, 0, "C3 G7 C7 G3 E5 pass pass dead:E5 accept-black")
	g.Room, g.Thread, g.Parent = "discord:555", true, "discord:100"
	add(g)
	// 11: counted after both accepted (finished by score).
	g, _ = fixtureGame(t, "chinese", 9, 9, 0, "C3 G7 pass pass accept-black accept-white")
	add(g)
	// 12: resumed after a scoring phase, then resigned.
	g, _ = fixtureGame(t, "bga", 9, 9, 0, "C3 G7 pass pass resume D4 resign")
	add(g)
	// 13: lost on time; 14: aborted.
	g, _ = fixtureGame(t, "japanese", 9, 9, 0, "C3 G7 timeout")
	g.Clock = gobot.TimeControl{Kind: gobot.PerMove, PerMove: time.Hour}
	add(g)
	g, _ = fixtureGame(t, "korean", 9, 9, 0, "abort")
	add(g)
	// 15: custom rules with a komi no challenge could give, 13×9.
	g, _ = fixtureGame(t, "ko=situational,scoring=area,suicide=allowed,bonus=n-1,handicap=free", 13, 9, 0, "D4 J6 F5")
	g.Record.Config.Rules.Komi = 2.75
	add(g)
	// 16: a game from a set-up position.
	setup, err := game.ParseBoard(strings.Join([]string{
		". . . . .",
		". X O . .",
		". X O . .",
		". . . . .",
		". . . . .",
	}, "\n"))
	if err != nil {
		t.Fatal(err)
	}
	r, _ := game.Preset("tromp-taylor")
	pg, err := game.NewFromPosition(game.Config{Width: 5, Height: 5, Rules: r}, setup, game.White)
	if err != nil {
		t.Fatal(err)
	}
	if err := pg.Play(game.White, game.Pt(3, 1)); err != nil {
		t.Fatal(err)
	}
	add(&gobot.Match{Room: "console:main", Black: "console:alice", White: "console:bob", Record: pg.Record(), MoveTimes: []time.Time{f0}, Created: f0, Updated: f0})

	komi := 0.5
	cfg := f.games[0].Record.Config
	f.challenges = []*gobot.Challenge{
		{Room: "discord:100", From: "discord:1", To: "discord:2", Config: cfg, Color: "black", Clock: f.games[0].Clock, Created: f0, Status: gobot.Accepted, Game: 1, Message: "9001", Answered: f0.Add(time.Minute)},
		{Room: "discord:100", From: "discord:1", To: "discord:3", Config: cfg, Color: "random", Created: f0, Message: "9002"},
		{Room: "discord:100", From: "discord:3", Config: f.games[1].Record.Config, Color: "white", Clock: f.games[1].Clock, Created: f0},
		{Room: "matrix:!abc:example.org", From: "matrix:@ann:example.org", To: "matrix:@bob:example.org", Config: cfg, Color: "white", Created: f0, Status: gobot.Declined, Answered: f0.Add(time.Hour)},
		{Room: "console:main", From: "console:alice", Config: cfg, Color: "random", Created: f0, Status: gobot.Cancelled, Answered: f0.Add(2 * time.Hour)},
	}
	f.players = []*gobot.Player{
		{ID: "discord:1", Name: "Ann", Notify: "dm", Theme: "dark", Updated: f0},
		{ID: "discord:2", Name: "Bob", Updated: f0},
		{ID: "matrix:@ann:example.org", Name: "ann", Notify: "off", Updated: f0},
	}
	f.rooms = []*gobot.Room{
		{ID: "discord:100", Rules: "chinese", Width: 13, Height: 13, Komi: &komi, Clock: "fischer:3d+1d/7d", Threads: true, Updated: f0},
		{ID: "matrix:!abc:example.org", Rules: "japanese komi=0", Updated: f0},
	}
	f.state = [][3]string{
		{"discord", "commands:", "0f3a"},
		{"matrix", "since @gobot:example.org", "s72_1_0"},
		{"matrix", "session @gobot:example.org", `{"DeviceID":"ABC","AccessToken":"tok"}`},
		{"matrix", "dm matrix:@ann:example.org", "!dm:example.org"},
	}
	f.events = []string{"discord:1001", "matrix:$ev1", "console:s:1"}
	return f
}

// writeFixture stores f in a new database at path.
func writeFixture(t testing.TB, path string, f fixture) {
	t.Helper()
	db, err := Open(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	err = db.update(context.Background(), func(tx *Tx) error {
		for _, g := range f.games {
			if err := tx.PutMatch(g); err != nil {
				return err
			}
		}
		for _, c := range f.challenges {
			if err := tx.PutChallenge(c); err != nil {
				return err
			}
		}
		for _, p := range f.players {
			if err := tx.PutPlayer(p); err != nil {
				return err
			}
		}
		for _, r := range f.rooms {
			if err := tx.PutRoom(r); err != nil {
				return err
			}
		}
		for _, s := range f.state {
			if err := tx.PutState(s[0], s[1], []byte(s[2])); err != nil {
				return err
			}
		}
		for i, e := range f.events {
			if err := tx.MarkEvent(gobot.EventID(e), f0.Add(time.Duration(i)*time.Minute)); err != nil {
				return err
			}
		}
		for _, l := range f.links {
			if err := tx.PutLinkGeneration(l.game, l.user, l.gen); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := db.Check(); err != nil {
		t.Fatal(err)
	}
}

// TestWriteSchema2Fixture writes testdata/schema2.db (with
// -write-schema2), a database as schema-2 gobot left it. Only schema-2
// code can write it; later code keeps the file as it is.
func TestWriteSchema2Fixture(t *testing.T) {
	if !*writeSchema2 {
		t.Skip("run with -write-schema2 to rewrite testdata/schema2.db")
	}
	if SchemaVersion != 2 {
		t.Fatalf("this code writes schema %d; testdata/schema2.db must stay as schema-2 code wrote it", SchemaVersion)
	}
	path := filepath.Join("testdata", "schema2.db")
	os.Remove(path)
	writeFixture(t, path, buildFixture(t))
}

// dump lists every key and value of the file at path, bucket by bucket,
// as text.
func dump(t testing.TB, path string) string {
	t.Helper()
	b, err := bolt.Open(path, 0o600, &bolt.Options{ReadOnly: true, Timeout: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	var sb strings.Builder
	b.View(func(btx *bolt.Tx) error {
		return btx.ForEach(func(name []byte, bk *bolt.Bucket) error {
			fmt.Fprintf(&sb, "# %s (sequence %d)\n", name, bk.Sequence())
			return bk.ForEach(func(k, v []byte) error {
				if json.Valid(v) && len(v) > 0 {
					fmt.Fprintf(&sb, "%q %s\n", k, v)
				} else {
					fmt.Fprintf(&sb, "%q %q\n", k, v)
				}
				return nil
			})
		})
	})
	return sb.String()
}

// TestSchema2Text: testdata/schema2.txt is the readable content of
// testdata/schema2.db (the records as schema-2 gobot wrote them).
func TestSchema2Text(t *testing.T) {
	got := dump(t, filepath.Join("testdata", "schema2.db"))
	golden := filepath.Join("testdata", "schema2.txt")
	if *writeSchema2 {
		if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if got != string(want) {
		t.Errorf("testdata/schema2.db and schema2.txt differ:\n%s", firstDiff(got, string(want)))
	}
}

func firstDiff(got, want string) string {
	g, w := strings.Split(got, "\n"), strings.Split(want, "\n")
	for i := range max(len(g), len(w)) {
		var gl, wl string
		if i < len(g) {
			gl = g[i]
		}
		if i < len(w) {
			wl = w[i]
		}
		if gl != wl {
			return fmt.Sprintf("line %d:\n got %s\nwant %s", i+1, gl, wl)
		}
	}
	return "(same lines)"
}

// copyFixture copies testdata/name to a temp dir.
func copyFixture(t *testing.T, name string) string {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, raw, 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// openFixture opens a copy of testdata/name, upgrading it.
func openFixture(t *testing.T, name string) *DB {
	t.Helper()
	db, err := Open(copyFixture(t, name), Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := db.Check(); err != nil {
			t.Errorf("check: %v", err)
		}
		db.Close()
	})
	return db
}

// TestSchema2FixtureOpens: a database schema-2 gobot wrote opens with
// this code, every record reads back as it was written, and every game
// plays on.
func TestSchema2FixtureOpens(t *testing.T) {
	db := openFixture(t, "schema2.db")
	f := buildFixture(t)
	ctx := context.Background()
	err := db.View(ctx, func(tx gobot.Tx) error {
		for i, want := range f.games {
			want.ID, want.Version = gobot.GameID(i+1), 1
			got, err := tx.Match(want.ID)
			if err != nil {
				return err
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("game #%d:\n got %+v\nwant %+v", want.ID, got, want)
			}
		}
		for i, want := range f.challenges {
			want.ID = gobot.ChallengeID(i + 1)
			got, err := tx.Challenge(want.ID)
			if err != nil {
				return err
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("challenge #%d:\n got %+v\nwant %+v", want.ID, got, want)
			}
		}
		for _, want := range f.players {
			got, err := tx.Player(want.ID)
			if err != nil {
				return err
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("player %s:\n got %+v\nwant %+v", want.ID, got, want)
			}
		}
		for _, want := range f.rooms {
			got, err := tx.Room(want.ID)
			if err != nil {
				return err
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("room %s:\n got %+v\nwant %+v", want.ID, got, want)
			}
		}
		for _, s := range f.state {
			if v, err := tx.State(s[0], s[1]); err != nil || string(v) != s[2] {
				t.Errorf("state %s/%s: %q, %v; want %q", s[0], s[1], v, err, s[2])
			}
		}
		active, err := tx.ActiveGames("discord:1")
		if err != nil {
			return err
		}
		if len(active) != 10 {
			t.Errorf("discord:1 has %d active games after the upgrade, want 10", len(active))
		}
		due, err := tx.DueGames(f0.Add(1000*time.Hour), 0)
		if err != nil || len(due) != 2 || due[0].ID != 1 || due[1].ID != 2 {
			t.Errorf("due games after the upgrade: %v, %v; want #1, #2", due, err)
		}
		pending, err := tx.RoomChallenges("discord:100")
		if err != nil || len(pending) != 2 {
			t.Errorf("pending challenges in discord:100: %d, %v; want 2", len(pending), err)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range f.events {
		err := db.Update(ctx, func(tx gobot.Tx) error { return tx.MarkEvent(gobot.EventID(e), f0.Add(time.Hour)) })
		if !errors.Is(err, gobot.ErrDuplicate) {
			t.Errorf("event %s after the upgrade: %v, want ErrDuplicate", e, err)
		}
	}
	playOn(t, db, len(f.games))
}

// playOn checks that games #1..#n replay, and that every game in play
// takes one more legal move (or, being scored, an acceptance) and reads
// back with it.
func playOn(t *testing.T, db *DB, n int) {
	t.Helper()
	ctx := context.Background()
	for i := range n {
		id := gobot.GameID(i + 1)
		var want int
		var version uint64
		err := db.Update(ctx, func(tx gobot.Tx) error {
			match, err := tx.Match(id)
			if err != nil {
				return err
			}
			g, err := game.Replay(match.Record)
			if err != nil {
				return fmt.Errorf("game #%d does not replay: %w", id, err)
			}
			switch g.Phase() {
			case game.Over:
				want = -1
				return nil
			case game.Scoring:
				c := game.White
				if g.Accepted(c) {
					c = game.Black
				}
				if _, _, err := g.Accept(c); err != nil {
					return err
				}
			default:
				if err := playAnyMove(g); err != nil {
					return fmt.Errorf("game #%d: %w", id, err)
				}
			}
			want = g.MoveCount()
			match.Record = g.Record()
			version = match.Version + 1
			return tx.PutMatch(match)
		})
		if err != nil {
			t.Fatal(err)
		}
		if want < 0 {
			continue
		}
		db.View(ctx, func(tx gobot.Tx) error {
			match, err := tx.Match(id)
			if err != nil {
				t.Fatal(err)
			}
			g, err := game.Replay(match.Record)
			if err != nil || g.MoveCount() != want || match.Version != version {
				t.Errorf("game #%d after playing on: %v, %d moves (want %d), version %d (want %d)", id, err, g.MoveCount(), want, match.Version, version)
			}
			return nil
		})
	}
}

// TestOldBinaryDatabaseOpens: a database the schema-2 release made by
// playing testdata/old-binary.script in its console opens, and every
// game in it plays on.
func TestOldBinaryDatabaseOpens(t *testing.T) {
	db := openFixture(t, "old-binary.db")
	var games, finished, chals int
	db.View(context.Background(), func(tx gobot.Tx) error {
		for id := gobot.GameID(1); ; id++ {
			g, err := tx.Match(id)
			if errors.Is(err, gobot.ErrNotFound) {
				break
			}
			if err != nil {
				t.Fatal(err)
			}
			games++
			if !g.Active() {
				finished++
			}
		}
		for id := gobot.ChallengeID(1); ; id++ {
			if _, err := tx.Challenge(id); errors.Is(err, gobot.ErrNotFound) {
				break
			} else if err != nil {
				t.Fatal(err)
			}
			chals++
		}
		if p, err := tx.Player("console:alice"); err != nil || p.Notify != "dm" || p.Theme != "dark" {
			t.Errorf("alice: %+v, %v", p, err)
		}
		// Written before links could be reset: every link is of
		// generation 0, as it was minted.
		if gen, err := tx.LinkGeneration(1, "console:alice"); gen != 0 || err != nil {
			t.Errorf("alice's link generation in game #1: %d, %v; want 0", gen, err)
		}
		// Written before linked accounts: every account is a player of
		// its own, with no codes.
		if p, err := gobot.AccountsOf(tx, "console:alice"); len(p) != 1 || err != nil {
			t.Errorf("alice's accounts: %v, %v; want herself", p, err)
		}
		if cs, err := tx.LinkCodesOf("console:alice"); len(cs) != 0 || err != nil {
			t.Errorf("alice's link codes: %v, %v; want none", cs, err)
		}
		return nil
	})
	if games != 9 || finished != 3 || chals != 13 {
		t.Errorf("%d games (%d finished), %d challenges; want 9 (3), 13", games, finished, chals)
	}
	playOn(t, db, games)
}

// playAnyMove plays the first legal point for the player to move.
func playAnyMove(g *game.Game) error {
	w, h := g.Config().Width, g.Config().Height
	for y := range h {
		for x := range w {
			if g.Play(g.ToMove(), game.Pt(x, y)) == nil {
				return nil
			}
		}
	}
	return fmt.Errorf("no legal move")
}

var update = flag.Bool("update", false, "rewrite testdata/records.golden")

// TestRecordFormat pins what this code writes: the fixture's records and
// index entries, as text, in testdata/records.golden (-update rewrites
// it). A difference means the on-disk format changed: bump
// SchemaVersion, add a migration and keep the old fixtures opening.
func TestRecordFormat(t *testing.T) {
	path := filepath.Join(t.TempDir(), "format.db")
	writeFixture(t, path, buildFixture(t))
	writeFixture(t, path, newerFixture(t))
	got := dump(t, path)
	golden := filepath.Join("testdata", "records.golden")
	if *update {
		if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if got != string(want) {
		t.Errorf("the record format changed (go test -run TestRecordFormat -update if that is meant, with a migration):\n%s", firstDiff(got, string(want)))
	}
}

// TestOldSchemasMigrateToToday: upgrading testdata/schema2.db and
// testdata/schema3.db (the fixture as the schema-3 release wrote it),
// then writing the records of newer features (newerFixture), gives, byte
// for byte, the file this code writes for the same records.
func TestOldSchemasMigrateToToday(t *testing.T) {
	for _, name := range []string{"schema2.db", "schema3.db"} {
		t.Run(name, func(t *testing.T) {
			path := copyFixture(t, name)
			db, err := Open(path, Options{})
			if err != nil {
				t.Fatal(err)
			}
			if err := db.Close(); err != nil {
				t.Fatal(err)
			}
			writeFixture(t, path, newerFixture(t))
			want, err := os.ReadFile(filepath.Join("testdata", "records.golden"))
			if err != nil {
				t.Fatal(err)
			}
			if got := dump(t, path); got != string(want) {
				t.Errorf("%s upgraded differs from records.golden:\n%s", name, firstDiff(got, string(want)))
			}
		})
	}
}

// goldenRecords returns the JSON records of bucket in records.golden.
func goldenRecords(t testing.TB, bucket string) [][]byte {
	raw, err := os.ReadFile(filepath.Join("testdata", "records.golden"))
	if err != nil {
		t.Fatal(err)
	}
	var out [][]byte
	in := false
	for _, l := range strings.Split(string(raw), "\n") {
		if strings.HasPrefix(l, "# ") {
			in = strings.HasPrefix(l, "# "+bucket+" ")
			continue
		}
		if _, rec, ok := strings.Cut(l, " {"); in && ok {
			out = append(out, []byte("{"+rec))
		}
	}
	return out
}

// FuzzDecodeGame: whatever bytes a game record holds, decoding fails
// cleanly or gives a game that encodes and decodes to itself.
func FuzzDecodeGame(f *testing.F) {
	for _, rec := range goldenRecords(f, "games") {
		f.Add(rec)
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		g, err := record.DecodeMatch(raw)
		if err != nil {
			return
		}
		again, err := record.EncodeMatch(g)
		if err != nil {
			t.Fatalf("decoded %s but cannot encode it: %v", raw, err)
		}
		g2, err := record.DecodeMatch(again)
		if err != nil || !reflect.DeepEqual(g, g2) {
			t.Fatalf("round trip of %s:\n%s\n%+v\n%+v (%v)", raw, again, g, g2, err)
		}
	})
}

// FuzzDecodeChallenge is FuzzDecodeGame for challenges.
func FuzzDecodeChallenge(f *testing.F) {
	for _, rec := range goldenRecords(f, "challenges") {
		f.Add(rec)
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		c, err := record.DecodeChallenge(raw)
		if err != nil {
			return
		}
		again, err := record.EncodeChallenge(c)
		if err != nil {
			t.Fatalf("decoded %s but cannot encode it: %v", raw, err)
		}
		c2, err := record.DecodeChallenge(again)
		if err != nil || !reflect.DeepEqual(c, c2) {
			t.Fatalf("round trip of %s:\n%+v\n%+v (%v)", raw, c, c2, err)
		}
	})
}

func TestDecodeRejectsUnknownWords(t *testing.T) {
	recs := goldenRecords(t, "games")
	if len(recs) < 10 {
		t.Fatalf("%d game records in records.golden", len(recs))
	}
	for _, c := range []struct{ from, to string }{
		{`"ko":"simple"`, `"ko":"super"`},
		{`"scoring":"territory"`, `"scoring":"stones"`},
		{`"kind":"per-move"`, `"kind":"hourglass"`},
		{`"v":4`, `"v":2`},
		{`"v":4`, `"v":5`},
		{`"moves":"B[pd]`, `"moves":"X[pd]`},
		{`"moves":"B[pd]`, `"moves":"B[p]`},
	} {
		raw := strings.Replace(string(recs[0]), c.from, c.to, 1)
		if raw == string(recs[0]) {
			t.Fatalf("game #1 has no %s", c.from)
		}
		if _, err := record.DecodeMatch([]byte(raw)); err == nil {
			t.Errorf("with %s: decoded", c.to)
		}
	}
}

// TestSchema3RecordsRead: a schema-3 record (schema 4 only added
// optional fields) decodes as the same record with "v":4.
func TestSchema3RecordsRead(t *testing.T) {
	for _, raw := range goldenRecords(t, "games") {
		old := strings.Replace(string(raw), `"v":4`, `"v":3`, 1)
		if old == string(raw) {
			t.Fatalf("%s has no \"v\":4", raw)
		}
		want, err := record.DecodeMatch(raw)
		if err != nil {
			t.Fatal(err)
		}
		got, err := record.DecodeMatch([]byte(old))
		if err != nil || !reflect.DeepEqual(got, want) {
			t.Errorf("schema 3 %s:\n%+v\n%+v (%v)", old, got, want, err)
		}
	}
}
