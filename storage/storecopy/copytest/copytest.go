// Package copytest is the test every store that gobot store copy moves
// runs: it fills a store with every kind of record (storecopy.Kinds),
// copies it into another store and reads each record back there, like
// chat/storetest for the gobot.Store port.
package copytest

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/gobotgo/gobot"
	"github.com/gobotgo/gobot/chat/storetest"
	"github.com/gobotgo/gobot/storage/storecopy"
)

// Store is a store a copy reads from and writes to.
type Store interface {
	gobot.Store
	storecopy.Source
	storecopy.Sink
}

// Writers maps every method of gobot.Tx that stores a record (a name
// starting with Put, and MarkEvent) to the kind it stores. A method
// added to gobot.Tx without an entry here fails TestWriters: a new kind
// of record must be added to storecopy.Kinds, exported, imported and
// filled below, or the copy would silently leave it out.
var Writers = map[string]storecopy.Kind{
	"PutMatch":     storecopy.Games,
	"PutChallenge": storecopy.Challenges,
	"PutPlayer":    storecopy.Players,
	"PutRoom":      storecopy.Rooms,
	"PutRating":    storecopy.Ratings,
	"PutOutbox":    storecopy.Outbox,
	"PutClaim":     storecopy.Claims,
	"PutState":     storecopy.States,
	"MarkEvent":    storecopy.Events,

	"PutLinkGeneration":  storecopy.Links,
	"PutReview":          storecopy.Reviews,
	"PutTournament":      storecopy.Tournaments,
	"PutLadder":          storecopy.Ladders,
	"PutAccountLink":     storecopy.Accounts,
	"PutLinkCode":        storecopy.LinkCodes,
	"PutJoinedCommunity": storecopy.Communities,
}

// CheckWriters fails t for a method of gobot.Tx that stores a record of
// a kind Writers does not name.
func CheckWriters(t *testing.T) {
	tx := reflect.TypeFor[gobot.Tx]()
	for i := range tx.NumMethod() {
		m := tx.Method(i).Name
		if !strings.HasPrefix(m, "Put") && m != "MarkEvent" {
			continue
		}
		if _, ok := Writers[m]; !ok {
			t.Errorf("gobot.Tx.%s stores records gobot store copy does not know: add their kind to storecopy.Kinds, Export, Import and Count of every store, and copytest", m)
		}
	}
}

var t0 = storetest.T0

