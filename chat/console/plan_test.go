package console

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gobotgo/gobot"
	"github.com/gobotgo/gobot/chat"
	"github.com/gobotgo/gobot/game"
	"github.com/gobotgo/gobot/storage"
)

// TestPlanIllegalReplyTranscript: a planned reply that has become
// illegal drops the plan, plays nothing for its owner and tells them
// privately. Every line is checked on the position it will meet when it
// is planned, so no command makes such a reply; the transcript plans a
// legal line, then the stored plan is changed underneath (as a record
// written by another version could hold it: the reply at E5, already
// occupied), then the opponent plays the covered move. The transcript is
// testdata/plan-illegal-reply.golden (-update rewrites it).
func TestPlanIllegalReplyTranscript(t *testing.T) {
	db, err := storage.Open(filepath.Join(t.TempDir(), "gobot.db"), storage.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	clock := &testClock{t: time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)}
	bot := chat.New(chat.Config{Rules: "japanese", Width: 19, Height: 19}, db, testRenderer(), clock, nil)
	var out bytes.Buffer
	c := &Console{Bot: bot, Out: &out, Echo: true, Clock: clock}
	bot.SetNotifier(Platform, c)
	play := func(script string) {
		c.In = strings.NewReader(script)
		if err := c.Run(context.Background()); err != nil {
			t.Fatal(err)
		}
	}
	play("// A planned reply that has become illegal.\nchallenge @bob 9 black chinese\n/as bob\naccept\n/as alice\nplay E5\nplan C3 C4\nplans\n")
	if err := db.Update(context.Background(), func(tx gobot.Tx) error {
		m, err := tx.Match(1)
		if err != nil {
			return err
		}
		if m.Plan == nil || len(m.Plan.Branches) != 1 {
			t.Fatalf("stored plan %+v", m.Plan)
		}
		m.Plan.Branches[0].Reply = game.Pt(4, 4) // E5, taken
		return tx.PutMatch(m)
	}); err != nil {
		t.Fatal(err)
	}
	out.WriteString("// (the stored plan now answers C3 with E5)\n")
	play("/as bob\nplay C3\n/as alice\nplans\nboard\n")
	got := out.String()
	for _, want := range []string{"Your plan in game #1 is cleared: @bob played C3, but your planned reply E5 can't be played now: E5 is occupied. It's your move.", "-- direct message to @alice:", "@alice (Black) to play"} {
		if !strings.Contains(got, want) {
			t.Fatalf("transcript lacks %q:\n%s", want, got)
		}
	}
	if strings.Contains(got, "— planned") {
		t.Fatalf("a move was played for alice:\n%s", got)
	}
	golden := filepath.Join("..", "testdata", "plan-illegal-reply.golden")
	if *update {
		if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	if got != string(want) {
		t.Fatalf("%s differs (rerun with -update if the change is intended):\n%s", golden, got)
	}
}
