package postgres

import (
	"bytes"
	"compress/flate"
	"context"
	"encoding/base64"
	"io"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/gobotgo/gobot"
	"github.com/gobotgo/gobot/game"
)

// Game changes between processes. Every process that serves web boards
// on this database listens on one channel (one connection of its own,
// outside the pool) and publishes there the games its transactions
// changed, after they committed; each process fans what it hears,
// including its own changes, out to its open pages (chat/web's Hub).
// NOTIFY is delivered to every listener of the database, so the channel
// is named after the schema: two gobots sharing a database in separate
// schemas do not hear each other.

const channelPrefix = "gobot_games:"

// gamesChannel is the NOTIFY channel of the schema the pool uses.
func (s *Store) gamesChannel(ctx context.Context) (string, error) {
	var schema string
	if err := s.pool.QueryRow(ctx, "SELECT current_schema()").Scan(&schema); err != nil {
		return "", err
	}
	ch := channelPrefix + schema
	if len(ch) > 63 { // an identifier's limit
		ch = ch[:63]
	}
	return ch, nil
}

// PublishGames tells every process listening on this database that games
// changed: one NOTIFY whose payload is their IDs, comma-separated. Errors
// are logged: a page that misses a change catches up with the next.
func (s *Store) PublishGames(ctx context.Context, games []gobot.GameID) {
	if len(games) == 0 {
		return
	}
	ids := make([]string, len(games))
	for i, id := range games {
		ids[i] = strconv.FormatUint(uint64(id), 10)
	}
	// One round trip: the channel is named as gamesChannel names it.
	_, err := s.pool.Exec(ctx, "SELECT pg_notify(left($1 || current_schema(), 63), $2)", channelPrefix, strings.Join(ids, ","))
	if err != nil {
		s.log.Warn("publishing game changes", "games", games, "err", cause(err))
	}
}

// A GameState is a game's page state as the transaction that changed it
// committed it (chat/web's GameState): its version and the JSON its
// pages are sent; nil JSON: not built.
type GameState struct {
	Game gobot.GameID
	V    uint64
	JSON []byte
}

// maxPayload bounds a NOTIFY's payload (PostgreSQL's limit is 8000
// bytes); maxState bounds a carried state once inflated.
const (
	maxPayload = 7900
	maxState   = 1 << 20
)

// PublishStates tells every process listening on this database that
// games changed, with their pages' states: for each game its ID (which
// listeners of old read) and, when its state compressed fits in a
// payload, a field "s<id>:<version>:<the state, deflated, base64>", so
// that a listener sends it to its pages without reading the game. A
// state too large goes as the ID alone: its hearers read the game.
// Several games go in as few NOTIFYs as hold them, a game's fields
// together. Errors are logged, as PublishGames's.
func (s *Store) PublishStates(ctx context.Context, states []GameState) {
	var payloads []string
	var cur strings.Builder
	for _, st := range states {
		id := strconv.FormatUint(uint64(st.Game), 10)
		fields := id
		if f := stateField(st); f != "" && len(f)+1+len(id) <= maxPayload {
			fields = f + "," + id
		}
		if cur.Len() > 0 && cur.Len()+1+len(fields) > maxPayload {
			payloads = append(payloads, cur.String())
			cur.Reset()
		}
		if cur.Len() > 0 {
			cur.WriteByte(',')
		}
		cur.WriteString(fields)
	}
	if cur.Len() > 0 {
		payloads = append(payloads, cur.String())
	}
	for _, p := range payloads {
		if _, err := s.pool.Exec(ctx, "SELECT pg_notify(left($1 || current_schema(), 63), $2)", channelPrefix, p); err != nil {
			s.log.Warn("publishing game changes", "err", cause(err))
			return
		}
	}
}

// stateField is st's "s" field, or "" without a state or when it does
// not fit in a payload.
func stateField(st GameState) string {
	if st.JSON == nil {
		return ""
	}
	var b bytes.Buffer
	b.WriteString("s" + strconv.FormatUint(uint64(st.Game), 10) + ":" + strconv.FormatUint(st.V, 10) + ":")
	head := b.Len()
	enc := base64.NewEncoder(base64.StdEncoding, &b)
	w := deflaters.Get().(*flate.Writer) // a new one allocates ~1 MB
	w.Reset(enc)
	w.Write(st.JSON)
	w.Close()
	deflaters.Put(w)
	enc.Close()
	if b.Len() > maxPayload || b.Len() == head {
		return ""
	}
	return b.String()
}

