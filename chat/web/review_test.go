package web

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gobotgo/gobot"
	"github.com/gobotgo/gobot/storage/postgres"
	"github.com/gobotgo/gobot/storage/postgres/pgtest"
)

// reviewClient is a browser of a review's page over plain HTTP.
type reviewClient struct {
	*browser
	id gobot.ReviewID
}

func (h *harness) openReview(id gobot.ReviewID, user string) *reviewClient {
	h.t.Helper()
	b := h.browser()
	res, _ := b.get(h.reviewLink(id, user))
	if res.StatusCode != http.StatusSeeOther || res.Header.Get("Location") != reviewOpenPath(id) {
		h.t.Fatalf("review link: %d to %q", res.StatusCode, res.Header.Get("Location"))
	}
	res, _ = b.get(h.ts.URL + reviewOpenPath(id))
	if res.StatusCode != http.StatusSeeOther || res.Header.Get("Location") != reviewPath(id) {
		h.t.Fatalf("review link's second step: %d to %q", res.StatusCode, res.Header.Get("Location"))
	}
	var ck []*http.Cookie
	for _, c := range res.Cookies() {
		if c.MaxAge >= 0 {
			ck = append(ck, c)
		}
	}
	if len(ck) != 1 || ck[0].Name != reviewCookieName(id) || ck[0].Path != reviewPath(id) || !ck[0].HttpOnly {
		h.t.Fatalf("review cookie %+v", ck)
	}
	res, page := b.get(h.ts.URL + reviewPath(id))
	if res.StatusCode != 200 {
		h.t.Fatalf("review page: %d %s", res.StatusCode, page)
	}
	m := csrfAttr.FindStringSubmatch(page)
	if m == nil {
		h.t.Fatal("review page has no CSRF token")
	}
	b.csrf = m[1]
	return &reviewClient{b, id}
}

// act posts a review action; the status and the answer.
func (c *reviewClient) act(f url.Values) (int, string, reviewState) {
	c.h.t.Helper()
	if f.Get("csrf") == "" {
		f.Set("csrf", c.csrf)
	}
	c.h.now.Advance(time.Second) // a person's pace: the rate limit lets it by
	res, err := c.c.PostForm(c.h.ts.URL+reviewPath(c.id)+"/act", f)
	if err != nil {
		c.h.t.Fatal(err)
	}
	defer res.Body.Close()
	var a struct {
		Message string       `json:"message"`
		State   *reviewState `json:"state"`
	}
	body, _ := io.ReadAll(res.Body)
	if err := json.Unmarshal(body, &a); err != nil {
		c.h.t.Fatalf("answer %s: %v", body, err)
	}
	var st reviewState
	if a.State != nil {
		st = *a.State
	}
	return res.StatusCode, a.Message, st
}

func (c *reviewClient) events() (*sse, func()) {
	c.h.t.Helper()
	req, _ := http.NewRequest("GET", c.h.ts.URL+reviewPath(c.id)+"/events?v=0", nil)
	res, err := c.c.Do(req)
	if err != nil {
		c.h.t.Fatal(err)
	}
	if res.StatusCode != 200 {
		c.h.t.Fatalf("review events: %d", res.StatusCode)
	}
	return &sse{res: res, r: bufio.NewReader(res.Body)}, func() { res.Body.Close() }
}

func stateOf(t *testing.T, data string) reviewState {
	t.Helper()
	var st reviewState
	if err := json.Unmarshal([]byte(data), &st); err != nil {
		t.Fatal(err)
	}
	return st
}

// waitReview polls the store until ok holds of the review (the stream's
// end reaches the server a moment after the client closes it).
func (h *harness) waitReview(id gobot.ReviewID, what string, ok func(*gobot.Review) bool) {
	h.t.Helper()
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(5 * time.Millisecond) {
		if ok(h.storedReview(id)) {
			return
		}
	}
	h.t.Fatalf("review #%d: never %s: %+v", id, what, h.storedReview(id))
}

