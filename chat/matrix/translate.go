package matrix

import (
	"fmt"
	"html"
	"strings"
	"time"

	"maunium.net/go/mautrix/event"
	"maunium.net/go/mautrix/id"

	"github.com/gobotgo/gobot"
	"github.com/gobotgo/gobot/chat"
	"github.com/gobotgo/gobot/chat/protocol"
)

// Platform is the prefix of Matrix user and room IDs in the chat layer.
const Platform = "matrix"

// UserID qualifies a Matrix user ID for the chat layer:
// "@ann:example.org" → "matrix:@ann:example.org".
func UserID(u id.UserID) gobot.UserID { return gobot.UserID(Platform + ":" + string(u)) }

// RoomID qualifies a Matrix room for the chat layer. A thread (a root
// event in the room) is a room of its own for the chat layer:
// "matrix:!abc:example.org/$root".
func RoomID(r id.RoomID, thread id.EventID) gobot.RoomID {
	if thread != "" {
		return gobot.RoomID(Platform + ":" + string(r) + "/" + string(thread))
	}
	return gobot.RoomID(Platform + ":" + string(r))
}

// matrixUser returns the Matrix user ID of a chat user, false for other
// platforms.
func matrixUser(u gobot.UserID) (id.UserID, bool) {
	if u.Platform() != Platform || !strings.HasPrefix(u.Local(), "@") {
		return "", false
	}
	return id.UserID(u.Local()), true
}

// matrixRoom splits a chat room into the Matrix room and the thread root
// ("" when not a thread); false for other platforms.
func matrixRoom(r gobot.RoomID) (id.RoomID, id.EventID, bool) {
	if r.Platform() != Platform {
		return "", "", false
	}
	local := r.Local()
	if !strings.HasPrefix(local, "!") {
		return "", "", false
	}
	if i := strings.LastIndex(local, "/$"); i > 0 {
		return id.RoomID(local[:i]), id.EventID(local[i+1:]), true
	}
	return id.RoomID(local), "", true
}

// command is a message's text read as a command.
type command struct {
	Name     string
	Args     []string
	Mentions []protocol.User
}

// parseCommand reads a message as a command if it starts with prefix
// (case-insensitive, then a space or the end). Users named by pills or
// typed as Matrix IDs become "@matrix:@bob:example.org" arguments, and
// their display names (from the pill) go into Mentions. Notices (other
// bots), edits and non-text messages are never commands, except a file
// sent with a caption (MSC2530: a filename, and a body that differs from
// it): the caption is read as a command with the file attached
// (attachment.go).
func parseCommand(prefix string, c *event.MessageEventContent) (command, bool) {
	if c == nil || c.RelatesTo.GetReplaceID() != "" {
		return command{}, false
	}
	if c.MsgType != event.MsgText && !(c.MsgType == event.MsgFile && c.FileName != "" && c.Body != c.FileName) {
		return command{}, false
	}
	cc := *c
	cc.RemoveReplyFallback()
	names := map[id.UserID]string{}
	text := cc.Body
	if cc.Format == event.FormatHTML && cc.FormattedBody != "" {
		text = htmlText(cc.FormattedBody, func(text, mxid, eventID string) string {
			if strings.HasPrefix(mxid, "@") && eventID == "" {
				names[id.UserID(mxid)] = text
				return " " + mxid + " "
			}
			return text
		})
	}
	text = strings.TrimSpace(text)
	if len(text) < len(prefix) || !strings.EqualFold(text[:len(prefix)], prefix) {
		return command{}, false
	}
	rest := text[len(prefix):]
	if rest != "" && !strings.ContainsAny(rest[:1], " \t\n") {
		return command{}, false // "!gold" is not "!go"
	}
	fields := strings.Fields(rest)
	if len(fields) == 0 {
		return command{Name: "help"}, true
	}
	cmd := command{Name: fields[0]}
	seen := map[gobot.UserID]bool{}
	for _, f := range fields[1:] {
		u, ok := userArg(f)
		if !ok {
			cmd.Args = append(cmd.Args, f)
			continue
		}
		cu := UserID(u)
		cmd.Args = append(cmd.Args, "@"+string(cu))
		if seen[cu] {
			continue
		}
		seen[cu] = true
		name := strings.TrimPrefix(names[u], "@")
		if name == "" {
			name = u.Localpart()
		}
		cmd.Mentions = append(cmd.Mentions, protocol.User{ID: cu, Name: name})
	}
	return cmd, true
}

