//go:build goolm

package matrix

import (
	"context"
	"path/filepath"
	"testing"

	"maunium.net/go/mautrix"
	"maunium.net/go/mautrix/crypto/cryptohelper"
	"maunium.net/go/mautrix/id"
)

// humanCrypto gives a test user end-to-end encryption with its own store.
func humanCrypto(t *testing.T, ctx context.Context, cli *mautrix.Client) {
	t.Helper()
	h, err := cryptohelper.NewCryptoHelper(cli, []byte("test pickle key"), filepath.Join(t.TempDir(), "crypto.db"))
	if err != nil {
		t.Fatal(err)
	}
	if err := h.Init(ctx); err != nil {
		t.Fatal(err)
	}
	cli.Crypto = h
	t.Cleanup(func() { h.Close() })
	// mautrix fills this cache lazily without a lock; the human's sync
	// and send goroutines would race on the first fill.
	if _, err := h.Machine().GetOwnCrossSigningPublicKeys(ctx); err != nil {
		t.Fatal(err)
	}
}

func TestEncryptedRoom(t *testing.T) { testScenario(t, true) }

func TestEncryptedThreadsAndDirectMessages(t *testing.T) { testThreadsAndDM(t, true) }

// refreshDevices makes cli's crypto fetch user's devices now, as it does
// when the homeserver says they changed.
func refreshDevices(t *testing.T, ctx context.Context, cli *mautrix.Client, user id.UserID) {
	t.Helper()
	h, ok := cli.Crypto.(*cryptohelper.CryptoHelper)
	if !ok {
		return // an unencrypted human
	}
	if _, err := h.Machine().FetchKeys(ctx, []id.UserID{user}, true); err != nil {
		t.Fatalf("fetching %s's devices: %v", user, err)
	}
}