// TestReviewPage: the link opens the review's page as the controller or
// a follower; a game's session does not open a review nor the other way
// round; a follower's actions and bad requests are refused, briefly,
// changing nothing; a stream is presence.
func TestReviewPage(t *testing.T) {
	h := newHarness(t)
	gid := h.finishedGame()
	h.startReview("alice", "#1")
	alice := h.openReview(1, "alice")
	_, page := alice.get(h.ts.URL + reviewPath(1))
	for _, want := range []string{`data-role="controller"`, `data-move-number`, `data-controller>alice<`, `data-action="detach"`, `data-point="E5"`} {
		if !strings.Contains(page, want) {
			t.Errorf("alice's page lacks %s", want)
		}
	}
	if strings.Contains(page, "<script>") {
		t.Error("inline script on the review page")
	}
	bob := h.openReview(1, "bob")
	if _, page := bob.get(h.ts.URL + reviewPath(1)); !strings.Contains(page, `data-role="follower"`) {
		t.Error("bob is not a follower")
	}
	// Sessions are for their own page only.
	gameTab := h.browser()
	gameTab.open(h.link(gid, "alice", false), gid)
	if res, _ := gameTab.get(h.ts.URL + reviewPath(1)); res.StatusCode != http.StatusUnauthorized {
		t.Errorf("a game's session opened a review: %d", res.StatusCode)
	}
	if res, _ := alice.get(h.ts.URL + gamePath(gid)); res.StatusCode != http.StatusUnauthorized {
		t.Errorf("a review's session opened a game: %d", res.StatusCode)
	}
	if res, _ := alice.get(h.ts.URL + "/r/2"); res.StatusCode != http.StatusUnauthorized {
		t.Errorf("alice's session opened review #2: %d", res.StatusCode)
	}

	// A link of another user's, opened where alice's session is, asks
	// first; the answer's button switches.
	res, _ := alice.get(h.reviewLink(1, "bob"))
	res, page = alice.get(h.ts.URL + res.Header.Get("Location"))
	if res.StatusCode != 200 || !strings.Contains(page, "data-switch") || !strings.Contains(page, "as alice") {
		t.Fatalf("bob's link in alice's browser: %d %.300s", res.StatusCode, page)
	}
	m := regexp.MustCompile(`name="csrf" value="([^"]+)"`).FindStringSubmatch(page)
	if m == nil {
		t.Fatal("no csrf in the question")
	}
	if res, err := alice.c.PostForm(h.ts.URL+reviewOpenPath(1), url.Values{"csrf": {"forged"}}); err != nil || res.StatusCode != http.StatusForbidden {
		t.Fatalf("a forged answer: %v %v", res, err)
	}
	if _, page := alice.get(h.ts.URL + reviewPath(1)); !strings.Contains(page, `data-user="console:alice"`) {
		t.Fatal("the session changed without the answer")
	}

	v := h.storedReview(1).Version
	for _, c := range []struct {
		by   *reviewClient
		form url.Values
		code int
		want string
	}{
		{bob, url.Values{"action": {"play"}, "point": {"D4"}}, 200, "alice has control"},
		{bob, url.Values{"action": {"goto"}, "node": {"3"}}, 200, "alice has control"},
		{alice, url.Values{"action": {"fly"}}, 400, "not an action"},
		{alice, url.Values{"action": {"play"}, "point": {"Z99"}}, 400, "Z99 is off the board: this "},
		{alice, url.Values{"action": {"play"}, "point": {strings.Repeat("x", 3000)}}, 400, "isn't a point: write a column letter and a row number, like D4. Nothing was changed."},
		{alice, url.Values{"action": {"goto"}, "node": {"99"}}, 200, "not in this review"},
		{alice, url.Values{"action": {"mark"}, "point": {"Z9"}, "shape": {"circle"}}, 400, "Z9 is off the board: this "},
		{alice, url.Values{"action": {"mark"}, "point": {"I5"}, "shape": {"circle"}}, 400, "there is no column I on a go board"},
		{alice, url.Values{"action": {"mark"}, "point": {"E5"}, "shape": {"star"}}, 400, "not an action"},
		{alice, url.Values{"action": {"mark"}, "point": {"E5"}, "shape": {"label"}, "text": {"TOOLONG"}}, 200, "label of 1 to 4"},
		{alice, url.Values{"action": {"comment"}, "text": {strings.Repeat("x", 2001)}}, 200, "at most 2000 bytes"},
		{alice, url.Values{"action": {"give"}, "to": {"console:zed"}}, 200, "someone on the board"},
		{alice, url.Values{"action": {"play"}, "point": {"D4"}, "csrf": {"forged"}}, 403, "out of date"},
		{alice, url.Values{"action": {"comment"}, "text": {strings.Repeat("x", 5000)}}, 413, "too large"},
	} {
		code, msg, _ := c.by.act(c.form)
		if code != c.code || !strings.Contains(msg, c.want) || len(msg) > 300 {
			t.Errorf("%v: %d %q, want %d %q", c.form, code, msg, c.code, c.want)
		}
	}
	if got := h.storedReview(1).Version; got != v {
		t.Fatalf("refused actions changed the review: version %d, was %d", got, v)
	}
	// GETs change nothing: a position looked at, the page again.
	if res, body := bob.get(h.ts.URL + reviewPath(1) + "/node/3"); res.StatusCode != 200 || !strings.Contains(body, `"node":3`) {
		t.Errorf("node 3: %d %.200s", res.StatusCode, body)
	}
	for _, bad := range []string{"/node/99", "/node/-1", "/node/x"} {
		if res, body := bob.get(h.ts.URL + reviewPath(1) + bad); res.StatusCode != 404 || len(body) > 300 {
			t.Errorf("%s: %d %s", bad, res.StatusCode, body)
		}
	}
	if got := h.storedReview(1).Version; got != v {
		t.Fatalf("GETs changed the review")
	}

	// A stream is presence; the controller's stream closing hands
	// control to the longest present.
	aliceEv, closeAlice := alice.events()
	if st := stateOf(t, must2(aliceEv.next(t))); st.Node != 0 || st.Controller != "alice" {
		t.Fatalf("first event %+v", st)
	}
	bobEv, closeBob := bob.events()
	defer closeBob()
	h.waitReview(1, "with alice and bob present", func(r *gobot.Review) bool {
		return slices.Equal(r.Present, []gobot.UserID{"console:alice", "console:bob"})
	})
	if first := must2(bobEv.next(t)); !strings.Contains(first, `"tree":`) {
		t.Errorf("a stream's first state carries no move tree: %.200s", first)
	}
	if code, msg, st := alice.act(url.Values{"action": {"goto"}, "node": {"2"}}); code != 200 || msg != "" || st.Node != 2 || st.Move != 2 {
		t.Fatalf("goto 2: %d %q %+v", code, msg, st)
	}
	for {
		data := must2(bobEv.next(t))
		if strings.Contains(data, `"tree":`) {
			t.Errorf("a step on the tree the stream sent already carries it again: %.200s", data)
		}
		if st := stateOf(t, data); st.Node == 2 {
			break
		}
	}
	if code, msg, st := alice.act(url.Values{"action": {"play"}, "point": {"E5"}}); code != 200 || !strings.Contains(msg, "E5") || st.Node != 2 {
		t.Fatalf("a stone onto a stone: %d %q, node %d", code, msg, st.Node)
	}
	closeAlice()
	h.waitReview(1, "bob's", func(r *gobot.Review) bool { return r.Controller == "console:bob" })
	if code, msg, _ := alice.act(url.Values{"action": {"take"}}); code != 200 || msg != "" {
		t.Fatalf("alice takes control back: %d %q", code, msg)
	}
}

