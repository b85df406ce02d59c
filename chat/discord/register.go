package discord

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/bwmarrin/discordgo"
)

// RefusedError is a registration Discord refused for good (HTTP 4xx but
// 429): trying again cannot help, so the adapter stops, and with it the
// process: an operator never sees a bot that is online and silent.
type RefusedError struct {
	Status  int    // Discord's HTTP status
	Command string // the command Discord names ("/go"), or "" for all
	Guild   string // the guild registered in; "" for global
	Reason  string // Discord's reason, its error tree flattened
}

func (e *RefusedError) Error() string {
	what := "gobot's commands (/" + GameCommand + ", /" + BotCommand + " and those of their own) are"
	if e.Command != "" {
		what = "the command " + e.Command + " is"
	}
	where := ""
	if e.Guild != "" {
		where = " in server " + e.Guild
	}
	return fmt.Sprintf("discord: %s refused by Discord%s (HTTP %d): %s. %s", what, where, e.Status, e.Reason, e.advice())
}

// advice says what the operator can do about the refusal.
func (e *RefusedError) advice() string {
	switch e.Status {
	case http.StatusBadRequest:
		return "gobot's command definitions break Discord's rules: this is a bug in gobot, please report it with this message."
	case http.StatusUnauthorized:
		return "Check the bot token (discord.token or GOBOT_DISCORD_TOKEN)."
	case http.StatusForbidden:
		return "Check discord.application_id, and that the bot was added to each server in discord.guild_ids with the applications.commands scope."
	case http.StatusNotFound:
		return "Check discord.application_id and discord.guild_ids."
	}
	return "Check the Discord settings in the config."
}

// registrationError turns an error of registering cmds in guild into a
// *RefusedError when Discord refused them for good; other errors
// (5xx, timeouts, the network) are returned wrapped, to be retried.
func registrationError(guild string, cmds []*discordgo.ApplicationCommand, err error) error {
	var re *discordgo.RESTError
	if !errors.As(err, &re) || re.Response == nil {
		return fmt.Errorf("registering the commands (server %q): %w", guild, err)
	}
	status := re.Response.StatusCode
	if status < 400 || status >= 500 || status == http.StatusTooManyRequests {
		return fmt.Errorf("registering the commands (server %q): %w", guild, err)
	}
	out := &RefusedError{Status: status, Guild: guild}
	var body struct {
		Message string          `json:"message"`
		Errors  json.RawMessage `json:"errors"`
	}
	if json.Unmarshal(re.ResponseBody, &body) != nil {
		out.Reason = http.StatusText(status)
		return out
	}
	var reasons []string
	var first string
	flattenErrors(body.Errors, nil, func(path []string, msg string) {
		if len(path) > 0 {
			if i, err := strconv.Atoi(path[0]); err == nil && i >= 0 && i < len(cmds) {
				path[0] = cmds[i].Name // the bulk body's index: the command's name
				if first == "" {
					first = path[0]
				}
			}
		}
		reasons = append(reasons, strings.Join(path, ".")+": "+msg)
	})
	switch {
	case len(reasons) > 0:
		if len(reasons) > 3 {
			reasons = append(reasons[:3], fmt.Sprintf("and %d more", len(reasons)-3))
		}
		out.Reason = strings.Join(reasons, "; ")
	case body.Message != "":
		out.Reason = body.Message
		// A reason like "Invalid Form Body: go.options: …" names the
		// command first.
		if _, rest, ok := strings.Cut(body.Message, ": "); ok {
			first, _, _ = strings.Cut(rest, ".")
		}
	default:
		out.Reason = http.StatusText(status)
	}
	for _, c := range cmds {
		if c.Name == first {
			out.Command = "/" + first
		}
	}
	out.Reason = clip(strings.TrimSuffix(out.Reason, "."), 400)
	return out
}

// flattenErrors walks Discord's error tree ({"0":{"options":{"_errors":
// [{"code":…,"message":…}]}}}) and calls found with each error's path
// and message, in a stable order.
func flattenErrors(raw json.RawMessage, path []string, found func(path []string, msg string)) {
	var node map[string]json.RawMessage
	if len(raw) == 0 || json.Unmarshal(raw, &node) != nil {
		return
	}
	if list, ok := node["_errors"]; ok {
		var errs []struct {
			Message string `json:"message"`
		}
		json.Unmarshal(list, &errs)
		for _, e := range errs {
			found(append([]string(nil), path...), strings.TrimSuffix(e.Message, "."))
		}
	}
	keys := make([]string, 0, len(node))
	for k := range node {
		if k != "_errors" {
			keys = append(keys, k)
		}
	}
	sort.Slice(keys, func(i, j int) bool {
		a, aerr := strconv.Atoi(keys[i])
		b, berr := strconv.Atoi(keys[j])
		if aerr == nil && berr == nil {
			return a < b
		}
		return keys[i] < keys[j]
	})
	for _, k := range keys {
		flattenErrors(node[k], append(path, k), found)
	}
}

// commandNames lists cmds' names for a log line: "/go, /gobot".
func commandNames(cmds []*discordgo.ApplicationCommand) string {
	names := make([]string, len(cmds))
	for i, c := range cmds {
		names[i] = "/" + c.Name
	}
	return strings.Join(names, ", ")
}

// registerOnce registers the commands, under the registration lease when
// processes share a store: the first process to take it registers (if
// the definition changed), the others wait for it and then find the
// stored hash unchanged. A transient failure is tried again with
// backoff (1 s doubling to 5 minutes); a refusal (*RefusedError) is
// returned, and stops the adapter.
func (a *Adapter) registerOnce(ctx context.Context) error {
	register := func(context.Context) error { return a.Register() }
	backoff := a.retryBase
	for {
		var err error
		if a.cfg.Hold == nil {
			err = register(ctx)
		} else {
			err = a.cfg.Hold(ctx, registerLease, register)
		}
		wait := a.cfg.LeaseRound
		var refused *RefusedError
		switch {
		case err == nil, ctx.Err() != nil:
			return nil
		case errors.As(err, &refused):
			return refused
		case !errors.Is(err, ErrLeaseHeld):
			a.log.Warn("registering the commands failed; trying again", "err", err, "in", backoff)
			wait, backoff = backoff, min(2*backoff, 5*time.Minute)
		}
		select {
		case <-ctx.Done():
			return nil
		case <-time.After(wait):
		}
	}
}
