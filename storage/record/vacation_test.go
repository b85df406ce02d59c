package record

import (
	"bytes"
	"reflect"
	"testing"
	"time"

	"github.com/gobotgo/gobot"
)

// Vacation's fields are optional: a player, game or challenge that never
// used vacation writes none of them, and a record written before they
// existed reads as "not used"; with them they round-trip.
func TestCodecVacationFields(t *testing.T) {
	t0 := time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)
	old := []byte(`{"v":3,"id":"t:a","name":"Ann","updated":"2026-11-22T12:00:00Z"}`)
	p, err := DecodePlayer(old)
	if err != nil || p.Vacation != nil || p.VacationDue() != (time.Time{}) {
		t.Fatalf("a player record without vacation: %+v, %v", p, err)
	}
	if raw, _ := EncodePlayer(p); bytes.Contains(raw, []byte("vacation")) {
		t.Errorf("a player who never used vacation writes it: %s", raw)
	}
	p.Vacation = &gobot.Vacation{FirstGame: t0, Left: 13*24*time.Hour + 17*time.Second, Weeks: 2, Start: t0.Add(time.Hour), End: t0.Add(300 * time.Hour), Reminded: true, Room: "t:r"}
	raw, err := EncodePlayer(p)
	if err != nil {
		t.Fatal(err)
	}
	back, err := DecodePlayer(raw)
	if err != nil || !reflect.DeepEqual(back, p) {
		t.Fatalf("player round trip: %+v %+v, %v; want %+v", back, back.Vacation, err, p.Vacation)
	}

	g := newGame(t, "t:a", "t:b", "t:r")
	plain, err := EncodeMatch(g)
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(plain, []byte("paused")) || bytes.Contains(plain, []byte("vacation")) {
		t.Errorf("a game never paused writes vacation fields: %s", plain)
	}
	g.NoVacation, g.PausedBy, g.PausedLeft, g.PausedAt = true, []gobot.UserID{"t:a", "t:b"}, 90*time.Minute, t0
	raw, err = EncodeMatch(g)
	if err != nil {
		t.Fatal(err)
	}
	m, err := DecodeMatch(raw)
	if err != nil || !m.NoVacation || !reflect.DeepEqual(m.PausedBy, g.PausedBy) || m.PausedLeft != g.PausedLeft || !m.PausedAt.Equal(t0) {
		t.Fatalf("game round trip: %+v, %v", m, err)
	}
	c := &gobot.Challenge{ID: 3, Room: "t:r", From: "t:a", Config: g.Record.Config, Color: "black", Created: t0, NoVacation: true}
	raw, err = EncodeChallenge(c)
	if err != nil {
		t.Fatal(err)
	}
	if back, err := DecodeChallenge(raw); err != nil || !back.NoVacation {
		t.Fatalf("challenge round trip: %+v, %v", back, err)
	}
}
