package chat

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/gobotgo/gobot"
	"github.com/gobotgo/gobot/chat/protocol"
	"github.com/gobotgo/gobot/chat/say"
	"github.com/gobotgo/gobot/game"
	"github.com/gobotgo/gobot/storage/record"
)

func (h *harness) review(id gobot.ReviewID) *gobot.Review {
	h.t.Helper()
	var rev *gobot.Review
	if err := h.db.View(context.Background(), func(tx gobot.Tx) error {
		var err error
		rev, err = tx.Review(id)
		return err
	}); err != nil {
		h.t.Fatal(err)
	}
	return rev
}

func (h *harness) changeReview(id gobot.ReviewID, fn func(rev *gobot.Review) error) {
	h.t.Helper()
	if err := h.db.Update(context.Background(), func(tx gobot.Tx) error {
		rev, err := tx.Review(id)
		if err != nil {
			return err
		}
		if err := fn(rev); err != nil {
			return err
		}
		return tx.PutReview(rev)
	}); err != nil {
		h.t.Fatal(err)
	}
}

// TestReviewCommands: a finished game is reviewed by a room member, with
// a personal link; a game being played is refused; reviews lists the
// room's; review end posts the SGF with its variation and comment, which
// the SGF reader reads back; keep keeps it.
func TestReviewCommands(t *testing.T) {
	h := newHarness(t)
	h.start("9")
	h.ok("alice", "play E5")
	h.ok("bob", "play C3")
	h.fails("carol", "review #1", "still being played")
	h.ok("bob", "resign")
	h.fails("carol", "review #7", "no game #7")
	h.fails("carol", "review", "Say what to review")
	h.fails("carol", "review 30", "25")
	h.fails("carol", "review end", "no open review")
	h.fails("carol", "review 19 #1", "not both")

	rep := h.ok("carol", "review #1")
	if !rep.Private || !strings.Contains(rep.Text, "you control it") || !strings.Contains(rep.Text, "/r/1-test:carol") {
		t.Fatalf("review reply: %+v", rep)
	}
	if h.notesSaying("opened review r1 of game #1") != 1 {
		t.Fatalf("the room was not told: %+v", h.notes.all())
	}
	rev := h.review(1)
	if rev.Owner != "test:carol" || rev.Controller != "test:carol" || rev.Game != 1 || len(rev.Tree.MainLine()) != 3 || rev.Tree.Info.Result != "B+R" {
		t.Fatalf("stored review %+v, main line %v, info %+v", rev, rev.Tree.MainLine(), rev.Tree.Info)
	}
	h.ok("alice", "review 13")
	rep = h.ok("dave", "reviews")
	for _, want := range []string{"r1: game #1, by carol", "r2: an empty 13x13 board, by alice", "/r/1-test:dave", "/r/2-test:dave"} {
		if !strings.Contains(rep.Text, want) {
			t.Errorf("reviews lacks %q:\n%s", want, rep.Text)
		}
	}
	// On a platform without private replies the links go to the DM.
	h.shared = true
	rep = h.ok("dave", "reviews")
	if strings.Contains(rep.Text, "http") || !strings.Contains(h.notes.all()[len(h.notes.all())-1].Reply.Text, "/r/2-test:dave") {
		t.Errorf("in a shared room the links were shown: %q", rep.Text)
	}
	h.shared = false

	// carol shows a variation at move 2 with a comment, then ends it.
	h.changeReview(1, func(rev *gobot.Review) error {
		if err := rev.Navigate("test:carol", 1, h.clock.Now()); err != nil {
			return err
		}
		p, _ := game.ParseGTP("G3", 9, 9)
		if err := rev.Play("test:carol", p, h.clock.Now()); err != nil {
			return err
		}
		return rev.Comment("test:carol", "G3 is calmer", h.clock.Now())
	})
	// #N is a game, rN a review: review end #1 means game #1's open review.
	h.fails("dave", "review end r1", "Only carol")
	h.fails("dave", "review end #1", "Only carol")
	h.fails("dave", "review end r9", "There is no review r9 in this room.")
	h.fails("dave", "review end #9", "#9 is a game, and no review of it is open here. A review is written like r1: <cmd:review end r1:cmd>")
	h.fails("carol", "review end r1 #1", "Name the review (r1) or its game (#1), not both.")
	h.fails("carol", "review keep r0", "reviews are numbered from r1")
	h.fails("carol", "review r1", "r1 is a review: <cmd:reviews:cmd> gives you your link to it")
	rep = h.ok("carol", "review end #1")
	if rep.File == nil || rep.Private || !strings.Contains(rep.Text, "ended review r1") {
		t.Fatalf("end reply: %+v", rep)
	}
	recs, err := game.ReadSGF(rep.File.Data)
	if err != nil {
		t.Fatalf("the posted SGF does not read: %v\n%s", err, rep.File.Data)
	}
	tree, err := game.TreeFromSGF(recs[0].Root)
	if err != nil {
		t.Fatal(err)
	}
	if recs[0].MoveCount() != 2 || len(tree.Nodes[1].Children) != 2 || tree.Nodes[tree.Nodes[1].Children[1]].Comment != "G3 is calmer" {
		t.Fatalf("the SGF lost the variation or its comment:\n%s", rep.File.Data)
	}
	h.fails("carol", "review end r1", "Review r1 is closed already.")
	h.fails("carol", "review end #1", "#1 is a game, and no review of it is open here")
	if !h.review(1).Closed {
		t.Fatal("review #1 is not closed")
	}
	h.ok("alice", "review keep")
	h.fails("alice", "review keep", "kept already")
	if !h.review(2).Kept {
		t.Fatal("review #2 not kept")
	}
}

