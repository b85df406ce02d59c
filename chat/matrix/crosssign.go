//go:build goolm

package matrix

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"sync"

	"maunium.net/go/mautrix"
	"maunium.net/go/mautrix/crypto"
	"maunium.net/go/mautrix/crypto/ssss"
	"maunium.net/go/mautrix/event"
	"maunium.net/go/mautrix/id"
)

// The bot's cross-signing identity, so that Element trusts its device
// (no red shield, and room keys even from clients that exclude insecure
// devices). The identity is three key pairs: the master key (the bot's
// identity), the self-signing key (signs the bot's devices) and the
// user-signing key. Their private halves are kept twice: in the crypto
// store (as secrets, encrypted with the pickle key), which every restart
// uses, and on the homeserver in secret storage (SSSS, account data
// encrypted with the recovery key), which a new crypto store unlocks
// with matrix.recovery_key. The identity is never replaced silently.

// pendingSecret holds the secret storage key of an identity made but
// not yet fully uploaded; its recovery key has not been shown.
const pendingSecret id.Secret = "org.gobot.pending_secret_storage_key"

// seedSecrets are the crypto store's names for the three private keys
// (the names of secret storage, as the spec's secret sharing uses).
var seedSecrets = [3]id.Secret{id.SecretXSMaster, id.SecretXSSelfSigning, id.SecretXSUserSigning}

// crossSigner sets up and keeps the device cross-signed.
type crossSigner struct {
	mach *crypto.OlmMachine
	opts identityOptions
	log  *slog.Logger
}

// serverIdentity is what the homeserver has for the bot.
type serverIdentity struct {
	master, selfSigning id.Ed25519
	device              mautrix.DeviceKeys // the bot's own device
}

// pendingKey is pendingSecret's value.
type pendingKey struct {
	ID       string            `json:"id"`
	Key      []byte            `json:"key"`
	Metadata *ssss.KeyMetadata `json:"metadata"`
}

// setUp makes sure the bot has its cross-signing identity and its device
// is signed by it: on the first start it makes the identity; later it
// loads it from the crypto store, or from secret storage with the
// recovery key.
func (x *crossSigner) setUp(ctx context.Context) error {
	local, err := x.loadKeys(ctx)
	if err != nil {
		return err
	}
	pending, err := x.loadPending(ctx)
	if err != nil {
		return err
	}
	server, err := x.serverIdentity(ctx)
	if err != nil {
		return err
	}
	localMaster := id.Ed25519("")
	if local != nil {
		localMaster = local.MasterKey.PublicKey()
	}
	switch {
	case local != nil && pending != nil && (server.master == "" || server.master == localMaster):
		// The first start stopped before the identity was uploaded.
		if err := x.publish(ctx, local, pending); err != nil {
			return err
		}
	case local != nil && server.master == localMaster:
		if err := x.mach.ImportCrossSigningKeys(local.Seeds()); err != nil {
			return fmt.Errorf("matrix: loading the cross-signing keys: %w", err)
		}
		if x.opts.reset {
			x.log.Warn("matrix.reset_cross_signing is set, but the bot's identity is fine: nothing reset (remove the setting)", "master_key", localMaster)
		}
	case local != nil && server.master == "":
		x.log.Warn("the homeserver has no cross-signing keys for the bot: uploading those of the crypto store again", "master_key", localMaster)
		if err := x.mach.PublishCrossSigningKeys(ctx, local, x.uia); err != nil {
			return fmt.Errorf("%w: %w", ErrCrossSigningUpload, err)
		}
	case x.opts.recoveryKey != "" && server.master != "":
		if err := x.recover(ctx, server.master); err != nil {
			return err
		}
	case x.opts.reset || server.master == "":
		if server.master != "" {
			x.log.Warn("replacing the bot's cross-signing identity (matrix.reset_cross_signing)", "old_master_key", server.master)
		}
		if x.opts.recoveryKey != "" && server.master == "" {
			x.log.Warn("matrix.recovery_key is set, but the bot's account has no cross-signing identity: making a new one with a new recovery key")
		}
		if err := x.bootstrap(ctx); err != nil {
			return err
		}
	case local != nil:
		return fmt.Errorf("%w (homeserver: master key %s; crypto store: %s). Someone gave the bot's account a new identity, perhaps from another client. To use that identity, %s", ErrIdentityMismatch, server.master, localMaster, identityFix)
	default:
		return fmt.Errorf("%w (master key %s): the crypto store is new or was lost. To keep the identity, %s", ErrIdentityKeysMissing, server.master, identityFix)
	}
	if server.master != x.mach.CrossSigningKeys.MasterKey.PublicKey() {
		// The identity is new: the device's signature cannot be there.
		server.device = mautrix.DeviceKeys{}
	}
	if err := x.signDevice(ctx, server.device); err != nil {
		return err
	}
	// mautrix fills its cache of the account's own cross-signing public
	// keys on first use, without a lock; fill it now, before sync and
	// sending use it from two goroutines at once.
	if _, err := x.mach.GetOwnCrossSigningPublicKeys(ctx); err != nil {
		return fmt.Errorf("matrix: reading the bot's cross-signing keys: %w", err)
	}
	x.startBackup(ctx)
	return nil
}