// fill stores two records of each kind (indexed by storecopy.Kind).
var fill = map[storecopy.Kind]func(tx gobot.Tx) error{
	storecopy.Games: func(tx gobot.Tx) error {
		a := storetest.NewGame("t:ann", "t:bob", "t:r1")
		a.Deadline = t0.Add(time.Hour)
		b := storetest.NewGame("t:cat", "t:ann", "t:r2")
		b.Finished, b.Result = t0, "B+R"
		if err := tx.PutMatch(a); err != nil {
			return err
		}
		// Game #2 keeps challenge #2's number; a gap before #4.
		b.ID = 4
		return tx.InsertMatch(b)
	},
	storecopy.Challenges: func(tx gobot.Tx) error {
		cfg := storetest.NewGame("", "", "").Record.Config
		for _, c := range []*gobot.Challenge{
			{Room: "t:r1", From: "t:ann", To: "t:bob", Config: cfg, Color: "black", Created: t0, Message: "m1"},
			{Room: "t:r1", From: "t:cat", Config: cfg, Color: "random", Created: t0},
		} {
			if err := tx.PutChallenge(c); err != nil {
				return err
			}
		}
		return nil
	},
	storecopy.Players: func(tx gobot.Tx) error {
		if err := tx.PutPlayer(&gobot.Player{ID: "t:ann", Name: "Ann", Notify: "dm", Updated: t0}); err != nil {
			return err
		}
		return tx.PutPlayer(&gobot.Player{ID: "t:bob", Theme: "dark", Updated: t0})
	},
	storecopy.Rooms: func(tx gobot.Tx) error {
		komi := 0.5
		if err := tx.PutRoom(&gobot.Room{ID: "t:r1", Rules: "chinese", Width: 13, Height: 13, Komi: &komi, Updated: t0}); err != nil {
			return err
		}
		return tx.PutRoom(&gobot.Room{ID: "t:r2", Clock: "3d", Threads: true, NoEngines: true, Updated: t0})
	},
	storecopy.Ratings: func(tx gobot.Tx) error {
		ann := gobot.NewPlayerRating("t:guild", "t:ann")
		ann.Rating, ann.RD, ann.Games, ann.Wins, ann.Updated = 1612.5, 290, 1, 1, t0
		ann.Last = []gobot.RatedResult{{Game: 4, Opponent: "t:cat", Score: 1, Change: 112.5, At: t0}}
		other := gobot.NewPlayerRating("t:room", "t:bob")
		other.Stated, other.RD, other.Updated = true, 250, t0
		if err := tx.PutRating(ann); err != nil {
			return err
		}
		return tx.PutRating(other)
	},
	storecopy.Outbox: func(tx gobot.Tx) error {
		if err := tx.PutOutbox("t:ev1", t0, []byte("reply one")); err != nil {
			return err
		}
		return tx.PutOutbox("t:ev2", t0.Add(time.Minute), []byte{0, 1, 2})
	},
	storecopy.Claims: func(tx gobot.Tx) error {
		if err := tx.PutClaim(&gobot.Claim{Key: "game 1 timeout", Holder: "p1", Expires: t0.Add(time.Minute), Value: []byte(`[{"room":"t:r1"}]`)}); err != nil {
			return err
		}
		return tx.PutClaim(&gobot.Claim{Key: "game 2 deadline 5 reminder 1", Holder: "p2", Expires: t0, Value: []byte{0, 1}})
	},
	storecopy.States: func(tx gobot.Tx) error {
		if err := tx.PutState("matrix", "sync", []byte("s42")); err != nil {
			return err
		}
		return tx.PutState("discord", "commands", []byte{0xff, 0})
	},
	storecopy.Links: func(tx gobot.Tx) error {
		if err := tx.PutLinkGeneration(1, "t:ann", 3); err != nil {
			return err
		}
		return tx.PutLinkGeneration(4, "t:cat", 1)
	},
	storecopy.Reviews: func(tx gobot.Tx) error {
		a := storetest.NewReview("t:r1", "t:ann")
		b := storetest.NewReview("t:r2", "t:bob")
		b.Closed, b.Kept = true, true
		if err := tx.PutReview(a); err != nil {
			return err
		}
		return tx.PutReview(b)
	},
	storecopy.Tournaments: func(tx gobot.Tx) error {
		a := storetest.NewTournament("t:r1", "t:ann")
		a.Played[0].Matches, a.Due = []gobot.GameID{4}, t0.Add(time.Hour)
		b := storetest.NewTournament("t:r2", "t:bob")
		b.State = gobot.Ended
		if err := tx.PutTournament(a); err != nil {
			return err
		}
		return tx.PutTournament(b)
	},
	storecopy.Ladders: func(tx gobot.Tx) error {
		a := storetest.NewLadder("t:r1", "t:ann")
		a.Challenges[0].Game, a.Due = 1, t0.Add(time.Hour)
		b := storetest.NewLadder("t:r2", "t:bob")
		b.Closed = true
		if err := tx.PutLadder(a); err != nil {
			return err
		}
		return tx.PutLadder(b)
	},
	storecopy.Accounts: func(tx gobot.Tx) error {
		if err := tx.PutAccountLink(&gobot.AccountLink{Account: "t:ann", Player: "t:ann", Linked: t0}); err != nil {
			return err
		}
		return tx.PutAccountLink(&gobot.AccountLink{Account: "u:ann", Player: "t:ann", Linked: t0})
	},
	storecopy.LinkCodes: func(tx gobot.Tx) error {
		if err := tx.PutLinkCode(&gobot.LinkCode{Hash: gobot.HashLinkCode("A"), User: "t:ann", Issued: t0, Expires: t0.Add(time.Minute), Used: true}); err != nil {
			return err
		}
		return tx.PutLinkCode(&gobot.LinkCode{Hash: gobot.HashLinkCode("B"), User: "t:bob", Issued: t0, Expires: t0.Add(time.Minute)})
	},
	storecopy.Communities: func(tx gobot.Tx) error {
		if err := tx.PutJoinedCommunity(&gobot.JoinedCommunity{ID: "community:go", Name: "Go", Members: []gobot.CommunityID{"t:c1", "u:c2"}, Updated: t0}); err != nil {
			return err
		}
		return tx.PutJoinedCommunity(&gobot.JoinedCommunity{ID: "community:baduk", Name: "Baduk", Updated: t0})
	},
	storecopy.Events: func(tx gobot.Tx) error {
		if err := tx.MarkEvent("t:ev1", t0); err != nil {
			return err
		}
		return tx.MarkEvent("t:ev3", t0.Add(time.Second))
	},
}

