package main

import (
	"errors"
	"strings"

	"github.com/gobotgo/gobot/chat/web"
)

// checkActivity validates discord.activity: the Activity is the web board
// inside Discord, signed in with the application's client secret, and
// Discord's proxy reaches the board only over https.
func (c *Config) checkActivity() error {
	d := c.Discord
	if !d.Activity {
		return nil
	}
	if !c.Web.Enabled {
		return errors.New("discord.activity: the Activity is the web board inside Discord: turn on web.enabled and set web.public_url")
	}
	if d.ApplicationID == "" {
		return errors.New("discord.application_id: the Activity needs the application ID (the Developer Portal's General Information page)")
	}
	if d.ClientSecret == "" {
		return errors.New("discord.client_secret: the Activity needs the application's OAuth2 client secret to sign players in (or set GOBOT_DISCORD_CLIENT_SECRET)")
	}
	if u, err := web.CheckPublicURL(c.Web.publicURL()); err == nil && u.Scheme != "https" {
		return errors.New("discord.activity: web.public_url must be https://: Discord's proxy (the URL mapping / → web.public_url) reaches only https addresses")
	}
	if strings.TrimSpace(d.ClientSecret) != d.ClientSecret {
		return errors.New("discord.client_secret: the secret has spaces around it; copy it again from the Developer Portal's OAuth2 page")
	}
	return nil
}
