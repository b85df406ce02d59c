package discord

import (
	"bytes"
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/gobotgo/gobot"
	"github.com/gobotgo/gobot/chat"
	"github.com/gobotgo/gobot/chat/protocol"
)

// Discord holds gobot's commands under top-level slash commands, since
// Discord allows at most 25 subcommands in one: GameCommand has what is
// typed around a game ("/go play D4"), BotCommand the rest (ratings,
// engines, rules, settings, vacation, the admin's abort, the room's
// tournaments), and a chat command with verbs (chat.Command.Verbs:
// tournament) is a top-level command of its own, a subcommand per verb
// ("/tournament join"). help is in both /go and /gobot. docs/discord.md
// says why.
const (
	GameCommand = "go"
	BotCommand  = "gobot"
)

// botCommands are the chat commands under BotCommand; every other
// command without verbs is under GameCommand.
var botCommands = map[string]bool{"rating": true, "top": true, "engines": true, "rules": true, "settings": true, "vacation": true, "abort": true, "account": true,
	"tournaments": true, "ladder": true, "ladders": true}

// families are the chat commands declared with verbs, by each of their
// names (aliases too): each is a top-level command of its own.
var families = sync.OnceValue(func() map[string]string {
	m := map[string]string{}
	for _, c := range chat.Declared() {
		if len(c.Verbs) > 0 {
			m[c.Name] = c.Name
			for _, al := range c.Aliases {
				m[al] = c.Name
			}
		}
	}
	return m
})

// TopLevel names the top-level command a chat command is typed under on
// Discord: "go", "gobot", or a command with verbs' own ("tournament").
func TopLevel(command string) string {
	command = strings.ToLower(command)
	if f, ok := families()[command]; ok {
		return f
	}
	if botCommands[command] {
		return BotCommand
	}
	return GameCommand
}

// CommandLine writes a chat command line as Discord shows it:
// "play D4" → "/go play D4", "rating @bob" → "/gobot rating @bob",
// "tournament join t3" → "/tournament join t3".
func CommandLine(line string) string {
	name, rest, _ := strings.Cut(strings.TrimSpace(line), " ")
	if f, ok := families()[strings.ToLower(name)]; ok {
		return strings.TrimSpace("/" + f + " " + rest)
	}
	return "/" + TopLevel(name) + " " + line
}

// Descriptor is Discord as a platform: an interaction's response can be
// shown to its caller alone anywhere (ephemeral), commands are slash
// commands, users are snowflakes.
var Descriptor = &protocol.Platform{Name: Platform, PrivateReplies: true, CommandLine: CommandLine, User: validUser, Typed: typedUser}

// typedUser recognises a Discord user typed on another platform:
// "discord:@carol", by the name the bot knows them by (chat looks it
// up), or "discord:@1234", by their ID.
func typedUser(word string) (gobot.UserID, bool) {
	name, ok := strings.CutPrefix(strings.TrimRight(word, ",;"), Platform+":@")
	if !ok || name == "" || strings.ContainsAny(name, ":@ ") {
		return "", false
	}
	return gobot.NewUserID(Platform, name), true
}

// validUser checks a Discord user ID: a snowflake (digits, a 64-bit
// number).
func validUser(local string) error {
	if _, err := strconv.ParseUint(local, 10, 64); err != nil || len(local) > 20 || !protocol.AllDigits(local) {
		return protocol.Refusef("%s is not a Discord user: mention them (@name) so Discord fills in their ID.", protocol.Echo(local))
	}
	return nil
}

// codeCommand renders a command token as Discord shows it, as inline
// code.
func codeCommand(line string) string { return "`" + CommandLine(line) + "`" }

// optionName turns an argument name into a Discord option name:
// "@player" → "player", "#game" → "game", "key=value" → "options".
func optionName(a protocol.Arg) string {
	if a.Name == "key=value" {
		return "options"
	}
	var sb strings.Builder
	for _, r := range strings.ToLower(a.Name) {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '_' || r == '-' {
			sb.WriteRune(r)
		}
	}
	return sb.String()
}

