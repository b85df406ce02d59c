package storetest

import (
	"context"
	"errors"
	"reflect"
	"testing"
	"time"

	"github.com/gobotgo/gobot"
)

// testAccounts: an account's link names its player until it is
// replaced or deleted; a player's links are listed by when they were
// linked, apart from every other player's; a rolled-back link is none.
func testAccounts(t *testing.T, s gobot.Store) {
	link := func(a, p gobot.UserID, d time.Duration) *gobot.AccountLink {
		return &gobot.AccountLink{Account: a, Player: p, Linked: T0.Add(d)}
	}
	view(t, s, func(tx gobot.Tx) error {
		if _, err := tx.AccountLink("t:ann"); !errors.Is(err, gobot.ErrNotFound) {
			t.Errorf("no link yet: %v, want ErrNotFound", err)
		}
		if p, err := gobot.PlayerOf(tx, "t:ann"); p != "t:ann" || err != nil {
			t.Errorf("PlayerOf an unlinked account: %q, %v", p, err)
		}
		if l, err := tx.LinkedAccounts("t:ann"); len(l) != 0 || err != nil {
			t.Errorf("LinkedAccounts of nobody: %v, %v", l, err)
		}
		return nil
	})
	update(t, s, func(tx gobot.Tx) error {
		for _, l := range []*gobot.AccountLink{
			link("u:ann", "t:ann", time.Minute), link("t:ann", "t:ann", time.Minute),
			link("v:ann", "t:ann", 2*time.Minute), link("t:bob", "t:bob", 0), link("u:bob", "t:bob", 0),
			link("t:an", "t:an", 0),
		} {
			if err := tx.PutAccountLink(l); err != nil {
				return err
			}
		}
		// Read back in the same transaction.
		if p, err := gobot.PlayerOf(tx, "v:ann"); p != "t:ann" || err != nil {
			t.Errorf("inside the transaction: PlayerOf(v:ann) = %q, %v", p, err)
		}
		return nil
	})
	accounts := func(p gobot.UserID) []gobot.UserID {
		t.Helper()
		var out []gobot.UserID
		view(t, s, func(tx gobot.Tx) error {
			links, err := tx.LinkedAccounts(p)
			for _, l := range links {
				if l.Player != p || l.Linked.Location() != time.UTC {
					t.Errorf("LinkedAccounts(%s) holds %+v", p, l)
				}
				out = append(out, l.Account)
			}
			return err
		})
		return out
	}
	if got, want := accounts("t:ann"), []gobot.UserID{"t:ann", "u:ann", "v:ann"}; !reflect.DeepEqual(got, want) {
		t.Errorf("ann's accounts: %v, want %v", got, want)
	}
	if got, want := accounts("t:bob"), []gobot.UserID{"t:bob", "u:bob"}; !reflect.DeepEqual(got, want) {
		t.Errorf("bob's accounts: %v, want %v", got, want)
	}
	view(t, s, func(tx gobot.Tx) error {
		l, err := tx.AccountLink("v:ann")
		if err != nil || *l != *link("v:ann", "t:ann", 2*time.Minute) {
			t.Errorf("AccountLink(v:ann) = %+v, %v", l, err)
		}
		got, err := gobot.AccountsOf(tx, "u:ann")
		if want := []gobot.UserID{"u:ann", "t:ann", "v:ann"}; !reflect.DeepEqual(got, want) || err != nil {
			t.Errorf("AccountsOf(u:ann) = %v, %v; want %v", got, err, want)
		}
		got, err = gobot.AccountsOf(tx, "w:cat")
		if want := []gobot.UserID{"w:cat"}; !reflect.DeepEqual(got, want) || err != nil {
			t.Errorf("AccountsOf an unlinked account = %v, %v; want %v", got, err, want)
		}
		return nil
	})
	// Moving an account to another player moves it in the lists too;
	// deleting one drops it (twice is no error).
	update(t, s, func(tx gobot.Tx) error {
		if err := tx.PutAccountLink(link("v:ann", "t:bob", 3*time.Minute)); err != nil {
			return err
		}
		if err := tx.DeleteAccountLink("u:ann"); err != nil {
			return err
		}
		return tx.DeleteAccountLink("u:ann")
	})
	if got, want := accounts("t:ann"), []gobot.UserID{"t:ann"}; !reflect.DeepEqual(got, want) {
		t.Errorf("ann's accounts after the changes: %v, want %v", got, want)
	}
	if got, want := accounts("t:bob"), []gobot.UserID{"t:bob", "u:bob", "v:ann"}; !reflect.DeepEqual(got, want) {
		t.Errorf("bob's accounts after the changes: %v, want %v", got, want)
	}
	errRollback := errors.New("rolled back")
	err := s.Update(context.Background(), func(tx gobot.Tx) error {
		if err := tx.PutAccountLink(link("w:cat", "t:ann", 0)); err != nil {
			return err
		}
		if err := tx.DeleteAccountLink("t:ann"); err != nil {
			return err
		}
		return errRollback
	})
	if !errors.Is(err, errRollback) {
		t.Errorf("a rolled-back Update: %v", err)
	}
	if got, want := accounts("t:ann"), []gobot.UserID{"t:ann"}; !reflect.DeepEqual(got, want) {
		t.Errorf("after a rolled-back change: %v, want %v", got, want)
	}
	update(t, s, func(tx gobot.Tx) error {
		if err := tx.PutAccountLink(&gobot.AccountLink{Account: "t:x"}); err == nil {
			t.Error("a link to no player was stored")
		}
		return nil
	})
}