func must2(_, data string) string { return data }

// TestReviewTwoProcesses: on PostgreSQL a follower's stream on process B
// follows the controller's navigation on process A (NOTIFY carries
// review changes), and the review survives both processes.
func TestReviewTwoProcesses(t *testing.T) {
	dsn := pgtest.Fresh(t)
	proc := func() *harness {
		pg, err := postgres.Open(context.Background(), dsn, postgres.Options{})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { pg.Close() })
		return buildHarness(t, pg, func(*Hub) Publisher { return pgPublisher{pg} },
			func(ctx context.Context, h *harness) { pg.ListenChanges(ctx, h.hub.Changed, h.hub.ReviewChanged) })
	}
	a, b := proc(), proc()
	a.finishedGame()
	a.startReview("alice", "#1")
	alice := a.openReview(1, "alice")
	bob := b.openReview(1, "bob")
	ev, stop := bob.events()
	defer stop()
	states := make(chan reviewState, 64)
	go func() {
		defer close(states)
		for {
			line, err := ev.r.ReadString('\n')
			if err != nil {
				return
			}
			if d, ok := strings.CutPrefix(strings.TrimRight(line, "\n"), "data: "); ok {
				var st reviewState
				if json.Unmarshal([]byte(d), &st) == nil {
					states <- st
				}
			}
		}
	}()
	<-states // the state at once
	goto_ := func(n string) {
		t.Helper()
		if code, msg, _ := alice.act(url.Values{"action": {"goto"}, "node": {n}}); code != 200 || msg != "" {
			t.Fatalf("goto %s: %d %q", n, code, msg)
		}
	}
	// B's listener may not be listening yet when the test starts: alice
	// moves until B has heard one change (a NOTIFY before its LISTEN is
	// lost, as for pages; a reconnect resyncs them all).
	deadline := time.After(time.Minute)
	for heard := false; !heard; {
		goto_("0")
		select {
		case <-states:
			heard = true
		case <-time.After(time.Second):
		case <-deadline:
			t.Fatal("process B never heard a change made on A")
		}
	}
	for _, n := range []string{"3", "5", "1"} {
		goto_(n)
		for seen := false; !seen; {
			select {
			case st, ok := <-states:
				if !ok {
					t.Fatal("the stream on B ended")
				}
				seen = st.Node == atoi(n)
			case <-deadline:
				t.Fatalf("the stream on B never showed node %s", n)
			}
		}
	}
	// A third process, started afresh, reads the review as it is.
	c := proc()
	if rev := c.storedReview(1); rev.Node != 1 || rev.Controller != "console:alice" || len(rev.Tree.MainLine()) != 6 {
		t.Fatalf("review on a new process: node %d, controller %s", rev.Node, rev.Controller)
	}
}