// clip cuts s to at most n characters, ending in "…" when cut.
func clip(s string, n int) string { return protocol.ClipRunes(s, n) }

// ApplicationCommands builds the top-level commands from the chat
// package's declarations: /go and /gobot, with one subcommand per chat
// command (help under both), and a command of its own for each chat
// command with verbs, with one subcommand per verb.
func ApplicationCommands(cmds []chat.Command) []*discordgo.ApplicationCommand {
	game := &discordgo.ApplicationCommand{Name: GameCommand, Description: "Play Go (baduk, weiqi) here: challenge, play, pass, resign, board…", Type: discordgo.ChatApplicationCommand}
	bot := &discordgo.ApplicationCommand{Name: BotCommand, Description: "gobot: ratings, leaderboard, engines, rules, settings, vacation, help", Type: discordgo.ChatApplicationCommand}
	var own []*discordgo.ApplicationCommand
	for _, c := range cmds {
		switch {
		case len(c.Verbs) > 0:
			own = append(own, family(c))
		case c.Name == "help":
			game.Options = append(game.Options, subcommand(c))
			bot.Options = append(bot.Options, subcommand(c))
		case TopLevel(c.Name) == BotCommand:
			bot.Options = append(bot.Options, subcommand(c))
		default:
			game.Options = append(game.Options, subcommand(c))
		}
	}
	return append([]*discordgo.ApplicationCommand{game, bot}, own...)
}

// family declares chat command c, which has verbs, as a command of its
// own: a subcommand per verb, each with that verb's options only.
func family(c chat.Command) *discordgo.ApplicationCommand {
	cmd := &discordgo.ApplicationCommand{Name: c.Name, Description: clip(c.Summary, 100), Type: discordgo.ChatApplicationCommand}
	for _, v := range c.Verbs {
		sub := &discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionSubCommand, Name: v.Name, Description: clip(v.Summary, 100)}
		var required, optional []*discordgo.ApplicationCommandOption
		for _, p := range v.Params {
			o := option(verbArg(c, p))
			if p.Form == protocol.FormWords {
				o.MaxLength = maxLength(protocol.Arg{Repeat: true})
			}
			if p.Max > 0 { // a whole number in a range
				lo := float64(p.Min)
				o.Type, o.MaxLength, o.MinValue, o.MaxValue, o.Autocomplete = discordgo.ApplicationCommandOptionInteger, 0, &lo, float64(p.Max), false
			}
			if p.Required {
				required = append(required, o)
			} else {
				optional = append(optional, o)
			}
		}
		if c.Attachment != "" && v.File {
			optional = append(optional, &discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionAttachment, Name: attachmentOption, Description: clip(c.Attachment, 100)})
		}
		sub.Options = append(required, optional...)
		cmd.Options = append(cmd.Options, sub)
	}
	return cmd
}

// verbArg is the argument a verb's option is declared as: the command's
// own (FormArg: its kind), with the verb's help and requirement; or
// the option itself.
func verbArg(c chat.Command, p protocol.Param) protocol.Arg {
	if p.Form != protocol.FormArg {
		return p.Arg
	}
	for _, a := range c.Args {
		if a.Name == p.Name {
			a.Help, a.Required = orDefault(p.Help, a.Help), p.Required
			return a
		}
	}
	return p.Arg
}

// subcommand declares chat command c as a Discord subcommand.
func subcommand(c chat.Command) *discordgo.ApplicationCommandOption {
	sub := &discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionSubCommand, Name: c.Name, Description: clip(c.Summary, 100)}
	var required, optional []*discordgo.ApplicationCommandOption
	for _, a := range c.Args {
		if a.Kind == protocol.ArgTeams { // teams.go: a user option per player
			req, opt := teamOptions(a)
			required, optional = append(required, req...), append(optional, opt...)
			continue
		}
		if o := option(a); a.Required {
			required = append(required, o)
		} else {
			optional = append(optional, o)
		}
		if a.Kind == protocol.ArgUser && a.Elsewhere {
			// A user option picks only Discord users: a player of another
			// platform of the server's community is typed (docs/identity.md).
			optional = append(optional, &discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionString, Name: elsewhereOption,
				Description: "or a player on another platform of this server's community, like @bob:example.org", MaxLength: 300})
		}
	}
	if c.Attachment != "" { // a file to attach (review's SGF): an attachment option
		optional = append(optional, &discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionAttachment, Name: attachmentOption, Description: clip(c.Attachment, 100)})
	}
	sub.Options = append(required, optional...)
	return sub
}

