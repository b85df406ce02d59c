//go:build goolm

package matrix

import (
	"path/filepath"
	"testing"
	"time"

	"maunium.net/go/mautrix"
	"maunium.net/go/mautrix/event"
	"maunium.net/go/mautrix/id"
)

// A room key the bot received is in the server-side backup, and a bot
// restored with the recovery key after a lost crypto store has it.
func TestKeyBackupRestored(t *testing.T) {
	t.Parallel()
	ctx := waitCtx(t)
	hs := startDendrite(t, "@ann:localhost")
	botID := register(t, ctx, hs, "gobot").UserID
	ann := newHuman(t, ctx, hs, "ann", botID, true)
	logs := &logBuffer{}
	defer func() {
		if t.Failed() || testing.Verbose() {
			t.Logf("bot log:\n%s", logs)
		}
	}()
	cfg := Config{Homeserver: hs, UserID: string(botID), Password: "password-gobot", Encryption: true}
	out := &syncBuffer{}
	bot := mustBot(t, ctx, cfg, filepath.Join(t.TempDir(), "gobot.db"), logs, func(a *Adapter) { a.recoveryOut = out })
	rk := recoveryKey(t, out.String())

	cr, err := ann.cli.CreateRoom(ctx, &mautrix.ReqCreateRoom{Preset: "private_chat", Invite: []id.UserID{botID},
		InitialState: []*event.Event{{Type: event.StateEncryption, StateKey: new(string),
			Content: event.Content{Parsed: &event.EncryptionEventContent{Algorithm: id.AlgorithmMegolmV1}}}}})
	if err != nil {
		t.Fatal(err)
	}
	waitJoined(t, ctx, cr.RoomID, botID, ann.cli)
	said := ann.say(t, ctx, cr.RoomID, "good game yesterday")
	// Dendrite stores a sent event a moment after answering the send: a
	// read right away may be M_NOT_FOUND.
	var evt *event.Event
	for {
		if evt, err = ann.cli.GetEvent(ctx, cr.RoomID, said); err == nil {
			break
		}
		if !sleep(ctx, 50*time.Millisecond) {
			t.Fatalf("reading ann's message back: %v", err)
		}
	}
	if err := evt.Content.ParseRaw(evt.Type); err != nil {
		t.Fatal(err)
	}
	session := evt.Content.AsEncrypted().SessionID

	v, err := bot.adapter.cli.GetKeyBackupLatestVersion(ctx)
	if err != nil {
		t.Fatalf("the bot made no key backup: %v", err)
	}
	for {
		if _, err := bot.adapter.cli.GetKeyBackupForRoomAndSession(ctx, v.Version, cr.RoomID, session); err == nil {
			break
		}
		if !sleep(ctx, 50*time.Millisecond) {
			t.Fatal("the room key of ann's message never reached the backup")
		}
	}
	bot.stop()

	restored := cfg
	restored.RecoveryKey = rk
	bot = mustBot(t, ctx, restored, filepath.Join(t.TempDir(), "gobot.db"), logs)
	s, err := bot.adapter.crypto.(*helperBox).Machine().CryptoStore.GetGroupSession(ctx, cr.RoomID, session)
	if err != nil || s == nil {
		t.Fatalf("the restored bot does not have the room key of ann's message: %v", err)
	}
}
