//go:build !goolm

package matrix

import (
	"context"
	"testing"

	"maunium.net/go/mautrix"
	"maunium.net/go/mautrix/id"
)

func humanCrypto(t *testing.T, ctx context.Context, cli *mautrix.Client) {
	t.Skip("encrypted rooms need the build tag goolm: go test -tags goolm ./chat/matrix")
}

func TestEncryptionNeedsTheTag(t *testing.T) {
	_, err := New(Config{Homeserver: "http://h", UserID: "@g:h", Password: "p", Encryption: true, CryptoStore: "x"}, nil, nil, nil)
	if err != errNoCrypto {
		t.Errorf("New with encryption in a build without it: %v", err)
	}
}

// refreshDevices has nothing to refresh without encryption.
func refreshDevices(t *testing.T, ctx context.Context, cli *mautrix.Client, user id.UserID) {}
