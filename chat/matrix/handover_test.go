package matrix

import (
	"context"
	"log/slog"
	"os"
	"os/exec"
	"os/signal"
	"strings"
	"syscall"
	"testing"
	"time"

	"maunium.net/go/mautrix"
	"maunium.net/go/mautrix/id"

	"github.com/gobotgo/gobot"
	"github.com/gobotgo/gobot/chat"
	"github.com/gobotgo/gobot/render"
	"github.com/gobotgo/gobot/storage/postgres"
	"github.com/gobotgo/gobot/storage/postgres/pgtest"
)

// leaseChild is the environment variable that makes this test binary one
// of the bot processes of TestLeaseHandoverAfterPause: its value is the
// process's lease holder name.
const leaseChild = "GOBOT_TEST_LEASE_CHILD"

// handoverTTL is the sync lease's TTL in the test: storage.takeover's
// default (15 s) makes it 10 s.
const handoverTTL = 10 * time.Second

// runLeaseChild runs the bot on the shared PostgreSQL database the parent
// names, holding the Matrix sync lease as cmd/gobot does: standing by
// while another process holds it, and running an adapter, registered as
// the leased notifier, for each term it holds it.
func runLeaseChild() {
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM)
	defer stop()
	pg, err := postgres.Open(ctx, os.Getenv(leaseChild+"_DSN"), postgres.Options{})
	if err != nil {
		os.Exit(3)
	}
	log := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelInfo})).With("process", os.Getenv(leaseChild))
	bot := chat.New(chat.Config{Tick: time.Second}, pg, &render.Renderer{}, nil, log)
	cfg := Config{Homeserver: os.Getenv(leaseChild + "_HS"), UserID: os.Getenv(leaseChild + "_USER"), Password: "password-gobot",
		AllowServers: []string{"localhost"}}
	go bot.Run(ctx)
	term := func(ctx context.Context) error {
		a, err := New(cfg, bot, gobot.StoreState(pg), log)
		if err != nil {
			return err
		}
		a.retryBase = 50 * time.Millisecond
		log.Info("holding the sync lease")
		bot.SetLeasedNotifier(ctx, Platform, a)
		return a.Run(ctx)
	}
	for ctx.Err() == nil {
		err := gobot.HoldLease(ctx, pg, "matrix:sync:"+cfg.UserID, os.Getenv(leaseChild), handoverTTL, time.Now,
			func(h string) { log.Info("standing by", "holder", h) }, term)
		if err != nil {
			log.Warn("the lease term ended", "err", err)
		}
	}
	os.Exit(0)
}

