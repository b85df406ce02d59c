package chat

import (
	"bytes"
	"fmt"

	"github.com/gobotgo/gobot/game"
)

// drawing is an image a reply shows, drawn after the transaction that
// built the reply has ended: a board (a PNG) or a replay (a GIF). A
// reply and the DM copied from it share one drawing, drawn once.
type drawing struct {
	g       *game.Game
	id      GameID
	theme   string
	numbers int
	replay  bool

	done bool
	file *File
	err  error
}

// boardDrawing is game g's board for a viewer's theme.
func boardDrawing(g *game.Game, id GameID, theme string) *drawing {
	return &drawing{g: g, id: id, theme: theme}
}

// present completes rep: its drawing becomes its Image. A board that
// fails to draw is logged and the reply goes without it; a replay that
// fails is the reply's error.
func (b *Bot) present(rep *Reply) error {
	d := rep.draw
	if d == nil {
		return nil
	}
	rep.draw = nil
	if !d.done {
		d.done = true
		if d.replay {
			d.file, d.err = b.replayImage(d.g, d.id, d.theme)
		} else {
			d.file = b.boardImage(d.g, d.id, d.theme, d.numbers)
		}
	}
	if d.err != nil {
		return d.err
	}
	rep.Image = d.file
	return nil
}

// boardImage renders g for a viewer's theme; errors are logged and the
// reply goes without an image rather than failing the command.
func (b *Bot) boardImage(g *game.Game, id GameID, theme string, numbers int) *File {
	if b.render == nil {
		return nil
	}
	var buf bytes.Buffer
	w, h, err := b.render.Board(&buf, g, theme, numbers)
	if err != nil {
		b.log.Error("render failed", "game", id, "err", err)
		return nil
	}
	return &File{Name: fmt.Sprintf("game-%d-move-%d.png", id, g.MoveCount()), MIME: "image/png", Data: buf.Bytes(), Width: w, Height: h}
}

// replayImage renders g's moves as an animated GIF.
func (b *Bot) replayImage(g *game.Game, id GameID, theme string) (*File, error) {
	if b.render == nil {
		return nil, errorf("This bot has no renderer configured.")
	}
	var buf bytes.Buffer
	w, h, err := b.render.Replay(&buf, g, theme)
	if err != nil {
		return nil, err
	}
	return &File{Name: fmt.Sprintf("gobot-%d.gif", id), MIME: "image/gif", Data: buf.Bytes(), Width: w, Height: h}, nil
}
