package discord

import (
	"context"
	"crypto/ed25519"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/gobotgo/gobot"
	"github.com/gobotgo/gobot/chat/protocol"
)

// The Discord Activity: with Config.Activity on, a game's "Open board"
// button launches the web board inside Discord (an Activity) instead of
// answering with a personal link, where the Activity shows that game
// (the bot decides: Request.CanLaunch, Reply.Launch), and the web
// board's Activity page
// signs its user in through the methods below (chat/web's
// DiscordActivity): the OAuth2 code the page got from the Embedded App
// SDK is exchanged with the client secret, the access token names the
// user (GET /users/@me), and the bot token names the instance's channel
// (GET /applications/{app}/activity-instances/{id}). docs/discord.md.

// launchActivity is the interaction callback LAUNCH_ACTIVITY (type 12),
// which discordgo v0.29.0 has no constant for. It has no data.
const launchActivity discordgo.InteractionResponseType = 12

// canLaunch reports whether a component interaction is an "Open board"
// button (a game's, or a review's: "reviews|r3|0") that may launch the Activity (Request.CanLaunch): the bot's
// `web` says whether it does (Reply.Launch), as the Activity opens the
// games of the channel it runs in, which may not hold the button's game
// (a DM, another channel).
func (a *Adapter) canLaunch(in *discordgo.Interaction) bool {
	if !a.cfg.Activity || in.Type != discordgo.InteractionMessageComponent {
		return false
	}
	b, err := protocol.ParseButton(in.MessageComponentData().CustomID)
	return err == nil && (b.Command == "web" || b.Command == "reviews" && b.Review != 0)
}

// ErrActivityRefused: Discord refused an Activity sign-in step (a code
// that is forged, expired or used already; a token that is not valid;
// an instance that is not this application's).
var ErrActivityRefused = errors.New("discord: refused the activity sign-in")

// ActivityClientID is the application's ID, the SDK's client ID.
func (a *Adapter) ActivityClientID() string { return a.cfg.ApplicationID }

// ExchangeCode trades an OAuth2 authorization code from the SDK's
// authorize command for an access token (POST /oauth2/token with the
// client secret). A code works once: Discord refuses it the second time.
func (a *Adapter) ExchangeCode(ctx context.Context, code string) (string, error) {
	if !validOpaque(code) {
		return "", ErrActivityRefused
	}
	form := url.Values{"client_id": {a.cfg.ApplicationID}, "client_secret": {a.cfg.ClientSecret},
		"grant_type": {"authorization_code"}, "code": {code}}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, discordgo.EndpointOAuth2+"token", strings.NewReader(form.Encode()))
	if err != nil {
		return "", err
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	var out struct {
		AccessToken string `json:"access_token"`
		TokenType   string `json:"token_type"`
		Scope       string `json:"scope"`
	}
	if err := a.restJSON(req, &out); err != nil {
		return "", err
	}
	if out.AccessToken == "" || !strings.EqualFold(out.TokenType, "Bearer") || !hasScope(out.Scope, "identify") {
		return "", fmt.Errorf("%w: the token has no identify scope", ErrActivityRefused)
	}
	return out.AccessToken, nil
}

func hasScope(scopes, want string) bool {
	for _, s := range strings.Fields(scopes) {
		if s == want {
			return true
		}
	}
	return false
}

// TokenUser is the Discord user an access token belongs to (GET
// /users/@me with the token).
func (a *Adapter) TokenUser(ctx context.Context, token string) (protocol.User, error) {
	if !validOpaque(token) {
		return protocol.User{}, ErrActivityRefused
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, discordgo.EndpointUser("@me"), nil)
	if err != nil {
		return protocol.User{}, err
	}
	req.Header.Set("Authorization", "Bearer "+token)
	var u struct {
		ID         string `json:"id"`
		Username   string `json:"username"`
		GlobalName string `json:"global_name"`
		Bot        bool   `json:"bot"`
	}
	if err := a.restJSON(req, &u); err != nil {
		return protocol.User{}, err
	}
	if !snowflake(u.ID) || u.Bot {
		return protocol.User{}, fmt.Errorf("%w: /users/@me named no user", ErrActivityRefused)
	}
	return protocol.User{ID: gobot.NewUserID(Platform, u.ID), Name: orDefault(u.GlobalName, u.Username)}, nil
}

