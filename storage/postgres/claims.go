package postgres

import (
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/gobotgo/gobot"
)

// PutClaim stores claim c, replacing the one under its key.
func (t *tx) PutClaim(c *gobot.Claim) error {
	if c.Key == "" {
		return errors.New("claim: empty key")
	}
	v := c.Value
	if v == nil {
		v = []byte{}
	}
	_, err := t.tx.Exec(t.ctx, `INSERT INTO claims (key, holder, expires, value) VALUES ($1, $2, $3, $4)
		ON CONFLICT (key) DO UPDATE SET holder = $2, expires = $3, value = $4`, c.Key, c.Holder, c.Expires, v)
	return err
}

// Claim returns the claim under key.
func (t *tx) Claim(key string) (*gobot.Claim, error) {
	c := &gobot.Claim{Key: key}
	err := t.tx.QueryRow(t.ctx, "SELECT holder, expires, value FROM claims WHERE key = $1", key).Scan(&c.Holder, &c.Expires, &c.Value)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, fmt.Errorf("claim %q %w", key, gobot.ErrNotFound)
	}
	if err != nil {
		return nil, err
	}
	c.Expires = c.Expires.UTC()
	return c, nil
}

// DeleteClaim drops the claim under key.
func (t *tx) DeleteClaim(key string) error {
	_, err := t.tx.Exec(t.ctx, "DELETE FROM claims WHERE key = $1", key)
	return err
}

// ExpiredClaims returns the claims that expired before t, earliest first.
func (t *tx) ExpiredClaims(before time.Time, limit int) ([]*gobot.Claim, error) {
	q := "SELECT key, holder, expires, value FROM claims WHERE expires < $1 ORDER BY expires, key"
	args := []any{before}
	if limit > 0 {
		q += " LIMIT $2"
		args = append(args, limit)
	}
	rows, err := t.tx.Query(t.ctx, q, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []*gobot.Claim
	for rows.Next() {
		c := &gobot.Claim{}
		if err := rows.Scan(&c.Key, &c.Holder, &c.Expires, &c.Value); err != nil {
			return nil, err
		}
		c.Expires = c.Expires.UTC()
		out = append(out, c)
	}
	return out, rows.Err()
}