// userArg recognises a Matrix user ID typed or pasted as an argument,
// allowing the punctuation clients put after a mention ("@bob:ex.org:").
func userArg(s string) (id.UserID, bool) {
	if strings.HasPrefix(s, "@"+Platform+":@") {
		s = strings.TrimPrefix(s, "@"+Platform+":")
	}
	s = strings.TrimRight(s, ",;")
	if !strings.HasPrefix(s, "@") || !strings.Contains(s, ":") {
		return "", false
	}
	u := id.UserID(s)
	if _, _, err := u.Parse(); err != nil || u.Homeserver() == "" {
		// A trailing colon after a bare mention: "@bob:ex.org:".
		u = id.UserID(strings.TrimSuffix(s, ":"))
		if _, _, err := u.Parse(); err != nil || u.Homeserver() == "" {
			return "", false
		}
	}
	return u, true
}

// eventTime is when the homeserver received evt.
// arrival is the bot's time as an event arrives (protocol.Request's
// Arrived): the handler's clock when it has one (chat.Bot), else the
// system's. A live game's move counts from it, not from the homeserver's
// timestamp (eventTime), which may lie in the past.
func arrival(h Handler) time.Time {
	if c, ok := h.(chat.Clock); ok {
		return c.Now()
	}
	return time.Now()
}

func eventTime(evt *event.Event) time.Time {
	if evt.Timestamp == 0 {
		return time.Time{}
	}
	return time.UnixMilli(evt.Timestamp)
}

// pillURL links to a user the way Matrix clients recognise as a pill.
func pillURL(u id.UserID) string { return "https://matrix.to/#/" + string(u) }

// textContent renders a reply's words as an m.notice with an HTML body:
// mentions become pills (with display names from name), inline code
// becomes <code>, the users in Reply.Mentions go into m.mentions (and no
// one else is pinged), and Actions become a line of commands to type.
// The text board is added only when there is no image to show.
func textContent(rep protocol.Reply, name func(gobot.UserID) string, actions []string) *event.MessageEventContent {
	var plain, rich []string
	if rep.Title != "" {
		plain = append(plain, rep.Title)
		rich = append(rich, "<strong>"+html.EscapeString(rep.Title)+"</strong>")
	}
	if rep.Text != "" {
		p, h := formatText(rep.Text, name)
		plain = append(plain, p)
		rich = append(rich, h)
	}
	for _, f := range rep.Fields {
		p, h := formatText(f.Value, name)
		plain = append(plain, f.Name+": "+p)
		rich = append(rich, "<b>"+html.EscapeString(f.Name)+":</b> "+h)
	}
	if rep.Board != "" && rep.Image == nil {
		plain = append(plain, strings.TrimRight(rep.Board, "\n"))
		rich = append(rich, "<pre><code>"+html.EscapeString(strings.TrimRight(rep.Board, "\n"))+"</code></pre>")
	}
	if len(actions) > 0 {
		p, h := formatText("Next: "+strings.Join(actions, " · "), name)
		plain = append(plain, p)
		rich = append(rich, h)
	}
	c := &event.MessageEventContent{
		MsgType:       event.MsgNotice,
		Body:          strings.Join(plain, "\n"),
		Format:        event.FormatHTML,
		FormattedBody: strings.Join(rich, "<br>"),
		Mentions:      &event.Mentions{},
	}
	seen := map[id.UserID]bool{}
	for _, u := range rep.Mentions {
		if mu, ok := matrixUser(u); ok && !seen[mu] {
			seen[mu] = true
			c.Mentions.UserIDs = append(c.Mentions.UserIDs, mu)
		}
	}
	boundContent(c)
	return c
}

