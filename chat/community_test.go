package chat

import (
	"bytes"
	"context"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/gobotgo/gobot"
	"github.com/gobotgo/gobot/chat/protocol"
	"github.com/gobotgo/gobot/flow/ratings"
)

// In a joined community, a Discord server and a Matrix room.
const (
	goClub      = gobot.CommunityID("community:go-club")
	clubGuild   = gobot.CommunityID("discord:guild:1")
	clubChannel = gobot.RoomID("discord:5678")
	clubMatrix  = gobot.RoomID("matrix:!go:example.org")
)

func clubCommunities(t testing.TB) gobot.Communities {
	cs, err := gobot.NewCommunities([]gobot.Community{{Name: "Go Club", Members: []gobot.CommunityID{clubGuild, gobot.CommunityID(clubMatrix)},
		Rooms: map[string]gobot.RoomID{"discord": clubChannel, "matrix": clubMatrix}}})
	if err != nil {
		t.Fatal(err)
	}
	return cs
}

// in sends line as user id in room, with the community its adapter
// gives (Discord: the server; Matrix: none, the room is).
func (h *harness) in(id gobot.UserID, room gobot.RoomID, community gobot.CommunityID, dm bool, line string) protocol.Reply {
	h.t.Helper()
	h.seq++
	f := strings.Fields(line)
	r := protocol.Request{User: protocol.User{ID: id, Name: id.Local()}, Room: room, Community: community, DM: dm,
		EventID: gobot.EventID("test:club" + time.Duration(h.seq).String()), Command: f[0], Args: f[1:], Platform: privateTest}
	return h.bot.Handle(context.Background(), r)
}

