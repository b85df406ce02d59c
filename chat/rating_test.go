package chat

import (
	"context"
	"errors"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/gobotgo/gobot"
	"github.com/gobotgo/gobot/chat/protocol"
	"github.com/gobotgo/gobot/game"
	"github.com/gobotgo/gobot/rating"
)

// ratingOf reads user's record in community c (nil if none).
func (h *harness) ratingOf(c gobot.CommunityID, user string) *gobot.PlayerRating {
	h.t.Helper()
	var rec *gobot.PlayerRating
	err := h.db.View(context.Background(), func(tx gobot.Tx) error {
		var err error
		rec, err = tx.Rating(c, gobot.UserID("test:"+user))
		if errors.Is(err, gobot.ErrNotFound) {
			return nil
		}
		return err
	})
	if err != nil {
		h.t.Fatal(err)
	}
	return rec
}

func samePlayer(t *testing.T, who string, rec *gobot.PlayerRating, want rating.Player) {
	t.Helper()
	if rec == nil {
		t.Fatalf("%s has no rating", who)
	}
	if math.Abs(rec.Rating-want.Rating) > 1e-9 || math.Abs(rec.RD-want.RD) > 1e-9 || math.Abs(rec.Volatility-want.Volatility) > 1e-12 {
		t.Fatalf("%s: stored %+v, want %+v", who, rec.Player(), want)
	}
}

// A game lost on time is rated, in the transaction the clock ends it in.
func TestRatedTimeout(t *testing.T) {
	h := newHarness(t)
	h.start("clock=1d")
	h.ok("alice", "play D4")
	h.ok("bob", "play E5")
	h.clock.Advance(25 * time.Hour)
	if err := h.bot.Tick(context.Background()); err != nil {
		t.Fatal(err)
	}
	match, _ := h.game(1)
	if match.Result != "W+T" || match.Rating == nil || !match.Rating.Done {
		t.Fatalf("game after the deadline: %s %+v", match.Result, match.Rating)
	}
	a, b, err := rating.Game(rating.New(), rating.New(), 0)
	if err != nil {
		t.Fatal(err)
	}
	samePlayer(t, "alice", h.ratingOf("test:main", "alice"), a)
	samePlayer(t, "bob", h.ratingOf("test:main", "bob"), b)
	if rec := h.ratingOf("test:main", "alice"); rec.Losses != 1 || rec.Games != 1 || len(rec.Last) != 1 || rec.Last[0].Opponent != "test:bob" || rec.Last[0].Game != 1 {
		t.Fatalf("alice's record: %+v", rec)
	}
	if rep := h.ok("carol", "board #1"); !strings.Contains(rep.Text, "Ratings: <@test:alice> −") {
		t.Fatalf("the finished game does not show the rating changes: %s", rep.Text)
	}
}

// A game lost on time before both players moved is not rated, and the
// game's message says why.
func TestTimeoutBeforeBothMovedUnrated(t *testing.T) {
	h := newHarness(t)
	h.start("clock=1d")
	h.ok("alice", "play D4")
	h.clock.Advance(25 * time.Hour) // bob never moves
	if err := h.bot.Tick(context.Background()); err != nil {
		t.Fatal(err)
	}
	match, _ := h.game(1)
	if match.Result != "B+T" || match.Rating == nil || match.Rating.Done {
		t.Fatalf("game after the deadline: %s %+v", match.Result, match.Rating)
	}
	if rec := h.ratingOf("test:main", "bob"); rec != nil && rec.Games != 0 {
		t.Fatalf("bob's record: %+v", rec)
	}
	if rep := h.ok("carol", "board #1"); !strings.Contains(rep.Text, "Not rated: the time ran out before both players had moved.") {
		t.Fatalf("no word why it is unrated: %s", rep.Text)
	}
}

// An aborted game and a game ended by a cycle are not rated; neither is
// an unrated one.
func TestUnratedEnds(t *testing.T) {
	h := newHarness(t)
	h.start("")
	abort := protocol.Request{User: protocol.User{ID: "test:carol", Name: "carol"}, Room: "test:main", Admin: true, Command: "abort", Args: []string{"#1"}}
	if rep := h.bot.Handle(context.Background(), abort); rep.Error {
		t.Fatal(rep.Text)
	}
	h.ok("alice", "challenge @bob unrated")
	h.ok("bob", "accept")
	h.ok("bob", "resign")
	for _, u := range []string{"alice", "bob"} {
		if rec := h.ratingOf("test:main", u); rec != nil {
			t.Fatalf("%s was rated: %+v", u, rec)
		}
	}
	if rep := h.ok("alice", "top"); !strings.Contains(rep.Text, "Nobody has played a rated game here yet") {
		t.Fatalf("top: %s", rep.Text)
	}
}

