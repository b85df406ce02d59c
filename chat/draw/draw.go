// Package draw completes a reply's drawing after the commit: a board's
// PNG (a vote game's open window marked), a game's replay GIF, or a
// tournament's standings or a ladder as a table, through the Renderer port (render.Renderer, or render.Pool, which bounds how
// many draw at once), each file named by what it shows. A slow draw
// never holds a transaction.
package draw

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"log/slog"

	"github.com/gobotgo/gobot"
	"github.com/gobotgo/gobot/chat/protocol"
	"github.com/gobotgo/gobot/chat/say"
	"github.com/gobotgo/gobot/game"
	"github.com/gobotgo/gobot/tournament"
)

// Renderer draws boards; *render.Renderer implements it.
type Renderer interface {
	// Board writes the PNG of g's current position (with the scoring
	// markup in the scoring phase), numbering the last numbers moves, and
	// returns the image size.
	Board(w io.Writer, g *game.Game, theme string, numbers int) (width, height int, err error)
	// Replay writes an animated GIF of the whole game.
	Replay(w io.Writer, g *game.Game, theme string) (width, height int, err error)
}

// voteRenderer is a Renderer that also marks a vote game's open window
// on the board (render.Renderer and render.Pool are); one that is not
// draws the plain board.
type voteRenderer interface {
	BoardVotes(w io.Writer, g *game.Game, theme string, votes map[game.Point]int) (width, height int, err error)
}

// tableRenderer is a Renderer that also draws a tournament's standings
// as a table (render.Renderer and render.Pool are).
type tableRenderer interface {
	Standings(w io.Writer, t *tournament.Tournament, after int, title, theme string) (width, height int, err error)
}

// ladderRenderer is a Renderer that also draws a ladder as a table
// (render.Renderer and render.Pool are): its first rows rungs.
type ladderRenderer interface {
	Ladder(w io.Writer, l *tournament.Ladder, name func(tournament.PlayerID) string, rows int, title, theme string) (width, height int, err error)
}

// Drawer draws replies with Render (nil: no images), logging to Log
// what fails to draw.
type Drawer struct {
	Render Renderer
	Log    *slog.Logger
}

// Present completes rep: its drawing becomes its Image. A board that
// fails to draw is logged and the reply goes without it; a replay that
// fails is the reply's error.
func (d Drawer) Present(rep *protocol.Reply) error {
	dr := rep.Draw
	if dr == nil {
		return nil
	}
	rep.Draw = nil
	if !dr.Done {
		dr.Done = true
		switch {
		case dr.Standings != nil:
			dr.File = d.Standings(dr)
		case dr.Ladder != nil:
			dr.File = d.Ladder(dr)
		case dr.Replay:
			dr.File, dr.Err = d.Replay(dr.Game, dr.ID, dr.Theme)
		default:
			dr.File = d.Board(dr.Game, dr.ID, dr.Theme, dr.Votes)
		}
	}
	if dr.Err != nil {
		return dr.Err
	}
	rep.Image = dr.File
	return nil
}

// contentTag names an image by what it shows (a hash of its bytes), so a
// position replayed after an undo, or drawn in another player's theme,
// never takes the name, and in the terminal's images_dir the file, of
// another picture.
func contentTag(data []byte) string {
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:6])
}

// Board renders g for a viewer's theme; errors are logged and the
// reply goes without an image rather than failing the command.
func (d Drawer) Board(g *game.Game, id gobot.GameID, theme string, votes map[game.Point]int) *protocol.File {
	if d.Render == nil {
		return nil
	}
	var buf bytes.Buffer
	w, h, err := 0, 0, error(nil)
	if vr, ok := d.Render.(voteRenderer); ok && len(votes) > 0 {
		w, h, err = vr.BoardVotes(&buf, g, theme, votes)
	} else {
		w, h, err = d.Render.Board(&buf, g, theme, 0)
	}
	if err != nil {
		d.Log.Error("render failed", "game", id, "err", err)
		return nil
	}
	return &protocol.File{Name: fmt.Sprintf("game-%d-move-%d-%s.png", id, g.MoveNumber(), contentTag(buf.Bytes())), MIME: "image/png", Data: buf.Bytes(), Width: w, Height: h}
}

// Standings renders a tournament's standings table; errors are logged
// and the reply goes without the image.
func (d Drawer) Standings(dr *protocol.Drawing) *protocol.File {
	tr, ok := d.Render.(tableRenderer)
	if !ok {
		return nil
	}
	var buf bytes.Buffer
	w, h, err := tr.Standings(&buf, dr.Standings, dr.After, dr.Title, dr.Theme)
	if err != nil {
		d.Log.Error("render failed", "standings", dr.Title, "err", err)
		return nil
	}
	return &protocol.File{Name: fmt.Sprintf("standings-round-%d-%s.png", dr.After+1, contentTag(buf.Bytes())), MIME: "image/png", Data: buf.Bytes(), Width: w, Height: h}
}

// Ladder renders a ladder's table; errors are logged and the reply goes
// without the image.
func (d Drawer) Ladder(dr *protocol.Drawing) *protocol.File {
	lr, ok := d.Render.(ladderRenderer)
	if !ok {
		return nil
	}
	var buf bytes.Buffer
	name := func(p tournament.PlayerID) string {
		if n, ok := dr.Names[p]; ok {
			return n
		}
		return gobot.UserID(p).Local()
	}
	w, h, err := lr.Ladder(&buf, dr.Ladder, name, dr.Rows, dr.Title, dr.Theme)
	if err != nil {
		d.Log.Error("render failed", "ladder", dr.Title, "err", err)
		return nil
	}
	return &protocol.File{Name: fmt.Sprintf("ladder-%s.png", contentTag(buf.Bytes())), MIME: "image/png", Data: buf.Bytes(), Width: w, Height: h}
}

// Replay renders g's moves as an animated GIF.
func (d Drawer) Replay(g *game.Game, id gobot.GameID, theme string) (*protocol.File, error) {
	if d.Render == nil {
		return nil, say.NoRenderer()
	}
	var buf bytes.Buffer
	w, h, err := d.Render.Replay(&buf, g, theme)
	if err != nil {
		return nil, err
	}
	return &protocol.File{Name: fmt.Sprintf("gobot-%d-%s.gif", id, contentTag(buf.Bytes())), MIME: "image/gif", Data: buf.Bytes(), Width: w, Height: h}, nil
}