// option declares argument a as a Discord option.
func option(a protocol.Arg) *discordgo.ApplicationCommandOption {
	o := &discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionString, Name: optionName(a), Description: clip(orDefault(a.Help, a.Name), 100), Required: a.Required, MaxLength: maxLength(a)}
	switch a.Kind {
	case protocol.ArgUser:
		o.Type = discordgo.ApplicationCommandOptionUser
		o.MaxLength = 0 // only string options have a length
	case protocol.ArgGame, protocol.ArgPoint, protocol.ArgEngine:
		o.Autocomplete = !a.Repeat
	case protocol.ArgRules:
		// Suggested, not a fixed list: options of a ruleset
		// ("japanese ko=simple") are free text.
		o.Autocomplete = true
	case protocol.ArgLevel:
		lo, hi := 1.0, 10.0
		o.Type, o.MaxLength, o.MinValue, o.MaxValue = discordgo.ApplicationCommandOptionInteger, 0, &lo, hi
	case protocol.ArgColor, protocol.ArgChoice:
		for _, ch := range a.Choices {
			o.Choices = append(o.Choices, &discordgo.ApplicationCommandOptionChoice{Name: ch, Value: ch})
		}
	}
	if a.Repeat {
		o.Description = clip(o.Description+" (several: separate with spaces)", 100)
	}
	return o
}

// attachmentOption is the name of a command's attachment option.
const attachmentOption = "file"

// elsewhereOption is the string option beside a user option that may
// name a player of another platform (protocol.Arg.Elsewhere).
const elsewhereOption = "elsewhere"

func orDefault(s, d string) string {
	if s == "" {
		return d
	}
	return s
}

// arrival is the bot's time as an interaction arrives (protocol.Request's
// Arrived): the handler's clock when it has one (chat.Bot), else the
// adapter's.
func (a *Adapter) arrival() time.Time {
	if c, ok := a.bot.(chat.Clock); ok {
		return c.Now()
	}
	if a.now != nil {
		return a.now()
	}
	return time.Now()
}