// Ratings are kept per community: the same players in two communities
// have two records.
func TestRatingsPerCommunity(t *testing.T) {
	h := newHarness(t)
	ctx := context.Background()
	do := func(user, community, line string) protocol.Reply {
		t.Helper()
		f := strings.Fields(line)
		rep := h.bot.Handle(ctx, protocol.Request{User: protocol.User{ID: gobot.UserID("test:" + user), Name: user}, Room: "test:" + gobot.RoomID(community), Community: gobot.CommunityID(community), Command: f[0], Args: f[1:]})
		if rep.Error {
			t.Fatalf("%s: %s", line, rep.Text)
		}
		return rep
	}
	do("alice", "guild1", "challenge @bob black")
	do("bob", "guild1", "accept")
	do("bob", "guild1", "resign")
	do("alice", "guild2", "challenge @bob black")
	do("bob", "guild2", "accept")
	do("alice", "guild2", "resign")
	a, b, _ := rating.Game(rating.New(), rating.New(), 1)
	samePlayer(t, "alice in guild1", h.ratingOf("guild1", "alice"), a)
	samePlayer(t, "bob in guild2", h.ratingOf("guild2", "bob"), a)
	samePlayer(t, "alice in guild2", h.ratingOf("guild2", "alice"), b)
	if h.ratingOf("test:main", "alice") != nil {
		t.Fatal("a rating in the room's community")
	}
	if rep := do("carol", "guild1", "rating @alice"); !strings.Contains(rep.Text, "1 rated game: 1 win, 0 losses.") {
		t.Fatalf("rating in guild1: %s", rep.Text)
	}
	if rep := do("carol", "guild2", "rating @alice"); !strings.Contains(rep.Text, "1 rated game: 0 wins, 1 loss.") {
		t.Fatalf("rating in guild2: %s", rep.Text)
	}
}

// Only the last five results are kept, newest first; a draw by score
// counts as a game but neither a win nor a loss.
func TestLastResultsBounded(t *testing.T) {
	h := newHarness(t)
	for i := 1; i <= 7; i++ {
		h.ok("alice", "challenge @bob black komi=0 rated")
		h.ok("bob", "accept")
		if i == 7 {
			h.ok("alice", "pass")
			h.ok("bob", "pass")
			h.ok("alice", "done")
			h.ok("bob", "done")
			continue
		}
		h.ok("bob", "resign")
	}
	rec := h.ratingOf("test:main", "alice")
	if rec.Games != 7 || rec.Wins != 6 || rec.Losses != 0 || len(rec.Last) != gobot.MaxLastResults || rec.Last[0].Game != 7 || rec.Last[0].Score != 0.5 || rec.Last[4].Game != 3 {
		t.Fatalf("alice after 7 games: %+v", rec)
	}
	match, _ := h.game(7)
	if match.Result != "0" || match.Rating.Grades != 3 {
		t.Fatalf("game 7: %s, rated with %g grades (komi 0 on 9x9 is half a move, 3 grades)", match.Result, match.Rating.Grades)
	}
}