// TestJoinedCommunity: a Discord server's channel and a Matrix room
// joined into one community share one leaderboard; a player whose two
// accounts each have a rating there keeps one, the record with more
// rated games, once the accounts are linked, and is told which; their
// games from either account are rated in that one record; a tournament
// made in one room is joined from the other.
func TestJoinedCommunity(t *testing.T) {
	h := newHarness(t)
	h.bot.cfg.Communities = clubCommunities(t)
	const dAnn, dBob, mAnn, mCat = gobot.UserID("discord:ann"), gobot.UserID("discord:bob"), gobot.UserID("matrix:ann"), gobot.UserID("matrix:cat")
	discord := func(u gobot.UserID, line string) protocol.Reply {
		t.Helper()
		return h.in(u, clubChannel, clubGuild, false, line)
	}
	matrix := func(u gobot.UserID, line string) protocol.Reply {
		t.Helper()
		return h.in(u, clubMatrix, "", false, line)
	}
	ok := func(rep protocol.Reply, want string) string {
		t.Helper()
		if rep.Error || !strings.Contains(rep.Text, want) {
			t.Fatalf("got %q (error %v), want %q", rep.Text, rep.Error, want)
		}
		return rep.Text
	}
	// A rated game each: Ann wins once on Discord, twice on Matrix.
	play := func(room func(gobot.UserID, string) protocol.Reply, winner, loser gobot.UserID) {
		t.Helper()
		ok(room(winner, "challenge @"+string(loser)+" black"), "challenge")
		ok(room(loser, "accept"), "begins")
		ok(room(winner, "play E5"), "E5")
		ok(room(loser, "resign"), "resign")
	}
	play(discord, dAnn, dBob)
	play(matrix, mAnn, mCat)
	play(matrix, mAnn, mCat)

	// One leaderboard, the same from both rooms.
	top := ok(discord(dBob, "top"), "W-L")
	if m := ok(matrix(mCat, "top"), ""); m != top {
		t.Fatalf("the Matrix room's leaderboard:\n%s\nthe Discord channel's:\n%s", m, top)
	}
	if strings.Count(top, " ann ") != 2 || !strings.Contains(top, " bob ") || !strings.Contains(top, " cat ") {
		t.Errorf("the leaderboard lacks someone:\n%s", top)
	}
	h.db.View(context.Background(), func(tx gobot.Tx) error {
		rs, err := tx.Ratings(goClub)
		if err != nil || len(rs) != 4 {
			t.Errorf("the club's ratings: %d (%v), want 4", len(rs), err)
		}
		for _, c := range []gobot.CommunityID{clubGuild, gobot.CommunityID(clubMatrix)} {
			if rs, _ := tx.Ratings(c); len(rs) != 0 {
				t.Errorf("%d ratings kept under the member %s", len(rs), c)
			}
		}
		return nil
	})

	// Ann links her accounts (the Discord one asks): one record, the
	// Matrix one's, with 2 games.
	rep := h.in(dAnn, clubChannel, clubGuild, false, "account link")
	m := codeRE.FindStringSubmatch(rep.Text)
	if m == nil {
		t.Fatalf("account link: %+v", rep)
	}
	ok(h.in(mAnn, "matrix:!dm:example.org", "", true, "account link "+m[1]), "you keep the one with more rated games")
	card := ok(discord(dAnn, "rating"), "2 rated games")
	ok(matrix(mAnn, "rating"), "2 rated games")
	if !strings.Contains(card, "Records joined on 2026-11-22: kept <@matrix:ann>'s in the community go-club (2 rated games") ||
		!strings.Contains(card, "set aside <@discord:ann>'s in the community go-club (1 rated game") {
		t.Errorf("the rating card does not say which record was kept:\n%s", card)
	}
	top = ok(matrix(mCat, "top"), "W-L")
	if strings.Count(top, " ann ") != 1 {
		t.Errorf("Ann is listed %d times:\n%s", strings.Count(top, " ann "), top)
	}

	// A game from the Discord account goes into the one record, under
	// the player's ID (the Discord account: it asked first).
	play(discord, dAnn, dBob)
	ok(matrix(mAnn, "rating"), "3 rated games")
	h.db.View(context.Background(), func(tx gobot.Tx) error {
		if _, err := tx.Rating(goClub, mAnn); err == nil {
			t.Error("a record is left under the Matrix account")
		}
		if r, err := tx.Rating(goClub, dAnn); err != nil || r.Games != 3 || r.Wins != 3 {
			t.Errorf("the player's record: %+v, %v", r, err)
		}
		return nil
	})

	// A rank stated from either account is the player's: refused, she
	// has rated games.
	if rep := matrix(mAnn, "settings rank=5k"); !rep.Error || !strings.Contains(rep.Text, "3 rated games") {
		t.Errorf("a stated rank after 3 games: %+v", rep)
	}

	// A tournament made in the Discord channel is joined from the Matrix
	// room, and listed there.
	ok(discord(dBob, `tournament new "ClubCup" swiss rounds=2 size=9`), "ClubCup")
	ok(matrix(mCat, "tournament join"), "")
	ok(matrix(mCat, "tournaments"), "ClubCup")
	// A room of no joined community does not see it.
	if rep := h.in(mCat, "matrix:!other:example.org", "", false, "tournament join"); !rep.Error {
		t.Errorf("a room outside the community joined its tournament: %s", rep.Text)
	}
}

