package matrix

import (
	"testing"

	"maunium.net/go/mautrix"
)

// A reply's transaction IDs come from its key alone: a new adapter (the
// process after a crash) derives the same ones, part by part; different
// parts and keys get different ones; no key, a fresh one each time.
func TestTxnIDFromKey(t *testing.T) {
	adapter := func() *Adapter {
		cli, err := mautrix.NewClient("http://h", "@gobot:h", "tok")
		if err != nil {
			t.Fatal(err)
		}
		return &Adapter{cli: cli}
	}
	a, b := adapter(), adapter()
	key := "matrix:$move:h"
	seen := map[string]bool{}
	for _, part := range []int{partText, partImage, partFile, partAck} {
		id := a.txnID(key, part)
		if id != b.txnID(key, part) {
			t.Errorf("part %d: %q in one process, %q in the next", part, id, b.txnID(key, part))
		}
		if seen[id] || len(id) > 64 {
			t.Errorf("part %d: %q repeats or is long", part, id)
		}
		seen[id] = true
	}
	if a.txnID("matrix:$other:h", partText) == a.txnID(key, partText) {
		t.Error("two keys, one transaction ID")
	}
	if a.txnID("", partText) == a.txnID("", partText) {
		t.Error("no key: the same transaction ID twice")
	}
}
