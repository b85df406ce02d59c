package matrix

import (
	"context"
	"fmt"
	"io"
	"time"

	"maunium.net/go/mautrix/event"

	"github.com/gobotgo/gobot/chat/protocol"
)

// attachmentTimeout bounds fetching a command's file from the media
// repository.
const attachmentTimeout = 10 * time.Second

// attachment fetches the file of a command sent as an m.file with a
// caption (review's SGF), decrypted in an encrypted room, at most
// protocol.MaxRequestFile bytes; nil for a text command. refused is what
// to answer instead when it cannot be had.
func (a *Adapter) attachment(ctx context.Context, c *event.MessageEventContent) (f *protocol.File, refused string) {
	if c == nil || c.MsgType != event.MsgFile {
		return nil, ""
	}
	if c.Info != nil && c.Info.Size > protocol.MaxRequestFile {
		return nil, protocol.FileTooBig("The attached file", int64(c.Info.Size))
	}
	uri := c.URL
	if c.File != nil {
		uri = c.File.URL
	}
	mxc, err := uri.Parse()
	if err != nil || mxc.IsEmpty() {
		return nil, "The attached file has no address in the media repository; send it again."
	}
	ctx, cancel := context.WithTimeout(ctx, attachmentTimeout)
	defer cancel()
	res, err := a.cli.Download(ctx, mxc)
	if err != nil {
		a.log.Warn("fetching an attachment", "uri", mxc.String(), "err", err)
		return nil, "The attached file could not be fetched from your homeserver just now; try again in a moment."
	}
	defer res.Body.Close()
	data, err := io.ReadAll(io.LimitReader(res.Body, protocol.MaxRequestFile+1))
	if err != nil {
		return nil, "The attached file could not be fetched from your homeserver just now; try again in a moment."
	}
	if len(data) > protocol.MaxRequestFile {
		return nil, fmt.Sprintf("The attached file is over %d KB; a file attached to a command is at most that.", protocol.MaxRequestFile>>10)
	}
	if c.File != nil {
		if err := c.File.PrepareForDecryption(); err != nil {
			return nil, "The attached file's encryption is not one I can read; send it again."
		}
		if err := c.File.DecryptInPlace(data); err != nil {
			return nil, "The attached file could not be decrypted; send it again."
		}
	}
	f = &protocol.File{Name: clipName(c.FileName), Data: data}
	if c.Info != nil {
		f.MIME = c.Info.MimeType
	}
	return f, ""
}

// clipName keeps a file name short for the replies that name it.
func clipName(s string) string {
	r := []rune(s)
	if len(r) > 100 {
		return string(r[:100])
	}
	return s
}
