package main

import (
	"bytes"
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gobotgo/gobot"
	"github.com/gobotgo/gobot/storage"
)

// gobot ratings finds a joined community's list by its name (or by a
// member's ID) and names it; gobot check says which communities are
// joined and notes records left out of place.
func TestRatingsAndCheckKnowCommunities(t *testing.T) {
	path := filepath.Join(t.TempDir(), "gobot.db")
	db, err := storage.Open(path, storage.Options{})
	if err != nil {
		t.Fatal(err)
	}
	at := time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)
	rec := func(c gobot.CommunityID, u gobot.UserID, games int) *gobot.PlayerRating {
		r := gobot.NewPlayerRating(c, u)
		r.Games, r.Updated = games, at
		return r
	}
	err = db.Update(context.Background(), func(tx gobot.Tx) error {
		if err := tx.PutJoinedCommunity(&gobot.JoinedCommunity{ID: "community:go-club", Name: "Go Club", Members: []gobot.CommunityID{"discord:guild:1", "matrix:!a:x"}, Updated: at}); err != nil {
			return err
		}
		for _, l := range []*gobot.AccountLink{{Account: "discord:ann", Player: "discord:ann", Linked: at}, {Account: "matrix:@ann:x", Player: "discord:ann", Linked: at}} {
			if err := tx.PutAccountLink(l); err != nil {
				return err
			}
		}
		for _, r := range []*gobot.PlayerRating{rec("community:go-club", "discord:ann", 4), rec("community:go-club", "discord:bob", 2),
			rec("discord:guild:1", "discord:cat", 1), rec("matrix:!b:x", "matrix:@ann:x", 3)} {
			if err := tx.PutRating(r); err != nil {
				return err
			}
		}
		return nil
	})
	db.Close()
	if err != nil {
		t.Fatal(err)
	}
	ratings := func(args ...string) (int, string, string) {
		var out, errb bytes.Buffer
		code := run(append([]string{"ratings", "-db", path}, args...), nil, &out, &errb)
		return code, out.String(), errb.String()
	}
	code, out, _ := ratings("--community", "Go Club", "--json")
	if code != 0 || strings.Count(out, "\n") != 2 || strings.Count(out, `"name":"Go Club"`) != 2 || !strings.Contains(out, `"user":"discord:ann"`) {
		t.Errorf("ratings of Go Club: exit %d\n%s", code, out)
	}
	code, out2, errs := ratings("--community", "discord:guild:1", "--json")
	if code != 0 || out2 != out || !strings.Contains(errs, `discord:guild:1 is joined into community:go-club ("Go Club")`) {
		t.Errorf("ratings of a member: exit %d, %q\n%s", code, errs, out2)
	}
	if code, _, errs := ratings("--community", "Chess Club"); code != 2 || !strings.Contains(errs, `no joined community has that name (joined: "Go Club")`) {
		t.Errorf("an unknown community: exit %d, %q", code, errs)
	}
	var cout, cerr bytes.Buffer
	if code := run([]string{"check", path}, nil, &cout, &cerr); code != 0 {
		t.Fatalf("check: exit %d, %s%s", code, cout.String(), cerr.String())
	}
	for _, want := range []string{
		`Joined community community:go-club ("Go Club"): 2 members merged, the last change 2026-12-01 10:00.`,
		`Note: 1 rating record left under discord:guild:1, a member of community:go-club ("Go Club") since its merge: the next start moves them into the community's list.`,
		"Note: the rating of matrix:@ann:x in matrix:!b:x is under a linked account, not its player's ID discord:ann: it is not used (the player's record is).",
	} {
		if !strings.Contains(cout.String(), want) {
			t.Errorf("check lacks %q:\n%s", want, cout.String())
		}
	}
}
