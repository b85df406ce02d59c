package discord

import (
	"errors"
	"net/http"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/gobotgo/gobot/chat/protocol"
)

// editRetries are the waits before each new attempt to complete a
// deferred response that Discord answered with 404 Unknown Webhook
// (10015): it can come when the edit reaches Discord before Discord has
// taken in the deferred answer itself.
var editRetries = []time.Duration{100 * time.Millisecond, 250 * time.Millisecond, 500 * time.Millisecond, time.Second, 2 * time.Second, 4 * time.Second}

// unknownWebhook reports whether err is Discord's 404 / 10015.
func unknownWebhook(err error) bool {
	var re *discordgo.RESTError
	if !errors.As(err, &re) {
		return false
	}
	if re.Message != nil && re.Message.Code == discordgo.ErrCodeUnknownWebhook {
		return true
	}
	return re.Response != nil && re.Response.StatusCode == http.StatusNotFound
}

// completeDeferred edits the original response of in with msg, the
// files made afresh for each attempt (a sent file's reader is spent),
// retrying an Unknown Webhook answer with short backoff.
func (a *Adapter) completeDeferred(in *discordgo.Interaction, msg Message, rep protocol.Reply) (*discordgo.Message, error) {
	for attempt := 0; ; attempt++ {
		content := msg.Content
		var files []*discordgo.File
		for _, f := range []*protocol.File{rep.Image, rep.File} {
			if f != nil {
				files = append(files, file(f))
			}
		}
		m, err := a.s.InteractionResponseEdit(in, &discordgo.WebhookEdit{Content: &content, Embeds: &msg.Embeds,
			Components: &msg.Components, Files: files, AllowedMentions: msg.Mentions})
		if err == nil || !unknownWebhook(err) || attempt == len(editRetries) {
			return m, err
		}
		a.log.Debug("the deferred response is not known yet; retrying", "interaction", in.ID, "in", editRetries[attempt])
		time.Sleep(editRetries[attempt])
	}
}