// formatText turns chat text into plain text and HTML: <@user> tokens
// become names (plain) and pills (HTML), `code` becomes <code>, line
// breaks become <br>.
func formatText(text string, name func(gobot.UserID) string) (plain, rich string) {
	plain = protocol.FormatText(text, name)
	const mOpen, mClose = "\x00@", "\x00"
	marked := protocol.FormatText(text, func(u gobot.UserID) string { return mOpen + string(u) + mClose })
	parts := strings.Split(marked, "`")
	var sb strings.Builder
	for i, part := range parts {
		code := i%2 == 1
		if code && i == len(parts)-1 {
			sb.WriteString("`") // an unmatched backtick is just a backtick
			code = false
		}
		if code {
			sb.WriteString("<code>")
		}
		for j, piece := range strings.Split(part, mOpen) {
			if j == 0 {
				sb.WriteString(html.EscapeString(piece))
				continue
			}
			u, after, _ := strings.Cut(piece, mClose)
			uid := gobot.UserID(u)
			if mu, ok := matrixUser(uid); ok && !code {
				fmt.Fprintf(&sb, `<a href="%s">%s</a>`, html.EscapeString(pillURL(mu)), html.EscapeString(name(uid)))
			} else {
				sb.WriteString(html.EscapeString(name(uid)))
			}
			sb.WriteString(html.EscapeString(after))
		}
		if code {
			sb.WriteString("</code>")
		}
	}
	rich = strings.ReplaceAll(sb.String(), "\n", "<br>")
	return plain, rich
}

// mediaContent describes an uploaded file: m.image for images (with
// size and dimensions), m.file otherwise. Exactly one of url and enc is
// set (enc in encrypted rooms).
func mediaContent(f *protocol.File, url id.ContentURIString, enc *event.EncryptedFileInfo) *event.MessageEventContent {
	c := &event.MessageEventContent{
		MsgType:  event.MsgFile,
		Body:     f.Name,
		FileName: f.Name,
		URL:      url,
		File:     enc,
		Info:     &event.FileInfo{MimeType: f.MIME, Size: len(f.Data)},
		Mentions: &event.Mentions{},
	}
	if strings.HasPrefix(f.MIME, "image/") {
		c.MsgType = event.MsgImage
		c.Info.Width, c.Info.Height = f.Width, f.Height
		c.Info.IsAnimated = f.MIME == "image/gif"
	}
	return c
}

// route says where a reply's events go and what they relate to.
type route struct {
	Room    id.RoomID
	Thread  id.EventID // thread root, "" outside threads
	ReplyTo id.EventID // the event answered (same room), "" for none
}

// relation is the m.relates_to for an event sent along r: a thread
// event (replying to ReplyTo when it is in the thread, else falling back
// to the root), or a plain reply, or nothing.
func (r route) relation() *event.RelatesTo {
	switch {
	case r.Thread != "":
		rel := &event.RelatesTo{Type: event.RelThread, EventID: r.Thread}
		if r.ReplyTo != "" {
			rel.InReplyTo = &event.InReplyTo{EventID: r.ReplyTo}
		} else {
			rel.InReplyTo = &event.InReplyTo{EventID: r.Thread}
			rel.IsFallingBack = true
		}
		return rel
	case r.ReplyTo != "":
		return &event.RelatesTo{InReplyTo: &event.InReplyTo{EventID: r.ReplyTo}}
	}
	return nil
}

// actionCommands names, for each button of a reply, the command that does
// the same, written for users to type ("`!go pass #7`"), through chat's
// button codec; a button in any other form is named by its label.
func actionCommands(prefix string, acts []protocol.Action, known func(string) bool) []string {
	var out []string
	for _, a := range acts {
		if x, err := protocol.ParseButton(a.ID); err == nil && known(x.Command) {
			out = append(out, fmt.Sprintf("%s (`%s %s`)", a.Label, prefix, x.Line()))
			continue
		}
		out = append(out, a.Label)
	}
	return out
}
