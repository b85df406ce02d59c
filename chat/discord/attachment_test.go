package discord

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/gobotgo/gobot"
)

// reviewLinks stands in for the web board's links (chat/web tests the
// board itself).
type reviewLinks struct{ linkTo }

func (reviewLinks) ReviewLink(id gobot.ReviewID, u gobot.UserID, _ uint64) (string, time.Time, error) {
	return fmt.Sprintf("https://go.example.org/l/r%d-%s", id, u.Local()), time.Now().Add(time.Hour), nil
}

// withFile builds /go review with an attachment option whose resolved
// attachment has the given size and URL.
func (e *env) withFile(user, name string, size int, fileURL string) []byte {
	e.seq++
	return []byte(fmt.Sprintf(`{"id":"i%d","application_id":"app","type":2,"token":"tok%d","channel_id":"c1","guild_id":"g1",%s,
		"data":{"id":"cmd","name":%q,"type":1,"options":[{"name":"review","type":1,"options":[{"name":"file","type":11,"value":"att1"}]}],
		"resolved":{"attachments":{"att1":{"id":"att1","filename":"ear-reddening.sgf","size":%d,"url":%q,"content_type":"application/x-go-sgf"}}}}}`,
		e.seq, e.seq, member(user, name), TopLevel("review"), size, fileURL))
}

// TestReviewAttachment: /go review with an SGF attached reviews the file
// fetched from Discord's CDN (the stand-in); a file too big, one on
// another host or one Discord did not resolve is refused, privately,
// before anything is fetched or stored.
func TestReviewAttachment(t *testing.T) {
	e := newEnv(t)
	e.bot.SetLinker(reviewLinks{})
	sgf := "(;GM[1]SZ[9]PB[ann];B[ee]C[centre](;W[cc])(;W[gg]))"
	e.fake.files = map[string]string{"/attachments/1/ear-reddening.sgf": sgf}
	api := e.a.tr.api.Load()
	fileURL := api.Scheme + "://" + api.Host + "/attachments/1/ear-reddening.sgf"
	_, out := e.send(e.withFile("111", "ann", len(sgf), fileURL), time.Now(), false)
	data, _ := out["data"].(map[string]any)
	if text := fmt.Sprint(data); !strings.Contains(text, `Review r1 of the SGF file "ear-reddening"`) || !strings.Contains(text, "/l/r1-111") || data["flags"] != float64(64) {
		t.Fatalf("answer %v", out)
	}
	var rev *gobot.Review
	if err := e.db.View(context.Background(), func(tx gobot.Tx) error {
		var err error
		rev, err = tx.Review(1)
		return err
	}); err != nil {
		t.Fatal(err)
	}
	if len(rev.Tree.Nodes[1].Children) != 2 || rev.Tree.Nodes[1].Comment != "centre" || rev.Tree.Info.Black != "ann" {
		t.Fatalf("the reviewed tree: %+v", rev.Tree)
	}
	for _, c := range []struct {
		body []byte
		want string
	}{
		{e.withFile("111", "ann", 300<<10, fileURL), "at most 256 KB"},
		{e.withFile("111", "ann", len(sgf), "http://169.254.169.254/attachments/1/ear-reddening.sgf"), "not on Discord's servers"},
		{e.withFile("111", "ann", len(sgf), fileURL+"-gone"), "could not be fetched"},
		{[]byte(strings.Replace(string(e.withFile("111", "ann", 1, fileURL)), `"att1":{`, `"other":{`, 1)), "did not send the attached file"},
	} {
		_, out := e.send(c.body, time.Now(), false)
		data, _ := out["data"].(map[string]any)
		content, _ := data["content"].(string)
		flags, _ := data["flags"].(float64)
		if !strings.Contains(content, c.want) || int(flags)&64 == 0 || len(content) > 300 {
			t.Errorf("answer %q (flags %v), want a private %q", content, flags, c.want)
		}
	}
	if err := e.db.View(context.Background(), func(tx gobot.Tx) error {
		_, err := tx.Review(2)
		return err
	}); err == nil {
		t.Error("a refused file made a review")
	}
}
