package main

import (
	"bufio"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

var anyURL = regexp.MustCompile(`https?://`)

// TestConsoleWebBoard: the terminal game serves the web board on a
// loopback port, says where on start, and `web` prints exactly one
// http:// URL on a line of its own, which opens the game's page.
func TestConsoleWebBoard(t *testing.T) {
	db := filepath.Join(t.TempDir(), "gobot.db")
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	errR, errW := io.Pipe()
	done := make(chan int, 1)
	go func() {
		done <- run([]string{"-db", db}, inR, outW, errW)
		outW.Close()
		errW.Close()
	}()
	go io.WriteString(inW, "challenge @bob 9 black\n/as bob\naccept\n/as alice\nweb\n")
	banner := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(errR)
		for sc.Scan() {
			if strings.Contains(sc.Text(), "Web board on") {
				banner <- sc.Text()
			}
		}
	}()
	select {
	case b := <-banner:
		if !regexp.MustCompile(`http://127\.0\.0\.1:\d+`).MatchString(b) {
			t.Errorf("start line %q does not give the board's local address", b)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("no start line naming the web board")
	}
	sc := bufio.NewScanner(outR)
	var link string
	var urls int
	for sc.Scan() {
		line := sc.Text()
		n := len(anyURL.FindAllString(line, -1))
		urls += n
		if n > 0 {
			if strings.ContainsRune(line, '\x1b') || !regexp.MustCompile(`^http://\S+$`).MatchString(line) {
				t.Errorf("the link line %q is not the URL alone", line)
			}
			link = line
			break
		}
	}
	if link == "" {
		t.Fatal("web printed no link")
	}
	jar, _ := cookiejar.New(nil)
	client := &http.Client{Jar: jar, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	// The link, then its /open step (docs/web.md), then the board.
	next := link
	for _, want := range []string{"/g/1/open", "/g/1"} {
		res, err := client.Get(next)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		if res.StatusCode != http.StatusSeeOther || res.Header.Get("Location") != want {
			t.Fatalf("%s: %d → %q, want 303 → %s", next, res.StatusCode, res.Header.Get("Location"), want)
		}
		u, _ := url.Parse(link)
		next = u.Scheme + "://" + u.Host + want
	}
	inW.Close()
	go io.Copy(io.Discard, outR)
	if code := <-done; code != 0 {
		t.Fatalf("exit %d", code)
	}
	if urls != 1 {
		t.Errorf("%d URLs on stdout, want 1", urls)
	}
}

// TestConsoleWebOff: -web off serves nothing and `web` says the board is off.
func TestConsoleWebOff(t *testing.T) {
	db := filepath.Join(t.TempDir(), "gobot.db")
	var out, errb strings.Builder
	in := strings.NewReader("challenge @bob 9 black\n/as bob\naccept\nweb\n")
	if code := run([]string{"-db", db, "-web", "off"}, in, &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	if strings.Contains(errb.String(), "Web board on") || anyURL.MatchString(out.String()) || !strings.Contains(out.String(), "not enabled") {
		t.Errorf("with -web off: stdout %q stderr %q", out.String(), errb.String())
	}
}

// TestConsoleShortSecret: a GOBOT_WEB_SECRET too short to sign with is
// replaced by a random one for the run, and the terminal says so
// (without showing it); a long enough one is used without a word.
func TestConsoleShortSecret(t *testing.T) {
	for _, c := range []struct {
		secret string
		warned bool
	}{
		{"too-short-to-sign", true},
		{strings.Repeat("k", 40), false},
		{"", false}, // unset: a secret of the run, as documented
	} {
		t.Setenv("GOBOT_WEB_SECRET", c.secret)
		var out, errb strings.Builder
		if code := run([]string{"-db", filepath.Join(t.TempDir(), "gobot.db")}, strings.NewReader(""), &out, &errb); code != 0 {
			t.Fatalf("exit %d: %s", code, errb.String())
		}
		warned := strings.Contains(errb.String(), "GOBOT_WEB_SECRET is shorter than 32 bytes")
		if warned != c.warned || c.secret != "" && strings.Contains(errb.String(), c.secret) {
			t.Errorf("GOBOT_WEB_SECRET of %d bytes: stderr %q", len(c.secret), errb.String())
		}
	}
}

func TestWebConfig(t *testing.T) {
	secret := strings.Repeat("s", 40)
	for name, tc := range map[string]struct {
		yaml, env, err string
	}{
		"loopback default": {yaml: "web: {enabled: true}\n", env: secret},
		"secret in file":   {yaml: "web: {enabled: true, secret: " + secret + "}\n"},
		"https":            {yaml: "web: {enabled: true, listen: ':8080', public_url: 'https://go.example.org', link_ttl: 7d}\n", env: secret},
		"no secret":        {yaml: "web: {enabled: true}\n", err: "web.secret"},
		"short secret":     {yaml: "web: {enabled: true}\n", env: "short", err: "web.secret"},
		"plain http":       {yaml: "web: {enabled: true, listen: ':8080', public_url: 'http://go.example.org'}\n", env: secret, err: "https"},
		"listen anywhere":  {yaml: "web: {enabled: true, listen: '0.0.0.0:8080'}\n", env: secret, err: "web.public_url"},
		"bad ttl":          {yaml: "web: {enabled: true, link_ttl: soon}\n", env: secret, err: "web.link_ttl"},
		"unknown key":      {yaml: "web: {enabled: true, port: 8}\n", env: secret, err: "port"},
		"widget origins":   {yaml: "web: {enabled: true, widget_origins: [https://app.element.io, 'vector:']}\n", env: secret},
		"widget anywhere":  {yaml: "web: {enabled: true, widget_origins: ['*']}\n", env: secret},
		"widget path":      {yaml: "web: {enabled: true, widget_origins: [https://app.element.io/room]}\n", env: secret, err: "c.yaml:1: web.widget_origins: \"https://app.element.io/room\" is not an origin like https://app.element.io"},
		"widget http":      {yaml: "web: {enabled: true, widget_origins: [http://element.example.org]}\n", env: secret, err: "web.widget_origins: \"http://element.example.org\": a chat client that frames the widget is served over https://"},
		"widget not list":  {yaml: "web: {enabled: true, widget_origins: https://app.element.io}\n", env: secret, err: "web.widget_origins: write a list of origins like [https://app.element.io]"},
		"trusted proxies":  {yaml: "web: {enabled: true, trusted_proxies: [127.0.0.1, '10.0.0.0/8', '::1']}\n", env: secret},
		"bad proxy":        {yaml: "web: {enabled: true, trusted_proxies: [proxy.example.org]}\n", env: secret, err: "web.trusted_proxies: \"proxy.example.org\" is not an address or a network"},
		"max streams":      {yaml: "web: {enabled: true, max_streams: 500}\n", env: secret},
		"negative streams": {yaml: "web: {enabled: true, max_streams: -1}\n", env: secret, err: "web.max_streams"},
	} {
		_, err := parseConfig([]byte(tc.yaml), "c.yaml", func(k string) string {
			if k == "GOBOT_WEB_SECRET" {
				return tc.env
			}
			return ""
		})
		if tc.err == "" && err != nil || tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)) {
			t.Errorf("%s: %v, want error containing %q", name, err, tc.err)
		}
		if err != nil && strings.Contains(err.Error(), secret) {
			t.Errorf("%s: the error shows the secret", name)
		}
	}
}

// TestRunServesWebBoard: `gobot run` with a web: block serves the board;
// `web` in its terminal gives a link to the port bound.
func TestRunServesWebBoard(t *testing.T) {
	dir := t.TempDir()
	inR, inW := io.Pipe()
	var out syncBuffer
	defer inW.Close() // before startServe's cleanup: the terminal's input ends, then the process
	startServe(t, "database: "+filepath.Join(dir, "g.db")+"\nconsole:\n  enabled: true\n  user: alice\nweb:\n  enabled: true\n  listen: 127.0.0.1:0\n  secret: "+strings.Repeat("k", 40)+"\n", inR, &out)
	go io.WriteString(inW, "challenge @bob 9 black\n/as bob\naccept\n/as alice\nweb\n")
	link := regexp.MustCompile(`(?m)^http://127\.0\.0\.1:[1-9][0-9]*/l/\S+$`)
	deadline := time.Now().Add(30 * time.Second)
	for link.FindString(out.String()) == "" && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	u := link.FindString(out.String())
	if u == "" {
		t.Fatalf("no link to the bound port in:\n%s", out.String())
	}
	client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	res, err := client.Get(u)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusSeeOther {
		t.Errorf("the link: %d, want 303", res.StatusCode)
	}
	if !strings.Contains(out.String(), "Open board") {
		t.Errorf("game replies have no Open board button while the board is on")
	}
}

// TestConsoleQuitEndsStreams: /quit with a board's live stream open
// ends the stream (its response ends cleanly, as the page's EventSource
// sees a server going away) and the run, with no request cut off by the
// shutdown's deadline. Before, the stream held the web server's
// Shutdown until its 5 s ran out.
func TestConsoleQuitEndsStreams(t *testing.T) {
	db := filepath.Join(t.TempDir(), "gobot.db")
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	var stderr syncBuffer
	done := make(chan int, 1)
	go func() {
		done <- run([]string{"-db", db}, inR, outW, &stderr)
		outW.Close()
	}()
	go io.WriteString(inW, "challenge @bob 9 black\n/as bob\naccept\n/as alice\nweb\n")
	sc := bufio.NewScanner(outR)
	var link string
	for link == "" && sc.Scan() {
		if anyURL.MatchString(sc.Text()) {
			link = sc.Text()
		}
	}
	if link == "" {
		t.Fatal("web printed no link")
	}
	go io.Copy(io.Discard, outR)
	jar, _ := cookiejar.New(nil)
	client := &http.Client{Jar: jar}
	res, err := client.Get(link) // the link, its /open step, the board: the session's cookie
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	u, _ := url.Parse(link)
	stream, err := client.Get(u.Scheme + "://" + u.Host + "/g/1/events")
	if err != nil {
		t.Fatal(err)
	}
	defer stream.Body.Close()
	r := bufio.NewReader(stream.Body)
	if stream.StatusCode != http.StatusOK {
		t.Fatalf("events: %d", stream.StatusCode)
	}
	for {
		line, err := r.ReadString('\n')
		if err != nil {
			t.Fatalf("the stream ended before its first state: %v", err)
		}
		if strings.HasPrefix(line, "event: state") {
			break // live
		}
	}
	io.WriteString(inW, "/quit\n")
	if rest, err := io.ReadAll(r); err != nil {
		t.Errorf("the stream: %v after %q, want its response's end", err, rest)
	}
	if code := <-done; code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	if strings.Contains(stderr.String(), "cut off") {
		t.Errorf("the shutdown reached its deadline: %s", stderr.String())
	}
}