type pgPublisher struct{ pg *postgres.Store }

func (p pgPublisher) Publish(ctx context.Context, g []gobot.GameID) { p.pg.PublishGames(ctx, g) }
func (p pgPublisher) PublishReviews(ctx context.Context, r []gobot.ReviewID) {
	p.pg.PublishReviews(ctx, r)
}

func atoi(s string) int {
	n := 0
	for _, c := range s {
		n = n*10 + int(c-'0')
	}
	return n
}

// TestReviewLinkReset: `review reset` moves the caller's link generation
// in the review on: their earlier link and the board opened with it end
// (the page refused, the live stream closed), the new link works, and
// others' sessions go on. A reset naming no review where several are
// open, or one of another room, is refused and changes nothing.
func TestReviewLinkReset(t *testing.T) {
	h := newHarness(t)
	h.finishedGame()
	h.startReview("alice", "#1")
	old := h.reviewLink(1, "bob")
	bob := h.openReview(1, "bob")
	alice := h.openReview(1, "alice")
	stream, done := bob.events()
	defer done()
	r := h.cmd("bob", "review", "reset")
	if r.Error || !strings.Contains(r.Text, "Your earlier links to review r1 no longer work") {
		t.Fatalf("review reset: %+v", r)
	}
	fresh := reviewLinkIn.FindString(r.Text)
	if fresh == "" || fresh == old {
		t.Fatalf("review reset gave no new link: %q", r.Text)
	}
	if g := h.storedReview(1).LinkGen["console:bob"]; g != 1 {
		t.Fatalf("bob's generation is %d, want 1", g)
	}
	if res, page := bob.get(h.ts.URL + reviewPath(1)); res.StatusCode != http.StatusForbidden || !strings.Contains(page, "(review reset)") {
		t.Errorf("bob's board opened with the old link: %d", res.StatusCode)
	}
	if res, err := bob.c.PostForm(h.ts.URL+reviewPath(1)+"/act", url.Values{"action": {"goto"}, "node": {"0"}, "csrf": {bob.csrf}}); err != nil || res.StatusCode != http.StatusForbidden {
		t.Errorf("bob's old session acted: %v %v", res, err)
	} else {
		res.Body.Close()
	}
	if _, err := io.ReadAll(stream.r); err != nil {
		t.Errorf("bob's old stream: %v", err)
	}
	b := h.browser()
	if res, _ := b.get(old); res.StatusCode == http.StatusSeeOther {
		if res, _ := b.get(h.ts.URL + reviewOpenPath(1)); res.StatusCode == http.StatusSeeOther {
			if res, _ := b.get(h.ts.URL + reviewPath(1)); res.StatusCode == 200 {
				t.Error("the old link opened the board")
			}
		}
	}
	b = h.browser()
	b.get(fresh)
	b.get(h.ts.URL + reviewOpenPath(1))
	if res, page := b.get(h.ts.URL + reviewPath(1)); res.StatusCode != 200 || !strings.Contains(page, `data-user="console:bob"`) {
		t.Errorf("the new link: %d", res.StatusCode)
	}
	if res, _ := alice.get(h.ts.URL + reviewPath(1)); res.StatusCode != 200 {
		t.Errorf("alice's session ended with bob's reset: %d", res.StatusCode)
	}
	h.startReview("alice", "9")
	v := h.storedReview(1).Version
	if r := h.cmd("bob", "review", "reset"); !r.Error || !strings.Contains(r.Text, "say which") {
		t.Errorf("a reset naming none of two: %+v", r)
	}
	if r := h.cmd("bob", "review", "reset", "r7"); !r.Error || !strings.Contains(r.Text, "no open review r7") {
		t.Errorf("a reset of a review that does not exist: %+v", r)
	}
	if h.storedReview(1).Version != v {
		t.Error("a refused reset changed review #1")
	}
}

