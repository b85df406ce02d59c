package postgres

import (
	"context"
	"errors"
	"fmt"

	"github.com/gobotgo/gobot"
	"github.com/gobotgo/gobot/storage/record"
	"github.com/gobotgo/gobot/storage/storecopy"
	"github.com/jackc/pgx/v5"
)

// Export calls fn for every record, games and challenges in ID order
// (storecopy.Source), from one snapshot. Damaged games and challenges are
// skipped and named in a *chat.DamagedError.
func (s *Store) Export(ctx context.Context, fn func(storecopy.Item) error) error {
	var bad damaged
	err := s.run(ctx, pgx.TxOptions{IsoLevel: pgx.RepeatableRead, AccessMode: pgx.ReadOnly}, func(ptx pgx.Tx) error {
		bad = damaged{}
		rows := func(sql string, each func(pgx.Rows) error) error {
			r, err := ptx.Query(ctx, sql)
			if err != nil {
				return err
			}
			defer r.Close()
			for r.Next() {
				if err := each(r); err != nil {
					return err
				}
			}
			return r.Err()
		}
		err := rows("SELECT id, record FROM games ORDER BY id", func(r pgx.Rows) error {
			var id int64
			var raw []byte
			if err := r.Scan(&id, &raw); err != nil {
				return err
			}
			g, err := decodeGame(gobot.GameID(id), raw)
			if err != nil {
				bad.game(gobot.GameID(id), err)
				return nil
			}
			return fn(storecopy.Item{Game: g})
		})
		if err != nil {
			return err
		}
		err = rows("SELECT id, record FROM challenges ORDER BY id", func(r pgx.Rows) error {
			var id int64
			var raw []byte
			if err := r.Scan(&id, &raw); err != nil {
				return err
			}
			c, err := decodeChallenge(gobot.ChallengeID(id), raw)
			if err != nil {
				bad.challenge(gobot.ChallengeID(id), err)
				return nil
			}
			return fn(storecopy.Item{Challenge: c})
		})
		if err != nil {
			return err
		}
		err = rows("SELECT id, record FROM players ORDER BY id", func(r pgx.Rows) error {
			var id string
			var raw []byte
			if err := r.Scan(&id, &raw); err != nil {
				return err
			}
			p, err := decodePlayer(gobot.UserID(id), raw)
			if err != nil {
				return err
			}
			return fn(storecopy.Item{Player: p})
		})
		if err != nil {
			return err
		}
		err = rows("SELECT id, record FROM rooms ORDER BY id", func(r pgx.Rows) error {
			var id string
			var raw []byte
			if err := r.Scan(&id, &raw); err != nil {
				return err
			}
			rm, err := decodeRoom(gobot.RoomID(id), raw)
			if err != nil {
				return err
			}
			return fn(storecopy.Item{Room: rm})
		})
		if err != nil {
			return err
		}
		err = rows(`SELECT community, player, record FROM ratings ORDER BY community COLLATE "C", player COLLATE "C"`, func(r pgx.Rows) error {
			var c, u string
			var raw []byte
			if err := r.Scan(&c, &u, &raw); err != nil {
				return err
			}
			rt, err := record.DecodeRatingOf(gobot.CommunityID(c), gobot.UserID(u), raw)
			if err != nil {
				return err
			}
			return fn(storecopy.Item{Rating: rt})
		})
		if err != nil {
			return err
		}
		err = rows(`SELECT game, player, generation FROM link_generations ORDER BY game, player COLLATE "C"`, func(r pgx.Rows) error {
			var g, gen int64
			var u string
			if err := r.Scan(&g, &u, &gen); err != nil {
				return err
			}
			return fn(storecopy.Item{Link: &storecopy.LinkGeneration{Game: gobot.GameID(g), User: gobot.UserID(u), Gen: uint64(gen)}})
		})
		if err != nil {
			return err
		}
		err = rows("SELECT id, stored, value FROM outbox ORDER BY stored, id", func(r pgx.Rows) error {
			var o storecopy.OutboxEntry
			var id string
			if err := r.Scan(&id, &o.Stored, &o.Value); err != nil {
				return err
			}
			o.ID, o.Stored = gobot.EventID(id), o.Stored.UTC()
			return fn(storecopy.Item{Outbox: &o})
		})
		if err != nil {
			return err
		}
		err = rows("SELECT key, holder, expires, value FROM claims ORDER BY key", func(r pgx.Rows) error {
			c := &gobot.Claim{}
			if err := r.Scan(&c.Key, &c.Holder, &c.Expires, &c.Value); err != nil {
				return err
			}
			c.Expires = c.Expires.UTC()
			return fn(storecopy.Item{Claim: c})
		})
		if err != nil {
			return err
		}
		err = rows("SELECT id, record FROM reviews ORDER BY id", func(r pgx.Rows) error {
			var id int64
			var raw []byte
			if err := r.Scan(&id, &raw); err != nil {
				return err
			}
			rv, err := decodeReview(gobot.ReviewID(id), raw)
			if err != nil {
				return err // a copy without a review would lose it
			}
			return fn(storecopy.Item{Review: rv})
		})
		if err != nil {
			return err
		}
		if err := exportEvents(ctx, ptx, tournaments, &bad.d, func(v *gobot.Tournament) error { return fn(storecopy.Item{Tournament: v}) }); err != nil {
			return err
		}
		if err := exportEvents(ctx, ptx, ladders, &bad.d, func(v *gobot.Ladder) error { return fn(storecopy.Item{Ladder: v}) }); err != nil {
			return err
		}
		err = rows(`SELECT account, player, linked FROM account_links ORDER BY account COLLATE "C"`, func(r pgx.Rows) error {
			var a, p string
			l := &gobot.AccountLink{}
			if err := r.Scan(&a, &p, &l.Linked); err != nil {
				return err
			}
			l.Account, l.Player, l.Linked = gobot.UserID(a), gobot.UserID(p), l.Linked.UTC()
			return fn(storecopy.Item{Account: l})
		})
		if err != nil {
			return err
		}
		err = rows(`SELECT hash, player, issued, expires, used FROM link_codes ORDER BY hash COLLATE "C"`, func(r pgx.Rows) error {
			var u string
			c := &gobot.LinkCode{}
			if err := r.Scan(&c.Hash, &u, &c.Issued, &c.Expires, &c.Used); err != nil {
				return err
			}
			c.User, c.Issued, c.Expires = gobot.UserID(u), c.Issued.UTC(), c.Expires.UTC()
			return fn(storecopy.Item{LinkCode: c})
		})
		if err != nil {
			return err
		}
		err = rows(`SELECT id, record FROM joined_communities ORDER BY id COLLATE "C"`, func(r pgx.Rows) error {
			var id string
			var raw []byte
			if err := r.Scan(&id, &raw); err != nil {
				return err
			}
			j, err := record.DecodeJoinedCommunityOf(gobot.CommunityID(id), raw)
			if err != nil {
				return err // a copy without it would merge its members again
			}
			return fn(storecopy.Item{Community: j})
		})
		if err != nil {
			return err
		}
		err = rows("SELECT ns, key, value FROM state ORDER BY ns, key", func(r pgx.Rows) error {
			var st storecopy.State
			if err := r.Scan(&st.NS, &st.Key, &st.Value); err != nil {
				return err
			}
			return fn(storecopy.Item{State: &st})
		})
		if err != nil {
			return err
		}
		return rows("SELECT id, handled FROM events ORDER BY handled, id", func(r pgx.Rows) error {
			var ev storecopy.Event
			var id string
			if err := r.Scan(&id, &ev.Handled); err != nil {
				return err
			}
			ev.ID = gobot.EventID(id)
			return fn(storecopy.Item{Event: &ev})
		})
	})
	if err != nil {
		return err
	}
	return bad.err()
}

