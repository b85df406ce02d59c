package storage

import (
	"encoding/binary"
	"fmt"
	"time"

	"github.com/gobotgo/gobot"
)

// bOutbox holds, per event ID, what the bot owes as the answer to that
// event: written in the transaction that handled the event, deleted once
// the answer was delivered. A platform that hands an event over again
// after a crash then gets the answer that was owed. Value: unixnano(8)
// when stored, then the caller's bytes. The bucket is made on first use.
var bOutbox = []byte("outbox")

// PutOutbox stores what is owed for event id, stored at t.
func (tx *Tx) PutOutbox(id gobot.EventID, t time.Time, v []byte) error {
	if id == "" {
		return fmt.Errorf("outbox: empty event ID")
	}
	b, err := tx.tx.CreateBucketIfNotExists(bOutbox)
	if err != nil {
		return err
	}
	return b.Put([]byte(id), append(timeKey(t), v...))
}

// Outbox returns what is owed for event id; ErrNotFound when nothing is
// (never owed, or delivered).
func (tx *Tx) Outbox(id gobot.EventID) ([]byte, error) {
	if b := tx.tx.Bucket(bOutbox); b != nil {
		if v := b.Get([]byte(id)); len(v) >= 8 {
			return append([]byte(nil), v[8:]...), nil
		}
	}
	return nil, fmt.Errorf("outbox entry %s %w", id, gobot.ErrNotFound)
}

// DeleteOutbox records that what was owed for event id was delivered.
func (tx *Tx) DeleteOutbox(id gobot.EventID) error {
	if b := tx.tx.Bucket(bOutbox); b != nil {
		return b.Delete([]byte(id))
	}
	return nil
}

// ExpireOutbox drops entries stored before t (their events are
// forgotten too) and returns how many.
func (tx *Tx) ExpireOutbox(before time.Time) (int, error) {
	b := tx.tx.Bucket(bOutbox)
	if b == nil || !tx.tx.Writable() {
		return 0, nil
	}
	var old [][]byte
	b.ForEach(func(k, v []byte) error {
		if len(v) < 8 || int64(binary.BigEndian.Uint64(v[:8])) < before.UnixNano() {
			old = append(old, append([]byte(nil), k...))
		}
		return nil
	})
	for _, k := range old {
		if err := b.Delete(k); err != nil {
			return 0, err
		}
	}
	return len(old), nil
}