// ActivityInstance is where an Activity instance runs and who is in it
// (GET /applications/{app}/activity-instances/{id} with the bot token):
// its channel as a room, and its users.
func (a *Adapter) ActivityInstance(ctx context.Context, id string) (gobot.RoomID, []gobot.UserID, error) {
	if !validOpaque(id) {
		return "", nil, ErrActivityRefused
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet,
		discordgo.EndpointApplication(a.cfg.ApplicationID)+"/activity-instances/"+url.PathEscape(id), nil)
	if err != nil {
		return "", nil, err
	}
	req.Header.Set("Authorization", "Bot "+a.cfg.Token)
	var in struct {
		ApplicationID string `json:"application_id"`
		InstanceID    string `json:"instance_id"`
		Location      struct {
			ChannelID string `json:"channel_id"`
		} `json:"location"`
		Users []string `json:"users"`
	}
	if err := a.restJSON(req, &in); err != nil {
		return "", nil, err
	}
	if in.ApplicationID != a.cfg.ApplicationID || in.InstanceID != id || !snowflake(in.Location.ChannelID) {
		return "", nil, fmt.Errorf("%w: the instance is not this application's", ErrActivityRefused)
	}
	users := make([]gobot.UserID, 0, len(in.Users))
	for _, u := range in.Users {
		users = append(users, gobot.NewUserID(Platform, u))
	}
	return gobot.RoomID(Platform + ":" + in.Location.ChannelID), users, nil
}

// restJSON sends req through the adapter's transport (so api_url
// applies) and decodes a 2xx answer into out. A 4xx answer is
// ErrActivityRefused; no answer or a 5xx is gobot.ErrUnavailable.
// Neither the request nor Discord's answer is logged: they hold the
// client secret, codes and tokens.
func (a *Adapter) restJSON(req *http.Request, out any) error {
	return a.restJSONUpTo(req, out, 64<<10)
}

// errUnknown: Discord answered 404 (an Unknown Member, Channel, Guild).
// Wrapped with ErrActivityRefused.
var errUnknown = errors.New("discord: no such thing")

// restJSONUpTo is restJSON reading at most limit bytes of the answer.
func (a *Adapter) restJSONUpTo(req *http.Request, out any, limit int64) error {
	req.Header.Set("Accept", "application/json")
	req.Header.Set("User-Agent", "DiscordBot (https://github.com/gobotgo/gobot, 1)")
	c := &http.Client{Timeout: 15 * time.Second, Transport: a.tr}
	resp, err := c.Do(req)
	if err != nil {
		return fmt.Errorf("%w: discord: %v", gobot.ErrUnavailable, err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, limit))
	switch {
	case err != nil || resp.StatusCode >= 500 || resp.StatusCode == http.StatusTooManyRequests:
		return fmt.Errorf("%w: discord answered %d", gobot.ErrUnavailable, resp.StatusCode)
	case resp.StatusCode == http.StatusNotFound:
		return fmt.Errorf("%w (%d): %w", ErrActivityRefused, resp.StatusCode, errUnknown)
	case resp.StatusCode >= 400:
		return fmt.Errorf("%w (%d)", ErrActivityRefused, resp.StatusCode)
	}
	if err := json.Unmarshal(body, out); err != nil {
		return fmt.Errorf("%w: discord's answer is not JSON", gobot.ErrUnavailable)
	}
	return nil
}

// validOpaque accepts what an OAuth2 code, an access token or an
// instance ID looks like: 1 to 256 letters, digits, '-', '_' or '.'.
// Anything else is refused before it reaches Discord.
func validOpaque(s string) bool {
	if len(s) == 0 || len(s) > 256 {
		return false
	}
	for _, c := range s {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_' || c == '.') {
			return false
		}
	}
	return true
}