// deflaters are the writers that deflate states, at the default level:
// a 19×19 board late in a game (250 stones) fits a payload at it (6.8
// KB in base64), not at the fastest (9.1 KB).
var deflaters = sync.Pool{New: func() any {
	w, _ := flate.NewWriter(nil, flate.DefaultCompression)
	return w
}}

// parseState reads an "s" field without its "s".
func parseState(f string) (GameState, bool) {
	parts := strings.SplitN(f, ":", 3)
	if len(parts) != 3 {
		return GameState{}, false
	}
	id, err := strconv.ParseUint(parts[0], 10, 64)
	if err != nil || id == 0 {
		return GameState{}, false
	}
	v, err := strconv.ParseUint(parts[1], 10, 64)
	if err != nil {
		return GameState{}, false
	}
	r := flate.NewReader(base64.NewDecoder(base64.StdEncoding, strings.NewReader(parts[2])))
	defer r.Close()
	js, err := io.ReadAll(io.LimitReader(r, maxState+1))
	if err != nil || len(js) > maxState || len(js) == 0 {
		return GameState{}, false
	}
	return GameState{Game: gobot.GameID(id), V: v, JSON: js}, true
}

// PublishReviews tells every process listening on this database that
// reviews changed, on the games' channel: their IDs with an "r" before
// each ("r3,r7"), which ListenGames's listeners of old leave aside.
func (s *Store) PublishReviews(ctx context.Context, reviews []gobot.ReviewID) {
	if len(reviews) == 0 {
		return
	}
	ids := make([]string, len(reviews))
	for i, id := range reviews {
		ids[i] = "r" + strconv.FormatUint(uint64(id), 10)
	}
	_, err := s.pool.Exec(ctx, "SELECT pg_notify(left($1 || current_schema(), 63), $2)", channelPrefix, strings.Join(ids, ","))
	if err != nil {
		s.log.Warn("publishing review changes", "reviews", reviews, "err", cause(err))
	}
}

// A Presence is one process's boards of one colour of a live game (the
// web board's presence: a player away when no board of theirs is open
// on any process): open or all closed, on process Process.
type Presence struct {
	Game    gobot.GameID
	Color   game.Color
	Process string
	Open    bool
}

// PublishPresence tells every process listening on this database which
// boards are open or closed on this one, on the games' channel: a "p"
// field each, "p7b+" and the process ("p7b+3fa9…"; "-": closed), which
// listeners of old leave aside as they leave aside what is not a number.
// Errors are logged: the next refresh tells again.
func (s *Store) PublishPresence(ctx context.Context, ps []Presence) {
	var fields []string
	for _, p := range ps {
		c, sign := "b", "-"
		if p.Color == game.White {
			c = "w"
		}
		if p.Open {
			sign = "+"
		}
		fields = append(fields, "p"+strconv.FormatUint(uint64(p.Game), 10)+c+sign+p.Process)
	}
	for len(fields) > 0 { // a payload holds under 8000 bytes
		n, size := 0, 0
		for n < len(fields) && size+len(fields[n])+1 < 7000 {
			size += len(fields[n]) + 1
			n++
		}
		n = max(n, 1)
		_, err := s.pool.Exec(ctx, "SELECT pg_notify(left($1 || current_schema(), 63), $2)", channelPrefix, strings.Join(fields[:n], ","))
		if err != nil {
			s.log.Warn("publishing board presence", "err", cause(err))
			return
		}
		fields = fields[n:]
	}
}

// parsePresence reads a presence field without its "p" ("7b+3fa9").
func parsePresence(f string) (Presence, bool) {
	i := strings.IndexAny(f, "bw")
	if i <= 0 || i+1 >= len(f) || (f[i+1] != '+' && f[i+1] != '-') || len(f) == i+2 {
		return Presence{}, false
	}
	id, err := strconv.ParseUint(f[:i], 10, 64)
	if err != nil || id == 0 {
		return Presence{}, false
	}
	p := Presence{Game: gobot.GameID(id), Color: game.Black, Process: f[i+2:], Open: f[i+1] == '+'}
	if f[i] == 'w' {
		p.Color = game.White
	}
	return p, true
}

