package matrix

import (
	"context"
	"io"
	"net"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gobotgo/gobot/chat/matrix/dendritetest"
)

// startDendrite runs a fresh Dendrite homeserver (server name
// "localhost", no federation, open registration, rate limiting on for
// everyone but exempt) for the test and returns its URL
// (dendritetest.Start).
func startDendrite(t *testing.T, exempt ...string) string {
	t.Helper()
	return dendritetest.Start(t, dendritetest.Options{Exempt: exempt})
}

// waitCtx bounds a whole integration test against hangs.
func waitCtx(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	t.Cleanup(cancel)
	return ctx
}

// A proxy stands between the bot and the homeserver so that a test can
// cut the network: while down, it drops every connection.
type proxy struct {
	target string
	l      net.Listener
	mu     sync.Mutex
	down   bool
	conns  map[net.Conn]bool
}

func startProxy(t *testing.T, targetURL string) *proxy {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := &proxy{target: strings.TrimPrefix(targetURL, "http://"), l: l, conns: map[net.Conn]bool{}}
	done := make(chan struct{})
	go func() {
		defer close(done)
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			go p.serve(c)
		}
	}()
	t.Cleanup(func() { l.Close(); <-done; p.setDown(true) })
	return p
}

func (p *proxy) URL() string { return "http://" + p.l.Addr().String() }

func (p *proxy) track(cs ...net.Conn) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.down {
		for _, c := range cs {
			c.Close()
		}
		return false
	}
	for _, c := range cs {
		p.conns[c] = true
	}
	return true
}

func (p *proxy) serve(c net.Conn) {
	up, err := net.Dial("tcp", p.target)
	if err != nil {
		c.Close()
		return
	}
	if !p.track(c, up) {
		return
	}
	go func() { io.Copy(up, c); up.Close() }()
	io.Copy(c, up)
	c.Close()
	p.mu.Lock()
	delete(p.conns, c)
	delete(p.conns, up)
	p.mu.Unlock()
}

// setDown cuts (true) or restores (false) the network.
func (p *proxy) setDown(down bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.down = down
	if down {
		for c := range p.conns {
			c.Close()
		}
		p.conns = map[net.Conn]bool{}
	}
}
