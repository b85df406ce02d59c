//go:build goolm

package matrix

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"time"

	"github.com/rs/zerolog"
	"maunium.net/go/mautrix"
	"maunium.net/go/mautrix/crypto"
	"maunium.net/go/mautrix/crypto/cryptohelper"
	"maunium.net/go/mautrix/event"
)

// cryptoBuilt: this build has end-to-end encryption (mautrix's pure-Go
// olm, build tag goolm).
const cryptoBuilt = true

// errNoCrypto is never returned by builds with encryption.
var errNoCrypto = errors.New("matrix: encryption unavailable")

// cryptoBox is the client's end-to-end encryption.
type cryptoBox interface {
	Close() error
	// Reshare uploads the device's keys again, after a new login on the
	// same device (a logout deletes them on the server), and signs the
	// device again.
	Reshare(ctx context.Context) error
	// CrossSign sets up the bot's cross-signing identity and signs the
	// device (crosssign.go).
	CrossSign(ctx context.Context, o identityOptions) error
}

// sessionWait is how long a message whose room key has not arrived waits
// for it (after mautrix's own wait).
const sessionWait = time.Minute

type helperBox struct {
	*cryptohelper.CryptoHelper
	log *slog.Logger
	xs  *crossSigner // nil until CrossSign, or when it is off
}

func (b *helperBox) Reshare(ctx context.Context) error {
	m := b.Machine()
	m.GetAccount().Shared = false
	if err := m.ShareKeys(ctx, -1); err != nil {
		return err
	}
	if b.xs == nil {
		return nil
	}
	return b.xs.signDevice(ctx, mautrix.DeviceKeys{})
}

func (b *helperBox) CrossSign(ctx context.Context, o identityOptions) error {
	if o.off {
		return nil
	}
	xs := &crossSigner{mach: b.Machine(), opts: o, log: b.log}
	if err := xs.setUp(ctx); err != nil {
		return err
	}
	b.xs = xs
	return nil
}

// newCrypto sets up end-to-end encryption for cli with its keys in the
// SQLite file at path (opened with go.mau.fi/util's "sqlite3-fk-wal"
// driver, which needs cgo). It must run before the first sync: it hooks
// the syncer to decrypt events and track devices, and sets the client's
// state store. The device in the store must be the client's. spawn
// starts the goroutines it needs (the adapter's, tracked).
func newCrypto(ctx context.Context, cli *mautrix.Client, path string, pickleKey []byte, log *slog.Logger, spawn func(func())) (cryptoBox, error) {
	// mautrix warns of every message it cannot decrypt; the callback
	// below says it too, and a withheld key only once (withheldLog).
	clientLog := cli.Log
	cli.Log = clientLog.Hook(zerolog.HookFunc(func(e *zerolog.Event, _ zerolog.Level, msg string) {
		if msg == "Failed to decrypt event" {
			e.Discard()
		}
	}))
	h, err := cryptohelper.NewCryptoHelper(cli, pickleKey, path)
	cli.Log = clientLog
	if err != nil {
		return nil, fmt.Errorf("matrix: crypto store %s: %w", path, err)
	}
	var retried sync.Map
	h.DecryptErrorCallback = func(evt *event.Event, err error) {
		if errors.Is(err, crypto.ErrGroupSessionWithheld) {
			// Logged once per room and sender by withheldLog.
			log.Debug("cannot decrypt a message: its key was withheld", "room", evt.RoomID, "sender", evt.Sender, "event", evt.ID, "err", err)
			return
		}
		log.Warn("cannot decrypt a message", "room", evt.RoomID, "sender", evt.Sender, "event", evt.ID, "err", err)
		if _, again := retried.LoadOrStore(evt.ID, true); again || !errors.Is(err, crypto.ErrNoSessionFound) {
			return
		}
		// The room key may still be on its way (to-device messages can
		// arrive a sync later than the message): wait for it once more,
		// in a goroutine the adapter waits for when it stops.
		spawn(func() {
			c := evt.Content.AsEncrypted()
			if !h.WaitForSession(ctx, evt.RoomID, c.SenderKey, c.SessionID, sessionWait) {
				log.Warn("gave up waiting for a message's key", "room", evt.RoomID, "event", evt.ID)
				return
			}
			dec, err := h.Decrypt(ctx, evt)
			if err != nil {
				if !errors.Is(err, crypto.ErrGroupSessionWithheld) { // said by withheldLog
					log.Warn("cannot decrypt a message", "room", evt.RoomID, "event", evt.ID, "err", err)
				}
				return
			}
			dec.Mautrix.EventSource |= event.SourceDecrypted
			cli.Syncer.(mautrix.DispatchableSyncer).Dispatch(ctx, dec)
		})
	}
	if err := h.Init(ctx); err != nil {
		h.Close()
		if strings.Contains(err.Error(), "mismatching device ID") {
			return nil, fmt.Errorf("matrix: the crypto store %s belongs to another device of the bot than the access token's (%s): use that device's token, or move the store away to start a new one: %w", path, cli.DeviceID, err)
		}
		return nil, fmt.Errorf("matrix: starting encryption: %w", err)
	}
	if s, ok := cli.Syncer.(mautrix.ExtensibleSyncer); ok {
		w := &withheldLog{log: log}
		s.OnEventType(event.ToDeviceRoomKeyWithheld, w.handle)
		s.OnEventType(event.ToDeviceOrgMatrixRoomKeyWithheld, w.handle)
	}
	cli.Crypto = h
	return &helperBox{CryptoHelper: h, log: log}, nil
}
