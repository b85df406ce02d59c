package record

import (
	"strings"
	"testing"

	"github.com/gobotgo/gobot"
)

// A room's widget setting (Matrix widgets) is an optional field: a
// record without it is a room without the widget, and one with it keeps
// it.
func TestRoomWidget(t *testing.T) {
	raw, err := EncodeRoom(&gobot.Room{ID: "matrix:!r:example.org", Widget: true})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(raw), `"widget":true`) {
		t.Errorf("encoded %s: no widget field", raw)
	}
	if r, err := DecodeRoom(raw); err != nil || !r.Widget {
		t.Errorf("decoded %+v, %v: want the widget on", r, err)
	}
	old := []byte(`{"v":3,"id":"matrix:!abc:example.org","rules":"japanese komi=0","updated":"2026-11-20T09:30:00Z"}`)
	if r, err := DecodeRoom(old); err != nil || r.Widget {
		t.Errorf("a record without the field: %+v, %v: want the widget off", r, err)
	}
	off, _ := EncodeRoom(&gobot.Room{ID: "matrix:!r:example.org"})
	if strings.Contains(string(off), "widget") {
		t.Errorf("a room without the widget encodes %s", off)
	}
}