// snowflake reports whether s is a Discord ID (decimal digits).
func snowflake(s string) bool {
	if len(s) == 0 || len(s) > 20 {
		return false
	}
	for _, c := range s {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// entryPointType is the application command type PRIMARY_ENTRY_POINT
// (4): the "Launch" command Discord creates when Activities are enabled
// in the Developer Portal (discordgo v0.29.0 has no constant for it).
const entryPointType = 4

// overwriteCommands puts cmds as the application's commands in guild
// (""; global). A global overwrite keeps the application's Entry Point
// command as Discord has it: Discord refuses a bulk overwrite that
// would remove it ("You cannot remove this app's Entry Point command in
// a bulk update operation"), and it is how people launch the Activity
// from the App Launcher.
func (a *Adapter) overwriteCommands(appID, guild string, cmds []*discordgo.ApplicationCommand) error {
	if guild != "" {
		_, err := a.s.ApplicationCommandBulkOverwrite(appID, guild, cmds)
		return err
	}
	endpoint := discordgo.EndpointApplicationGlobalCommands(appID)
	raw, err := a.s.RequestWithBucketID(http.MethodGet, endpoint, nil, endpoint)
	if err != nil {
		return err
	}
	var have []json.RawMessage
	if err := json.Unmarshal(raw, &have); err != nil {
		return fmt.Errorf("reading the global commands: %w", err)
	}
	body := make([]any, 0, len(cmds)+1)
	for _, c := range cmds {
		body = append(body, c)
	}
	for _, c := range have {
		var head struct {
			Type int `json:"type"`
		}
		if json.Unmarshal(c, &head) == nil && head.Type == entryPointType {
			body = append(body, c) // as it is, handler included
		}
	}
	if len(body) == len(cmds) {
		_, err := a.s.ApplicationCommandBulkOverwrite(appID, "", cmds)
		return err
	}
	_, err = a.s.RequestWithBucketID(http.MethodPut, endpoint, body, endpoint)
	return err
}

// ProxyUser is the user a request through Discord's proxy came from,
// when Discord signed it: with proxy authentication, each request the
// Activity makes through https://{application id}.discordsays.com
// carries a payload about its user (X-Discord-Proxy-Payload, base64
// JSON), its Ed25519 signature under the application's public key
// (X-Signature-Ed25519) and its timestamp (X-Signature-Timestamp, the
// payload's created_at). The proxy hides users' addresses, so this is
// how the board tells one user's requests from another's. false: no
// public key configured, no or a bad signature, an expired payload, or
// one that names no user.
func (a *Adapter) ProxyUser(h http.Header, now time.Time) (gobot.UserID, bool) {
	raw, sig, ts := h.Get("X-Discord-Proxy-Payload"), h.Get("X-Signature-Ed25519"), h.Get("X-Signature-Timestamp")
	if len(a.pub) == 0 || raw == "" || sig == "" || len(raw) > 4096 || len(sig) > 256 {
		return "", false
	}
	payload, err := base64.StdEncoding.DecodeString(raw)
	if err != nil {
		if payload, err = base64.RawStdEncoding.DecodeString(raw); err != nil {
			return "", false
		}
	}
	// Discord's examples read the signature as hex and as base64.
	signature, err := hex.DecodeString(sig)
	if err != nil {
		if signature, err = base64.StdEncoding.DecodeString(sig); err != nil {
			return "", false
		}
	}
	if len(signature) != ed25519.SignatureSize || !ed25519.Verify(a.pub, payload, signature) {
		return "", false
	}
	var p struct {
		CreatedAt json.Number `json:"created_at"`
		ExpiresAt int64       `json:"expires_at"`
		UserID    string      `json:"user_id"`
	}
	if json.Unmarshal(payload, &p) != nil || p.CreatedAt.String() != ts || p.ExpiresAt < now.Unix() || !snowflake(p.UserID) {
		return "", false
	}
	return gobot.NewUserID(Platform, p.UserID), true
}
