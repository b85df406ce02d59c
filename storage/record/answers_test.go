package record

import (
	"bytes"
	"reflect"
	"testing"

	"github.com/gobotgo/gobot"
	"github.com/gobotgo/gobot/game"
)

// The last undo refused and the last acceptance withdrawn, which a
// board tells (issue 43), survive the record format; a game without
// them writes neither.
func TestCodecAnswers(t *testing.T) {
	g := newGame(t, "t:a", "t:b", "t:r")
	plain, err := EncodeMatch(g)
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(plain, []byte("undo_refused")) || bytes.Contains(plain, []byte("withdrawn")) {
		t.Errorf("a game without them writes them: %s", plain)
	}
	g.UndoRefused = &gobot.UndoRefusal{Asked: "t:b", By: "t:a", Moves: 12, Undos: 2}
	g.Withdrawn = &gobot.Withdrawal{Colors: []game.Color{game.Black, game.White}, Moves: 40, Undos: 1}
	raw, err := EncodeMatch(g)
	if err != nil {
		t.Fatal(err)
	}
	back, err := DecodeMatch(raw)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(back.UndoRefused, g.UndoRefused) || !reflect.DeepEqual(back.Withdrawn, g.Withdrawn) {
		t.Errorf("decoded %+v %+v, want %+v %+v", back.UndoRefused, back.Withdrawn, g.UndoRefused, g.Withdrawn)
	}
}
