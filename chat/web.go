package chat

import (
	"slices"
	"sync"
	"time"

	"github.com/gobotgo/gobot"
	"github.com/gobotgo/gobot/chat/protocol"
	"github.com/gobotgo/gobot/chat/say"
	"github.com/gobotgo/gobot/flow"
	"github.com/gobotgo/gobot/flow/board"
	"github.com/gobotgo/gobot/game"
)

// Linker mints personal links to a game's web board; package chat/web
// implements it and cmd/gobot sets it with Bot.SetLinker. A link is a
// credential: it lets whoever holds it act as user in that game (or,
// with watch, only look), until it expires or user's link generation in
// that game (gobot.Tx.LinkGeneration) moves past gen: `web reset`
// revokes every earlier link and the sessions opened with them.
type Linker interface {
	Link(id gobot.GameID, user gobot.UserID, watch bool, gen uint64) (url string, expires time.Time, err error)
}

// webLinks holds the bot's Linker (none: the web board is off).
type webLinks struct {
	mu sync.RWMutex
	l  Linker
}

// SetLinker enables the `web` command with l (nil disables it).
func (b *Bot) SetLinker(l Linker) {
	b.web.mu.Lock()
	defer b.web.mu.Unlock()
	b.web.l = l
}

func (b *core) linker() Linker {
	b.web.mu.RLock()
	defer b.web.mu.RUnlock()
	return b.web.l
}

func cmdWeb(call *Call) (Result, error) {
	tx, b, r, a := call.Tx, call.bot, call.Req, call.Args
	l := b.linker()
	if l == nil {
		return Result{}, say.NoWebBoard()
	}
	match, err := findGame(tx, b, r, a.Game, false)
	if err != nil {
		return Result{}, err
	}
	// A linked player's link is the one of their accounts that plays
	// the game, whichever asked (docs/identity.md).
	accounts, err := gobot.AccountsOf(tx, r.User.ID)
	if err != nil {
		return Result{}, err
	}
	me := flow.SeatedAccount(match, r.User.ID, accounts[1:])
	watch := match.ColorOf(me) == game.Empty
	if watch && !r.DM && match.Room != r.Room && match.Parent != r.Room {
		return Result{}, say.WebElsewhere(match.ID)
	}
	if watch && r.DM {
		return Result{}, say.WebPlayersInDM(match.ID)
	}
	reset := a.Choice["reset"] != ""
	gen, err := board.LinkGeneration(tx, match.ID, me, reset)
	if err != nil {
		return Result{}, err
	}
	url, expires, err := l.Link(match.ID, me, watch, gen)
	if err != nil {
		return Result{}, err
	}
	text := say.WebLink(match, watch, reset, url, expires)
	link := protocol.Reply{Text: text, Private: true, Game: match.ID}
	if r.CanLaunch && r.PrivateReplies() && !reset {
		games, _, err := board.Games(tx, r.Room, r.User.ID)
		if err != nil {
			return Result{}, err
		}
		link.Launch = slices.ContainsFunc(games, func(m *gobot.Match) bool { return m.ID == match.ID })
		if link.Launch {
			return Result{Reply: link}, nil
		}
	}
	// A link is a credential: where the platform cannot show it to the
	// caller alone (a shared Matrix room), it goes to the caller's DM.
	if r.DM || r.PrivateReplies() {
		return Result{Reply: link}, nil
	}
	var fx Effects
	fx.notify(protocol.Message{To: r.User.ID, Reply: link})
	ack := protocol.Reply{Text: say.WebLinkSent(match.ID, reset), Private: true}
	if match.In(r.Room) {
		ack.Widget = b.widgetOf(r, match) // in the game's room (or mirror), the board becomes the room's widget too
	}
	return reply(ack, fx)
}

// webShown: `web` only looks, unless it resets the caller's links.
func webShown(a *protocol.Args) bool { return a.Choice["reset"] == "" }