// Issue 24: handicap=auto on 9x9 between players 3.6 grades apart gave 4
// stones, a crushing handicap there. A stone is worth 6 grades on 9x9:
// 3.6 grades, 4 rounded (issue 35), are 0.67 of a free move, so 2 stones
// with komi 10.5 (13 points a move, 8.7 of them wanted); the game is
// rated with what that is worth on 9x9.
func TestHandicapAutoSmallBoard(t *testing.T) {
	h := newHarness(t)
	ann, bob := rating.Player{Rating: 1700, RD: 80, Volatility: 0.06}, rating.Player{Rating: 1700, RD: 80, Volatility: 0.06}
	bob.Rating = rating.RatingAtGrade(rating.Grade(ann.Rating) - 3.6)
	for u, p := range map[gobot.UserID]rating.Player{"test:alice": ann, "test:bob": bob} {
		rec := gobot.NewPlayerRating("test:main", u)
		rec.Rating, rec.RD, rec.Volatility, rec.Games = p.Rating, p.RD, p.Volatility, 10
		if err := h.db.Update(context.Background(), func(tx gobot.Tx) error { return tx.PutRating(rec) }); err != nil {
			t.Fatal(err)
		}
	}
	rep := h.ok("alice", "challenge @bob 9 handicap=auto")
	if !strings.Contains(rep.Text, "handicap=auto: 4 ranks apart (the ratings differ by 3.60 ranks, rounded); on 9x9 a handicap stone is worth about 6 ranks, so 2 stones, White's komi 10.5; <@test:bob> takes Black.") {
		t.Fatalf("3.6 grades apart on 9x9: %s", rep.Text)
	}
	h.ok("bob", "accept")
	if _, g := h.game(1); g.Config().Handicap != 2 || g.Config().Rules.Komi != 10.5 {
		t.Fatalf("the game: %d stones, komi %v", g.Config().Handicap, g.Config().Rules.Komi)
	}
	h.ok("alice", "resign")
	worth := (6.5 - 10.5 + 13) * 6 / 13 // 4.15 grades
	b1, w1, err := rating.HandicapGame(bob, ann, worth, 1)
	if err != nil {
		t.Fatal(err)
	}
	samePlayer(t, "bob", h.ratingOf("test:main", "bob"), b1)
	samePlayer(t, "alice", h.ratingOf("test:main", "alice"), w1)
	if match, _ := h.game(1); math.Abs(match.Rating.Grades-worth) > 1e-9 {
		t.Fatalf("rated with %g grades, want %g", match.Rating.Grades, worth)
	}
	// 13x13: a stone is 3 grades (after that game they are 3.15 apart).
	rep = h.ok("alice", "challenge @bob 13 handicap=auto")
	if !strings.Contains(rep.Text, "handicap=auto: 3 ranks apart (the ratings differ by 3.15 ranks, rounded); on 13x13 a handicap stone is worth about 3 ranks, so 2 stones, White's komi 6.5") {
		t.Fatalf("on 13x13: %s", rep.Text)
	}
}

func TestRatingMistakes(t *testing.T) {
	h := newHarness(t)
	h.fails("alice", "challenge handicap=auto", "handicap=auto needs to know both players")
	h.fails("alice", "challenge @bob handicap=auto komi=3", "handicap=auto chooses the handicap and the komi itself")
	h.fails("alice", "challenge @bob 13x9 rated", "Only 9x9, 13x13 and 19x19 games are rated; this one is 13x9")
	h.fails("alice", "challenge @bob rated=maybe", "rated=maybe: write rated or unrated")
	h.fails("alice", "settings rank=35k", "rank=35k: ratings go from 30k to 9d")
	h.fails("alice", "settings rank=strong", "rank=strong: write a grade like 5k, 10 kyu, 2d or 3 dan")
	h.fails("alice", "settings rank=10 kyu kyu", `Write settings as key=value, like notify=dm or theme=dark (I got "kyu")`)
	h.fails("alice", "settings rnak=5k", `There is no setting "rnak"; did you mean rank=?`)
	rep := h.fails("alice", "settings rank="+strings.Repeat("x", 500), "write a grade")
	if len(rep.Text) > 200 {
		t.Fatalf("the input is not clipped: %d bytes", len(rep.Text))
	}
	h.fails("alice", "rating bob", "rating takes a player like @bob")
	h.fails("alice", "top 10", "top takes no arguments")
	if rec := h.ratingOf("test:main", "alice"); rec != nil {
		t.Fatalf("a mistake stored a rating: %+v", rec)
	}
	rep = h.ok("alice", "rating @bob")
	if !strings.Contains(rep.Text, "<@test:bob>: 1500 ± 700 (6k?): no rated games here yet") {
		t.Fatalf("a newcomer's rating: %s", rep.Text)
	}
}

