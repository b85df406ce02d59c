package record

import (
	"bytes"
	"testing"

	"github.com/gobotgo/gobot"
)

// An engine game's fields and a room's engines switch survive the
// record format; a game between people writes none of them.
func TestCodecEngineFields(t *testing.T) {
	g := newGame(t, "t:a", "t:b", "t:r")
	plain, err := EncodeMatch(g)
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(plain, []byte("engine")) {
		t.Errorf("a people's game writes engine fields: %s", plain)
	}
	g.Engine, g.EngineLevel, g.EngineDead = "gnugo", 3, 17
	raw, err := EncodeMatch(g)
	if err != nil {
		t.Fatal(err)
	}
	back, err := DecodeMatch(raw)
	if err != nil {
		t.Fatal(err)
	}
	if back.Engine != "gnugo" || back.EngineLevel != 3 || back.EngineDead != 17 {
		t.Errorf("decoded engine %q level %d dead %d", back.Engine, back.EngineLevel, back.EngineDead)
	}
	rm := &gobot.Room{ID: "t:r", NoEngines: true}
	raw, err = EncodeRoom(rm)
	if err != nil {
		t.Fatal(err)
	}
	if r, err := DecodeRoom(raw); err != nil || !r.NoEngines {
		t.Errorf("room: %+v %v", r, err)
	}
}
