package gobot

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
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
	// Gen counts the lease's terms: it grows each time the lease passes
	// to a holder (another process, or the same one after a release), and
	// never goes back. A record written before generations has 0.
	Gen uint64 `json:"gen,omitempty"`
}

// A Fence is one term of a lease: its name, holder and generation (a
// fencing token). Work done under a lease checks, in the same
// transaction as its writes, that the lease is still in that term
// (CheckFence): a holder that was paused past its lease (a stopped
// process, a long GC pause, a partition) and resumes after another
// process took over writes nothing, even before it notices.
type Fence struct {
	Name   string
	Holder string
	Gen    uint64
}

// readLease returns lease name's record (the zero record when absent).
func readLease(tx Tx, name string) (leaseRecord, error) {
	var cur leaseRecord
	raw, err := tx.State(leaseNS, name)
	if errors.Is(err, ErrNotFound) || err == nil && len(raw) == 0 {
		return cur, nil
	}
	if err != nil {
		return cur, err
	}
	if err := json.Unmarshal(raw, &cur); err != nil {
		return leaseRecord{}, nil // unreadable: as if free, and rewritten whole
	}
	return cur, nil
}

func writeLease(tx Tx, name string, rec leaseRecord) error {
	v, err := json.Marshal(rec)
	if err != nil {
		return err
	}
	return tx.PutState(leaseNS, name, v)
}

// AcquireLease takes or renews the lease name for holder until now+ttl.
// It reports false when another holder's lease has not expired.
func AcquireLease(ctx context.Context, s Store, name, holder string, ttl time.Duration, now time.Time) (bool, error) {
	_, won, err := TakeLease(ctx, s, name, holder, ttl, now)
	return won, err
}

// TakeLease is AcquireLease that also returns the term it holds: the
// generation stays when holder renews a lease it holds, and grows when
// the lease passes to holder or holder takes it again after it expired.
func TakeLease(ctx context.Context, s Store, name, holder string, ttl time.Duration, now time.Time) (Fence, bool, error) {
	if holder == "" || name == "" || ttl <= 0 {
		return Fence{}, false, errors.New("lease: empty name or holder, or no TTL")
	}
	var f Fence
	err := s.Update(ctx, func(tx Tx) error {
		f = Fence{}
		cur, err := readLease(tx, name)
		if err != nil {
			return err
		}
		if cur.Holder != "" && cur.Holder != holder && now.Before(cur.Expires) {
			return nil
		}
		gen := cur.Gen
		if cur.Holder != holder || !now.Before(cur.Expires) || gen == 0 {
			gen++ // a new term: the lease passes, or holder takes it again after it lapsed
		}
		f = Fence{Name: name, Holder: holder, Gen: gen}
		return writeLease(tx, name, leaseRecord{Holder: holder, Expires: now.Add(ttl), Gen: gen})
	})
	if err != nil {
		return Fence{}, false, err
	}
	return f, f.Gen != 0, nil
}

// RenewLease extends term f of its lease until now+ttl. It reports false
// when the lease is in another term (taken over, or released and taken
// again): then f's work must stop.
func RenewLease(ctx context.Context, s Store, f Fence, ttl time.Duration, now time.Time) (bool, error) {
	var ok bool
	err := s.Update(ctx, func(tx Tx) error {
		ok = false
		cur, err := readLease(tx, f.Name)
		if err != nil {
			return err
		}
		if cur.Holder != f.Holder || cur.Gen != f.Gen {
			return nil
		}
		ok = true
		return writeLease(tx, f.Name, leaseRecord{Holder: f.Holder, Expires: now.Add(ttl), Gen: f.Gen})
	})
	return ok && err == nil, err
}

// CheckFence returns an error wrapping ErrLeaseLost unless lease f.Name
// is still in term f. Call it inside the transaction whose writes the
// lease guards: with a SERIALIZABLE store a takeover that commits
// concurrently makes one of the two transactions fail, so no write is
// made under a term that had already ended.
func CheckFence(tx Tx, f Fence) error {
	cur, err := readLease(tx, f.Name)
	if err != nil {
		return err
	}
	if cur.Holder != f.Holder || cur.Gen != f.Gen {
		return fmt.Errorf("lease %s: term %d of this process ended (now term %d): %w", f.Name, f.Gen, cur.Gen, ErrLeaseLost)
	}
	return nil
}

type fenceKey struct{}

// WithFence returns ctx carrying term f: the bot's write transactions
// under it check the term first (CheckFence). HoldLease gives its work
// such a context.
func WithFence(ctx context.Context, f Fence) context.Context {
	return context.WithValue(ctx, fenceKey{}, f)
}

