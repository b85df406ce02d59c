package storage

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"time"

	"github.com/gobotgo/gobot"
	"github.com/gobotgo/gobot/storage/storecopy"
)

// Export calls fn for every record in the file, games and challenges in
// ID order (storecopy.Source). Damaged games and challenges are skipped
// and named in a *chat.DamagedError.
func (db *DB) Export(ctx context.Context, fn func(storecopy.Item) error) error {
	var bad gobot.DamagedError
	err := db.view(ctx, func(tx *Tx) error {
		var ids []uint64
		tx.b(bGames).ForEach(func(k, _ []byte) error {
			if len(k) == 8 {
				ids = append(ids, binary.BigEndian.Uint64(k))
			}
			return nil
		})
		for _, id := range ids {
			g, err := tx.Match(gobot.GameID(id))
			if err != nil {
				bad.Games, bad.Err = append(bad.Games, gobot.GameID(id)), errors.Join(bad.Err, err)
				continue
			}
			if err := fn(storecopy.Item{Game: g}); err != nil {
				return err
			}
		}
		ids = ids[:0]
		tx.b(bChallenges).ForEach(func(k, _ []byte) error {
			if len(k) == 8 {
				ids = append(ids, binary.BigEndian.Uint64(k))
			}
			return nil
		})
		for _, id := range ids {
			c, err := tx.Challenge(gobot.ChallengeID(id))
			if err != nil {
				bad.Challenges, bad.Err = append(bad.Challenges, gobot.ChallengeID(id)), errors.Join(bad.Err, err)
				continue
			}
			if err := fn(storecopy.Item{Challenge: c}); err != nil {
				return err
			}
		}
		var keys []string
		tx.b(bPlayers).ForEach(func(k, _ []byte) error { keys = append(keys, string(k)); return nil })
		for _, k := range keys {
			p, err := tx.Player(gobot.UserID(k))
			if err != nil {
				return err
			}
			if err := fn(storecopy.Item{Player: p}); err != nil {
				return err
			}
		}
		keys = keys[:0]
		tx.b(bRooms).ForEach(func(k, _ []byte) error { keys = append(keys, string(k)); return nil })
		for _, k := range keys {
			r, err := tx.Room(gobot.RoomID(k))
			if err != nil {
				return err
			}
			if err := fn(storecopy.Item{Room: r}); err != nil {
				return err
			}
		}
		rs, err := tx.Ratings("")
		if err != nil {
			// Not a *chat.DamagedError to the caller: a copy without
			// some ratings would lose them, so it stops.
			return fmt.Errorf("reading the ratings: %v", err)
		}
		for _, r := range rs {
			if err := fn(storecopy.Item{Rating: r}); err != nil {
				return err
			}
		}
		err = tx.eachLinkGeneration(func(g gobot.GameID, u gobot.UserID, gen uint64) error {
			return fn(storecopy.Item{Link: &storecopy.LinkGeneration{Game: g, User: u, Gen: gen}})
		})
		if err != nil {
			return err
		}
		if ob := tx.tx.Bucket(bOutbox); ob != nil {
			err := ob.ForEach(func(k, v []byte) error {
				if len(v) < 8 {
					return fmt.Errorf("outbox entry %q: %w: %d bytes", k, gobot.ErrCorrupt, len(v))
				}
				at := time.Unix(0, int64(binary.BigEndian.Uint64(v[:8]))).UTC()
				return fn(storecopy.Item{Outbox: &storecopy.OutboxEntry{ID: gobot.EventID(k), Stored: at, Value: append([]byte(nil), v[8:]...)}})
			})
			if err != nil {
				return err
			}
		}
		if cb := tx.tx.Bucket(bClaims); cb != nil {
			err := cb.ForEach(func(k, v []byte) error {
				c, err := decodeClaim(k, v)
				if err != nil {
					return err
				}
				return fn(storecopy.Item{Claim: c})
			})
			if err != nil {
				return err
			}
		}
		if rb := tx.tx.Bucket(bReviews); rb != nil {
			var ids []gobot.ReviewID
			rb.ForEach(func(k, _ []byte) error {
				if len(k) == 8 {
					ids = append(ids, gobot.ReviewID(binary.BigEndian.Uint64(k)))
				}
				return nil
			})
			for _, id := range ids {
				r, err := tx.Review(id)
				if err != nil {
					return err // a copy without a review would lose it
				}
				if err := fn(storecopy.Item{Review: r}); err != nil {
					return err
				}
			}
		}
		if err := exportEvents(tx, tournaments, &bad, func(t *gobot.Tournament) error { return fn(storecopy.Item{Tournament: t}) }); err != nil {
			return err
		}
		if err := exportEvents(tx, ladders, &bad, func(l *gobot.Ladder) error { return fn(storecopy.Item{Ladder: l}) }); err != nil {
			return err
		}
		if err := tx.eachAccountLink(func(l *gobot.AccountLink) error { return fn(storecopy.Item{Account: l}) }); err != nil {
			return err
		}
		if err := tx.eachLinkCode(func(c *gobot.LinkCode) error { return fn(storecopy.Item{LinkCode: c}) }); err != nil {
			return err
		}
		js, err := tx.JoinedCommunities()
		if err != nil {
			return err // a copy without one would merge its members again
		}
		for _, j := range js {
			if err := fn(storecopy.Item{Community: j}); err != nil {
				return err
			}
		}
		err = tx.b(bState).ForEach(func(k, v []byte) error {
			ns, key, ok := bytes.Cut(k, []byte{0})
			if !ok {
				return nil
			}
			return fn(storecopy.Item{State: &storecopy.State{NS: string(ns), Key: string(key), Value: append([]byte(nil), v...)}})
		})
		if err != nil {
			return err
		}
		return tx.b(bEvents).ForEach(func(k, v []byte) error {
			if len(v) != 8 {
				return nil
			}
			at := time.Unix(0, int64(binary.BigEndian.Uint64(v))).UTC()
			return fn(storecopy.Item{Event: &storecopy.Event{ID: gobot.EventID(k), Handled: at}})
		})
	})
	if err != nil {
		return err
	}
	if len(bad.Games)+len(bad.Challenges)+len(bad.Tournaments)+len(bad.Ladders) > 0 {
		return &bad
	}
	return nil
}

