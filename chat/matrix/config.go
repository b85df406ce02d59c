package matrix

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"
)

// Config is the Matrix adapter's configuration (cmd/gobot's `matrix:`
// section).
type Config struct {
	// Homeserver is the client-server API base URL:
	// "https://matrix.example.org".
	Homeserver string
	// UserID is the bot's account: "@gobot:example.org".
	UserID string
	// AccessToken logs in with an existing session (its device is the
	// bot's device). Otherwise Password logs in once; the device ID and
	// token are then kept in the database and reused on restart.
	AccessToken string
	Password    string
	// DeviceName is the new device's display name at password login
	// (default "gobot").
	DeviceName string
	// DisplayName, when set, becomes the bot's profile name at start.
	DisplayName string
	// Prefix starts every command (default "!go").
	Prefix string
	// AllowServers, when not empty, limits the invites the bot accepts to
	// those sent by users of these homeservers ("example.org").
	AllowServers []string
	// OpenIDAllowPrivate lets a widget's sign-in ask a homeserver named
	// by an IP address or at a loopback, private or link-local address
	// (a test, or a federation on a private network); off, such a check
	// is refused before any request (openidguard.go).
	OpenIDAllowPrivate bool
	// AutoJoin joins rooms the bot is invited to (nil: true).
	AutoJoin *bool
	// Encryption enables end-to-end encryption (needs a build with
	// `-tags goolm`).
	Encryption bool
	// CryptoStore is the SQLite file holding the encryption keys
	// (default: gobot-crypto.db next to the database).
	CryptoStore string
	// PickleKeyFile holds the key that encrypts the keys in CryptoStore;
	// empty: a random key is made once and kept in the database.
	PickleKeyFile string
	// RecoveryKey unlocks the bot's cross-signing identity in secret
	// storage when the crypto store does not hold it (a new or lost
	// store); the bot prints it when it makes the identity.
	RecoveryKey string
	// ResetCrossSigning replaces a cross-signing identity the bot cannot
	// use (keys changed elsewhere, recovery key lost) with a new one.
	ResetCrossSigning bool
}

// DefaultPrefix starts commands when Config.Prefix is empty.
const DefaultPrefix = "!go"

// withDefaults fills the defaults; dbPath is the bbolt file's path.
func (c Config) withDefaults(dbPath string) Config {
	if c.Prefix == "" {
		c.Prefix = DefaultPrefix
	}
	if c.DeviceName == "" {
		c.DeviceName = "gobot"
	}
	if c.CryptoStore == "" && dbPath != "" {
		c.CryptoStore = filepath.Join(filepath.Dir(dbPath), "gobot-crypto.db")
	}
	return c
}

// check reports what is missing or malformed.
func (c Config) check() error {
	switch {
	case c.Homeserver == "":
		return errors.New("matrix: no homeserver URL")
	case !strings.HasPrefix(c.UserID, "@") || !strings.Contains(c.UserID, ":"):
		return fmt.Errorf("matrix: %q is not a Matrix user ID like @gobot:example.org", c.UserID)
	case c.AccessToken == "" && c.Password == "":
		return errors.New("matrix: give an access token or a password")
	case c.Encryption && c.CryptoStore == "":
		return errors.New("matrix: encryption needs a crypto store path")
	}
	return nil
}

func (c Config) autoJoin() bool { return c.AutoJoin == nil || *c.AutoJoin }

// allowed reports whether an invite from a user of server may be accepted.
func (c Config) allowed(server string) bool {
	if len(c.AllowServers) == 0 {
		return true
	}
	for _, s := range c.AllowServers {
		if strings.EqualFold(s, server) {
			return true
		}
	}
	return false
}