// FenceOf returns the term ctx carries (WithFence), if any.
func FenceOf(ctx context.Context) (Fence, bool) {
	f, ok := ctx.Value(fenceKey{}).(Fence)
	return f, ok
}

// ReleaseLease gives up holder's lease name (if it still holds it), so
// another process may take it at once. The generation stays, so the next
// holder's term is a new one.
func ReleaseLease(ctx context.Context, s Store, name, holder string) error {
	return s.Update(ctx, func(tx Tx) error {
		cur, err := readLease(tx, name)
		if err != nil || cur.Holder != holder {
			return err
		}
		return writeLease(tx, name, leaseRecord{Gen: cur.Gen})
	})
}

// LeaseHolder returns who holds lease name and until when ("" when nobody
// does or it expired before now).
func LeaseHolder(ctx context.Context, s Store, name string, now time.Time) (string, time.Time, error) {
	var cur leaseRecord
	err := s.View(ctx, func(tx Tx) error {
		var err error
		cur, err = readLease(tx, name)
		return err
	})
	if err != nil || cur.Holder == "" || !now.Before(cur.Expires) {
		return "", time.Time{}, err
	}
	return cur.Holder, cur.Expires, nil
}

// HoldLease runs work while holder holds lease name: it waits (standby)
// until the lease is free, takes it, renews it every ttl/3, and cancels
// work's context the moment the term ends: a renewal finds another
// holder, or the lease could not be renewed before it expired (the store
// unreachable, or this process paused). work's context carries the term
// (WithFence), so every write the bot makes under it checks the term in
// its own transaction: what work still does after the term ended (a
// sync response being handled) is refused. HoldLease returns when ctx
// ends or work returns on its own. standby is called each time it starts
// waiting (for a log line); it may be nil.
func HoldLease(ctx context.Context, s Store, name, holder string, ttl time.Duration, now func() time.Time,
	standby func(holder string), work func(ctx context.Context) error) error {
	every := ttl / 3
	waiting := false
	var f Fence
	for {
		var won bool
		var err error
		f, won, err = TakeLease(ctx, s, name, holder, ttl, now())
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
	lastRenewed := now()
	wctx, cancel := context.WithCancelCause(WithFence(ctx, f))
	defer cancel(nil)
	done := make(chan error, 1)
	go func() { done <- work(wctx) }()
	t := time.NewTicker(every)
	defer t.Stop()
	// expired fires when the lease runs out unrenewed (timers run on the
	// monotonic clock, which goes on while the process is stopped).
	expired := time.NewTimer(ttl)
	defer expired.Stop()
	lost := func() error {
		cancel(ErrLeaseLost)
		<-done
		return ErrLeaseLost
	}
	for {
		select {
		case err := <-done:
			ReleaseLease(context.WithoutCancel(ctx), s, name, holder)
			return err
		case <-expired.C:
			return lost()
		case <-t.C:
			at := now()
			if at.Sub(lastRenewed) >= ttl {
				return lost() // paused past the lease: another may hold it now
			}
			ok, err := RenewLease(ctx, s, f, ttl, at)
			switch {
			case err == nil && ok:
				lastRenewed = at
				expired.Reset(ttl - now().Sub(at))
			case err == nil:
				return lost()
			case now().Sub(lastRenewed) >= ttl-every:
				// Could not renew in time: another process may take it.
				return lost()
			}
		}
	}
}

// fencedStore is the bot's store: a write transaction whose ctx carries a
// lease's term (work under HoldLease, or a claim for a platform whose
// notifier holds a lease) checks the term first, in the same
// transaction, and fails with ErrLeaseLost when it ended.
type fencedStore struct{ Store }

func (s fencedStore) Update(ctx context.Context, fn func(Tx) error) error {
	f, ok := FenceOf(ctx)
	if !ok || f.Name == "" { // WithFence(ctx, Fence{}) lifts a fence
		return s.Store.Update(ctx, fn)
	}
	return s.Store.Update(ctx, func(tx Tx) error {
		if err := CheckFence(tx, f); err != nil {
			return err
		}
		return fn(tx)
	})
}

// ErrLeaseLost is returned by HoldLease when another process took the
// lease (or it could not be renewed in time) and the work was stopped.
var ErrLeaseLost = errors.New("lease lost to another process")

// Fenced wraps s so that a write transaction whose ctx carries a lease's
// Fence (WithFence) runs only while that lease term is current.
func Fenced(s Store) Store { return fencedStore{s} }
