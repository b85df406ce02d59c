package postgres

import (
	"errors"
	"fmt"
	"time"

	"github.com/gobotgo/gobot"
	"github.com/jackc/pgx/v5"
)

// Linked accounts and link codes (migration 009).

func (t *tx) AccountLink(u gobot.UserID) (*gobot.AccountLink, error) {
	l := &gobot.AccountLink{Account: u}
	var p string
	err := t.tx.QueryRow(t.ctx, "SELECT player, linked FROM account_links WHERE account = $1", string(u)).Scan(&p, &l.Linked)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, fmt.Errorf("account link of %s: %w", u, gobot.ErrNotFound)
	}
	if err != nil {
		return nil, err
	}
	l.Player, l.Linked = gobot.UserID(p), l.Linked.UTC()
	return l, nil
}

func (t *tx) PutAccountLink(l *gobot.AccountLink) error {
	if l.Account == "" || l.Player == "" {
		return errors.New("an account link needs an account and a player")
	}
	_, err := t.tx.Exec(t.ctx, `INSERT INTO account_links (account, player, linked) VALUES ($1, $2, $3)
		ON CONFLICT (account) DO UPDATE SET player = $2, linked = $3`, string(l.Account), string(l.Player), l.Linked)
	return err
}

func (t *tx) DeleteAccountLink(u gobot.UserID) error {
	_, err := t.tx.Exec(t.ctx, "DELETE FROM account_links WHERE account = $1", string(u))
	return err
}

func (t *tx) LinkedAccounts(p gobot.UserID) ([]*gobot.AccountLink, error) {
	rows, err := t.tx.Query(t.ctx, `SELECT account, linked FROM account_links WHERE player = $1`, string(p))
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []*gobot.AccountLink
	for rows.Next() {
		l := &gobot.AccountLink{Player: p}
		var a string
		if err := rows.Scan(&a, &l.Linked); err != nil {
			return nil, err
		}
		l.Account, l.Linked = gobot.UserID(a), l.Linked.UTC()
		out = append(out, l)
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	gobot.SortLinks(out) // by account bytes, as bbolt orders them
	return out, nil
}

func (t *tx) LinkCode(hash string) (*gobot.LinkCode, error) {
	c := &gobot.LinkCode{Hash: hash}
	var u string
	err := t.tx.QueryRow(t.ctx, "SELECT player, issued, expires, used FROM link_codes WHERE hash = $1", hash).Scan(&u, &c.Issued, &c.Expires, &c.Used)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, fmt.Errorf("link code: %w", gobot.ErrNotFound)
	}
	if err != nil {
		return nil, err
	}
	c.User, c.Issued, c.Expires = gobot.UserID(u), c.Issued.UTC(), c.Expires.UTC()
	return c, nil
}

func (t *tx) PutLinkCode(c *gobot.LinkCode) error {
	if c.Hash == "" || c.User == "" {
		return errors.New("a link code needs a hash and a user")
	}
	_, err := t.tx.Exec(t.ctx, `INSERT INTO link_codes (hash, player, issued, expires, used) VALUES ($1, $2, $3, $4, $5)
		ON CONFLICT (hash) DO UPDATE SET player = $2, issued = $3, expires = $4, used = $5`,
		c.Hash, string(c.User), c.Issued, c.Expires, c.Used)
	return err
}

func (t *tx) LinkCodesOf(u gobot.UserID) ([]*gobot.LinkCode, error) {
	return t.linkCodes(`SELECT hash, player, issued, expires, used FROM link_codes WHERE player = $1 ORDER BY issued, hash COLLATE "C"`, string(u))
}

func (t *tx) linkCodes(q string, args ...any) ([]*gobot.LinkCode, error) {
	rows, err := t.tx.Query(t.ctx, q, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []*gobot.LinkCode
	for rows.Next() {
		c := &gobot.LinkCode{}
		var u string
		if err := rows.Scan(&c.Hash, &u, &c.Issued, &c.Expires, &c.Used); err != nil {
			return nil, err
		}
		c.User, c.Issued, c.Expires = gobot.UserID(u), c.Issued.UTC(), c.Expires.UTC()
		out = append(out, c)
	}
	return out, rows.Err()
}

func (t *tx) ExpireLinkCodes(before time.Time) (int, error) {
	tag, err := t.tx.Exec(t.ctx, "DELETE FROM link_codes WHERE issued < $1", before)
	return int(tag.RowsAffected()), err
}