// uia confirms an upload of cross-signing keys with the bot's password.
func (x *crossSigner) uia(resp *mautrix.RespUserInteractive) any {
	if x.opts.password == "" || !resp.HasSingleStageFlow(mautrix.AuthTypePassword) {
		x.log.Error("the homeserver asks for confirmation to upload cross-signing keys; gobot can give it only with matrix.password",
			"flows", resp.Flows)
		return nil
	}
	return &mautrix.ReqUIAuthLogin{
		BaseAuthData: mautrix.BaseAuthData{Type: mautrix.AuthTypePassword, Session: resp.Session},
		User:         x.mach.Client.UserID.String(),
		Password:     x.opts.password,
	}
}

// serverIdentity asks the homeserver for the bot's cross-signing public
// keys and its device's keys.
func (x *crossSigner) serverIdentity(ctx context.Context) (serverIdentity, error) {
	cli := x.mach.Client
	resp, err := cli.QueryKeys(ctx, &mautrix.ReqQueryKeys{DeviceKeys: mautrix.DeviceKeysRequest{cli.UserID: {cli.DeviceID}}})
	if err != nil {
		return serverIdentity{}, fmt.Errorf("matrix: asking the homeserver for the bot's cross-signing keys: %w", err)
	}
	var s serverIdentity
	if k, ok := resp.MasterKeys[cli.UserID]; ok {
		s.master = k.FirstKey()
	}
	if k, ok := resp.SelfSigningKeys[cli.UserID]; ok {
		s.selfSigning = k.FirstKey()
	}
	s.device = resp.DeviceKeys[cli.UserID][cli.DeviceID]
	return s, nil
}

// signDevice signs the bot's device with the self-signing key, unless
// dev (the device's keys on the homeserver) carries that signature.
func (x *crossSigner) signDevice(ctx context.Context, dev mautrix.DeviceKeys) error {
	ssk := x.mach.CrossSigningKeys.SelfSigningKey.PublicKey()
	if _, ok := dev.Signatures[x.mach.Client.UserID][id.NewKeyID(id.KeyAlgorithmEd25519, ssk.String())]; ok {
		x.log.Info("the bot's device is cross-signed", "device", x.mach.Client.DeviceID, "master_key", x.mach.CrossSigningKeys.MasterKey.PublicKey())
		return nil
	}
	if err := x.mach.SignOwnDevice(ctx, x.mach.OwnIdentity()); err != nil {
		return fmt.Errorf("%w: signing the bot's device: %w", ErrCrossSigningUpload, err)
	}
	if err := x.mach.SignOwnMasterKey(ctx); err != nil {
		return fmt.Errorf("%w: signing the master key with the device: %w", ErrCrossSigningUpload, err)
	}
	x.log.Info("signed the bot's device with its cross-signing identity", "device", x.mach.Client.DeviceID, "master_key", x.mach.CrossSigningKeys.MasterKey.PublicKey())
	return nil
}

