package storage

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/gobotgo/gobot"
)

// Linked accounts and link codes (gobot.AccountLink, gobot.LinkCode)
// live in buckets made on first use, so a file without them opens as it
// was (schema 4 unchanged) and reads no links:
//
//	accounts:            account → player \x00 linked unixnano(8)
//	idx_player_accounts: player \x00 account → nil (LinkedAccounts)
//	link_codes:          hash → user \x00 issued(8) expires(8) used(1)
//
// Codes are few (each is kept a day, at most ten a user a day), so
// LinkCodesOf and ExpireLinkCodes scan them.
var (
	bAccounts       = []byte("accounts")
	bPlayerAccounts = []byte("idx_player_accounts")
	bLinkCodes      = []byte("link_codes")
)

func encodeAccount(l *gobot.AccountLink) []byte {
	v := append([]byte(l.Player), 0)
	return binary.BigEndian.AppendUint64(v, uint64(l.Linked.UnixNano()))
}

func decodeAccount(k, v []byte) (*gobot.AccountLink, error) {
	i := bytes.IndexByte(v, 0)
	if i <= 0 || len(v) != i+9 {
		return nil, fmt.Errorf("account link of %q: %w", k, gobot.ErrCorrupt)
	}
	return &gobot.AccountLink{Account: gobot.UserID(k), Player: gobot.UserID(v[:i]),
		Linked: time.Unix(0, int64(binary.BigEndian.Uint64(v[i+1:]))).UTC()}, nil
}

func playerAccountKey(p, a gobot.UserID) []byte { return append(append([]byte(p), 0), a...) }

// AccountLink returns account u's link.
func (tx *Tx) AccountLink(u gobot.UserID) (*gobot.AccountLink, error) {
	b := tx.b(bAccounts)
	if b == nil {
		return nil, fmt.Errorf("account link of %s: %w", u, gobot.ErrNotFound)
	}
	v := b.Get([]byte(u))
	if v == nil {
		return nil, fmt.Errorf("account link of %s: %w", u, gobot.ErrNotFound)
	}
	return decodeAccount([]byte(u), v)
}

// PutAccountLink stores l, replacing the link of its account; the index
// follows.
func (tx *Tx) PutAccountLink(l *gobot.AccountLink) error {
	if l.Account == "" || l.Player == "" {
		return errors.New("an account link needs an account and a player")
	}
	if err := tx.DeleteAccountLink(l.Account); err != nil {
		return err
	}
	b, err := tx.tx.CreateBucketIfNotExists(bAccounts)
	if err != nil {
		return err
	}
	idx, err := tx.tx.CreateBucketIfNotExists(bPlayerAccounts)
	if err != nil {
		return err
	}
	if err := b.Put([]byte(l.Account), encodeAccount(l)); err != nil {
		return err
	}
	return idx.Put(playerAccountKey(l.Player, l.Account), nil)
}

// DeleteAccountLink drops account u's link and its index entry.
func (tx *Tx) DeleteAccountLink(u gobot.UserID) error {
	b := tx.b(bAccounts)
	if b == nil {
		return nil
	}
	v := b.Get([]byte(u))
	if v == nil {
		return nil
	}
	if l, err := decodeAccount([]byte(u), v); err == nil {
		if idx := tx.b(bPlayerAccounts); idx != nil {
			if err := idx.Delete(playerAccountKey(l.Player, u)); err != nil {
				return err
			}
		}
	}
	return b.Delete([]byte(u))
}

// LinkedAccounts returns player p's account links, by Linked then
// Account.
func (tx *Tx) LinkedAccounts(p gobot.UserID) ([]*gobot.AccountLink, error) {
	idx := tx.b(bPlayerAccounts)
	if idx == nil {
		return nil, nil
	}
	var out []*gobot.AccountLink
	prefix := append([]byte(p), 0)
	c := idx.Cursor()
	for k, _ := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, _ = c.Next() {
		l, err := tx.AccountLink(gobot.UserID(k[len(prefix):]))
		if err != nil {
			return nil, err
		}
		out = append(out, l)
	}
	gobot.SortLinks(out)
	return out, nil
}