// Request turns an interaction into a chat request. For slash commands,
// typed options become the argument strings chat's parser reads.
func (a *Adapter) Request(in *discordgo.Interaction) protocol.Request {
	// A DM or group DM between users (context PRIVATE_CHANNEL) is a room
	// of its own, not a conversation with the bot.
	private := in.Context == discordgo.InteractionContextPrivateChannel
	r := protocol.Request{EventID: gobot.NewEventID(Platform, in.ID), Room: gobot.RoomID(Platform + ":" + in.ChannelID), DM: in.GuildID == "" && !private}
	r.Platform = Descriptor
	r.Arrived = a.arrival()
	var u *discordgo.User
	if in.Member != nil {
		u = in.Member.User
		r.Admin = in.Member.Permissions&(discordgo.PermissionManageGuild|discordgo.PermissionManageChannels|discordgo.PermissionAdministrator) != 0
	} else {
		u = in.User
	}
	if u != nil {
		r.User = protocol.User{ID: gobot.UserID(Platform + ":" + u.ID), Name: orDefault(u.GlobalName, u.Username)}
	}
	switch {
	case r.DM:
		r.Admin = true // a DM is the user's own room
	case private:
		// A conversation among friends has no moderators: each member
		// may change its settings. It is its own ratings community (no
		// Community: chat uses the room).
		r.Admin = true
	default:
		r.Community = gobot.CommunityID(Platform + ":guild:" + in.GuildID) // ratings are per server
	}
	switch in.Type {
	case discordgo.InteractionMessageComponent:
		r.Action = in.MessageComponentData().CustomID
		if orig, ok := strings.CutPrefix(r.Action, askFirstPrefix); ok { // the bot asks first, privately
			r.Action, r.AskFirst = orig, true
		}
		r.CanLaunch = a.canLaunch(in) // activity.go
	case discordgo.InteractionApplicationCommand, discordgo.InteractionApplicationCommandAutocomplete:
		data := in.ApplicationCommandData()
		if len(data.Options) == 0 {
			r.Command = "help"
			return r
		}
		sub := data.Options[0]
		if c, ok := a.cmds[data.Name]; ok && len(c.Verbs) > 0 {
			verbRequest(&r, data, c, sub) // /tournament join
			return r
		}
		r.Command = sub.Name
		decl := a.cmds[sub.Name]
		// Options go to chat by the declared argument's name, as typed
		// values; chat parses them with the same declaration.
		var team [2][gobot.MaxTeam + 1]string // teams.go
		teamArg := ""
		for _, d := range decl.Args {
			if d.Kind == protocol.ArgTeams {
				teamArg = d.Name
			}
		}
		for _, o := range sub.Options {
			if side, place, ok := teamSlot(o.Name); ok && teamArg != "" {
				id := fmt.Sprint(o.Value)
				team[side][place] = id
				if ru, ok := resolvedUser(data, id); ok {
					r.Mentions = append(r.Mentions, protocol.User{ID: gobot.NewUserID(Platform, id), Name: orDefault(ru.GlobalName, ru.Username)})
				}
				continue
			}
			if o.Type == discordgo.ApplicationCommandOptionAttachment {
				continue // fetched by interaction (attachment.go)
			}
			if o.Name == elsewhereOption {
				// A player of another platform, typed: read as the words
				// of a typed command are.
				r.Args = append(r.Args, strings.Fields(fmt.Sprint(o.Value))...)
				continue
			}
			name := o.Name
			var kind protocol.ArgKind
			for _, d := range decl.Args {
				if optionName(d) == o.Name {
					name, kind = d.Name, d.Kind
				}
			}
			if r.Named == nil {
				r.Named = map[string]string{}
			}
			v := fmt.Sprint(o.Value)
			if kind == protocol.ArgUser {
				id := v
				u := gobot.NewUserID(Platform, id)
				v = string(u)
				if data.Resolved != nil {
					if ru, ok := data.Resolved.Users[id]; ok {
						r.Mentions = append(r.Mentions, protocol.User{ID: u, Name: orDefault(ru.GlobalName, ru.Username)})
					}
				}
			}
			r.Named[name] = v
		}
		if team != [2][gobot.MaxTeam + 1]string{} {
			if r.Named == nil {
				r.Named = map[string]string{}
			}
			r.Named[teamArg] = teamWords(r.User.ID, team)
		}
	}
	return r
}

// verbRequest turns a subcommand of a command with verbs (c) into the
// chat request typing it gives: "/tournament result game:12
// result:B+" is `tournament result #12 B+` (protocol.Verb.Typed),
// parsed by chat from the one declaration. A user option is the
// user's qualified ID, with their name among the mentions. An option
// the verb does not declare is passed by its name, for chat to refuse;
// a verb no longer declared (a stale registration) is passed as the
// word it is.
func verbRequest(r *protocol.Request, data discordgo.ApplicationCommandInteractionData, c chat.Command, sub *discordgo.ApplicationCommandInteractionDataOption) {
	r.Command = c.Name
	i := slices.IndexFunc(c.Verbs, func(v protocol.Verb) bool { return v.Name == sub.Name })
	if i < 0 {
		r.Args = []string{sub.Name}
		return
	}
	verb := c.Verbs[i]
	values := map[string]string{}
	var unknown map[string]string
	for _, o := range sub.Options {
		if o.Type == discordgo.ApplicationCommandOptionAttachment {
			continue // fetched by interaction (attachment.go)
		}
		v := optionValue(o)
		j := slices.IndexFunc(verb.Params, func(p protocol.Param) bool { return optionName(verbArg(c, p)) == o.Name })
		if j < 0 {
			if unknown == nil {
				unknown = map[string]string{}
			}
			unknown[o.Name] = v
			continue
		}
		p := verb.Params[j]
		if verbArg(c, p).Kind == protocol.ArgUser {
			u := gobot.NewUserID(Platform, v)
			if ru, ok := resolvedUser(data, v); ok {
				r.Mentions = append(r.Mentions, protocol.User{ID: u, Name: orDefault(ru.GlobalName, ru.Username)})
			}
			v = string(u)
		}
		values[p.Name] = v
	}
	r.Args, r.Named = verb.Typed(values)
	for name, v := range unknown {
		if r.Named == nil {
			r.Named = map[string]string{}
		}
		r.Named[name] = v
	}
}

