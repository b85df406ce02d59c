//go:build !goolm

package matrix

import (
	"context"
	"errors"
	"log/slog"

	"maunium.net/go/mautrix"
)

// cryptoBuilt: this build has no end-to-end encryption; build with
// `-tags goolm` for it.
const cryptoBuilt = false

// errNoCrypto is what New says when the config asks for encryption.
var errNoCrypto = errors.New("matrix: encryption is enabled in the config, but this gobot was built without it: rebuild with `go build -tags goolm`, or set matrix.encryption to false")

type cryptoBox interface {
	Close() error
	Reshare(ctx context.Context) error
	CrossSign(ctx context.Context, o identityOptions) error
}

func newCrypto(ctx context.Context, cli *mautrix.Client, path string, pickleKey []byte, log *slog.Logger, spawn func(func())) (cryptoBox, error) {
	return nil, errNoCrypto
}