// bootstrap makes a new identity and secret storage key, keeps them in
// the crypto store first (so that a crash never loses a recovery key
// that was not shown) and uploads them.
func (x *crossSigner) bootstrap(ctx context.Context) error {
	key, err := ssss.NewKey("")
	if err != nil {
		return fmt.Errorf("matrix: making a secret storage key: %w", err)
	}
	keys, err := x.mach.GenerateCrossSigningKeys()
	if err != nil {
		return fmt.Errorf("matrix: making cross-signing keys: %w", err)
	}
	b, _ := json.Marshal(pendingKey{ID: key.ID, Key: key.Key, Metadata: key.Metadata})
	if err := x.mach.CryptoStore.PutSecret(ctx, pendingSecret, string(b)); err != nil {
		return fmt.Errorf("matrix: keeping the secret storage key: %w", err)
	}
	if err := x.storeKeys(ctx, keys); err != nil {
		return err
	}
	if err := x.mach.CryptoStore.DeleteSecret(ctx, id.SecretMegolmBackupV1); err != nil { // a new identity, a new backup
		return fmt.Errorf("matrix: crypto store: %w", err)
	}
	return x.publish(ctx, keys, key)
}

// publish uploads a new identity: its private keys into secret storage
// under key, its public keys (confirmed with the password when they
// replace others); then it shows the recovery key, once.
func (x *crossSigner) publish(ctx context.Context, keys *crypto.CrossSigningKeysCache, key *ssss.Key) error {
	if err := x.mach.SSSS.SetKeyData(ctx, key.ID, key.Metadata); err != nil {
		return fmt.Errorf("%w: secret storage key: %w", ErrCrossSigningUpload, err)
	}
	if err := x.mach.UploadCrossSigningKeysToSSSS(ctx, key, keys); err != nil {
		return fmt.Errorf("%w: into secret storage: %w", ErrCrossSigningUpload, err)
	}
	if err := x.mach.PublishCrossSigningKeys(ctx, keys, x.uia); err != nil {
		return fmt.Errorf("%w: %w", ErrCrossSigningUpload, err)
	}
	if err := x.mach.SSSS.SetDefaultKeyID(ctx, key.ID); err != nil {
		return fmt.Errorf("%w: default secret storage key: %w", ErrCrossSigningUpload, err)
	}
	if bk, err := x.backupKey(ctx); err != nil || bk == nil {
		if err := x.makeBackup(ctx, key); err != nil {
			x.log.Warn("no server-side key backup", "err", err)
		}
	}
	rk := key.RecoveryKey()
	fmt.Fprintf(x.opts.out, "\n"+
		"gobot: the Matrix bot %s has a new cross-signing identity. Its RECOVERY KEY is:\n\n"+
		"    %s\n\n"+
		"Keep it safe; it is shown only this once. When the crypto store is lost, start\n"+
		"gobot with it in matrix.recovery_key (or GOBOT_MATRIX_RECOVERY_KEY) to keep the\n"+
		"bot's identity.\n\n", x.mach.Client.UserID, rk)
	x.log.Warn("made the bot's cross-signing identity; keep its recovery key (shown only this once)",
		"recovery_key", rk, "master_key", keys.MasterKey.PublicKey())
	if err := x.mach.CryptoStore.DeleteSecret(ctx, pendingSecret); err != nil {
		return fmt.Errorf("matrix: crypto store: %w", err)
	}
	return nil
}

// recover unlocks the identity in secret storage with the recovery key;
// it must be the one whose master key the homeserver has.
func (x *crossSigner) recover(ctx context.Context, master id.Ed25519) error {
	keyID, meta, err := x.mach.SSSS.GetDefaultKeyData(ctx)
	if errors.Is(err, ssss.ErrNoDefaultKeyID) || errors.Is(err, mautrix.MNotFound) {
		return fmt.Errorf("%w: the account has no secret storage (its identity, master key %s, was made elsewhere without it); to give the bot a new identity, set matrix.reset_cross_signing: true for one start", ErrRecoveryKey, master)
	} else if err != nil {
		return fmt.Errorf("matrix: reading secret storage: %w", err)
	}
	key, err := meta.VerifyRecoveryKey(keyID, x.opts.recoveryKey)
	if errors.Is(err, ssss.ErrUnverifiableKey) {
		x.log.Warn("secret storage cannot check the recovery key; trying it", "key", keyID)
	} else if err != nil {
		return fmt.Errorf("%w: %w; check matrix.recovery_key (or GOBOT_MATRIX_RECOVERY_KEY)", ErrRecoveryKey, err)
	}
	if err := x.mach.FetchCrossSigningKeysFromSSSS(ctx, key); err != nil {
		return fmt.Errorf("%w: reading the keys from secret storage: %w", ErrRecoveryKey, err)
	}
	if got := x.mach.CrossSigningKeys.MasterKey.PublicKey(); got != master {
		x.mach.CrossSigningKeys = nil
		return fmt.Errorf("%w: secret storage holds master key %s, the homeserver has %s. %s", ErrRecoveryKey, got, master, identityFix)
	}
	if err := x.storeKeys(ctx, x.mach.CrossSigningKeys); err != nil {
		return err
	}
	x.log.Info("unlocked the bot's cross-signing identity with the recovery key", "master_key", master)
	x.restoreBackup(ctx, key)
	return nil
}

