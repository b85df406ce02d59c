package postgres

import (
	"errors"
	"fmt"
	"time"

	"github.com/gobotgo/gobot"
	"github.com/jackc/pgx/v5"
)

// The outbox: replies owed for events a platform may hand over again
// (protocol.Request.Outbox), stored with their effect.

func (t *tx) PutOutbox(id gobot.EventID, at time.Time, v []byte) error {
	if id == "" {
		return errors.New("outbox: empty event ID")
	}
	_, err := t.tx.Exec(t.ctx, `INSERT INTO outbox (id, stored, value) VALUES ($1, $2, $3)
		ON CONFLICT (id) DO UPDATE SET stored = $2, value = $3`, string(id), at, v)
	return err
}

func (t *tx) Outbox(id gobot.EventID) ([]byte, error) {
	var v []byte
	err := t.tx.QueryRow(t.ctx, "SELECT value FROM outbox WHERE id = $1", string(id)).Scan(&v)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, fmt.Errorf("outbox entry %s %w", id, gobot.ErrNotFound)
	}
	return v, err
}

func (t *tx) DeleteOutbox(id gobot.EventID) error {
	_, err := t.tx.Exec(t.ctx, "DELETE FROM outbox WHERE id = $1", string(id))
	return err
}

func (t *tx) ExpireOutbox(before time.Time) (int, error) {
	tag, err := t.tx.Exec(t.ctx, "DELETE FROM outbox WHERE stored < $1", before)
	if err != nil {
		return 0, err
	}
	return int(tag.RowsAffected()), nil
}
