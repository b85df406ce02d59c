package console

import "github.com/gobotgo/gobot/chat"

// testRenderer is the renderer the transcripts use: none, so transcripts
// show the text board only.
func testRenderer() chat.Renderer { return nil }
