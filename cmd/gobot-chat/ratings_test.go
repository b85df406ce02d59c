package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gobotgo/gobot/game"
	"github.com/gobotgo/gobot/rating"
)

// playConsole runs lines through `gobot -db db` and returns what it printed.
func playConsole(t *testing.T, db string, lines ...string) string {
	t.Helper()
	var out, errb bytes.Buffer
	if code := run([]string{"-db", db}, strings.NewReader(strings.Join(lines, "\n")+"\n"), &out, &errb); code != 0 {
		t.Fatalf("console: exit %d: %s", code, errb.String())
	}
	return out.String()
}

// readRatings runs `gobot ratings -db db --json`.
func readRatings(t *testing.T, args ...string) map[string]ratingLine {
	t.Helper()
	var out, errb bytes.Buffer
	if code := run(append([]string{"ratings"}, args...), nil, &out, &errb); code != 0 {
		t.Fatalf("gobot ratings: exit %d: %s", code, errb.String())
	}
	got := map[string]ratingLine{}
	sc := bufio.NewScanner(&out)
	for sc.Scan() {
		var l ratingLine
		if err := json.Unmarshal(sc.Bytes(), &l); err != nil {
			t.Fatalf("not a JSON line: %q: %v", sc.Text(), err)
		}
		got[string(l.User)] = l
	}
	return got
}

// The end-to-end test: players play rated games in the terminal;
// `rating` and `gobot ratings --json` agree with Glicko-2 computed here,
// game by game; unrated and non-standard games change nothing; a stated
// rank works before the first rated game and is refused after;
// handicap=auto picks the suggested handicap.
func TestRatingsEndToEnd(t *testing.T) {
	db := filepath.Join(t.TempDir(), "gobot.db")
	alice, bob := rating.New(), rating.New()
	game1 := func(a, b rating.Player, s float64) (rating.Player, rating.Player) {
		t.Helper()
		a1, b1, err := rating.Game(a, b, s)
		if err != nil {
			t.Fatal(err)
		}
		return a1, b1
	}

	out := playConsole(t, db,
		// #1: alice (Black) wins by resignation.
		"challenge @bob 9 black japanese", "/as bob", "accept", "resign",
		// #2: bob (Black) wins by resignation.
		"/as alice", "challenge @bob 9 white japanese", "/as bob", "accept", "/as alice", "resign",
		// #3: scored: two passes on an empty board, White wins by komi.
		"challenge @bob 9 black japanese", "/as bob", "accept", "/as alice", "pass", "/as bob", "pass",
		"/as alice", "done", "/as bob", "done",
		// #4 unrated, #5 on 7x7: no change.
		"/as alice", "challenge @bob 9 black japanese unrated", "/as bob", "accept", "resign",
		"/as alice", "challenge @bob 7 black", "/as bob", "accept", "resign",
		"/as alice", "challenge @bob 7 rated",
		"settings rank=5k",
	)
	alice, bob = game1(alice, bob, 1)
	bob, alice = game1(bob, alice, 1)
	alice, bob = game1(alice, bob, 0)
	for _, want := range []string{
		"Game over: White wins by 6.5 points",
		"Only 9x9, 13x13 and 19x19 games are rated; this one is 7x7",
		"You have played 3 rated games here",
		"Unrated. Ranks: @alice",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("console output lacks %q", want)
		}
	}
	got := readRatings(t, "-db", db, "--json")
	check := func(user string, p rating.Player, games, wins, losses int) {
		t.Helper()
		l, ok := got["console:"+user]
		if !ok {
			t.Fatalf("no rating for %s in %v", user, got)
		}
		if l.Community != "console" || math.Abs(l.Rating-p.Rating) > 1e-9 || math.Abs(l.RD-p.RD) > 1e-9 || math.Abs(l.Volatility-p.Volatility) > 1e-12 ||
			l.Rank != p.RankLabel() || l.Games != games || l.Wins != wins || l.Losses != losses {
			t.Errorf("%s: gobot ratings says %+v, want %+v (%s) %d games %d-%d", user, l, p, p.RankLabel(), games, wins, losses)
		}
	}
	check("alice", alice, 3, 1, 2)
	check("bob", bob, 3, 2, 1)
	if len(got) != 2 {
		t.Errorf("ratings for %d players, want 2: %v", len(got), got)
	}

	// carol states 1d (twice: a correction before any game is fine) and
	// challenges alice with handicap=auto; alice resigns.
	carol, err := rating.Start(1)
	if err != nil {
		t.Fatal(err)
	}
	h := rating.Suggest(carol.Rating, alice.Rating)
	if h.Black != rating.PlayerB || h.Stones < 2 {
		t.Fatalf("the test wants a handicap game with alice taking Black, Suggest gives %+v", h)
	}
	aliceBefore := alice.RankLabel()
	apart := math.Abs(rating.Grade(carol.Rating) - rating.Grade(alice.Rating))
	rules, _ := game.Preset("japanese")
	grades := float64(rating.HandicapGrades(h.Stones, h.Komi(rules, 19, 19)))
	out = playConsole(t, db,
		"/as carol", "settings rank=2d", "settings rank=1d", "challenge @alice 19 japanese handicap=auto",
		"/as alice", "accept", "resign", "rating", "rating @carol", "top",
		"/as carol", "settings rank=3k",
	)
	alice, carol, err = rating.HandicapGame(alice, carol, grades, 0)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		fmt.Sprintf(" ranks apart (the ratings differ by %.2f ranks, rounded): %d stones, White's komi 0.5; @alice takes Black.", apart, h.Stones),
		fmt.Sprintf("Ranks: @carol 1d?, @alice %s.", aliceBefore),
		fmt.Sprintf("handicap %d", h.Stones),
		fmt.Sprintf("@alice: %.0f ± %.0f (%s)\n4 rated games: 1 win, 3 losses.", alice.Rating, 2*alice.RD, alice.RankLabel()),
		fmt.Sprintf("@carol: %.0f ± %.0f (%s)\n1 rated game: 1 win, 0 losses.", carol.Rating, 2*carol.RD, carol.RankLabel()),
		"lost against @carol in #6",
		"won against @alice in #6",
		"You have played 1 rated game here",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("console output lacks %q:\n%s", want, out)
		}
	}
	got = readRatings(t, "-db", db, "--json", "--community", "console")
	check("alice", alice, 4, 1, 3)
	check("bob", bob, 3, 2, 1)
	check("carol", carol, 1, 1, 0)
	if got := readRatings(t, "-db", db, "--json", "--community", "discord:guild:1"); len(got) != 0 {
		t.Errorf("another community has ratings: %v", got)
	}
	// The table lists the same players.
	var table, errb bytes.Buffer
	if code := run([]string{"ratings", "-db", db}, nil, &table, &errb); code != 0 {
		t.Fatal(errb.String())
	}
	for _, want := range []string{"console:alice", "console:carol", fmt.Sprintf("%.1f", carol.Rating)} {
		if !strings.Contains(table.String(), want) {
			t.Errorf("table lacks %q:\n%s", want, table.String())
		}
	}
}

func TestRatingsUsage(t *testing.T) {
	var out, errb bytes.Buffer
	if code := run([]string{"ratings", "-db", filepath.Join(t.TempDir(), "none.db")}, nil, &out, &errb); code != 1 || !strings.Contains(errb.String(), "no database at") {
		t.Errorf("missing database: exit %d, %q", code, errb.String())
	}
	if code := run([]string{"ratings", "extra"}, nil, &out, &errb); code != 2 {
		t.Errorf("extra argument: exit %d", code)
	}
}