// Count counts the records of each kind (storecopy.Source and Sink).
func (s *Store) Count(ctx context.Context) (storecopy.Tally, error) {
	var n [16]int64
	err := s.run(ctx, pgx.TxOptions{IsoLevel: pgx.RepeatableRead, AccessMode: pgx.ReadOnly}, func(ptx pgx.Tx) error {
		return ptx.QueryRow(ctx, `SELECT (SELECT count(*) FROM games), (SELECT count(*) FROM challenges),
		(SELECT count(*) FROM players), (SELECT count(*) FROM rooms), (SELECT count(*) FROM ratings),
		(SELECT count(*) FROM outbox), (SELECT count(*) FROM claims), (SELECT count(*) FROM state),
		(SELECT count(*) FROM events), (SELECT count(*) FROM link_generations), (SELECT count(*) FROM reviews),
		(SELECT count(*) FROM tournaments), (SELECT count(*) FROM ladders),
		(SELECT count(*) FROM account_links), (SELECT count(*) FROM link_codes), (SELECT count(*) FROM joined_communities)`).
			Scan(&n[0], &n[1], &n[2], &n[3], &n[4], &n[5], &n[6], &n[7], &n[8], &n[9], &n[10], &n[11], &n[12], &n[13], &n[14], &n[15])
	})
	var t storecopy.Tally
	for i, k := range []storecopy.Kind{storecopy.Games, storecopy.Challenges, storecopy.Players, storecopy.Rooms,
		storecopy.Ratings, storecopy.Outbox, storecopy.Claims, storecopy.States, storecopy.Events, storecopy.Links, storecopy.Reviews,
		storecopy.Tournaments, storecopy.Ladders, storecopy.Accounts, storecopy.LinkCodes, storecopy.Communities} {
		t[k] = int(n[i])
	}
	return t, err
}