// optionValue is an option's value as typed: an integer option's
// (a JSON number) in digits.
func optionValue(o *discordgo.ApplicationCommandInteractionDataOption) string {
	if f, ok := o.Value.(float64); ok {
		return strconv.FormatFloat(f, 'f', -1, 64)
	}
	return fmt.Sprint(o.Value)
}

// focused returns the option being typed in an autocomplete interaction:
// the chat command, the option's name and what is typed.
func focused(in *discordgo.Interaction) (cmd, arg, typed string) {
	data := in.ApplicationCommandData()
	if len(data.Options) == 0 {
		return "", "", ""
	}
	sub := data.Options[0]
	cmd = sub.Name
	if data.Name != GameCommand && data.Name != BotCommand {
		cmd = data.Name // a command with verbs: sub is a verb
	}
	for _, o := range sub.Options {
		if o.Focused {
			return cmd, o.Name, fmt.Sprint(o.Value)
		}
	}
	return cmd, "", ""
}

// mention renders a chat user as a Discord mention (other platforms'
// users by their local name).
func mention(u gobot.UserID) string {
	if u.Platform() == Platform {
		return "<@" + u.Local() + ">"
	}
	return u.Local()
}

// Message is a chat reply in Discord's terms.
type Message struct {
	Content    string
	Embeds     []*discordgo.MessageEmbed
	Components []discordgo.MessageComponent
	Files      []*discordgo.File
	Mentions   *discordgo.MessageAllowedMentions
	Ephemeral  bool
}

// Translate turns a chat reply into a Discord message: an embed with the
// text, fields and board image, the files as attachments, buttons, and
// pings limited to the reply's mentions.
func Translate(rep protocol.Reply) Message {
	m := Message{Ephemeral: rep.Private || rep.Error}
	rep = protocol.FormatReply(rep, codeCommand)
	text := protocol.FormatText(rep.Text, mention)
	m.Mentions = &discordgo.MessageAllowedMentions{Users: []string{}}
	var pings []string
	for _, u := range rep.Mentions {
		if u.Platform() == Platform {
			m.Mentions.Users = append(m.Mentions.Users, u.Local())
			pings = append(pings, "<@"+u.Local()+">")
		}
	}
	if rep.Error {
		m.Content = text
		clipMessage(&m)
		return m
	}
	// Mentions ping only from the content, not from embeds.
	m.Content = strings.Join(pings, " ")
	e := &discordgo.MessageEmbed{Title: rep.Title, Description: text, Color: 0xDCB35C}
	for _, f := range rep.Fields {
		e.Fields = append(e.Fields, &discordgo.MessageEmbedField{Name: f.Name, Value: protocol.FormatText(f.Value, mention), Inline: f.Inline})
	}
	if rep.Image != nil {
		e.Image = &discordgo.MessageEmbedImage{URL: "attachment://" + rep.Image.Name}
		m.Files = append(m.Files, file(rep.Image))
	}
	if rep.File != nil {
		m.Files = append(m.Files, file(rep.File))
	}
	m.Embeds = []*discordgo.MessageEmbed{e}
	var row discordgo.ActionsRow
	for _, act := range rep.Actions {
		id := act.ID
		if act.AskFirst {
			id = askFirstPrefix + id
		}
		row.Components = append(row.Components, discordgo.Button{Label: act.Label, Style: buttonStyle(act.Style), CustomID: clip(id, 100)})
		if len(row.Components) == 5 {
			m.Components = append(m.Components, row)
			row = discordgo.ActionsRow{}
		}
	}
	if len(row.Components) > 0 {
		m.Components = append(m.Components, row)
	}
	clipMessage(&m)
	return m
}

