package postgres

import (
	"errors"
	"fmt"

	"github.com/gobotgo/gobot/storage/record"

	"github.com/gobotgo/gobot"
	"github.com/jackc/pgx/v5"
)

// Ratings, one row per community and player, in the shared record format.

func (t *tx) Rating(c gobot.CommunityID, u gobot.UserID) (*gobot.PlayerRating, error) {
	var raw []byte
	err := t.tx.QueryRow(t.ctx, "SELECT record FROM ratings WHERE community = $1 AND player = $2", string(c), string(u)).Scan(&raw)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, fmt.Errorf("rating of %s in %s %w", u, c, gobot.ErrNotFound)
	}
	if err != nil {
		return nil, err
	}
	return record.DecodeRatingOf(c, u, raw)
}

func (t *tx) PutRating(r *gobot.PlayerRating) error {
	if r.Community == "" || r.User == "" {
		return errors.New("a rating needs a community and a user")
	}
	if err := r.Player().Check(); err != nil {
		return fmt.Errorf("rating of %s in %s: %w", r.User, r.Community, err)
	}
	raw, err := record.EncodeRating(r)
	if err != nil {
		return err
	}
	_, err = t.tx.Exec(t.ctx, `INSERT INTO ratings (community, player, record) VALUES ($1, $2, $3)
		ON CONFLICT (community, player) DO UPDATE SET record = $3`, string(r.Community), string(r.User), raw)
	return err
}

func (t *tx) Ratings(c gobot.CommunityID) ([]*gobot.PlayerRating, error) {
	sql := `SELECT community, player, record FROM ratings ORDER BY community COLLATE "C", player COLLATE "C"`
	args := []any{}
	if c != "" {
		sql = `SELECT community, player, record FROM ratings WHERE community = $1 ORDER BY player COLLATE "C"`
		args = append(args, string(c))
	}
	rows, err := t.tx.Query(t.ctx, sql, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []*gobot.PlayerRating
	var errs []error
	for rows.Next() {
		var cs, us string
		var raw []byte
		if err := rows.Scan(&cs, &us, &raw); err != nil {
			return nil, err
		}
		r, err := record.DecodeRatingOf(gobot.CommunityID(cs), gobot.UserID(us), raw)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		out = append(out, r)
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	if len(errs) > 0 {
		return out, &gobot.DamagedError{Err: errors.Join(errs...)}
	}
	return out, nil
}

func (t *tx) UserRatings(u gobot.UserID) ([]*gobot.PlayerRating, error) {
	rows, err := t.tx.Query(t.ctx, `SELECT community, record FROM ratings WHERE player = $1 ORDER BY community COLLATE "C"`, string(u))
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []*gobot.PlayerRating
	for rows.Next() {
		var cs string
		var raw []byte
		if err := rows.Scan(&cs, &raw); err != nil {
			return nil, err
		}
		r, err := record.DecodeRatingOf(gobot.CommunityID(cs), u, raw)
		if err != nil {
			return out, err
		}
		out = append(out, r)
	}
	return out, rows.Err()
}

func (t *tx) DeleteRating(c gobot.CommunityID, u gobot.UserID) error {
	_, err := t.tx.Exec(t.ctx, "DELETE FROM ratings WHERE community = $1 AND player = $2", string(c), string(u))
	return err
}

func (t *tx) JoinedCommunities() ([]*gobot.JoinedCommunity, error) {
	rows, err := t.tx.Query(t.ctx, `SELECT id, record FROM joined_communities ORDER BY id COLLATE "C"`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []*gobot.JoinedCommunity
	for rows.Next() {
		var id string
		var raw []byte
		if err := rows.Scan(&id, &raw); err != nil {
			return nil, err
		}
		j, err := record.DecodeJoinedCommunityOf(gobot.CommunityID(id), raw)
		if err != nil {
			return out, err
		}
		out = append(out, j)
	}
	return out, rows.Err()
}

func (t *tx) PutJoinedCommunity(j *gobot.JoinedCommunity) error {
	if j.ID == "" {
		return errors.New("a joined community needs an ID")
	}
	raw, err := record.EncodeJoinedCommunity(j)
	if err != nil {
		return err
	}
	_, err = t.tx.Exec(t.ctx, `INSERT INTO joined_communities (id, record) VALUES ($1, $2)
		ON CONFLICT (id) DO UPDATE SET record = $2`, string(j.ID), raw)
	return err
}
