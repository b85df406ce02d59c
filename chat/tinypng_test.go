package chat

import (
	"image"
	"image/color"
	"image/png"
	"io"

	"github.com/gobotgo/gobot/game"
)

func writeTinyPNG(w io.Writer, g *game.Game) (int, int, error) {
	cfg := g.Config()
	img := image.NewGray(image.Rect(0, 0, cfg.Width, cfg.Height))
	for y := 0; y < cfg.Height; y++ {
		for x := 0; x < cfg.Width; x++ {
			v := uint8(128)
			switch g.At(game.Pt(x, y)) {
			case game.Black:
				v = 0
			case game.White:
				v = 255
			}
			img.SetGray(x, y, color.Gray{v})
		}
	}
	return cfg.Width, cfg.Height, png.Encode(w, img)
}
