package discord

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"

	"github.com/bwmarrin/discordgo"
)

// post sends a message the bot makes outside an interaction's response
// (a DM to the player to move, a reminder, a post in a game's thread)
// to channel. key names the message (protocol.Message.Key, the answered
// interaction): the message carries a nonce derived from it with
// enforce_nonce, so a second attempt to send it, from this process or
// another after a crash, within Discord's few minutes, gets the first
// message back instead of posting a second. An empty key sends no
// nonce.
func (a *Adapter) post(channel string, ms *discordgo.MessageSend, key string) (*discordgo.Message, error) {
	for _, e := range ms.Embeds {
		if e.Type == "" {
			e.Type = discordgo.EmbedTypeRich
		}
	}
	data := struct {
		*discordgo.MessageSend
		Nonce        string `json:"nonce,omitempty"`
		EnforceNonce bool   `json:"enforce_nonce,omitempty"`
	}{MessageSend: ms}
	if key != "" {
		data.Nonce, data.EnforceNonce = nonce(key), true
	}
	endpoint := discordgo.EndpointChannelMessages(channel)
	var resp []byte
	var err error
	if len(ms.Files) > 0 {
		ct, body, merr := discordgo.MultipartBodyWithJSON(data, ms.Files)
		if merr != nil {
			return nil, merr
		}
		resp, err = a.s.RequestRaw("POST", endpoint, ct, body, endpoint, 0)
	} else {
		resp, err = a.s.RequestWithBucketID("POST", endpoint, data, endpoint)
	}
	if err != nil {
		return nil, err
	}
	var m discordgo.Message
	if err := json.Unmarshal(resp, &m); err != nil {
		return nil, err
	}
	return &m, nil
}

// nonce is the message nonce for key: at most 25 characters, as
// Discord allows, the same for the same key.
func nonce(key string) string {
	sum := sha256.Sum256([]byte(key))
	return hex.EncodeToString(sum[:])[:25]
}
