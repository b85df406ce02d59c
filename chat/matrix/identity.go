package matrix

import (
	"errors"
	"io"
	"os"
	"unicode/utf8"
)

// The bot's cross-signing identity (see crosssign.go): what can stop it
// from starting with encryption on. Each error names its fix.
var (
	// ErrIdentityMismatch: the homeserver holds cross-signing keys for
	// the bot other than those in the crypto store (someone gave the
	// account a new identity).
	ErrIdentityMismatch = errors.New("matrix: the homeserver's cross-signing keys for the bot are not the ones in the crypto store")
	// ErrIdentityKeysMissing: the account has a cross-signing identity,
	// but the crypto store holds none of its private keys (a new or lost
	// crypto store).
	ErrIdentityKeysMissing = errors.New("matrix: the bot's account has a cross-signing identity, but the crypto store has none of its private keys")
	// ErrRecoveryKey: matrix.recovery_key does not open the account's
	// secret storage, or what it holds is not the current identity.
	ErrRecoveryKey = errors.New("matrix: the recovery key does not unlock the bot's current cross-signing identity")
	// ErrCrossSigningUpload: the homeserver refused the cross-signing
	// keys or signatures.
	ErrCrossSigningUpload = errors.New("matrix: uploading the bot's cross-signing keys failed")
)

// identityFix is the advice every identity error ends with.
const identityFix = "set matrix.recovery_key (or GOBOT_MATRIX_RECOVERY_KEY) to the recovery key the bot printed when it made its identity; " +
	"or, to give the bot a new identity (people who verified it must verify it again), set matrix.reset_cross_signing: true for one start (see docs/matrix.md)"

// identityOptions is how the adapter asks the crypto layer to set up the
// bot's cross-signing identity.
type identityOptions struct {
	// password confirms uploads of cross-signing keys that replace
	// existing ones (user-interactive auth); empty with token logins.
	password string
	// recoveryKey unlocks the identity kept in secret storage.
	recoveryKey string
	// reset replaces an identity the bot cannot use with a new one.
	reset bool
	// off skips cross-signing (tests: a bot Element would distrust).
	off bool
	// out receives the new recovery key, printed once (os.Stderr).
	out io.Writer
}

// identity returns the adapter's cross-signing options.
func (a *Adapter) identity() identityOptions {
	o := identityOptions{password: a.cfg.Password, recoveryKey: a.cfg.RecoveryKey, reset: a.cfg.ResetCrossSigning,
		off: a.noCrossSigning, out: a.recoveryOut}
	if o.out == nil {
		o.out = os.Stderr
	}
	return o
}

// clipText shortens s (text from other users) to at most n bytes.
func clipText(s string, n int) string {
	if len(s) <= n {
		return s
	}
	s = s[:n]
	for !utf8.ValidString(s) {
		s = s[:len(s)-1]
	}
	return s + "…"
}
