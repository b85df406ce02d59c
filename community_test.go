package gobot_test

import (
	"errors"
	"testing"
	"time"

	"github.com/gobotgo/gobot"
)

func TestSlug(t *testing.T) {
	for in, want := range map[string]string{
		"Go Club":         "go-club",
		"  Go  Club!! ":   "go-club",
		"Baduk-Verein 9x": "baduk-verein-9x",
		"囲碁 会":            "囲碁-会",
		"!!!":             "",
		"":                "",
	} {
		if got := gobot.Slug(in); got != want {
			t.Errorf("Slug(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestCommunities(t *testing.T) {
	cs, err := gobot.NewCommunities([]gobot.Community{
		{Name: "Go Club", Members: []gobot.CommunityID{"discord:guild:1234", "matrix:!abc:example.org", "matrix:!def:example.org"},
			Rooms: map[string]gobot.RoomID{"discord": "discord:5678", "matrix": "matrix:!abc:example.org"}},
		{Name: "Baduk", Members: []gobot.CommunityID{"matrix:!xyz:example.org"}},
	})
	if err != nil {
		t.Fatal(err)
	}
	for in, want := range map[gobot.CommunityID]gobot.CommunityID{
		"discord:guild:1234":      "community:go-club",
		"matrix:!def:example.org": "community:go-club",
		"matrix:!xyz:example.org": "community:baduk",
		"community:go-club":       "community:go-club",
		"discord:guild:999":       "discord:guild:999",
		"console":                 "console",
		"":                        "",
	} {
		if got := cs.Of(in); got != want {
			t.Errorf("Of(%q) = %q, want %q", in, got, want)
		}
	}
	j := cs.Joined("matrix:!abc:example.org")
	if j == nil || j.Name != "Go Club" || j.Rooms["discord"] != "discord:5678" {
		t.Fatalf("Joined = %+v", j)
	}
	if cs.Joined("discord:guild:999") != nil || cs.Joined("console") != nil {
		t.Error("a community not joined is joined")
	}
	if got := j.RoomList(); len(got) != 3 || got[0] != "discord:5678" || got[1] != "matrix:!abc:example.org" || got[2] != "matrix:!def:example.org" {
		t.Errorf("RoomList = %v", got)
	}
	if cs.ByName("go club") != j || cs.ByName("community:go-club") != j || cs.ByName("chess") != nil {
		t.Error("ByName")
	}
	var none gobot.Communities
	if none.Of("discord:guild:1") != "discord:guild:1" || none.Joined("discord:guild:1") != nil {
		t.Error("the zero Communities joins something")
	}
}

func TestCommunitiesRefused(t *testing.T) {
	d, m := gobot.CommunityID("discord:guild:1"), gobot.CommunityID("matrix:!a:example.org")
	for _, tc := range []struct {
		name   string
		cs     []gobot.Community
		err    error
		index  int
		member int
	}{
		{"no name", []gobot.Community{{Name: " - ", Members: []gobot.CommunityID{d}}}, gobot.ErrCommunityName, 0, -1},
		{"same name", []gobot.Community{{Name: "Go", Members: []gobot.CommunityID{d}}, {Name: "go!", Members: []gobot.CommunityID{m}}}, gobot.ErrCommunityDuplicate, 1, -1},
		{"no member", []gobot.Community{{Name: "Go"}}, gobot.ErrCommunityEmpty, 0, -1},
		{"telegram", []gobot.Community{{Name: "Go", Members: []gobot.CommunityID{d, "telegram:1"}}}, gobot.ErrMemberPlatform, 0, 1},
		{"a guild by name", []gobot.Community{{Name: "Go", Members: []gobot.CommunityID{"discord:guild:go"}}}, gobot.ErrMemberPlatform, 0, 0},
		{"a matrix alias", []gobot.Community{{Name: "Go", Members: []gobot.CommunityID{"matrix:#go:example.org"}}}, gobot.ErrMemberPlatform, 0, 0},
		{"console", []gobot.Community{{Name: "Go", Members: []gobot.CommunityID{"console"}}}, gobot.ErrMemberPlatform, 0, 0},
		{"twice", []gobot.Community{{Name: "Go", Members: []gobot.CommunityID{m, d, m}}}, gobot.ErrMemberTwice, 0, 2},
		{"in two", []gobot.Community{{Name: "Go", Members: []gobot.CommunityID{m}}, {Name: "Baduk", Members: []gobot.CommunityID{d, m}}}, gobot.ErrMemberElsewhere, 1, 1},
		{"room of another platform", []gobot.Community{{Name: "Go", Members: []gobot.CommunityID{d}, Rooms: map[string]gobot.RoomID{"discord": "matrix:!a:example.org"}}}, gobot.ErrRoomPlatform, 0, -1},
	} {
		_, err := gobot.NewCommunities(tc.cs)
		var ce *gobot.CommunityError
		if !errors.Is(err, tc.err) || !errors.As(err, &ce) || ce.Index != tc.index || ce.Member != tc.member {
			t.Errorf("%s: %v (%+v), want %v at %d/%d", tc.name, err, ce, tc.err, tc.index, tc.member)
		}
	}
}

// Joining two records keeps the one with more rated games; on a tie
// the more recently updated. The kept record remembers the join.
func TestJoinRatings(t *testing.T) {
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	a := &gobot.PlayerRating{Community: "discord:guild:1", User: "discord:1", Rating: 1800, RD: 80, Volatility: 0.06, Games: 12, Updated: t0}
	b := &gobot.PlayerRating{Community: "matrix:!a:x", User: "matrix:@a:x", Rating: 1200, RD: 200, Volatility: 0.06, Games: 3, Updated: t0.Add(time.Hour)}
	for _, pair := range [][2]*gobot.PlayerRating{{a, b}, {b, a}} {
		j := gobot.JoinRatings(pair[0], pair[1], "community:go", "discord:1", t0.Add(2*time.Hour))
		if j.Rating != 1800 || j.Games != 12 || j.Community != "community:go" || j.User != "discord:1" {
			t.Errorf("kept %+v", j)
		}
		if len(j.Joins) != 1 || j.Joins[0].Kept.User != "discord:1" || j.Joins[0].Dropped.Games != 3 || j.Joins[0].Dropped.Community != "matrix:!a:x" {
			t.Errorf("joins %+v", j.Joins)
		}
	}
	if a.Community != "discord:guild:1" || len(a.Joins) != 0 {
		t.Error("JoinRatings changed its argument")
	}
	c := *b
	c.Games = 12
	if j := gobot.JoinRatings(a, &c, "community:go", "discord:1", t0); j.Rating != 1200 {
		t.Errorf("tie: kept %v, want the newer (1200)", j.Rating)
	}
	j := a
	for i := range gobot.MaxJoins + 2 {
		j = gobot.JoinRatings(j, b, "community:go", "discord:1", t0.Add(time.Duration(i)*time.Hour))
	}
	if len(j.Joins) != gobot.MaxJoins || !j.Joins[gobot.MaxJoins-1].At.Equal(t0.Add(time.Duration(gobot.MaxJoins+1)*time.Hour)) {
		t.Errorf("joins kept: %d, last %v", len(j.Joins), j.Joins[len(j.Joins)-1].At)
	}
}
