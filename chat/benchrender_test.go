package chat

import "github.com/gobotgo/gobot/render"

// benchRenderer is the real renderer, so the benchmark measures what a
// player waits for.
var benchRenderer Renderer = &render.Renderer{}