// Changes are what a listener hears (Listen): games, reviews and boards'
// presence whose change any process published; a nil one is left aside.
// A game whose change came with its page state (PublishStates) is given
// to States, or to Games without it.
type Changes struct {
	Games    func(gobot.GameID)
	States   func(GameState)
	Reviews  func(gobot.ReviewID)
	Presence func(Presence)
}

// Listen calls c's functions with every change any process published,
// as ListenGames does.
func (s *Store) Listen(ctx context.Context, c Changes) error {
	return s.listenAll(ctx, c)
}

// ListenChanges is ListenGames that also calls reviews with every review
// whose change any process published.
func (s *Store) ListenChanges(ctx context.Context, deliver func(gobot.GameID), reviews func(gobot.ReviewID)) error {
	return s.listenAll(ctx, Changes{Games: deliver, Reviews: reviews})
}

// ListenGames calls deliver with every game whose change any process
// published (this one's included), until ctx ends, on one connection of
// its own. When that connection is lost it reconnects with backoff and
// then calls deliver(0): changes may have been missed meanwhile, so
// every page should look again.
func (s *Store) ListenGames(ctx context.Context, deliver func(gobot.GameID)) error {
	return s.listenAll(ctx, Changes{Games: deliver})
}

func (s *Store) listenAll(ctx context.Context, c Changes) error {
	backoff := 100 * time.Millisecond
	for again := false; ctx.Err() == nil; again = true {
		start := time.Now()
		err := s.listen(ctx, c, again)
		if ctx.Err() != nil {
			break
		}
		s.log.Warn("listening for game changes; reconnecting", "err", cause(err), "in", backoff)
		if time.Since(start) > time.Minute {
			backoff = 100 * time.Millisecond
		}
		select {
		case <-ctx.Done():
		case <-time.After(backoff):
		}
		backoff = min(2*backoff, 10*time.Second)
	}
	return nil
}

func (s *Store) listen(ctx context.Context, c Changes, resync bool) error {
	ch, err := s.gamesChannel(ctx)
	if err != nil {
		return err
	}
	conn, err := pgx.ConnectConfig(ctx, s.pool.Config().ConnConfig.Copy())
	if err != nil {
		return err
	}
	defer conn.Close(context.WithoutCancel(ctx))
	if _, err := conn.Exec(ctx, "LISTEN "+pgx.Identifier{ch}.Sanitize()); err != nil {
		return err
	}
	if resync && c.Games != nil {
		c.Games(0)
	}
	for {
		n, err := conn.WaitForNotification(ctx)
		if err != nil {
			return err
		}
		fields := strings.Split(n.Payload, ",")
		// A game that came with its state is not read again for its ID.
		var stated map[gobot.GameID]bool
		if c.States != nil {
			for _, f := range fields {
				if r, ok := strings.CutPrefix(f, "s"); ok {
					if st, ok := parseState(r); ok {
						if stated == nil {
							stated = map[gobot.GameID]bool{}
						}
						stated[st.Game] = true
						c.States(st)
					}
				}
			}
		}
		for _, f := range fields {
			if strings.HasPrefix(f, "s") {
				continue
			}
			if r, ok := strings.CutPrefix(f, "r"); ok {
				if id, err := strconv.ParseUint(r, 10, 64); err == nil && id > 0 && c.Reviews != nil {
					c.Reviews(gobot.ReviewID(id))
				}
				continue
			}
			if r, ok := strings.CutPrefix(f, "p"); ok {
				if p, ok := parsePresence(r); ok && c.Presence != nil {
					c.Presence(p)
				}
				continue
			}
			if id, err := strconv.ParseUint(f, 10, 64); err == nil && id > 0 && c.Games != nil && !stated[gobot.GameID(id)] {
				c.Games(gobot.GameID(id))
			}
		}
	}
}
