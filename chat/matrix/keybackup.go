//go:build goolm

package matrix

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"

	"maunium.net/go/mautrix"
	"maunium.net/go/mautrix/crypto/backup"
	"maunium.net/go/mautrix/crypto/signatures"
	"maunium.net/go/mautrix/crypto/ssss"
	"maunium.net/go/mautrix/event"
	"maunium.net/go/mautrix/id"
)

// Server-side key backup: the room keys the bot receives are uploaded,
// encrypted with a backup key, to the homeserver (/room_keys), so that a
// bot restored with its recovery key after a lost crypto store can read
// what was said before. The backup key is made with the identity and
// kept like it: in secret storage (m.megolm_backup.v1) and in the crypto
// store. An identity made before gobot had backups gets none (a reset
// adds it).

// backupPublicKey is the form of a backup key in the version's auth_data.
func backupPublicKey(k *backup.MegolmBackupKey) id.Ed25519 {
	return id.Ed25519(base64.RawStdEncoding.EncodeToString(k.PublicKey().Bytes()))
}

// makeBackup makes a backup key, keeps it (crypto store, and secret
// storage under key) and creates a backup version signed by the master
// key.
func (x *crossSigner) makeBackup(ctx context.Context, key *ssss.Key) error {
	bk, err := backup.NewMegolmBackupKey()
	if err != nil {
		return fmt.Errorf("matrix: making a key backup key: %w", err)
	}
	secret := base64.RawStdEncoding.EncodeToString(bk.Bytes())
	if err := x.mach.CryptoStore.PutSecret(ctx, id.SecretMegolmBackupV1, secret); err != nil {
		return fmt.Errorf("matrix: keeping the key backup key: %w", err)
	}
	if err := x.mach.SSSS.SetEncryptedAccountData(ctx, event.AccountDataMegolmBackupKey, []byte(secret), key); err != nil {
		return fmt.Errorf("%w: the key backup key into secret storage: %w", ErrCrossSigningUpload, err)
	}
	auth := backup.MegolmAuthData{PublicKey: backupPublicKey(bk)}
	master := x.mach.CrossSigningKeys.MasterKey
	sig, err := master.SignJSON(auth)
	if err != nil {
		return fmt.Errorf("matrix: signing the key backup: %w", err)
	}
	auth.Signatures = signatures.NewSingleSignature(x.mach.Client.UserID, id.KeyAlgorithmEd25519, master.PublicKey().String(), sig)
	resp, err := x.mach.Client.CreateKeyBackupVersion(ctx, &mautrix.ReqRoomKeysVersionCreate[backup.MegolmAuthData]{
		Algorithm: id.KeyBackupAlgorithmMegolmBackupV1, AuthData: auth})
	if err != nil {
		return fmt.Errorf("%w: creating the key backup: %w", ErrCrossSigningUpload, err)
	}
	x.log.Info("made a server-side key backup", "version", resp.Version)
	return nil
}

// restoreBackup reads the backup key from secret storage (unlocked with
// key) and imports the room keys of the latest backup.
func (x *crossSigner) restoreBackup(ctx context.Context, key *ssss.Key) {
	data, err := x.mach.SSSS.GetDecryptedAccountData(ctx, event.AccountDataMegolmBackupKey, key)
	if errors.Is(err, mautrix.MNotFound) {
		x.log.Info("the bot's secret storage holds no key backup key: no room keys to restore")
		// A backup key of an older identity must not go on being used.
		if err := x.mach.CryptoStore.DeleteSecret(ctx, id.SecretMegolmBackupV1); err != nil {
			x.log.Warn("forgetting the old key backup key", "err", err)
		}
		return
	} else if err != nil {
		x.log.Warn("reading the key backup key from secret storage", "err", err)
		return
	}
	if err := x.mach.CryptoStore.PutSecret(ctx, id.SecretMegolmBackupV1, string(data)); err != nil {
		x.log.Warn("keeping the key backup key", "err", err)
		return
	}
	bk, err := x.backupKey(ctx)
	if err != nil || bk == nil {
		x.log.Warn("the key backup key from secret storage", "err", err)
		return
	}
	version, err := x.mach.DownloadAndStoreLatestKeyBackup(ctx, bk)
	if err != nil {
		x.log.Warn("restoring room keys from the key backup", "err", err)
		return
	}
	x.log.Info("restored room keys from the key backup", "version", version)
}

// backupKey returns the backup key in the crypto store (nil: none).
func (x *crossSigner) backupKey(ctx context.Context) (*backup.MegolmBackupKey, error) {
	s, err := x.mach.CryptoStore.GetSecret(ctx, id.SecretMegolmBackupV1)
	if err != nil || s == "" {
		return nil, err
	}
	b, err := base64.RawStdEncoding.DecodeString(s)
	if err != nil {
		return nil, err
	}
	return backup.MegolmBackupKeyFromBytes(b)
}

// startBackup uploads the room keys the bot receives from now on into
// the latest backup, when it is the bot's (its public key is the backup
// key's).
func (x *crossSigner) startBackup(ctx context.Context) {
	bk, err := x.backupKey(ctx)
	if err != nil {
		x.log.Warn("reading the key backup key", "err", err)
		return
	} else if bk == nil {
		return
	}
	v, err := x.mach.Client.GetKeyBackupLatestVersion(ctx)
	if err != nil {
		x.log.Warn("no server-side key backup: room keys are not backed up", "err", err)
		return
	}
	if v.Algorithm != id.KeyBackupAlgorithmMegolmBackupV1 || v.AuthData.PublicKey != backupPublicKey(bk) {
		x.log.Warn("the latest server-side key backup is not the bot's (made elsewhere?): room keys are not backed up", "version", v.Version)
		return
	}
	version := v.Version
	x.mach.SessionReceived = func(ctx context.Context, room id.RoomID, session id.SessionID, firstIndex uint32) {
		go x.backUp(context.WithoutCancel(ctx), bk, version, room, session, firstIndex)
	}
}

// backUp uploads one room key.
func (x *crossSigner) backUp(ctx context.Context, bk *backup.MegolmBackupKey, version id.KeyBackupVersion, room id.RoomID, session id.SessionID, firstIndex uint32) {
	s, err := x.mach.CryptoStore.GetGroupSession(ctx, room, session)
	if err != nil || s == nil {
		x.log.Warn("backing up a room key: not in the crypto store", "room", room, "session", session, "err", err)
		return
	}
	key, err := s.Internal.Export(firstIndex)
	if err != nil {
		x.log.Warn("backing up a room key", "room", room, "session", session, "err", err)
		return
	}
	enc, err := backup.EncryptSessionData(bk, backup.MegolmSessionData{
		Algorithm: id.AlgorithmMegolmV1, ForwardingKeyChain: s.ForwardingChains, SenderClaimedKeys: backup.SenderClaimedKeys{Ed25519: s.SigningKey},
		SenderKey: s.SenderKey, SessionKey: string(key), SharedHistory: s.SharedHistory,
	})
	if err != nil {
		x.log.Warn("backing up a room key", "room", room, "session", session, "err", err)
		return
	}
	data, _ := json.Marshal(enc)
	if _, err := x.mach.Client.PutKeysInBackupForRoomAndSession(ctx, version, room, session, &mautrix.ReqKeyBackupData{
		FirstMessageIndex: int(firstIndex), ForwardedCount: len(s.ForwardingChains), SessionData: data}); err != nil {
		x.log.Warn("backing up a room key", "room", room, "session", session, "err", err)
		return
	}
	x.log.Debug("backed up a room key", "room", room, "session", session)
}