// Import stores items in one transaction (storecopy.Sink): games and
// challenges keep their IDs, and the counters move past them.
func (s *Store) Import(ctx context.Context, items []storecopy.Item) error {
	return s.Update(ctx, func(ct gobot.Tx) error {
		t := ct.(*tx)
		for _, it := range items {
			var err error
			switch {
			case it.Game != nil:
				g := *it.Game
				err = t.insertWithID("games", uint64(g.ID), func() error { g.ID, g.Version = 0, 0; return t.PutMatch(&g) })
			case it.Challenge != nil:
				c := *it.Challenge
				err = t.insertWithID("challenges", uint64(c.ID), func() error { c.ID = 0; return t.PutChallenge(&c) })
			case it.Player != nil:
				err = t.PutPlayer(it.Player)
			case it.Room != nil:
				err = t.PutRoom(it.Room)
			case it.Rating != nil:
				err = t.PutRating(it.Rating)
			case it.Outbox != nil:
				err = t.PutOutbox(it.Outbox.ID, it.Outbox.Stored, it.Outbox.Value)
			case it.Claim != nil:
				err = t.PutClaim(it.Claim)
			case it.State != nil:
				err = t.PutState(it.State.NS, it.State.Key, it.State.Value)
			case it.Event != nil:
				err = t.MarkEvent(it.Event.ID, it.Event.Handled)
			case it.Review != nil:
				r := *it.Review
				err = t.insertWithID("reviews", uint64(r.ID), func() error { r.ID, r.Version = 0, 0; return t.PutReview(&r) })
			case it.Link != nil:
				err = t.PutLinkGeneration(it.Link.Game, it.Link.User, it.Link.Gen)
			case it.Tournament != nil:
				err = importEvent(t, tournaments, *it.Tournament)
			case it.Ladder != nil:
				err = importEvent(t, ladders, *it.Ladder)
			case it.Account != nil:
				err = t.PutAccountLink(it.Account)
			case it.LinkCode != nil:
				err = t.PutLinkCode(it.LinkCode)
			case it.Community != nil:
				err = t.PutJoinedCommunity(it.Community)
			}
			if err != nil {
				return err
			}
		}
		return nil
	})
}

// insertWithID runs put (an insert that takes the next number of counter
// table) so that the record gets id, and leaves the counter at least at id.
func (t *tx) insertWithID(table string, id uint64, put func() error) error {
	if id == 0 {
		return fmt.Errorf("%s: a record without an ID", table)
	}
	var old int64
	if err := t.tx.QueryRow(t.ctx, "SELECT value FROM counters WHERE name = $1", table).Scan(&old); err != nil {
		return err
	}
	if _, err := t.tx.Exec(t.ctx, "UPDATE counters SET value = $2 WHERE name = $1", table, int64(id)-1); err != nil {
		return err
	}
	if err := put(); err != nil {
		return err
	}
	_, err := t.tx.Exec(t.ctx, "UPDATE counters SET value = greatest($2::bigint, $3::bigint) WHERE name = $1", table, old, int64(id))
	return err
}

// exportEvents calls fn for each of k's records in ID order; damaged ones
// are skipped and named in bad, as games are.
func exportEvents[T any](ctx context.Context, ptx pgx.Tx, k eventKind[T], bad *gobot.DamagedError, fn func(*T) error) error {
	r, err := ptx.Query(ctx, "SELECT id, record FROM "+k.table+" ORDER BY id")
	if err != nil {
		return err
	}
	defer r.Close()
	for r.Next() {
		var id int64
		var raw []byte
		if err := r.Scan(&id, &raw); err != nil {
			return err
		}
		v, err := decodeEvent(k, uint64(id), raw)
		if err != nil {
			k.addDamaged(bad, uint64(id))
			bad.Err = errors.Join(bad.Err, err)
			continue
		}
		if err := fn(v); err != nil {
			return err
		}
	}
	return r.Err()
}

// importEvent stores v under its own number, with its counter past it.
func importEvent[T any](t *tx, k eventKind[T], v T) error {
	id := k.id(&v)
	return t.insertWithID(k.table, id, func() error { k.setID(&v, 0); *k.version(&v) = 0; return putEvent(t, k, &v) })
}