func encodeLinkCode(c *gobot.LinkCode) []byte {
	v := append([]byte(c.User), 0)
	v = binary.BigEndian.AppendUint64(v, uint64(c.Issued.UnixNano()))
	v = binary.BigEndian.AppendUint64(v, uint64(c.Expires.UnixNano()))
	used := byte(0)
	if c.Used {
		used = 1
	}
	return append(v, used)
}

func decodeLinkCode(k, v []byte) (*gobot.LinkCode, error) {
	i := bytes.IndexByte(v, 0)
	if i <= 0 || len(v) != i+18 || v[i+17] > 1 {
		return nil, fmt.Errorf("link code %.8s…: %w", k, gobot.ErrCorrupt)
	}
	at := func(j int) time.Time { return time.Unix(0, int64(binary.BigEndian.Uint64(v[j:]))).UTC() }
	return &gobot.LinkCode{Hash: string(k), User: gobot.UserID(v[:i]), Issued: at(i + 1), Expires: at(i + 9), Used: v[i+17] == 1}, nil
}

// LinkCode returns the code stored under hash.
func (tx *Tx) LinkCode(hash string) (*gobot.LinkCode, error) {
	var v []byte
	if b := tx.b(bLinkCodes); b != nil {
		v = b.Get([]byte(hash))
	}
	if v == nil {
		return nil, fmt.Errorf("link code: %w", gobot.ErrNotFound)
	}
	return decodeLinkCode([]byte(hash), v)
}

// PutLinkCode stores c under its Hash.
func (tx *Tx) PutLinkCode(c *gobot.LinkCode) error {
	if c.Hash == "" || c.User == "" {
		return errors.New("a link code needs a hash and a user")
	}
	b, err := tx.tx.CreateBucketIfNotExists(bLinkCodes)
	if err != nil {
		return err
	}
	return b.Put([]byte(c.Hash), encodeLinkCode(c))
}

// eachLinkCode calls fn for every code, by hash.
func (tx *Tx) eachLinkCode(fn func(c *gobot.LinkCode) error) error {
	b := tx.b(bLinkCodes)
	if b == nil {
		return nil
	}
	return b.ForEach(func(k, v []byte) error {
		c, err := decodeLinkCode(k, v)
		if err != nil {
			return err
		}
		return fn(c)
	})
}

// LinkCodesOf returns u's kept codes, by Issued.
func (tx *Tx) LinkCodesOf(u gobot.UserID) ([]*gobot.LinkCode, error) {
	var out []*gobot.LinkCode
	err := tx.eachLinkCode(func(c *gobot.LinkCode) error {
		if c.User == u {
			out = append(out, c)
		}
		return nil
	})
	sortCodes(out)
	return out, err
}

func sortCodes(cs []*gobot.LinkCode) {
	slices.SortFunc(cs, func(a, b *gobot.LinkCode) int {
		if c := a.Issued.Compare(b.Issued); c != 0 {
			return c
		}
		return strings.Compare(a.Hash, b.Hash)
	})
}

// ExpireLinkCodes drops the codes issued before t.
func (tx *Tx) ExpireLinkCodes(before time.Time) (int, error) {
	var old []string
	err := tx.eachLinkCode(func(c *gobot.LinkCode) error {
		if c.Issued.Before(before) {
			old = append(old, c.Hash)
		}
		return nil
	})
	if err != nil {
		return 0, err
	}
	for _, h := range old {
		if err := tx.b(bLinkCodes).Delete([]byte(h)); err != nil {
			return 0, err
		}
	}
	return len(old), nil
}

// eachAccountLink calls fn for every account link, by account (Export).
func (tx *Tx) eachAccountLink(fn func(l *gobot.AccountLink) error) error {
	b := tx.b(bAccounts)
	if b == nil {
		return nil
	}
	return b.ForEach(func(k, v []byte) error {
		l, err := decodeAccount(k, v)
		if err != nil {
			return err
		}
		return fn(l)
	})
}
