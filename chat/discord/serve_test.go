package discord

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"encoding/hex"
	"errors"
	"io"
	"log/slog"
	"net"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gobotgo/gobot"
	"github.com/gobotgo/gobot/chat/httpserver"
)

// TestServeTimeouts: the interactions endpoint (http mode) cuts off a
// client that sends its headers and then stalls its body, and one that
// trickles it byte by byte: the server closes the connection, where
// before it only bounded the headers and held a slow body forever. A
// signed interaction still gets its answer on the same server.
func TestServeTimeouts(t *testing.T) {
	e := newEnv(t)
	pub := e.priv.Public().(ed25519.PublicKey)
	const short = 200 * time.Millisecond
	a, err := New(Config{Mode: "http", Token: "tok", ApplicationID: "app", PublicKey: hex.EncodeToString(pub), APIURL: "http://127.0.0.1:1/api/v9/", // a ping calls nothing
		Timeouts: httpserver.Timeouts{ReadHeader: short, Read: short, Write: short, Idle: short}}, e.bot, gobot.StoreState(e.db), slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	served := make(chan error, 1)
	go func() { served <- a.Serve(ctx, ln) }()
	t.Cleanup(func() {
		cancel()
		if err := <-served; err != nil {
			t.Errorf("Serve: %v", err)
		}
	})
	head := "POST /interactions HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n" +
		"X-Signature-Timestamp: " + strconv.FormatInt(time.Now().Unix(), 10) + "\r\n\r\n"
	closedByServer := func(what string, trickle bool) {
		t.Helper()
		conn, err := net.Dial("tcp", ln.Addr().String())
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close()
		if _, err := io.WriteString(conn, head+`{"type":`); err != nil {
			t.Fatal(err)
		}
		if trickle {
			go func() {
				for {
					if _, err := conn.Write([]byte(" ")); err != nil {
						return // the server closed it
					}
					time.Sleep(short / 10)
				}
			}()
		}
		conn.SetReadDeadline(time.Now().Add(10 * time.Second)) // the test's patience, not the server's timeout
		_, err = io.Copy(io.Discard, conn)
		var ne net.Error
		if errors.As(err, &ne) && ne.Timeout() {
			t.Errorf("%s: the server still holds the connection after 10 s", what)
		}
	}
	closedByServer("a body that stalls", false)
	closedByServer("a body that trickles", true)

	// The endpoint still answers Discord.
	body := []byte(`{"id":"p1","application_id":"app","type":1,"token":"t"}`)
	stamp := strconv.FormatInt(time.Now().Unix(), 10)
	req, _ := http.NewRequest(http.MethodPost, "http://"+ln.Addr().String()+"/interactions", bytes.NewReader(body))
	req.Header.Set("X-Signature-Ed25519", hex.EncodeToString(ed25519.Sign(e.priv, append([]byte(stamp), body...))))
	req.Header.Set("X-Signature-Timestamp", stamp)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	got, _ := io.ReadAll(res.Body)
	if res.StatusCode != 200 || !strings.Contains(string(got), `"type":1`) {
		t.Fatalf("a ping: %d %s", res.StatusCode, got)
	}
}