// storeKeys keeps the private keys in the crypto store.
func (x *crossSigner) storeKeys(ctx context.Context, keys *crypto.CrossSigningKeysCache) error {
	seeds := keys.Seeds()
	for i, seed := range [3][]byte{seeds.MasterKey, seeds.SelfSigningKey, seeds.UserSigningKey} {
		if err := x.mach.CryptoStore.PutSecret(ctx, seedSecrets[i], base64.RawStdEncoding.EncodeToString(seed)); err != nil {
			return fmt.Errorf("matrix: keeping the cross-signing keys in the crypto store: %w", err)
		}
	}
	return nil
}

// loadKeys returns the private keys in the crypto store (nil: none).
func (x *crossSigner) loadKeys(ctx context.Context) (*crypto.CrossSigningKeysCache, error) {
	var seeds [3][]byte
	for i, name := range seedSecrets {
		s, err := x.mach.CryptoStore.GetSecret(ctx, name)
		if err != nil {
			return nil, fmt.Errorf("matrix: reading the cross-signing keys from the crypto store: %w", err)
		}
		if s == "" {
			if i > 0 {
				x.log.Warn("the crypto store holds only some of the cross-signing keys", "missing", name)
			}
			return nil, nil
		}
		if seeds[i], err = base64.RawStdEncoding.DecodeString(s); err != nil {
			return nil, fmt.Errorf("matrix: the crypto store's %s key: %w", name, err)
		}
	}
	cs := crypto.CrossSigningSeeds{MasterKey: seeds[0], SelfSigningKey: seeds[1], UserSigningKey: seeds[2]}
	keys, err := cs.Decode()
	if err != nil {
		return nil, fmt.Errorf("matrix: the crypto store's cross-signing keys: %w", err)
	}
	return &keys, nil
}

// loadPending returns the secret storage key of an unfinished
// bootstrap (nil: none).
func (x *crossSigner) loadPending(ctx context.Context) (*ssss.Key, error) {
	s, err := x.mach.CryptoStore.GetSecret(ctx, pendingSecret)
	if err != nil || s == "" {
		return nil, err
	}
	var p pendingKey
	if err := json.Unmarshal([]byte(s), &p); err != nil {
		return nil, fmt.Errorf("matrix: the crypto store's secret storage key: %w", err)
	}
	return &ssss.Key{ID: p.ID, Key: p.Key, Metadata: p.Metadata}, nil
}

// withheldLog reports, once per room, sender and reason, that a user's
// client withholds its room keys from the bot (m.room_key.withheld):
// the bot then cannot read that user's messages in the room.
type withheldLog struct {
	log  *slog.Logger
	seen sync.Map
}

func (w *withheldLog) handle(ctx context.Context, evt *event.Event) {
	c := evt.Content.AsRoomKeyWithheld()
	if _, again := w.seen.LoadOrStore(string(c.RoomID)+" "+string(evt.Sender)+" "+string(c.Code), true); again {
		return
	}
	hint := ""
	if c.Code == event.RoomKeyWithheldUnverified {
		hint = "their client shares keys only with verified devices; the bot's device is not trusted by it"
	}
	w.log.Warn("a user's client withholds its room keys from the bot: it cannot read their messages in this room",
		"room", c.RoomID, "sender", evt.Sender, "code", clipText(string(c.Code), 64), "reason", clipText(c.Reason, 200), "hint", hint)
}