// handicap=auto between close players is an even game with the colours
// as asked, and still rated; between distant ones it gives the weaker
// player Black with the suggested stones, and refuses a contrary colour.
func TestHandicapAuto(t *testing.T) {
	h := newHarness(t)
	h.ok("alice", "settings rank=2k")
	h.ok("bob", "settings rank=2k")
	h.ok("dave", "settings rank=1k")
	rep := h.ok("alice", "challenge @bob handicap=auto black")
	if !strings.Contains(rep.Text, "Rated. Ranks: <@test:alice> 2k?, <@test:bob> 2k?. handicap=auto: under half a rank apart (the ratings differ by 0.00 ranks): an even game, White's komi 6.5.") || !strings.Contains(rep.Text, "taking Black") {
		t.Fatalf("equal players: %s", rep.Text)
	}
	h.ok("alice", "cancel")
	rep = h.ok("alice", "challenge @dave 19 handicap=auto")
	if !strings.Contains(rep.Text, "handicap=auto: 1 rank apart (the ratings differ by 1.00 ranks, rounded): no stones, White's komi 0.5; <@test:alice> takes Black.") || !strings.Contains(rep.Text, "komi 0.5") {
		t.Fatalf("one grade apart: %s", rep.Text)
	}
	h.ok("alice", "cancel")
	// On 9x9 a stone is worth 6 grades: one grade is 2 points of komi.
	rep = h.ok("alice", "challenge @dave 9 handicap=auto")
	if !strings.Contains(rep.Text, "handicap=auto: 1 rank apart (the ratings differ by 1.00 ranks, rounded); on 9x9 a handicap stone is worth about 6 ranks, so no stones, White's komi 4.5; <@test:alice> takes Black.") || !strings.Contains(rep.Text, "komi 4.5") {
		t.Fatalf("one grade apart on 9x9: %s", rep.Text)
	}
	h.ok("alice", "cancel")
	h.ok("carol", "settings rank=5k")
	h.fails("alice", "challenge @carol 19 handicap=auto black", "you would play White")
	rep = h.ok("alice", "challenge @carol 19 handicap=auto")
	if !strings.Contains(rep.Text, "handicap=auto: 3 ranks apart (the ratings differ by 3.00 ranks, rounded): 3 stones, White's komi 0.5; <@test:carol> takes Black.") || !strings.Contains(rep.Text, "handicap 3") {
		t.Fatalf("2k against 5k: %s", rep.Text)
	}
	rep = h.ok("carol", "accept")
	if !strings.Contains(rep.Text, "<@test:carol> (Black, 5k?) against <@test:alice> (White, 2k?)") || !strings.Contains(rep.Text, "rated") {
		t.Fatalf("the game's header: %s", rep.Text)
	}
	h.ok("alice", "resign #4")
	c0, _ := rating.Start(-4)
	a0, _ := rating.Start(-1)
	c1, a1, err := rating.HandicapGame(c0, a0, 3, 1)
	if err != nil {
		t.Fatal(err)
	}
	samePlayer(t, "carol", h.ratingOf("test:main", "carol"), c1)
	samePlayer(t, "alice", h.ratingOf("test:main", "alice"), a1)
	if match, _ := h.game(4); match.Rating.Grades != 3 {
		t.Fatalf("3 stones on 19x19 rated as %g grades", match.Rating.Grades)
	}
	rep = h.ok("carol", "sgf #4")
	if !strings.Contains(string(rep.File.Data), "BR[5k?]") || !strings.Contains(string(rep.File.Data), "WR[2k?]") {
		t.Fatalf("SGF without ranks: %s", rep.File.Data)
	}
}

// Under white-passes placement White's passes while Black places the
// stones are not White's moves: White losing on time right after is
// not rated.
func TestTimeoutAfterPlacementUnrated(t *testing.T) {
	h := newHarness(t)
	h.ok("alice", "challenge @bob 9 nz handicap=2 black clock=1d rated")
	h.ok("bob", "accept")
	h.ok("alice", "play C3")
	h.ok("alice", "play G7")
	if _, g := h.game(1); g.HandicapLeft() != 0 || g.ToMove() != game.White {
		t.Fatalf("placement not over: %d left, %v to move", g.HandicapLeft(), g.ToMove())
	}
	h.clock.Advance(25 * time.Hour)
	if err := h.bot.Tick(context.Background()); err != nil {
		t.Fatal(err)
	}
	if match, _ := h.game(1); match.Result != "B+T" || match.Rating == nil || !match.Rating.Rated || match.Rating.Done {
		t.Fatalf("after White's timeout: %s %+v", match.Result, match.Rating)
	}
}

// Issue 24, item 8: ranks are written as players say them: "10 kyu",
// "3 dan", "10k", "3d", "10kyu".
func TestRankInWords(t *testing.T) {
	for line, want := range map[string]string{
		"settings rank=10 kyu": "10k", "settings rank=3 dan": "3d", "settings rank=10k": "10k", "settings rank=3d": "3d",
		"settings rank=10kyu": "10k", "settings rank=2 K": "2k", "settings rank=1 D": "1d", "settings theme=dark rank=4 kyu notify=dm": "4k",
	} {
		h := newHarness(t)
		rep := h.ok("alice", line)
		if !strings.Contains(rep.Text, "rank="+want+"?") {
			t.Errorf("%s: want rank %s in\n%s", line, want, rep.Text)
		}
		if rec := h.ratingOf("test:main", "alice"); rec == nil || !rec.Stated {
			t.Errorf("%s: no stated rating: %+v", line, rec)
		}
	}
}