// askFirstPrefix marks a button that asks first (Action.AskFirst): its
// press goes to the bot with Request.AskFirst, and the bot's question
// comes back ephemeral, with the button that acts.
const askFirstPrefix = "confirm:"

func buttonStyle(s protocol.Style) discordgo.ButtonStyle {
	switch s {
	case protocol.Primary:
		return discordgo.PrimaryButton
	case protocol.Success:
		return discordgo.SuccessButton
	case protocol.Danger:
		return discordgo.DangerButton
	}
	return discordgo.SecondaryButton
}

func file(f *protocol.File) *discordgo.File {
	return &discordgo.File{Name: f.Name, ContentType: f.MIME, Reader: bytes.NewReader(f.Data)}
}

func (m Message) flags() discordgo.MessageFlags {
	if m.Ephemeral {
		return discordgo.MessageFlagsEphemeral
	}
	return 0
}

// interaction answers one interaction. The response is what goes back
// at once (in the HTTP body or the REST callback); follow, when not nil,
// completes a deferred response: Discord takes no files in an HTTP
// response body, so a reply with files is deferred (type 5) and then the
// original response is edited with the files. then, when not nil, sends
// what the command made for others (a DM to the player to move); it runs
// after the answer and follow, whether or not they succeeded.
func (a *Adapter) interaction(ctx context.Context, in *discordgo.Interaction) (resp *discordgo.InteractionResponse, follow func(), then func(context.Context)) {
	switch in.Type {
	case discordgo.InteractionPing:
		return &discordgo.InteractionResponse{Type: discordgo.InteractionResponsePong}, nil, nil
	case discordgo.InteractionApplicationCommandAutocomplete:
		req := a.Request(in)
		cmd, arg, typed := focused(in)
		var choices []*discordgo.ApplicationCommandOptionChoice
		for _, c := range a.bot.Complete(ctx, req, cmd, arg, typed) {
			choices = append(choices, &discordgo.ApplicationCommandOptionChoice{Name: c.Name, Value: c.Value})
		}
		return &discordgo.InteractionResponse{Type: discordgo.InteractionApplicationCommandAutocompleteResult,
			Data: &discordgo.InteractionResponseData{Choices: choices}}, nil, nil
	case discordgo.InteractionMessageComponent:
	case discordgo.InteractionApplicationCommand:
	default:
		return &discordgo.InteractionResponse{Type: discordgo.InteractionResponseChannelMessageWithSource,
			Data: &discordgo.InteractionResponseData{Content: "I can't handle that kind of interaction.", Flags: discordgo.MessageFlagsEphemeral}}, nil, nil
	}
	req := a.Request(in)
	nb := noBot(in)
	f, refused := a.attachment(ctx, in) // attachment.go
	if refused != "" {
		return &discordgo.InteractionResponse{Type: discordgo.InteractionResponseChannelMessageWithSource,
			Data: &discordgo.InteractionResponseData{Content: refused, Flags: discordgo.MessageFlagsEphemeral}}, nil, nil
	}
	req.File = f
	rep, then := a.bot.Respond(ctx, req)
	if rep.Duplicate {
		// Delivered twice: the first delivery is (being) answered, and a
		// second callback would be refused (40060).
		a.log.Debug("dropped a duplicate interaction", "id", in.ID)
		return nil, nil, nil
	}
	if rep.Launch { // the board opens inside Discord, where it shows this game (activity.go)
		return &discordgo.InteractionResponse{Type: launchActivity}, nil, then
	}
	a.seen(ctx, in)
	if nb && rep.Thread {
		rep.Thread = false
		rep.Text += "\n" + threadsNote
	}
	if req.Command == "rating" && !rep.Error && in.GuildID == "" {
		rep.Text += "\n" + ratingNote
	}
	msg := Translate(rep)
	if nb && forcedPrivate(in) && a.firstPrivate(ctx, in.ChannelID) {
		msg.Content = clip(privateNote+"\n"+msg.Content, maxContent)
	}
	resp, follow = a.respond(ctx, in, req, rep, msg, nb)
	if nb {
		// Notices that waited for someone to come back go out after the
		// answer, as follow-ups of this interaction.
		done := follow
		follow = func() {
			if done != nil {
				done()
			}
			a.showHeld(context.WithoutCancel(ctx), in.ChannelID, req.User.ID)
		}
	}
	return resp, follow, then
}