// TestReviewLinkResetOpening: a review link that `review reset` ended
// gets no cookie at either step of its opening: not the pending one at
// /l/{token}, and not the session at /r/{id}/open for a link whose first
// step came before the reset.
func TestReviewLinkResetOpening(t *testing.T) {
	h := newHarness(t)
	h.finishedGame()
	h.startReview("alice", "#1")
	old := h.reviewLink(1, "bob")
	early := h.browser() // took the first step before the reset
	if res, _ := early.get(old); res.StatusCode != http.StatusSeeOther || len(res.Cookies()) != 1 {
		t.Fatalf("the link's first step before the reset: %d, cookies %v", res.StatusCode, res.Cookies())
	}
	if r := h.cmd("bob", "review", "reset"); r.Error {
		t.Fatal(r.Text)
	}
	refused := func(step string, res *http.Response, page string) {
		t.Helper()
		if res.StatusCode != http.StatusForbidden || !strings.Contains(page, "(review reset)") {
			t.Errorf("%s: %d %s", step, res.StatusCode, page)
		}
		if len(res.Cookies()) != 0 {
			t.Errorf("%s set cookies %v", step, res.Cookies())
		}
	}
	res, page := early.get(h.ts.URL + reviewOpenPath(1))
	refused("the second step after the reset", res, page)
	res, page = early.postPage(reviewOpenPath(1), url.Values{"csrf": {"x"}})
	refused("the second step's answer after the reset", res, page)
	late := h.browser()
	res, page = late.get(old)
	refused("the first step after the reset", res, page)
	if res, _ := early.get(h.ts.URL + reviewPath(1)); res.StatusCode == http.StatusOK {
		t.Error("the ended link opened the board")
	}
}

