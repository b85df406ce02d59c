package matrix

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strings"

	"maunium.net/go/mautrix"
	"maunium.net/go/mautrix/id"

	"github.com/gobotgo/gobot"
)

// session is what a password login leaves in the database.
type session struct {
	DeviceID    id.DeviceID
	AccessToken string
}

func (a *Adapter) getState(key string) ([]byte, error) {
	v, err := a.state.GetState(context.Background(), stateNS, key)
	if errors.Is(err, gobot.ErrNotFound) {
		return nil, nil
	}
	return v, err
}

func (a *Adapter) putState(key string, v []byte) error {
	return a.state.PutState(context.Background(), stateNS, map[string][]byte{key: v})
}

// login makes the client: with the configured access token, or with the
// stored session of an earlier password login, or by logging in with the
// password (reusing the stored device ID) and storing the new session.
func (a *Adapter) login(ctx context.Context) error {
	cli, err := mautrix.NewClient(a.cfg.Homeserver, id.UserID(a.cfg.UserID), "")
	if err != nil {
		return fmt.Errorf("matrix: %w", err)
	}
	cli.Log = zerologTo(a.log)
	cli.UserAgent = "gobot (+mautrix)"
	cli.DefaultHTTPRetries = 0 // retried here, with the advised delays
	cli.IgnoreRateLimit = true
	a.cli = cli
	if a.cfg.AccessToken != "" {
		cli.AccessToken = a.cfg.AccessToken
		who, err := a.whoami(ctx)
		if err != nil {
			return fmt.Errorf("matrix: checking the access token: %w", err)
		}
		cli.DeviceID = who.DeviceID
		return nil
	}
	key := "session " + a.cfg.UserID
	var s session
	if b, err := a.getState(key); err != nil {
		return err
	} else if b != nil {
		if err := json.Unmarshal(b, &s); err != nil {
			return fmt.Errorf("matrix: stored session: %w", err)
		}
		cli.AccessToken, cli.DeviceID = s.AccessToken, s.DeviceID
		if _, err := a.whoami(ctx); err == nil {
			return nil
		} else if !errors.Is(err, mautrix.MUnknownToken) {
			return fmt.Errorf("matrix: checking the stored session: %w", err)
		}
		a.log.Info("stored session expired; logging in again", "device", s.DeviceID)
	}
	return a.passwordLogin(ctx, s.DeviceID)
}

// passwordLogin logs the client in with the password, on device (new
// when empty), and stores the session.
func (a *Adapter) passwordLogin(ctx context.Context, device id.DeviceID) error {
	var resp *mautrix.RespLogin
	err := a.retry(ctx, "login", func() error {
		var err error
		resp, err = a.cli.Login(ctx, &mautrix.ReqLogin{
			Type:                     mautrix.AuthTypePassword,
			Identifier:               mautrix.UserIdentifier{Type: mautrix.IdentifierTypeUser, User: a.cfg.UserID},
			Password:                 a.cfg.Password,
			DeviceID:                 device,
			InitialDeviceDisplayName: a.cfg.DeviceName,
			StoreCredentials:         true,
		})
		return err
	})
	if err != nil {
		return fmt.Errorf("matrix: logging in as %s: %w", a.cfg.UserID, err)
	}
	b, _ := json.Marshal(session{DeviceID: resp.DeviceID, AccessToken: resp.AccessToken})
	return a.putState("session "+a.cfg.UserID, b)
}

func (a *Adapter) whoami(ctx context.Context) (*mautrix.RespWhoami, error) {
	var who *mautrix.RespWhoami
	err := a.retry(ctx, "whoami", func() error {
		var err error
		who, err = a.cli.Whoami(ctx)
		return err
	})
	if err == nil && who.UserID != id.UserID(a.cfg.UserID) {
		return nil, fmt.Errorf("the token belongs to %s, not %s", who.UserID, a.cfg.UserID)
	}
	return who, err
}

// pickleKey returns the key that encrypts the crypto store.
func (a *Adapter) pickleKey() ([]byte, error) {
	if a.cfg.PickleKeyFile != "" {
		b, err := os.ReadFile(a.cfg.PickleKeyFile)
		if err != nil {
			return nil, fmt.Errorf("matrix: pickle key: %w", err)
		}
		if k := strings.TrimSpace(string(b)); k != "" {
			return []byte(k), nil
		}
		return nil, fmt.Errorf("matrix: pickle key file %s is empty", a.cfg.PickleKeyFile)
	}
	k, err := a.getState("pickle key")
	if err != nil || k != nil {
		return k, err
	}
	k = make([]byte, 32)
	rand.Read(k)
	return k, a.putState("pickle key", k)
}
