package chat

import (
	"strings"
	"testing"
	"time"

	"github.com/gobotgo/gobot/chat/protocol"
)

// Issue 24, item 7, issue 38: a refused clock names what is wrong with
// it: the per-move bound (pointing a time in seconds to simple:), the
// part of a live clock that is out of range.
func TestClockRefusalsNameTheReason(t *testing.T) {
	h := newHarness(t)
	h.admins = map[string]bool{"alice": true}
	for line, want := range map[string]string{
		"challenge @bob clock=30s":                `clock "30s": a move may take between 1 minute and 365 days; for a live clock of 30s a move write clock=simple:30s`,
		"challenge @bob clock=400d":               `clock "400d": a move may take between 1 minute and 365 days`,
		"challenge @bob clock=fischer:0+30s/1h":   `clock "fischer:0+30s/1h": the starting time must be at least 1s`,
		"challenge @bob clock=fischer:10m+1m/5m":  `the maximum must be at least the starting time`,
		"challenge @bob clock=byoyomi:10m+0x30s":  `clock "byoyomi:10m+0x30s": the number of periods is 1 to 100, like byoyomi:10m+5x30s`,
		"challenge @bob clock=canadian:10m+25/0s": `clock "canadian:10m+25/0s": a period must be at least 1s`,
		"settings room clock=45s":                 `clock "45s": a move may take between 1 minute and 365 days`,
		"settings room clock=byoyomi:10m":         `byo-yomi is a main time and periods, like byoyomi:10m+5x30s`,
		"challenge @bob clock=3x":                 `write a time per move like clock=3d`,
		"challenge @bob fischer:10m":              `a Fischer clock is a start, an increment per move and a maximum, like fischer:10m+1m/30m`,
	} {
		h.refuses("alice", line, want)
	}
}

// Issue 24, item 7: fischer:10m+1m holds at most 10m (the maximum is the
// starting time), and the challenge, the game's start and the room's
// settings say so; with a maximum given, nothing is said.
func TestFischerWithoutMaximumSaysSo(t *testing.T) {
	h := newHarness(t)
	h.admins = map[string]bool{"alice": true}
	note := "The clock's increment refills it up to 10m, no more; a maximum like fischer:10m+1m/20m lets it grow."
	rep := h.ok("alice", "challenge @bob black clock=fischer:10m+1m")
	if !strings.Contains(rep.Text, "Fischer 10m + 1m a move, at most 10m. "+note) {
		t.Fatalf("challenge: %s", rep.Text)
	}
	if rep := h.ok("alice", "settings room clock=fischer:10m+1m"); !strings.Contains(rep.Text, note) {
		t.Fatalf("settings: %s", rep.Text)
	}
	if rep := h.ok("alice", "challenge @carol clock=fischer:10m+1m/30m"); strings.Contains(rep.Text, "refills") {
		t.Fatalf("a clock with a maximum gets the note: %s", rep.Text)
	}
	if rep := h.ok("alice", "challenge @dave clock=fischer:10m+0m"); strings.Contains(rep.Text, "refills") {
		t.Fatalf("a clock without increment gets the note: %s", rep.Text)
	}
}

// Issue 24, item 7: under ten minutes, time left shows seconds: right
// after a 2-minute clock starts, games says 2m left, then 1m 58s.
func TestTimeLeftInSeconds(t *testing.T) {
	h := newHarness(t)
	h.start("clock=2m")
	if rep := h.ok("alice", "games"); !strings.Contains(rep.Text, "2m left") {
		t.Fatalf("games at the start: %s", rep.Text)
	}
	h.clock.Advance(2 * time.Second)
	if rep := h.ok("alice", "games"); !strings.Contains(rep.Text, "1m 58s left") {
		t.Fatalf("games after 2s: %s", rep.Text)
	}
	h.clock.Advance(time.Minute + 13*time.Second)
	if rep := h.ok("alice", "games"); !strings.Contains(rep.Text, "45s left") {
		t.Fatalf("games after 1m 15s: %s", rep.Text)
	}
	for d, want := range map[time.Duration]string{
		0: "0s", 59 * time.Second: "59s", 9*time.Minute + 59*time.Second: "9m 59s", 10 * time.Minute: "10m",
		10*time.Minute + 30*time.Second: "10m", 3*time.Hour + 5*time.Minute: "3h 5m", 50 * time.Hour: "2d 2h", -time.Second: "0s",
	} {
		if got := protocol.FormatDuration(d); got != want {
			t.Errorf("FormatDuration(%v) = %q, want %q", d, got, want)
		}
	}
}