// Two bot processes share a PostgreSQL database and one Matrix account;
// one holds the sync lease. It is stopped (SIGSTOP) mid long-poll past
// its lease, the standby takes over and answers the next move, and the
// stopped process is resumed (SIGCONT) with that move possibly waiting
// in its sync response: it applies nothing and sends nothing. Every
// command of the game is answered exactly once and stored once. The
// time from the stop to the answer of the move sent at that moment is
// the takeover time, logged.
func TestLeaseHandoverAfterPause(t *testing.T) {
	if os.Getenv(leaseChild) != "" {
		runLeaseChild()
		return
	}
	if testing.Short() {
		t.Skip("waits for a lease to expire")
	}
	ctx := waitCtx(t)
	hs := startDendrite(t, "@ann:localhost", "@bob:localhost", "@gobot:localhost")
	dsn := pgtest.Fresh(t)
	botID := register(t, ctx, hs, "gobot").UserID
	ann := newHuman(t, ctx, hs, "ann", botID, false)
	bob := newHuman(t, ctx, hs, "bob", botID, false)
	cr, err := ann.cli.CreateRoom(ctx, &mautrix.ReqCreateRoom{Preset: "public_chat", Name: "handover"})
	if err != nil {
		t.Fatal(err)
	}
	room := cr.RoomID
	if _, err := bob.cli.JoinRoomByID(ctx, room); err != nil {
		t.Fatal(err)
	}
	waitJoined(t, ctx, room, bob.cli.UserID, ann.cli, bob.cli)

	logs := map[string]*logBuffer{}
	procs := map[string]*exec.Cmd{}
	start := func(name string) {
		logs[name] = &logBuffer{}
		cmd := exec.Command(os.Args[0], "-test.run=^TestLeaseHandoverAfterPause$")
		cmd.Env = append(os.Environ(), leaseChild+"="+name, leaseChild+"_DSN="+dsn, leaseChild+"_HS="+hs, leaseChild+"_USER="+string(botID))
		cmd.Stdout, cmd.Stderr = logs[name], logs[name]
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		procs[name] = cmd
		t.Cleanup(func() {
			cmd.Process.Signal(syscall.SIGCONT)
			cmd.Process.Kill()
			cmd.Wait()
		})
	}
	defer func() {
		if t.Failed() {
			for name, l := range logs {
				t.Logf("process %s:\n%s", name, l)
			}
		}
	}()
	pg, err := postgres.Open(ctx, dsn, postgres.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer pg.Close()
	holder := func() string {
		h, _, err := gobot.LeaseHolder(ctx, pg, "matrix:sync:"+string(botID), time.Now())
		if err != nil {
			t.Fatal(err)
		}
		return h
	}

	// A starts first and holds the lease; B stands by.
	start("A")
	for holder() != "A" {
		time.Sleep(50 * time.Millisecond)
	}
	start("B")
	if _, err := ann.cli.InviteUser(ctx, room, &mautrix.ReqInviteUser{UserID: botID}); err != nil {
		t.Fatal(err)
	}
	waitJoined(t, ctx, room, botID, ann.cli, bob.cli)
	var cmds []id.EventID
	ids := map[id.EventID]string{}
	ask := func(h *human, text string, pills ...*mautrix.Client) string {
		t.Helper()
		evt := h.say(t, ctx, room, text, pills...)
		c, _ := ann.replyTo(t, ctx, evt)
		cmds = append(cmds, evt)
		ids[evt] = text
		return c.Body
	}
	ask(ann, "!go challenge {bob} 9 black", bob.cli)
	if body := ask(bob, "!go accept"); !strings.Contains(body, "Game #1 begins") {
		t.Fatalf("accept: %s", body)
	}
	if body := ask(ann, "!go play D4"); !strings.Contains(body, "ann played D4") {
		t.Fatalf("D4: %s", body)
	}

	// Three times: the holder is stopped mid long-poll and the next
	// player moves at once; the standby takes over and answers; the
	// stopped process is resumed, and is the standby of the next round.
	var takeovers []string
	dropped := 0
	players := []*human{bob, ann}
	points := []string{"E5", "C3", "F6"}
	for round, point := range points {
		time.Sleep(time.Second)
		paused := holder()
		standby := map[string]string{"A": "B", "B": "A"}[paused]
		if paused == "" {
			t.Fatal("nobody holds the sync lease")
		}
		procs[paused].Process.Signal(syscall.SIGSTOP)
		stopped := time.Now()
		p := players[round%2]
		if body := ask(p, "!go play "+point); !strings.Contains(body, p.name+" played "+point) {
			t.Fatalf("%s: %s", point, body)
		}
		takeovers = append(takeovers, time.Since(stopped).Round(100*time.Millisecond).String())
		if h := holder(); h != standby {
			t.Fatalf("the move was answered while %q holds the lease, want %s", h, standby)
		}
		// Resumed: whatever its sync response held, it applies and
		// sends nothing.
		before := logs[paused].count("dropped a request received under a lease")
		ended := logs[paused].count("the lease term ended")
		procs[paused].Process.Signal(syscall.SIGCONT)
		for deadline := time.Now().Add(15 * time.Second); logs[paused].count("the lease term ended") == ended; time.Sleep(50 * time.Millisecond) {
			if time.Now().After(deadline) {
				t.Fatalf("process %s never noticed, once resumed, that its lease term ended", paused)
			}
		}
		dropped += logs[paused].count("dropped a request received under a lease") - before
	}
	time.Sleep(3 * time.Second) // a second answer, if any, would come now
	for _, evt := range cmds {
		if n := ann.answers(evt); n != 1 {
			t.Errorf("%q was answered %d times, want once", ids[evt], n)
		}
	}
	if strings.Contains(ann.transcript(), "already handled") {
		t.Errorf("a command was answered \"already handled\":\n%s", ann.transcript())
	}
	pg.View(ctx, func(tx gobot.Tx) error {
		match, err := tx.Match(1)
		if err != nil || len(match.Record.Moves) != 1+len(points) {
			t.Errorf("stored game: %v, %+v", err, match)
		}
		return nil
	})
	t.Logf("the holder stopped mid long-poll %d times; the standby answered the move sent then after %s (lease TTL %v); the resumed processes dropped %d request(s) received under their ended terms",
		len(points), strings.Join(takeovers, ", "), handoverTTL, dropped)
}