// TestReviewClock: an open review untouched for two days is closed and
// its record posted to its room; a closed one is deleted 30 days after it
// began, unless kept.
func TestReviewClock(t *testing.T) {
	h := newHarness(t)
	h.ok("alice", "review 9")
	h.ok("bob", "review 13")
	h.ok("bob", "review keep")
	h.tick(gobot.ReviewIdle - time.Minute)
	if h.review(1).Closed {
		t.Fatal("closed before two days")
	}
	h.tick(2 * time.Minute)
	var posted int
	for _, m := range h.notes.all() {
		if strings.Contains(m.Reply.Text, "closed after two days") && m.Room == "test:main" && m.Reply.File != nil {
			posted++
		}
	}
	if posted != 2 || !h.review(1).Closed || !h.review(2).Closed {
		t.Fatalf("%d closing notices, want 2: %+v", posted, h.notes.all())
	}
	h.tick(gobot.ReviewLife)
	if err := h.db.View(context.Background(), func(tx gobot.Tx) error {
		if _, err := tx.Review(1); err == nil {
			t.Error("review #1 outlived 30 days")
		}
		if _, err := tx.Review(2); err != nil {
			t.Errorf("kept review #2: %v", err)
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
}

// doFile sends a command line with an attached file as user.
func (h *harness) doFile(user, line string, f *protocol.File) protocol.Reply {
	h.t.Helper()
	h.seq++
	fs := strings.Fields(line)
	r := protocol.Request{User: protocol.User{ID: gobot.UserID("test:" + user), Name: user}, Room: "test:main",
		EventID: gobot.EventID(fmt.Sprintf("test:file%d", h.seq)), Command: fs[0], Args: fs[1:], Platform: privateTest, File: f}
	return h.bot.Handle(context.Background(), r)
}

// TestReviewSGFFile: an attached SGF is reviewed with its variations,
// marks and comments; a file that is no SGF, a broken one, one too big
// or with a move onto a stone is refused briefly, changing nothing.
func TestReviewSGFFile(t *testing.T) {
	h := newHarness(t)
	sgf := "(;GM[1]SZ[13]PB[Shusaku]PW[Gennan]C[An old game];B[dd]C[the first move](;W[jj]TR[dd])(;W[jd]C[another way]))"
	rep := h.doFile("carol", "review", &protocol.File{Name: "ear-reddening.sgf", Data: []byte(sgf)})
	if rep.Error || !strings.Contains(rep.Text, `the SGF file "ear-reddening"`) {
		t.Fatalf("review of a file: %+v", rep)
	}
	rev := h.review(1)
	if rev.Tree.Width != 13 || rev.Tree.Info.Black != "Shusaku" || len(rev.Tree.Nodes[1].Children) != 2 || rev.Tree.Nodes[0].Comment != "An old game" {
		t.Fatalf("the file's tree: %+v", rev.Tree)
	}
	before := h.dump()
	for _, c := range []struct {
		data []byte
		line string
		want string
	}{
		{[]byte("\x89PNG\r\n\x1a\n"), "review", "not an SGF"},
		{[]byte("(;SZ[9];B[dd"), "review", "cannot be read"},
		{[]byte("(;SZ[9];B[dd];W[dd])"), "review", "cannot review"},
		{[]byte("(;SZ[40])"), "review", "cannot review"},
		{[]byte("(;SZ[9]" + strings.Repeat("C[x]", protocol.MaxRequestFile/4) + ")"), "review", "at most 256 KB"},
		{[]byte(sgf), "review 9", "one of them"},
	} {
		rep := h.doFile("carol", c.line, &protocol.File{Name: "x.sgf", Data: c.data})
		if !rep.Error || !strings.Contains(rep.Text, c.want) || len(rep.Text) > 300 {
			t.Errorf("%.20q: %q, want %q", c.data, rep.Text, c.want)
		}
	}
	if h.dump() != before {
		t.Error("a refused file changed the store")
	}
}

// TestReviewLaunch: the answer to review carries an Open board button
// (reviews|r<id>|0); pressed where the Activity runs (CanLaunch) it asks
// the adapter to launch it (Reply.Launch); elsewhere it answers with the
// links; in a room without open reviews it refuses.
func TestReviewLaunch(t *testing.T) {
	h := newHarness(t)
	ctx := context.Background()
	rep := h.ok("carol", "review 9")
	if len(rep.Actions) != 1 || rep.Actions[0].ID != "reviews|r1|0" || rep.Actions[0].Label != "Open board" {
		t.Fatalf("review's answer has no Open board: %+v", rep.Actions)
	}
	press := func(user string, room gobot.RoomID, can bool) protocol.Reply {
		h.seq++
		return h.bot.Handle(ctx, protocol.Request{User: protocol.User{ID: gobot.UserID("test:" + user), Name: user}, Room: room,
			EventID: gobot.EventID(fmt.Sprintf("test:rlaunch-%d", h.seq)), Action: rep.Actions[0].ID, Platform: privateTest, CanLaunch: can})
	}
	if got := press("dave", "test:main", true); !got.Launch || got.Error {
		t.Errorf("pressed where the Activity runs: %+v", got)
	}
	if got := press("dave", "test:main", false); got.Launch || !strings.Contains(got.Text, "/r/1-test:dave") {
		t.Errorf("pressed without the Activity: %+v", got)
	}
	if got := press("dave", "test:other", true); got.Launch || !got.Error || !strings.Contains(got.Text, "No review is open") {
		t.Errorf("pressed in a room without reviews: %+v", got)
	}
}

// sgfFill repeats unit between head and tail up to the upload limit.
func sgfFill(head, unit, tail string) []byte {
	n := (protocol.MaxRequestFile - len(head) - len(tail)) / len(unit)
	return []byte(head + strings.Repeat(unit, n) + tail)
}

// recordBound bounds the stored record of a review read from n bytes of
// SGF: each byte of text at most 6 in the record (JSON's escapes), plus
// a fixed allowance for the nodes a tree holds (game.MaxTreeNodes, each
// at most 72 bytes of keys) and the points compressed lists expand into
// (game.MaxTreePoints, each at most 8 bytes). For a file at the upload
// limit: 2.1 MB at most.
func recordBound(n int) int { return 6*n + 72*game.MaxTreeNodes + 8*game.MaxTreePoints + 16<<10 }

// reviewCost bounds the bytes the review command may allocate for n
// bytes of attached SGF (reading it, storing the review, answering).
func reviewCost(n int) uint64 { return 64*uint64(n) + 8<<20 }

// allocated returns the bytes fn allocates.
func allocated(fn func()) uint64 {
	var m0, m1 runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&m0)
	fn()
	runtime.ReadMemStats(&m1)
	return m1.TotalAlloc - m0.TotalAlloc
}

// TestReviewSGFBounds (issue 43): an SGF within the upload limit whose
// compressed point lists repeat the board tens of thousands of times
// (once 23 million setup points, a 117 MB record) opens a review whose
// node holds each point once: the command allocates a small multiple
// of the file, the bbolt record is within recordBound, and later board
// actions store it as small. Files of many nodes or variations within
// the tree's limits do too; beyond them they are refused briefly,
// changing nothing.
func TestReviewSGFBounds(t *testing.T) {
	h := newHarness(t)
	opened := 0
	for _, c := range []struct {
		name string
		data []byte
		want string // a refusal's words; "" for a review
	}{
		{"19x19 board ×29k", sgfFill("(;SZ[19]", "AB[aa:ss]", ")"), ""},
		{"25x25 board ×37k", sgfFill("(;SZ[25]AB", "[aa:yy]", ")"), ""},
		{"16 full nodes", []byte("(;SZ[25]AB[aa:yy]TR[aa:yy]" + strings.Repeat(";AE[aa:yy]TR[aa:yy];AB[aa:yy]TR[aa:yy]", 7) + ";AE[aa:yy]TR[aa:yy]LB" + strings.Repeat("[aa:<<<<]", 20000) + ";B[])"), ""},
		{"4,999 variations", []byte("(;SZ[19]AB[aa:ss]" + strings.Repeat("(;AE[aa:ss]C[<\x01>])", 4999) + ")"), "setup stones and marks"},
		{"4,999 variations of comments", []byte("(;SZ[19]" + strings.Repeat("(;B[aa]C["+strings.Repeat("<", 30)+"]LB[aa:<<<<])", 4999) + ")"), ""},
		{"4,000 full nodes", []byte("(;SZ[25]" + strings.Repeat(";AB[aa:yy]AE[aa:yy]AW[aa:yy]TR[aa:yy]", 4000) + ")"), "setup stones and marks"},
		{"Latin-1 comments", sgfFill("(;SZ[9]", ";C["+strings.Repeat("\xe9", 1000)+"]", ")"), "comments and labels"},
		{"nodes", sgfFill("(;SZ[9]", ";", ")"), "5000 positions"},
		{"nested variations", sgfFill("(;SZ[9]", "(;B[])", ")"), "5000 positions"},
	} {
		before := h.dump()
		var rep protocol.Reply
		cost := allocated(func() { rep = h.doFile("carol", "review", &protocol.File{Name: "big.sgf", Data: c.data}) })
		if len(c.data) > protocol.MaxRequestFile {
			t.Fatalf("%s: %d bytes", c.name, len(c.data))
		}
		if cost > reviewCost(len(c.data)) {
			t.Errorf("%s: %d bytes of SGF cost %d bytes, over %d", c.name, len(c.data), cost, reviewCost(len(c.data)))
		}
		if c.want != "" {
			if !rep.Error || !strings.Contains(rep.Text, c.want) || !strings.Contains(rep.Text, "too big to review") || len(rep.Text) > 300 {
				t.Errorf("%s: %q, want a refusal saying %q", c.name, rep.Text, c.want)
			}
			if h.dump() != before {
				t.Errorf("%s: a refused file changed the store", c.name)
			}
			continue
		}
		if rep.Error {
			t.Fatalf("%s: %q", c.name, rep.Text)
		}
		opened++
		id := gobot.ReviewID(opened)
		ctx := context.Background()
		for _, a := range []gobot.ReviewAction{{Kind: "join"}, {Kind: "goto", Node: 0}, {Kind: "mark", Mark: game.Mark{Point: game.Pt(3, 3), Shape: game.Circle}}} {
			if _, err := h.bot.ReviewAct(ctx, id, "test:carol", a); err != nil && !strings.Contains(err.Error(), "no more marks") {
				t.Fatalf("%s: %s: %v", c.name, a.Kind, err)
			}
		}
		rev := h.review(id)
		raw, err := record.EncodeReview(rev)
		if err != nil {
			t.Fatal(err)
		}
		if len(raw) > recordBound(len(c.data)) {
			t.Errorf("%s: %d bytes of SGF stored in %d, over %d", c.name, len(c.data), len(raw), recordBound(len(c.data)))
		}
		t.Logf("%s: %d bytes of SGF, %d allocated, a record of %d bytes", c.name, len(c.data), cost, len(raw))
	}
	// The review of 16 full nodes refuses one mark more, on its last
	// position (a pass), and takes one off.
	ctx, full := context.Background(), h.review(3)
	last := len(full.Tree.Nodes) - 1
	if _, err := h.bot.ReviewAct(ctx, 3, "test:carol", gobot.ReviewAction{Kind: "goto", Node: last}); err != nil {
		t.Fatal(err)
	}
	before := h.dump()
	mark := gobot.ReviewAction{Kind: "mark", Mark: game.Mark{Point: game.Pt(3, 3), Shape: game.Circle}}
	_, err := h.bot.ReviewAct(ctx, 3, "test:carol", mark)
	if err == nil || !strings.Contains(err.Error(), "holds no more marks") || len(err.Error()) > 300 {
		t.Errorf("a mark beyond the tree's points: %v", err)
	}
	if h.dump() != before {
		t.Error("a refused mark changed the store")
	}
}

// FuzzReviewRecord: the review path of an attached SGF (read into a
// tree within its limits, made a review, encoded as the stored record)
// refuses briefly or stores a record within recordBound of the file,
// which reads back as the same record.
func FuzzReviewRecord(f *testing.F) {
	names, _ := filepath.Glob(filepath.Join("..", "game", "testdata", "*.sgf"))
	if len(names) == 0 {
		f.Fatal("no ../game/testdata/*.sgf")
	}
	for _, name := range names {
		data, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Add([]byte("(;SZ[19]AB[aa:ss][aa:ss][ss:aa]AW[jj]TR[aa:ss]SQ[jj];AE[aa:ss]C[<&>](;B[jj]LB[jj:\x01<>])(;W[jj]))"))
	f.Add([]byte("(;SZ[5]CA[latin1]PB[\xe9]C[\xe9\xe9];C[\xe9]" + strings.Repeat(";AB[aa:ee]", 40) + ")"))
	f.Add([]byte("(;SZ[3]" + strings.Repeat("(;B[]C[\u2028])", 40) + ")"))
	now := time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)
	f.Fuzz(func(t *testing.T, data []byte) {
		tree, err := sgfTree(&protocol.File{Name: "f.sgf", Data: data})
		if err != nil {
			if len(err.Error()) > protocol.MaxRefusal {
				t.Fatalf("a refusal of %d bytes: %v", len(err.Error()), err)
			}
			return
		}
		rev := gobot.NewReview("test:main", "test:carol", say.SGFTitle("f.sgf"), tree, now)
		raw, err := record.EncodeReview(rev)
		if err != nil {
			t.Fatal(err)
		}
		if len(raw) > recordBound(len(data)) {
			t.Fatalf("%d bytes of SGF stored in %d, over %d", len(data), len(raw), recordBound(len(data)))
		}
		back, err := record.DecodeReview(raw)
		if err != nil {
			t.Fatalf("the record does not read: %v", err)
		}
		if again, err := record.EncodeReview(back); err != nil || string(again) != string(raw) {
			t.Fatalf("the record reads back as another (%v)", err)
		}
	})
}
