package cli

import (
	"bytes"
	"flag"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"github.com/gobotgo/gobot/game"
	"github.com/gobotgo/gobot/render"
)

// Render draws a position of an SGF record as a PNG, or the whole game
// as an animated GIF.
func Render(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("gobot render", flag.ContinueOnError)
	fs.SetOutput(stderr)
	move := fs.Int("move", -1, "draw the position after move N (default: the last)")
	theme := fs.String("theme", "wood", "board theme: "+strings.Join(render.ThemeNames(), " or "))
	px := fs.Int("px", 800, "image width in pixels")
	numbers := fs.Int("numbers", 0, "number the last N moves")
	asGIF := fs.Bool("gif", false, "write an animated replay of the whole game")
	out := fs.String("o", "", "output file (required)")
	var files []string
	rest := args
	for len(rest) > 0 {
		if err := fs.Parse(rest); err != nil {
			return fmt.Errorf("%w: %w", ErrUsage, err)
		}
		rest = fs.Args()
		if len(rest) > 0 {
			files = append(files, rest[0])
			rest = rest[1:]
		}
	}
	if len(files) != 1 {
		return fmt.Errorf("%w: write gobot render FILE.sgf -o board.png (one record)", ErrUsage)
	}
	if *out == "" {
		return fmt.Errorf("%w: -o FILE is required", ErrUsage)
	}
	if !slices.Contains(render.ThemeNames(), *theme) {
		return fmt.Errorf("%w: --theme %q: choose %s", ErrUsage, *theme, strings.Join(render.ThemeNames(), " or "))
	}
	if *numbers < 0 {
		return fmt.Errorf("%w: --numbers %d: give a count of moves, 0 for none", ErrUsage, *numbers)
	}
	if *move < -1 {
		return fmt.Errorf("%w: --move %d: give a move number, 0 for the start", ErrUsage, *move)
	}
	if *asGIF && *move >= 0 {
		return fmt.Errorf("%w: --move draws one position; --gif replays the whole game", ErrUsage)
	}
	if *px < 50 || *px > 4000 {
		return fmt.Errorf("%w: --px %d: choose 50 to 4000 pixels", ErrUsage, *px)
	}
	data, err := os.ReadFile(files[0])
	if err != nil {
		return err
	}
	// A picture shows what the record holds: a bad HA (HA[7.5]) is read
	// past as gobot sgf --tolerant does, with the warning on stderr.
	recs, err := game.ReadSGFTolerant(data)
	if err != nil {
		return fileError(files[0], err)
	}
	rec := recs[0]
	for _, w := range rec.Warnings {
		fmt.Fprintf(stderr, "gobot render: %s: %s\n", files[0], w)
	}
	rules, _ := rec.RecordRules()
	opt := render.Options{Theme: *theme, Width: *px, Numbers: *numbers}
	var buf bytes.Buffer
	if *asGIF {
		rep, err := rec.Replay(rules, true)
		if err != nil {
			return fmt.Errorf("%s: %w", files[0], err)
		}
		if _, _, err := render.GIF(&buf, rep.Game, opt); err != nil {
			return err
		}
	} else {
		var view *render.View
		rep, err := rec.Walk(rules, true, func(n int, g *game.Game) {
			if n == *move {
				v := render.ViewOf(g, *numbers)
				view = &v
			}
		})
		if err != nil {
			return fmt.Errorf("%s: %w", files[0], err)
		}
		if *move > rep.Moves {
			return fmt.Errorf("%w: --move %d: the record has %d moves", ErrUsage, *move, rep.Moves)
		}
		if view == nil {
			v := render.ViewOf(rep.Game, *numbers)
			view = &v
		}
		if _, _, err := render.ViewPNG(&buf, *view, opt); err != nil {
			return err
		}
	}
	if err := os.WriteFile(*out, buf.Bytes(), 0o644); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "wrote %s (%d bytes)\n", *out, buf.Len())
	return nil
}
