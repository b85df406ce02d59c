package postgres

import (
	"errors"
	"time"

	"github.com/gobotgo/gobot"
)

// PutPlayer stores a player; vacation_due follows the player's vacation
// (migrations/004_vacation.sql).
func (t *tx) PutPlayer(p *gobot.Player) error {
	raw, err := encodePlayer(p)
	if err != nil {
		return err
	}
	if p.ID == "" {
		return errors.New("empty key")
	}
	var due *time.Time
	if d := p.VacationDue(); !d.IsZero() {
		due = &d
	}
	_, err = t.tx.Exec(t.ctx, `INSERT INTO players (id, record, vacation_due) VALUES ($1, $2, $3)
		ON CONFLICT (id) DO UPDATE SET record = $2, vacation_due = $3`, string(p.ID), raw, due)
	return err
}

// DueVacations returns the players on vacation whose vacation ends
// before t, earliest first (ties by ID), at most limit (0 = all).
func (t *tx) DueVacations(before time.Time, limit int) ([]*gobot.Player, error) {
	sql := `SELECT id, record FROM players WHERE vacation_due IS NOT NULL AND vacation_due < $1 ORDER BY vacation_due, id`
	args := []any{before}
	if limit > 0 {
		sql += ` LIMIT $2`
		args = append(args, limit)
	}
	rows, err := t.tx.Query(t.ctx, sql, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []*gobot.Player
	var errs []error
	for rows.Next() {
		var id string
		var raw []byte
		if err := rows.Scan(&id, &raw); err != nil {
			return nil, err
		}
		p, err := decodePlayer(gobot.UserID(id), raw)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		out = append(out, p)
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	if errs != nil {
		return out, &gobot.DamagedError{Err: errors.Join(errs...)}
	}
	return out, nil
}
