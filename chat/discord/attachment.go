package discord

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/gobotgo/gobot/chat/protocol"
)

// attachmentHosts are where Discord serves attachments; a file is
// fetched from there only (or from the configured API's host: a
// Discord-compatible server, a test's stand-in), never from an address
// an interaction names elsewhere.
var attachmentHosts = map[string]bool{"cdn.discordapp.com": true, "media.discordapp.net": true}

// attachmentTimeout bounds fetching an attached file: the interaction
// must be answered within 3 seconds.
const attachmentTimeout = 2 * time.Second

// attachment fetches the file attached to a slash command's attachment
// option (review's SGF), at most protocol.MaxRequestFile bytes; nil when
// there is none. refused is what to answer instead, when it cannot be
// had.
func (a *Adapter) attachment(ctx context.Context, in *discordgo.Interaction) (f *protocol.File, refused string) {
	if in.Type != discordgo.InteractionApplicationCommand {
		return nil, ""
	}
	data := in.ApplicationCommandData()
	if len(data.Options) == 0 {
		return nil, ""
	}
	for _, o := range data.Options[0].Options {
		if o.Type != discordgo.ApplicationCommandOptionAttachment {
			continue
		}
		id, _ := o.Value.(string)
		var at *discordgo.MessageAttachment
		if data.Resolved != nil {
			at = data.Resolved.Attachments[id]
		}
		if at == nil {
			return nil, "Discord did not send the attached file along; attach it again."
		}
		if at.Size > protocol.MaxRequestFile {
			return nil, protocol.FileTooBig("The attached file", int64(at.Size))
		}
		u, err := url.Parse(at.URL)
		if err != nil || !a.attachmentHost(u) {
			return nil, "The attached file is not on Discord's servers; attach it again."
		}
		body, err := a.fetch(ctx, u)
		if err != nil {
			a.log.Warn("fetching an attachment", "host", u.Host, "err", err)
			return nil, "The attached file could not be fetched from Discord just now; try again in a moment."
		}
		if len(body) > protocol.MaxRequestFile {
			return nil, fmt.Sprintf("The attached file is over %d KB; a file attached to a command is at most that.", protocol.MaxRequestFile>>10)
		}
		return &protocol.File{Name: clip(at.Filename, 100), MIME: at.ContentType, Data: body}, ""
	}
	return nil, ""
}

func (a *Adapter) attachmentHost(u *url.URL) bool {
	if u.Scheme == "https" && attachmentHosts[u.Hostname()] {
		return true
	}
	api := a.tr.api.Load()
	return api != nil && u.Scheme == api.Scheme && u.Host == api.Host
}

// fetch reads u, one byte over the limit at most.
func (a *Adapter) fetch(ctx context.Context, u *url.URL) ([]byte, error) {
	ctx, cancel := context.WithTimeout(ctx, attachmentTimeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return nil, err
	}
	res, err := a.s.Client.Do(req)
	if err != nil {
		return nil, err
	}
	defer res.Body.Close()
	if res.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("HTTP %d", res.StatusCode)
	}
	return io.ReadAll(io.LimitReader(res.Body, protocol.MaxRequestFile+1))
}
