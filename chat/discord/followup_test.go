package discord

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gobotgo/gobot/chat/protocol"
)

// lateDiscord is the fake discord.com, except that it takes in a
// deferred answer only some time after the bot sent it: until then an
// edit of @original gets 404 Unknown Webhook (10015), as Discord answers
// under load. A follow-up before then gets the same.
type lateDiscord struct {
	next  *fakeDiscord
	mu    sync.Mutex
	known map[string]bool // interaction tokens Discord has taken in
	ok    map[string]int  // edits accepted, by token
}

func (l *lateDiscord) ack(token string) { l.mu.Lock(); l.known[token] = true; l.mu.Unlock() }

func (l *lateDiscord) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	followup := r.Method == http.MethodPost && strings.HasPrefix(r.URL.Path, "/api/v9/webhooks/app/") && strings.Count(r.URL.Path, "/") == 5
	if r.Method == http.MethodPatch && strings.HasSuffix(r.URL.Path, "/messages/@original") || followup {
		token := strings.Split(strings.TrimPrefix(r.URL.Path, "/api/v9/webhooks/app/"), "/")[0]
		l.mu.Lock()
		known := l.known[token]
		if known {
			l.ok[token]++
		}
		l.mu.Unlock()
		if !known {
			io.Copy(io.Discard, r.Body)
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusNotFound)
			io.WriteString(w, `{"message": "Unknown Webhook", "code": 10015}`)
			return
		}
	}
	l.next.ServeHTTP(w, r)
}

// A deferred response is completed even when Discord takes in the
// deferred answer late: the edit waits for the answer to be written and
// retries Unknown Webhook.
func TestDeferredEditWhenDiscordAcknowledgesLate(t *testing.T) {
	e := newEnv(t)
	late := &lateDiscord{next: e.fake, known: map[string]bool{}, ok: map[string]int{}}
	api := httptest.NewServer(late)
	t.Cleanup(api.Close)
	if err := e.a.setAPIBase(api.URL + "/api/v9/"); err != nil {
		t.Fatal(err)
	}
	now := time.Now()
	_, out := e.send(e.command("111", "alice", "challenge", opt("player", 6, "222")+","+opt("size", 3, "9")), now, false)
	accept := buttons(out["data"].(map[string]any))["Accept"]
	body := e.button("222", "bob", accept)
	token := "tok" + strconv.Itoa(e.seq)
	stamp := strconv.FormatInt(now.Unix(), 10)
	req, _ := http.NewRequest(http.MethodPost, e.srv.URL, bytes.NewReader(body))
	req.Header.Set("X-Signature-Ed25519", hex.EncodeToString(ed25519.Sign(e.priv, append([]byte(stamp), body...))))
	req.Header.Set("X-Signature-Timestamp", stamp)
	resp, err := e.client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	var got map[string]any
	json.NewDecoder(resp.Body).Decode(&got)
	resp.Body.Close()
	if got["type"] != float64(5) {
		t.Fatalf("accept should be deferred: %v", got)
	}
	// Discord takes the deferred answer in only a while after receiving it.
	time.AfterFunc(300*time.Millisecond, func() { late.ack(token) })
	e.a.Wait()
	late.mu.Lock()
	n := late.ok[token]
	late.mu.Unlock()
	if n != 1 {
		t.Fatalf("the deferred response was completed %d times, want once", n)
	}
	c := findCall(t, e.fake.take(), "PATCH", "/api/v9/webhooks/app/"+token+"/messages/@original")
	checkPNG(t, c)
}

// A notice held for a DM between users goes out as a follow-up even when
// Discord takes in the interaction's response late.
func TestHeldNoticeWhenDiscordAcknowledgesLate(t *testing.T) {
	e := newEnv(t)
	late := &lateDiscord{next: e.fake, known: map[string]bool{}, ok: map[string]int{}}
	api := httptest.NewServer(late)
	t.Cleanup(api.Close)
	if err := e.a.setAPIBase(api.URL + "/api/v9/"); err != nil {
		t.Fatal(err)
	}
	e.fake.noBot = map[string]bool{"pc5": true}
	if err := e.a.hold(context.Background(), "pc5", protocol.Reply{Title: "Game #1", Text: "held for you"}, nil); err != nil {
		t.Fatal(err)
	}
	body := e.ix(privateChannel("pc5"), "111", "games", "")
	token := tokenOf(body)
	time.AfterFunc(300*time.Millisecond, func() { late.ack(token) })
	e.send(body, time.Now(), false)
	late.mu.Lock()
	n := late.ok[token]
	late.mu.Unlock()
	if n != 1 {
		t.Fatalf("the held notice was sent %d times, want once", n)
	}
	if fus := e.fake.find("POST", "/webhooks/app/"+token); len(fus) != 1 || !strings.Contains(fmt.Sprint(fus[0].JSON["embeds"]), "held for you") {
		t.Fatalf("the follow-up: %v", fus)
	}
}