// respond is interaction's answer to a command or button, and what
// completes it.
func (a *Adapter) respond(ctx context.Context, in *discordgo.Interaction, req protocol.Request, rep protocol.Reply, msg Message, nb bool) (*discordgo.InteractionResponse, func()) {
	if !nb && rep.Room != "" && rep.Room != req.Room && !msg.Ephemeral && rep.Room.Platform() == Platform {
		// The game lives in its own thread: post there, and tell the
		// caller where it went.
		note := &discordgo.InteractionResponse{Type: discordgo.InteractionResponseChannelMessageWithSource,
			Data: &discordgo.InteractionResponseData{Content: "Posted in <#" + rep.Room.Local() + ">.", Flags: discordgo.MessageFlagsEphemeral}}
		return note, func() {
			if _, err := a.post(rep.Room.Local(), &discordgo.MessageSend{Content: msg.Content, Embeds: msg.Embeds,
				Components: msg.Components, Files: msg.Files, AllowedMentions: msg.Mentions}, string(req.EventID)); err != nil {
				a.log.Error("posting in a game's thread", "err", err)
			}
		}
	}
	data := &discordgo.InteractionResponseData{Content: msg.Content, Embeds: msg.Embeds, Components: msg.Components,
		AllowedMentions: msg.Mentions, Flags: msg.flags()}
	thread := func(m *discordgo.Message) {
		if rep.Thread && m != nil && rep.Game != 0 {
			th, err := a.s.MessageThreadStart(m.ChannelID, m.ID, clip(rep.ThreadName, 100), 10080)
			if err != nil {
				a.log.Warn("starting a game thread", "err", err)
				return
			}
			if err := a.bot.ThreadCreated(ctx, rep.Game, gobot.RoomID(Platform+":"+th.ID)); err != nil {
				a.log.Error("recording a game thread", "err", err)
			}
		}
	}
	if len(msg.Files) == 0 {
		return &discordgo.InteractionResponse{Type: discordgo.InteractionResponseChannelMessageWithSource, Data: data}, func() {
			if rep.Thread {
				m, err := a.s.InteractionResponse(in)
				if err == nil {
					thread(m)
				}
			}
		}
	}
	deferred := &discordgo.InteractionResponse{Type: discordgo.InteractionResponseDeferredChannelMessageWithSource,
		Data: &discordgo.InteractionResponseData{Flags: msg.flags()}}
	return deferred, func() {
		m, err := a.completeDeferred(in, msg, rep)
		if err != nil {
			a.log.Error("completing a deferred response", "err", err)
			return
		}
		thread(m)
	}
}

// Notify sends a message the bot makes on its own: to a channel, or as a
// direct message.
func (a *Adapter) Notify(ctx context.Context, m protocol.Message) error {
	if m.Room.Platform() == Platform && a.isNoBot(ctx, m.Room.Local()) {
		return a.notifyNoBot(ctx, m) // never a post with the bot token there
	}
	channel := m.Room.Local()
	if m.To != "" {
		ch, err := a.s.UserChannelCreate(m.To.Local())
		if err != nil {
			return fmt.Errorf("opening a DM with %s: %w", m.To, err)
		}
		channel = ch.ID
	}
	msg := Translate(m.Reply)
	_, err := a.post(channel, &discordgo.MessageSend{Content: msg.Content, Embeds: msg.Embeds,
		Components: msg.Components, Files: msg.Files, AllowedMentions: msg.Mentions}, m.Key)
	return err
}