// Run fills a store made by newSrc with every kind of record, copies it
// into an empty one made by newDst, and checks that the copy reports and
// holds every record: the same counts per kind, each record read back
// equal, the numbers going on after the copied ones.
func Run(t *testing.T, newSrc, newDst func(t *testing.T) Store) {
	t.Run("Writers", CheckWriters)
	ctx := context.Background()
	src, dst := newSrc(t), newDst(t)
	err := src.Update(ctx, func(tx gobot.Tx) error {
		for _, k := range storecopy.Kinds {
			f, ok := fill[k]
			if !ok {
				t.Fatalf("copytest has no records of kind %s to copy: add them to fill", k)
			}
			if err := f(tx); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatalf("filling the source: %v", err)
	}
	had, err := src.Count(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range storecopy.Kinds {
		if had[k] != 2 {
			t.Errorf("the source counts %d %s, want the 2 stored", had[k], k)
		}
	}

	n, err := storecopy.Copy(ctx, src, dst)
	if err != nil {
		t.Fatalf("copy: %v", err)
	}
	if n.Tally != had || n.Damaged != nil {
		t.Errorf("copied %s; want %s", n, had)
	}
	got, err := dst.Count(ctx)
	if err != nil || got != had {
		t.Errorf("the destination counts %s (%v); want %s", got, err, had)
	}
	if _, err := storecopy.Copy(ctx, src, dst); !errors.Is(err, storecopy.ErrNotEmpty) {
		t.Errorf("a second copy into the same store: %v, want ErrNotEmpty", err)
	}

	// Every record reads back the same.
	var want, have []any
	read := func(s Store, out *[]any) {
		t.Helper()
		err := s.View(ctx, func(tx gobot.Tx) error {
			for _, id := range []gobot.GameID{1, 4} {
				g, err := tx.Match(id)
				if err != nil {
					return err
				}
				g.Version = 0 // a copy starts every record's version again
				*out = append(*out, g)
			}
			for _, id := range []gobot.ChallengeID{1, 2} {
				c, err := tx.Challenge(id)
				if err != nil {
					return err
				}
				*out = append(*out, c)
			}
			for _, id := range []gobot.UserID{"t:ann", "t:bob"} {
				p, err := tx.Player(id)
				if err != nil {
					return err
				}
				*out = append(*out, p)
			}
			for _, id := range []gobot.RoomID{"t:r1", "t:r2"} {
				r, err := tx.Room(id)
				if err != nil {
					return err
				}
				*out = append(*out, r)
			}
			rs, err := tx.Ratings("")
			if err != nil {
				return err
			}
			*out = append(*out, rs)
			for _, id := range []gobot.EventID{"t:ev1", "t:ev2"} {
				v, err := tx.Outbox(id)
				if err != nil {
					return err
				}
				*out = append(*out, string(v))
			}
			for _, key := range []string{"game 1 timeout", "game 2 deadline 5 reminder 1"} {
				c, err := tx.Claim(key)
				if err != nil {
					return err
				}
				*out = append(*out, c)
			}
			for _, l := range []storecopy.LinkGeneration{{Game: 1, User: "t:ann"}, {Game: 4, User: "t:cat"}, {Game: 4, User: "t:ann"}} {
				gen, err := tx.LinkGeneration(l.Game, l.User)
				if err != nil {
					return err
				}
				*out = append(*out, gen)
			}
			for _, id := range []gobot.ReviewID{1, 2} {
				r, err := tx.Review(id)
				if err != nil {
					return err
				}
				r.Version = 0
				*out = append(*out, r)
			}
			for _, id := range []gobot.TournamentID{1, 2} {
				v, err := tx.Tournament(id)
				if err != nil {
					return err
				}
				v.Version = 0
				*out = append(*out, v)
			}
			for _, id := range []gobot.LadderID{1, 2} {
				v, err := tx.Ladder(id)
				if err != nil {
					return err
				}
				v.Version = 0
				*out = append(*out, v)
			}
			links, err := tx.LinkedAccounts("t:ann")
			if err != nil {
				return err
			}
			for _, l := range links {
				*out = append(*out, *l)
			}
			for _, h := range []string{"A", "B"} {
				c, err := tx.LinkCode(gobot.HashLinkCode(h))
				if err != nil {
					return err
				}
				*out = append(*out, *c)
			}
			js, err := tx.JoinedCommunities()
			if err != nil {
				return err
			}
			for _, j := range js {
				*out = append(*out, *j)
			}
			// The indexes came along: a game finds its tournament and
			// ladder, the lists find theirs.
			if v, err := tx.TournamentOfGame(4); err != nil || v.ID != 1 {
				return fmt.Errorf("the tournament of game #4: %v", err)
			}
			if v, err := tx.LadderOfGame(1); err != nil || v.ID != 1 {
				return fmt.Errorf("the ladder of game #1: %v", err)
			}
			if ts, err := tx.DueTournaments(t0.Add(2*time.Hour), 0); err != nil || len(ts) != 1 || ts[0].ID != 1 {
				return fmt.Errorf("due tournaments: %d (%v), want tournament 1", len(ts), err)
			}
			if ls, err := tx.RoomLadders("t:r2", false); err != nil || len(ls) != 1 || ls[0].ID != 2 {
				return fmt.Errorf("room ladders: %d (%v), want ladder 2", len(ls), err)
			}
			for _, nk := range [][2]string{{"matrix", "sync"}, {"discord", "commands"}} {
				v, err := tx.State(nk[0], nk[1])
				if err != nil {
					return err
				}
				*out = append(*out, string(v))
			}
			return nil
		})
		if err != nil {
			t.Fatalf("reading the records back: %v", err)
		}
	}
	read(src, &want)
	read(dst, &have)
	for i := range want {
		if !reflect.DeepEqual(have[i], want[i]) {
			t.Errorf("record %d after the copy:\n got %+v\nwant %+v", i, have[i], want[i])
		}
	}

	// The times kept: events and owed replies expire as they would have.
	err = dst.Update(ctx, func(tx gobot.Tx) error {
		if err := tx.MarkEvent("t:ev3", t0.Add(time.Hour)); !errors.Is(err, gobot.ErrDuplicate) {
			t.Errorf("a copied event marked again: %v, want ErrDuplicate", err)
		}
		if n, err := tx.ExpireEvents(t0.Add(time.Millisecond)); n != 1 || err != nil {
			t.Errorf("events handled before t0+1ms: %d expired (%v), want 1 (t:ev1)", n, err)
		}
		if n, err := tx.ExpireOutbox(t0.Add(time.Second)); n != 1 || err != nil {
			t.Errorf("replies owed before t0+1s: %d expired (%v), want 1 (t:ev1)", n, err)
		}
		// Numbers go on after the copied ones.
		g := storetest.NewGame("t:ann", "t:cat", "t:r1")
		if err := tx.PutMatch(g); err != nil || g.ID != 5 {
			t.Errorf("a new game after the copy: #%d (%v), want #5", g.ID, err)
		}
		if err := tx.SkipGameNumbers(); err != nil {
			return err
		}
		c := &gobot.Challenge{Room: "t:r1", From: "t:ann", Config: g.Record.Config, Color: "random", Created: t0}
		if err := tx.PutChallenge(c); err != nil || c.ID != 6 {
			t.Errorf("a new challenge after the copy: #%d (%v), want #6", c.ID, err)
		}
		tm := storetest.NewTournament("t:r1", "t:cat")
		if err := tx.PutTournament(tm); err != nil || tm.ID != 3 {
			t.Errorf("a new tournament after the copy: %d (%v), want 3", tm.ID, err)
		}
		l := storetest.NewLadder("t:r1", "t:cat")
		if err := tx.PutLadder(l); err != nil || l.ID != 3 {
			t.Errorf("a new ladder after the copy: %d (%v), want 3", l.ID, err)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
