package matrix

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"maunium.net/go/mautrix"
	"maunium.net/go/mautrix/event"
)

// fakeSend is a homeserver whose send endpoint answers with the given
// responses in turn ("drop" closes the connection without an answer).
type fakeSend struct {
	mu      sync.Mutex
	answers []string
	txns    []string
}

// seen returns the transaction IDs received so far (the server's handler
// may still be finishing a dropped request).
func (f *fakeSend) seen() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]string(nil), f.txns...)
}

func (f *fakeSend) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	f.mu.Lock()
	parts := strings.Split(r.URL.Path, "/")
	f.txns = append(f.txns, parts[len(parts)-1])
	answer := "ok"
	if len(f.answers) > 0 {
		answer, f.answers = f.answers[0], f.answers[1:]
	}
	f.mu.Unlock()
	switch answer {
	case "drop":
		conn, _, err := w.(http.Hijacker).Hijack()
		if err == nil {
			conn.Close()
		}
	case "limit":
		w.WriteHeader(http.StatusTooManyRequests)
		io.WriteString(w, `{"errcode":"M_LIMIT_EXCEEDED","error":"slow down","retry_after_ms":20}`)
	case "forbidden":
		w.WriteHeader(http.StatusForbidden)
		io.WriteString(w, `{"errcode":"M_FORBIDDEN","error":"no"}`)
	case "gateway":
		w.WriteHeader(http.StatusBadGateway)
	default:
		io.WriteString(w, `{"event_id":"$sent"}`)
	}
}

func testAdapter(t *testing.T, h http.Handler) *Adapter {
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	cli, err := mautrix.NewClient(srv.URL, "@bot:example.org", "token")
	if err != nil {
		t.Fatal(err)
	}
	cli.IgnoreRateLimit = true
	return &Adapter{cli: cli, retryBase: time.Millisecond, log: slog.New(slog.NewTextHandler(io.Discard, nil))}
}

func TestSendRetries(t *testing.T) {
	f := &fakeSend{answers: []string{"limit", "drop", "gateway", "limit", "ok"}}
	a := testAdapter(t, f)
	evt, err := a.sendContent(context.Background(), "!r:example.org", &event.MessageEventContent{MsgType: event.MsgNotice, Body: "hi"}, a.cli.TxnID())
	if err != nil || evt != "$sent" {
		t.Fatalf("sendContent = %q, %v", evt, err)
	}
	txns := f.seen()
	if len(txns) != 5 {
		t.Fatalf("%d attempts, want 5", len(txns))
	}
	for _, txn := range txns {
		if txn != txns[0] {
			t.Fatalf("transaction IDs differ between attempts: %q", txns)
		}
	}
}

func TestSendGivesUp(t *testing.T) {
	f := &fakeSend{answers: []string{"forbidden"}}
	a := testAdapter(t, f)
	if _, err := a.sendContent(context.Background(), "!r:example.org", &event.MessageEventContent{MsgType: event.MsgNotice, Body: "hi"}, a.cli.TxnID()); err == nil {
		t.Fatal("a forbidden send succeeded")
	}
	if txns := f.seen(); len(txns) != 1 {
		t.Errorf("M_FORBIDDEN was tried %d times", len(txns))
	}
	f = &fakeSend{answers: []string{"drop", "drop", "drop", "drop", "drop", "drop", "drop", "drop", "drop", "drop"}}
	a = testAdapter(t, f)
	if _, err := a.sendContent(context.Background(), "!r:example.org", &event.MessageEventContent{MsgType: event.MsgNotice, Body: "hi"}, a.cli.TxnID()); err == nil {
		t.Fatal("a send to a dead server succeeded")
	}
	if txns := f.seen(); len(txns) != maxAttempts {
		t.Errorf("%d attempts, want %d", len(txns), maxAttempts)
	}
}

func TestRetryAfter(t *testing.T) {
	a := testAdapter(t, &fakeSend{answers: []string{"limit"}})
	_, err := a.cli.SendMessageEvent(context.Background(), "!r:example.org", event.EventMessage, &event.MessageEventContent{Body: "x"})
	if d, ok := retryAfter(err); !ok || d != 20*time.Millisecond {
		t.Errorf("retryAfter = %v, %v; want 20ms", d, ok)
	}
	if _, ok := retryAfter(context.Canceled); ok {
		t.Error("retryAfter accepted a non-HTTP error")
	}
}