// drawn counts the review positions replayed and drawn for followers.
func (h *harness) drawn() int {
	c := h.srv.reviews.nodes
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.drawn
}

// TestReviewLooksBounded: a follower looking at one position again and
// again gets it from the cache, replayed and drawn once; looking at more
// new positions at once than reviewLooks allows is refused with 429 in
// words, drawing nothing more; the page and, a moment later, looking
// around still work.
func TestReviewLooksBounded(t *testing.T) {
	h := newHarness(t)
	h.finishedGame()
	h.startReview("alice", "#1")
	alice := h.openReview(1, "alice")
	if code, msg, _ := alice.act(url.Values{"action": {"goto"}, "node": {"0"}}); code != 200 || msg != "" {
		t.Fatalf("goto 0: %d %q", code, msg)
	}
	// A line longer than the burst: Black fills columns A–C, White J–G
	// (no capture is possible), from the start.
	var nodes []int
	for row := 1; row <= 9; row++ {
		for col := 0; col < 3; col++ {
			for _, pt := range []string{string(rune('A'+col)) + strconv.Itoa(row), string("JHG"[col]) + strconv.Itoa(row)} {
				code, msg, st := alice.act(url.Values{"action": {"play"}, "point": {pt}})
				if code != 200 || msg != "" {
					t.Fatalf("play %s: %d %q", pt, code, msg)
				}
				nodes = append(nodes, st.Node)
			}
		}
	}
	if len(nodes) <= reviewLooks.Burst {
		t.Fatalf("only %d positions", len(nodes))
	}
	bob := h.openReview(1, "bob")
	look := func(n int) (int, string) {
		t.Helper()
		res, body := bob.get(h.ts.URL + reviewPath(1) + "/node/" + strconv.Itoa(n))
		return res.StatusCode, body
	}
	before := h.drawn()
	for range 3 * reviewLooks.Burst {
		if code, body := look(nodes[0]); code != 200 || !strings.Contains(body, fmt.Sprintf(`"node":%d`, nodes[0])) {
			t.Fatalf("one position again: %d %.200s", code, body)
		}
	}
	if got := h.drawn() - before; got != 1 {
		t.Fatalf("one position looked at %d times was drawn %d times, want once", 3*reviewLooks.Burst, got)
	}
	ok := 1 // nodes[0], charged once
	for _, n := range nodes[1:] {
		code, body := look(n)
		if code == http.StatusTooManyRequests {
			if !strings.Contains(body, "too many positions at once") || len(body) > 300 {
				t.Errorf("the refusal: %s", body)
			}
			break
		}
		if code != 200 {
			t.Fatalf("node %d: %d %s", n, code, body)
		}
		ok++
	}
	if ok != reviewLooks.Burst {
		t.Errorf("%d new positions drawn at once, want %d", ok, reviewLooks.Burst)
	}
	if got := h.drawn() - before; got != reviewLooks.Burst {
		t.Errorf("%d positions drawn, want %d: a refused look drew", got, reviewLooks.Burst)
	}
	if code, _ := look(nodes[0]); code != 200 {
		t.Errorf("a position drawn before, over the limit: %d", code)
	}
	if res, page := bob.get(h.ts.URL + reviewPath(1)); res.StatusCode != 200 || !strings.Contains(page, `data-role="follower"`) {
		t.Errorf("the page over the limit: %d", res.StatusCode)
	}
	h.now.Advance(time.Second)
	if code, body := look(nodes[len(nodes)-1]); code != 200 {
		t.Errorf("a look a moment later: %d %s", code, body)
	}
}
