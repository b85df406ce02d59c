// Package console is gobot's terminal adapter: it reads command lines from
// an io.Reader and writes replies to an io.Writer, so the whole bot runs in
// a terminal (and in golden-transcript tests).
package console

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/gobotgo/gobot"
	"github.com/gobotgo/gobot/chat"
	"github.com/gobotgo/gobot/chat/protocol"
)

// Platform is the prefix of console user and room IDs.
const Platform = "console"

// Descriptor is the terminal as a platform: replies are printed to
// whoever sits at it, commands are typed bare, users are named by a
// word.
var Descriptor = &protocol.Platform{Name: Platform, PrivateReplies: true, Typed: typedUser}

// typedUser recognises a terminal user typed on another platform:
// "console:@ann".
func typedUser(word string) (gobot.UserID, bool) {
	name, ok := strings.CutPrefix(strings.TrimRight(word, ",;"), Platform+":@")
	if !ok || protocol.ValidName(name) != nil {
		return "", false
	}
	return gobot.NewUserID(Platform, name), true
}

// Advancer is a clock that tests can move forward (`/wait 25h`).
type Advancer interface {
	Advance(d time.Duration)
}

// Console runs the bot in a terminal.
type Console struct {
	Bot *chat.Bot
	In  io.Reader
	Out io.Writer
	// User is who types first (default "alice"); `/as bob` switches.
	User string
	// Room is the console's one room (default "console:main").
	Room gobot.RoomID
	// Dir is where board images and SGF files are written ("" = not
	// written).
	Dir string
	// Prompt shows "alice> " before each line (for a terminal).
	Prompt bool
	// Echo prints each input line after the prompt (for transcripts).
	Echo bool
	// Clock, when it can be advanced, enables `/wait <duration>`.
	Clock Advancer

	mu      sync.Mutex // serialises output from replies and notifications
	seq     int
	session string // makes event IDs unique across runs on one database
}

// Notify prints a message the bot sends on its own.
func (c *Console) Notify(ctx context.Context, m protocol.Message) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if m.To != "" {
		fmt.Fprintf(c.Out, "-- direct message to %s:\n", mention(m.To))
	} else {
		fmt.Fprintf(c.Out, "-- message in the room:\n")
	}
	c.print(m.Reply)
	return nil
}

func mention(u gobot.UserID) string { return "@" + u.Local() }

// Run reads lines until EOF, `/quit` or ctx ends.
func (c *Console) Run(ctx context.Context) error {
	if c.User == "" {
		c.User = "alice"
	}
	if c.Room == "" {
		c.Room = Platform + ":main"
	}
	c.session = strconv.FormatInt(time.Now().UnixNano(), 36)
	lines := newLineReader(c.In, MaxLine)
	for {
		if c.Prompt {
			c.mu.Lock()
			fmt.Fprintf(c.Out, "%s> ", c.User)
			c.mu.Unlock()
		}
		var raw []byte
		var long int64
		err := io.EOF // ctx ended: stop as at the end of the input
		if ctx.Err() == nil {
			raw, long, err = lines.next()
		}
		if err != nil {
			if c.Prompt {
				fmt.Fprintln(c.Out)
			}
			if errors.Is(err, io.EOF) {
				return nil
			}
			return err
		}
		if long > 0 {
			c.tooLong(long)
			continue
		}
		line := strings.TrimSpace(string(raw))
		if c.Echo {
			c.mu.Lock()
			fmt.Fprintf(c.Out, "%s> %s\n", c.User, line)
			c.mu.Unlock()
		}
		if line == "" || strings.HasPrefix(line, "//") {
			continue
		}
		if !c.line(ctx, line) {
			return nil
		}
	}
}

// tooLong answers a line of n bytes, over MaxLine, that was skipped.
func (c *Console) tooLong(n int64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.Echo {
		fmt.Fprintf(c.Out, "%s> (a line of %d bytes)\n", c.User, n)
	}
	fmt.Fprintf(c.Out, "! That line is %d bytes long; lines are at most %d bytes (1 MiB), so it was skipped. Nothing changed.\n", n, MaxLine)
}

