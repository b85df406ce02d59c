package chat

import (
	"context"
	"encoding/json"
	"errors"
	"time"
)

// A lease gives one process of several sharing a store a piece of work
// that must be done by exactly one of them at a time: the Matrix sync loop
// of a bot account, a Discord gateway shard. The holder renews it before
// it expires; when the holder dies, it expires and another process takes
// it. Leases are kept in the store's adapter state (namespace "lease"), so
// any Store provides them: with the embedded store there is one process
// and it always wins; with a shared store the store's transactions decide.
//
// Expiry compares the clocks of the processes involved: keep them in sync
// (NTP) and the TTL well above their skew.

const leaseNS = "lease"

type leaseRecord struct {
	Holder  string    `json:"holder"`
	Expires time.Time `json:"expires"`
}

// AcquireLease takes or renews the lease name for holder until now+ttl.
// It reports false when another holder's lease has not expired.
func AcquireLease(ctx context.Context, s Store, name, holder string, ttl time.Duration, now time.Time) (bool, error) {
	if holder == "" || name == "" || ttl <= 0 {
		return false, errors.New("lease: empty name or holder, or no TTL")
	}
	var won bool
	err := s.Update(ctx, func(tx Tx) error {
		won = false
		raw, err := tx.State(leaseNS, name)
		if err != nil && !errors.Is(err, ErrNotFound) {
			return err
		}
		if err == nil {
			var cur leaseRecord
			if json.Unmarshal(raw, &cur) == nil && cur.Holder != holder && now.Before(cur.Expires) {
				return nil
			}
		}
		v, err := json.Marshal(leaseRecord{Holder: holder, Expires: now.Add(ttl)})
		if err != nil {
			return err
		}
		won = true
		return tx.PutState(leaseNS, name, v)
	})
	return won && err == nil, err
}

// ReleaseLease gives up holder's lease name (if it still holds it), so
// another process may take it at once.
func ReleaseLease(ctx context.Context, s Store, name, holder string) error {
	return s.Update(ctx, func(tx Tx) error {
		raw, err := tx.State(leaseNS, name)
		if errors.Is(err, ErrNotFound) {
			return nil
		}
		if err != nil {
			return err
		}
		var cur leaseRecord
		if json.Unmarshal(raw, &cur) == nil && cur.Holder != holder {
			return nil
		}
		return tx.PutState(leaseNS, name, nil)
	})
}

// LeaseHolder returns who holds lease name and until when ("" when nobody
// does or it expired before now).
func LeaseHolder(ctx context.Context, s Store, name string, now time.Time) (string, time.Time, error) {
	var cur leaseRecord
	err := s.View(ctx, func(tx Tx) error {
		raw, err := tx.State(leaseNS, name)
		if errors.Is(err, ErrNotFound) {
			return nil
		}
		if err != nil {
			return err
		}
		return json.Unmarshal(raw, &cur)
	})
	if err != nil || !now.Before(cur.Expires) {
		return "", time.Time{}, err
	}
	return cur.Holder, cur.Expires, nil
}

// HoldLease runs work while holder holds lease name: it waits (standby)
// until the lease is free, takes it, renews it every ttl/3, and cancels
// work's context when a renewal fails (another process took over, or the
// store is unreachable for longer than the lease lasts). It returns when
// ctx ends or work returns on its own. standby is called each time it
// starts waiting (for a log line); it may be nil.
func HoldLease(ctx context.Context, s Store, name, holder string, ttl time.Duration, now func() time.Time,
	standby func(holder string), work func(ctx context.Context) error) error {
	every := ttl / 3
	waiting := false
	for {
		won, err := AcquireLease(ctx, s, name, holder, ttl, now())
		if ctx.Err() != nil {
			return nil
		}
		if err == nil && won {
			break
		}
		if !waiting && standby != nil {
			h, _, _ := LeaseHolder(ctx, s, name, now())
			standby(h)
		}
		waiting = true
		select {
		case <-ctx.Done():
			return nil
		case <-time.After(every):
		}
	}
	wctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	done := make(chan error, 1)
	go func() { done <- work(wctx) }()
	t := time.NewTicker(every)
	defer t.Stop()
	lastRenewed := now()
	for {
		select {
		case err := <-done:
			ReleaseLease(context.WithoutCancel(ctx), s, name, holder)
			return err
		case <-t.C:
			won, err := AcquireLease(ctx, s, name, holder, ttl, now())
			switch {
			case err == nil && won:
				lastRenewed = now()
				continue
			case err == nil:
				cancel(ErrLeaseLost)
			case now().Sub(lastRenewed) >= ttl-every:
				// Could not renew in time: another process may take it.
				cancel(ErrLeaseLost)
			default:
				continue
			}
			<-done
			return ErrLeaseLost
		}
	}
}

// ErrLeaseLost is returned by HoldLease when another process took the
// lease (or it could not be renewed in time) and the work was stopped.
var ErrLeaseLost = errors.New("lease lost to another process")