// TestJoinCommunitiesOnStart: ratings made in rooms before they were
// joined move into the community's list the first time the bot starts
// with them joined, each player keeping their record with more rated
// games; the store records it, so a second start moves nothing; a
// member added later is merged then.
func TestJoinCommunitiesOnStart(t *testing.T) {
	h := newHarness(t)
	rec := func(c gobot.CommunityID, u gobot.UserID, games int) *gobot.PlayerRating {
		r := gobot.NewPlayerRating(c, u)
		r.Games, r.Wins, r.Updated = games, games, h.clock.Now()
		return r
	}
	d2, solo := gobot.CommunityID("discord:guild:2"), gobot.CommunityID("matrix:!solo:example.org")
	err := h.db.Update(context.Background(), func(tx gobot.Tx) error {
		if err := tx.PutAccountLink(&gobot.AccountLink{Account: "discord:ann", Player: "discord:ann", Linked: h.clock.Now()}); err != nil {
			return err
		}
		if err := tx.PutAccountLink(&gobot.AccountLink{Account: "matrix:ann", Player: "discord:ann", Linked: h.clock.Now()}); err != nil {
			return err
		}
		for _, r := range []*gobot.PlayerRating{rec(clubGuild, "discord:ann", 1), rec(gobot.CommunityID(clubMatrix), "matrix:ann", 5),
			rec(clubGuild, "discord:bob", 2), rec(d2, "discord:dan", 7), rec(solo, "matrix:ann", 4)} {
			if err := tx.PutRating(r); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	join := func(cs gobot.Communities) []ratings.Joined {
		t.Helper()
		var out []ratings.Joined
		if err := h.db.Update(context.Background(), func(tx gobot.Tx) error {
			var err error
			out, err = ratings.JoinCommunities(tx, cs, h.clock.Now())
			return err
		}); err != nil {
			t.Fatal(err)
		}
		return out
	}
	// The first start merges, in one transaction, and logs it.
	var logged bytes.Buffer
	bot := New(Config{Rules: "japanese", Width: 9, Height: 9, Communities: clubCommunities(t)}, h.db, pngRenderer{}, h.clock, slog.New(slog.NewTextHandler(&logged, nil)))
	if err := bot.JoinCommunities(context.Background()); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"community joined: ratings merged", "community=community:go-club", `name="Go Club"`, "members=\"[discord:guild:1 matrix:!go:example.org]\"", "records=3",
		"the one with more games kept\"=1", "linked accounts' ratings joined into their players'"} {
		if !strings.Contains(logged.String(), want) {
			t.Errorf("the log lacks %s:\n%s", want, logged.String())
		}
	}
	if again := join(clubCommunities(t)); len(again) != 0 {
		t.Fatalf("the second start merged again: %+v", again)
	}
	ratingOf := func(c gobot.CommunityID, u gobot.UserID) *gobot.PlayerRating {
		t.Helper()
		var r *gobot.PlayerRating
		h.db.View(context.Background(), func(tx gobot.Tx) error {
			r, _ = tx.Rating(c, u)
			return nil
		})
		return r
	}
	if r := ratingOf(goClub, "discord:ann"); r == nil || r.Games != 5 || len(r.Joins) != 1 || r.Joins[0].Dropped.Games != 1 {
		t.Errorf("Ann's record in the club: %+v", r)
	}
	// A linked account's record in a room of no joined community is
	// moved to its player's ID, once.
	if r := ratingOf(solo, "discord:ann"); r == nil || r.Games != 4 || ratingOf(solo, "matrix:ann") != nil {
		t.Errorf("Ann's record in the room of her own: %+v", r)
	}
	if r := ratingOf(goClub, "discord:bob"); r == nil || r.Games != 2 {
		t.Errorf("Bob's record in the club: %+v", r)
	}
	// A guild added later is merged at the next start.
	cs, err := gobot.NewCommunities([]gobot.Community{{Name: "Go Club", Members: []gobot.CommunityID{clubGuild, gobot.CommunityID(clubMatrix), d2}}})
	if err != nil {
		t.Fatal(err)
	}
	if done := join(cs); len(done) != 1 || len(done[0].Added) != 1 || done[0].Added[0] != d2 {
		t.Fatalf("adding a member: %+v", done)
	}
	if r := ratingOf(goClub, "discord:dan"); r == nil || r.Games != 7 {
		t.Errorf("Dan's record in the club: %+v", r)
	}
	if r := ratingOf(d2, "discord:dan"); r != nil {
		t.Errorf("Dan's record is left in the member: %+v", r)
	}
	// Renamed, the community keeps its list under its new name.
	cs, err = gobot.NewCommunities([]gobot.Community{{Name: "Go Club Berlin", Members: []gobot.CommunityID{clubGuild, gobot.CommunityID(clubMatrix), d2}}})
	if err != nil {
		t.Fatal(err)
	}
	if done := join(cs); len(done) != 1 || len(done[0].Renamed) != 1 || done[0].Renamed[0] != goClub || len(done[0].Moved) != 3 {
		t.Fatalf("renaming: %+v", done)
	}
	if r := ratingOf("community:go-club-berlin", "discord:ann"); r == nil || r.Games != 5 || ratingOf(goClub, "discord:ann") != nil {
		t.Errorf("Ann's record after the rename: %+v", r)
	}
	if again := join(cs); len(again) != 0 {
		t.Fatalf("after the rename, a start merged again: %+v", again)
	}
}