// exportEvents calls fn for each of k's records in ID order; damaged ones
// are skipped and named in bad, as games are.
func exportEvents[T any](tx *Tx, k eventKind[T], bad *gobot.DamagedError, fn func(*T) error) error {
	b := tx.b(k.records)
	if b == nil {
		return nil
	}
	var ids []uint64
	b.ForEach(func(key, _ []byte) error {
		if len(key) == 8 {
			ids = append(ids, binary.BigEndian.Uint64(key))
		}
		return nil
	})
	for _, id := range ids {
		v, err := getEvent(tx, k, id)
		if err != nil {
			k.addDamaged(bad, id)
			bad.Err = errors.Join(bad.Err, err)
			continue
		}
		if err := fn(v); err != nil {
			return err
		}
	}
	return nil
}

// importEvent stores v under its own number, with its counter past it.
func importEvent[T any](tx *Tx, k eventKind[T], v T) error {
	if err := tx.buckets(k.records, k.rooms, k.due, k.games); err != nil {
		return err
	}
	id := k.id(&v)
	return tx.insertWithID(k.records, id, func() error { k.setID(&v, 0); *k.version(&v) = 0; return putEvent(tx, k, &v) })
}

// Count counts the records of each kind in the file (storecopy.Source
// and Sink).
func (db *DB) Count(ctx context.Context) (storecopy.Tally, error) {
	var n storecopy.Tally
	err := db.view(ctx, func(tx *Tx) error {
		for k, b := range map[storecopy.Kind][]byte{
			storecopy.Games: bGames, storecopy.Challenges: bChallenges, storecopy.Players: bPlayers,
			storecopy.Rooms: bRooms, storecopy.Ratings: bRatings, storecopy.Outbox: bOutbox,
			storecopy.Claims: bClaims, storecopy.States: bState, storecopy.Events: bEvents, storecopy.Links: bLinks, storecopy.Reviews: bReviews,
			storecopy.Tournaments: bTournaments, storecopy.Ladders: bLadders,
			storecopy.Accounts: bAccounts, storecopy.LinkCodes: bLinkCodes, storecopy.Communities: bJoined,
		} {
			if b := tx.tx.Bucket(b); b != nil {
				n[k] = b.Stats().KeyN
			}
		}
		return nil
	})
	return n, err
}

// Import stores items in one transaction (storecopy.Sink): games and
// challenges keep their IDs, and the ID sequences move past them.
func (db *DB) Import(ctx context.Context, items []storecopy.Item) error {
	return db.update(ctx, func(tx *Tx) error {
		for _, it := range items {
			var err error
			switch {
			case it.Game != nil:
				g := *it.Game
				err = tx.insertWithID(bGames, uint64(g.ID), func() error { g.ID, g.Version = 0, 0; return tx.PutMatch(&g) })
			case it.Challenge != nil:
				c := *it.Challenge
				err = tx.insertWithID(bChallenges, uint64(c.ID), func() error { c.ID = 0; return tx.PutChallenge(&c) })
			case it.Player != nil:
				err = tx.PutPlayer(it.Player)
			case it.Room != nil:
				err = tx.PutRoom(it.Room)
			case it.Rating != nil:
				err = tx.PutRating(it.Rating)
			case it.Outbox != nil:
				err = tx.PutOutbox(it.Outbox.ID, it.Outbox.Stored, it.Outbox.Value)
			case it.Claim != nil:
				err = tx.PutClaim(it.Claim)
			case it.State != nil:
				err = tx.PutState(it.State.NS, it.State.Key, it.State.Value)
			case it.Event != nil:
				err = tx.MarkEvent(it.Event.ID, it.Event.Handled)
			case it.Review != nil:
				r := *it.Review
				if _, err = tx.tx.CreateBucketIfNotExists(bReviews); err == nil {
					err = tx.insertWithID(bReviews, uint64(r.ID), func() error { r.ID, r.Version = 0, 0; return tx.PutReview(&r) })
				}
			case it.Link != nil:
				err = tx.PutLinkGeneration(it.Link.Game, it.Link.User, it.Link.Gen)
			case it.Tournament != nil:
				err = importEvent(tx, tournaments, *it.Tournament)
			case it.Ladder != nil:
				err = importEvent(tx, ladders, *it.Ladder)
			case it.Account != nil:
				err = tx.PutAccountLink(it.Account)
			case it.LinkCode != nil:
				err = tx.PutLinkCode(it.LinkCode)
			case it.Community != nil:
				err = tx.PutJoinedCommunity(it.Community)
			}
			if err != nil {
				return err
			}
		}
		return nil
	})
}

// insertWithID runs put (an insert that takes the bucket's next sequence)
// so that the record gets id, and leaves the sequence at least at id.
func (tx *Tx) insertWithID(bucket []byte, id uint64, put func() error) error {
	b := tx.b(bucket)
	if id == 0 {
		return fmt.Errorf("%s: a record without an ID", bucket)
	}
	if b.Get(idKey(id)) != nil {
		return fmt.Errorf("%s #%d is already there", bucket, id)
	}
	seq := b.Sequence()
	if err := b.SetSequence(id - 1); err != nil {
		return err
	}
	if err := put(); err != nil {
		return err
	}
	return b.SetSequence(max(seq, id))
}