// testLinkCodes: a code is found by its hash as stored, a user's codes
// are listed by when they were issued, and ExpireLinkCodes drops those
// issued before a time, counting them.
func testLinkCodes(t *testing.T, s gobot.Store) {
	code := func(h string, u gobot.UserID, d time.Duration) *gobot.LinkCode {
		return &gobot.LinkCode{Hash: gobot.HashLinkCode(h), User: u, Issued: T0.Add(d), Expires: T0.Add(d + gobot.LinkCodeTTL)}
	}
	view(t, s, func(tx gobot.Tx) error {
		if _, err := tx.LinkCode(gobot.HashLinkCode("A")); !errors.Is(err, gobot.ErrNotFound) {
			t.Errorf("no code yet: %v, want ErrNotFound", err)
		}
		return nil
	})
	update(t, s, func(tx gobot.Tx) error {
		for _, c := range []*gobot.LinkCode{code("B", "t:ann", time.Hour), code("A", "t:ann", 0), code("C", "t:bob", 2*time.Hour)} {
			if err := tx.PutLinkCode(c); err != nil {
				return err
			}
		}
		used := code("A", "t:ann", 0)
		used.Used = true
		return tx.PutLinkCode(used)
	})
	view(t, s, func(tx gobot.Tx) error {
		c, err := tx.LinkCode(gobot.HashLinkCode("A"))
		want := code("A", "t:ann", 0)
		want.Used = true
		if err != nil || *c != *want || c.Issued.Location() != time.UTC {
			t.Errorf("LinkCode(A) = %+v, %v; want %+v", c, err, want)
		}
		if c.Live(T0) {
			t.Error("a used code is live")
		}
		cs, err := tx.LinkCodesOf("t:ann")
		if err != nil || len(cs) != 2 || *cs[0] != *want || *cs[1] != *code("B", "t:ann", time.Hour) {
			t.Errorf("LinkCodesOf(ann) = %v, %v", cs, err)
		}
		if !cs[1].Live(T0.Add(time.Hour+time.Minute)) || cs[1].Live(T0.Add(time.Hour+gobot.LinkCodeTTL)) {
			t.Error("a code is live only until it expires")
		}
		return nil
	})
	update(t, s, func(tx gobot.Tx) error {
		n, err := tx.ExpireLinkCodes(T0.Add(90 * time.Minute))
		if n != 2 || err != nil {
			t.Errorf("ExpireLinkCodes: %d, %v; want 2", n, err)
		}
		if err := tx.PutLinkCode(&gobot.LinkCode{Hash: "x"}); err == nil {
			t.Error("a code of nobody was stored")
		}
		return nil
	})
	view(t, s, func(tx gobot.Tx) error {
		if cs, err := tx.LinkCodesOf("t:ann"); len(cs) != 0 || err != nil {
			t.Errorf("ann's codes after expiry: %v, %v", cs, err)
		}
		if cs, err := tx.LinkCodesOf("t:bob"); len(cs) != 1 || err != nil {
			t.Errorf("bob's codes after expiry: %v, %v", cs, err)
		}
		return nil
	})
}
