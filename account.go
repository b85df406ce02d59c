package gobot

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"slices"
	"strings"
	"time"
)

// Linked accounts (docs/identity.md): one person's accounts on several
// platforms are one player. Each account of a linked player has an
// AccountLink naming the player's ID, the first account linked (the one
// that asked for the first code); an account with no AccountLink is a
// player of its own, its ID the player's. A link is made with a one-time
// LinkCode: one account asks for it, the other sends it back.

// AccountLink says that Account is one of Player's accounts, since Linked.
// The player's own account has one too (Account == Player).
type AccountLink struct {
	Account UserID
	Player  UserID
	Linked  time.Time
}

// LinkCode is a one-time code for linking accounts, stored under Hash
// (HashLinkCode of the code): the code itself is shown to User once and
// kept nowhere.
type LinkCode struct {
	Hash    string
	User    UserID // who asked for it
	Issued  time.Time
	Expires time.Time
	// Used is set when the code has been sent back, or seen in a room
	// (void either way).
	Used bool
}

// Live reports whether c can still be sent back at t.
func (c *LinkCode) Live(t time.Time) bool { return !c.Used && t.Before(c.Expires) }

// Limits of link codes.
const (
	LinkCodeTTL      = 10 * time.Minute // a code expires after this
	LinkCodesLive    = 3                // codes a user may hold unused at once
	LinkCodesPerDay  = 10               // codes a user may ask for in 24 hours
	LinkCodeKeep     = 24 * time.Hour   // a code's record is kept this long (the daily count)
	linkCodeAlphabet = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
	// LinkCodeLen is the length of a code: 10 of 32 symbols, 50 bits.
	LinkCodeLen = 10
)

// NewLinkCode returns a new random code (crypto/rand), in letters and
// digits that cannot be mistaken for one another.
func NewLinkCode() (string, error) {
	var b [LinkCodeLen]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", err
	}
	for i := range b {
		b[i] = linkCodeAlphabet[int(b[i])%len(linkCodeAlphabet)] // 256 is a multiple of 32: no bias
	}
	return string(b[:]), nil
}

// NormalLinkCode is code as typed, made canonical (upper case, without
// spaces or dashes), and whether it could be a code at all.
func NormalLinkCode(code string) (string, bool) {
	code = strings.ToUpper(strings.NewReplacer("-", "", " ", "").Replace(code))
	if len(code) != LinkCodeLen {
		return "", false
	}
	for _, r := range code {
		if !strings.ContainsRune(linkCodeAlphabet, r) {
			return "", false
		}
	}
	return code, true
}

// HashLinkCode is the key a code is stored under: its SHA-256, so that
// a copy of the database holds no code that could be sent.
func HashLinkCode(code string) string {
	h := sha256.Sum256([]byte(code))
	return hex.EncodeToString(h[:])
}

// PlayerOf returns the player account u is: the player's ID (their
// first account linked) when u is linked, else u itself.
func PlayerOf(tx Tx, u UserID) (UserID, error) {
	l, err := tx.AccountLink(u)
	if errors.Is(err, ErrNotFound) {
		return u, nil
	}
	if err != nil {
		return "", err
	}
	return l.Player, nil
}

// AccountsOf returns the accounts of the player u is, u first, then the
// others in the order they were linked; just u when it is linked to
// none.
func AccountsOf(tx Tx, u UserID) ([]UserID, error) {
	p, err := PlayerOf(tx, u)
	if err != nil {
		return nil, err
	}
	if p == u {
		if _, err := tx.AccountLink(u); errors.Is(err, ErrNotFound) {
			return []UserID{u}, nil
		}
	}
	links, err := tx.LinkedAccounts(p)
	if err != nil {
		return nil, err
	}
	out := []UserID{u}
	for _, l := range links {
		if !slices.Contains(out, l.Account) {
			out = append(out, l.Account)
		}
	}
	return out, nil
}

// SortLinks orders links by when they were linked, then by account.
func SortLinks(links []*AccountLink) {
	slices.SortFunc(links, func(a, b *AccountLink) int {
		if c := a.Linked.Compare(b.Linked); c != 0 {
			return c
		}
		return strings.Compare(string(a.Account), string(b.Account))
	})
}