// line handles one input line; false means quit.
func (c *Console) line(ctx context.Context, line string) bool {
	fields := strings.Fields(line)
	switch strings.ToLower(fields[0]) {
	case "/quit", "/exit", "quit", "exit":
		return false
	case "/as":
		c.mu.Lock()
		defer c.mu.Unlock()
		if len(fields) != 2 || strings.TrimPrefix(fields[1], "@") == "" {
			fmt.Fprintln(c.Out, "! Write /as and a name, like /as bob.")
			return true
		}
		name := strings.ToLower(strings.TrimPrefix(fields[1], "@")) // Bob is bob
		if err := protocol.ValidName(name); err != nil {
			fmt.Fprintf(c.Out, "! %s\n", err)
			return true
		}
		c.User = name
		fmt.Fprintf(c.Out, "You are now %s.\n", c.User)
		return true
	case "/wait":
		c.mu.Lock()
		defer c.mu.Unlock()
		if c.Clock == nil {
			fmt.Fprintln(c.Out, "! /wait only works with the test clock.")
			return true
		}
		d, err := time.ParseDuration(strings.Join(fields[1:], ""))
		if err != nil || d <= 0 {
			fmt.Fprintln(c.Out, "! Write /wait and a duration, like /wait 25h.")
			return true
		}
		c.Clock.Advance(d)
		fmt.Fprintf(c.Out, "(%s pass)\n", d)
		c.mu.Unlock()
		err = c.Bot.Tick(ctx)
		c.mu.Lock()
		if err != nil {
			fmt.Fprintf(c.Out, "! clock: %v\n", err)
		}
		return true
	}
	// A command, perhaps with a file: review < game.sgf (attach.go).
	var file *protocol.File
	if command, path, ok := splitAttachment(line); ok {
		var refused string
		fields = strings.Fields(command)
		switch {
		case len(fields) == 0:
			refused = "Write the command before <, like review < game.sgf."
		case path == "":
			refused = fmt.Sprintf("Write the file's path after <, like %s < game.sgf.", protocol.ClipArg(command))
		default:
			if file, refused = readAttachment(path); refused != "" {
				refused += " Nothing changed."
			}
		}
		if refused != "" {
			c.mu.Lock()
			defer c.mu.Unlock()
			fmt.Fprintf(c.Out, "! %s\n", refused)
			return true
		}
	}
	switch strings.ToLower(fields[0]) {
	case "/go", "/gobot", "!go": // as Discord and Matrix write them
		fields = fields[1:]
		if len(fields) == 0 {
			fields = []string{"help"}
		}
	}
	if strings.HasPrefix(fields[0], "/") {
		fields[0] = strings.TrimPrefix(fields[0], "/")
	}
	c.seq++
	req := protocol.Request{
		User:    protocol.User{ID: gobot.UserID(Platform + ":" + c.User), Name: c.User},
		Room:    c.Room,
		Admin:   true, // the person at the terminal owns this room
		EventID: gobot.NewEventID(Platform, c.session+":"+strconv.Itoa(c.seq)),
		Command: fields[0],
		Args:    fields[1:],
		File:    file,
	}
	req.Community = "console" // the terminal is one community for ratings
	req.Platform = Descriptor
	for i, a := range req.Args {
		name, ok := strings.CutPrefix(a, "@")
		if local, own := strings.CutPrefix(name, Platform+":"); own {
			name = local // @console:bob is @bob
		}
		if ok && name != "" && !strings.Contains(name, ":") {
			name = strings.ToLower(name) // @Bob is bob, as /as Bob is
			req.Args[i] = "@" + name
			req.Mentions = append(req.Mentions, protocol.User{ID: gobot.UserID(Platform + ":" + name), Name: name})
		}
	}
	rep, then := c.Bot.Respond(ctx, req)
	c.mu.Lock()
	c.print(rep)
	c.mu.Unlock()
	then(ctx) // messages to others (they print through Notify) after the answer
	return true
}

// print writes a reply: title, text, fields, the text board, saved files
// and buttons.
func (c *Console) print(r protocol.Reply) {
	if r.Duplicate {
		return
	}
	r = protocol.FormatReply(r, protocol.CodeCommand("")) // commands are typed bare here
	text := withoutFences(protocol.FormatText(r.Text, mention))
	if r.Error {
		fmt.Fprintf(c.Out, "! %s\n", strings.ReplaceAll(text, "\n", "\n  "))
		return
	}
	if r.Title != "" {
		fmt.Fprintf(c.Out, "== %s ==\n", r.Title)
	}
	if text != "" {
		fmt.Fprintln(c.Out, text)
	}
	for _, f := range r.Fields {
		fmt.Fprintf(c.Out, "%s: %s\n", f.Name, protocol.FormatText(f.Value, mention))
	}
	if r.Board != "" {
		fmt.Fprint(c.Out, r.Board)
	}
	for _, f := range []*protocol.File{r.Image, r.File} {
		if f == nil {
			continue
		}
		if path, err := c.save(f); err != nil {
			fmt.Fprintf(c.Out, "! could not save %s: %v\n", f.Name, err)
		} else if path != "" {
			fmt.Fprintf(c.Out, "[%s: %s]\n", kind(f), path)
		}
	}
	if len(r.Actions) > 0 {
		var labels []string
		for _, a := range r.Actions {
			labels = append(labels, a.Label)
		}
		fmt.Fprintf(c.Out, "[buttons: %s]\n", strings.Join(labels, " | "))
	}
}

func kind(f *protocol.File) string {
	switch f.MIME {
	case "image/png":
		return "board image"
	case "image/gif":
		return "replay"
	}
	return "file"
}

// save writes f into Dir and returns its path ("" when Dir is unset).
func (c *Console) save(f *protocol.File) (string, error) {
	if c.Dir == "" {
		return "", nil
	}
	if err := os.MkdirAll(c.Dir, 0o755); err != nil {
		return "", err
	}
	path := filepath.Join(c.Dir, filepath.Base(f.Name))
	return path, os.WriteFile(path, f.Data, 0o644)
}

// withoutFences drops the lines that only open or close a code block
// (the leaderboard's table): a terminal shows the table as it is.
func withoutFences(text string) string {
	if !strings.Contains(text, "```") {
		return text
	}
	lines := strings.Split(text, "\n")
	out := lines[:0]
	for _, l := range lines {
		if strings.TrimSpace(l) != "```" {
			out = append(out, l)
		}
	}
	return strings.Join(out, "\n")
}
