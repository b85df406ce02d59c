package matrix

import (
	"slices"
	"strings"
	"testing"
)

// Plans are private on Matrix: `plan` and `plans` typed in a shared room
// are refused without a word of the moves, and redacted where the bot
// has the power to (not where it lacks it); in the player's DM with the
// bot they work, the game found without #game (the caller's single game)
// and with it. A covered move is then answered in the game's room.
func TestFakePlanOnlyInDM(t *testing.T) {
	f, db := fakeClub(t)
	const hall, dm = "!hall:example.org", "!annbot:example.org"
	f.join(hall, map[string]string{"@gobot:example.org": "gobot", "@ann:example.org": "Ann", "@bob:example.org": "Bobby"})
	f.join(dm, map[string]string{"@gobot:example.org": "gobot", "@ann:example.org": "Ann"})
	f.power = map[string]map[string]any{hall: {"users": map[string]any{"@gobot:example.org": 100}}}
	startFake(t, f, Config{}, db, nil)
	answer := func(evt string) string {
		t.Helper()
		f.waitFor(t, "the answer to "+evt, func() bool {
			for _, s := range f.sent {
				rel, _ := s.content["m.relates_to"].(map[string]any)
				if irt, _ := rel["m.in_reply_to"].(map[string]any); irt["event_id"] == evt {
					return true
				}
			}
			return false
		})
		got := f.answers(evt)
		return got[0].body()
	}
	answer(f.say(fakeRoom, "@ann:example.org", "!go challenge @bob 9 black"))
	answer(f.say(fakeRoom, "@bob:example.org", "!go accept"))
	answer(f.say(fakeRoom, "@ann:example.org", "!go play E5"))

	for _, c := range []struct{ room, line string }{{fakeRoom, "!go plan C3 C4"}, {hall, "!go plan C3 C4 #1"}, {fakeRoom, "!go plans"}} {
		evt := f.say(c.room, "@ann:example.org", c.line)
		got := answer(evt)
		if !strings.Contains(got, "direct message") || strings.Contains(got, "C3") || strings.Contains(got, "C4") {
			t.Fatalf("%s in a shared room answered %q", c.line, got)
		}
		f.mu.Lock()
		redacted := slices.Contains(f.redacted, evt)
		f.mu.Unlock()
		if redacted != (c.room == hall) {
			t.Fatalf("%s in %s: redacted %v (the bot has the power only in %s)", c.line, c.room, redacted, hall)
		}
	}

	if got := answer(f.say(dm, "@ann:example.org", "!go plan C3 C4")); !strings.Contains(got, "Planned in game #1") {
		t.Fatalf("plan in the DM: %q", got)
	}
	if got := answer(f.say(dm, "@ann:example.org", "!go plan G7 G3 #1")); !strings.Contains(got, "Planned in game #1") {
		t.Fatalf("plan #1 in the DM: %q", got)
	}
	if got := answer(f.say(dm, "@ann:example.org", "!go plans")); !strings.Contains(got, "C3 → C4") || !strings.Contains(got, "G7 → G3") {
		t.Fatalf("plans in the DM: %q", got)
	}
	if got := answer(f.say(fakeRoom, "@bob:example.org", "!go play C3")); !strings.Contains(got, "Ann played C4 — planned.") {
		t.Fatalf("the covered move was answered with %q", got)
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if len(f.unknown) > 0 {
		t.Errorf("the adapter called endpoints the fake lacks: %q", f.unknown)
	}
}
