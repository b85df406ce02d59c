package storage

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/gobotgo/gobot"
)

// bClaims holds the claims on deadline work (chat.Claim) by key: the
// messages of a reminder, a timeout or an engine's move between the
// commit that decided them and their sending. Value: a JSON object. The
// bucket is made on first use; claims live for seconds, so a list scans
// it.
var bClaims = []byte("claims")

type claimRecord struct {
	Holder  string    `json:"holder"`
	Expires time.Time `json:"expires"`
	Value   []byte    `json:"value"`
}

// PutClaim stores claim c, replacing the one under its key.
func (tx *Tx) PutClaim(c *gobot.Claim) error {
	if c.Key == "" {
		return fmt.Errorf("claim: empty key")
	}
	b, err := tx.tx.CreateBucketIfNotExists(bClaims)
	if err != nil {
		return err
	}
	v, err := json.Marshal(claimRecord{Holder: c.Holder, Expires: c.Expires.UTC(), Value: c.Value})
	if err != nil {
		return err
	}
	return b.Put([]byte(c.Key), v)
}

// Claim returns the claim under key.
func (tx *Tx) Claim(key string) (*gobot.Claim, error) {
	if b := tx.tx.Bucket(bClaims); b != nil {
		if v := b.Get([]byte(key)); v != nil {
			return decodeClaim([]byte(key), v)
		}
	}
	return nil, fmt.Errorf("claim %q %w", key, gobot.ErrNotFound)
}

// DeleteClaim drops the claim under key.
func (tx *Tx) DeleteClaim(key string) error {
	if b := tx.tx.Bucket(bClaims); b != nil {
		return b.Delete([]byte(key))
	}
	return nil
}

// ExpiredClaims returns the claims that expired before t, earliest first.
func (tx *Tx) ExpiredClaims(before time.Time, limit int) ([]*gobot.Claim, error) {
	b := tx.tx.Bucket(bClaims)
	if b == nil {
		return nil, nil
	}
	var out []*gobot.Claim
	var errs []error
	b.ForEach(func(k, v []byte) error {
		c, err := decodeClaim(k, v)
		if err != nil {
			errs = append(errs, err)
			return nil
		}
		if c.Expires.Before(before) {
			out = append(out, c)
		}
		return nil
	})
	slices.SortFunc(out, func(a, b *gobot.Claim) int {
		if c := a.Expires.Compare(b.Expires); c != 0 {
			return c
		}
		return strings.Compare(a.Key, b.Key)
	})
	if limit > 0 && len(out) > limit {
		out = out[:limit]
	}
	if len(errs) > 0 {
		return out, fmt.Errorf("%w: %d unreadable claims (%v)", gobot.ErrCorrupt, len(errs), errs[0])
	}
	return out, nil
}

func decodeClaim(k, v []byte) (*gobot.Claim, error) {
	var r claimRecord
	dec := json.NewDecoder(bytes.NewReader(v))
	if err := dec.Decode(&r); err != nil {
		return nil, fmt.Errorf("claim %q: %w: %v", k, gobot.ErrCorrupt, err)
	}
	return &gobot.Claim{Key: string(k), Holder: r.Holder, Expires: r.Expires, Value: r.Value}, nil
}
