package chat

import (
	"errors"

	"github.com/gobotgo/gobot"
	"github.com/gobotgo/gobot/chat/guide"
	"github.com/gobotgo/gobot/chat/protocol"
	"github.com/gobotgo/gobot/chat/say"
)

// WidgetLinker is a Linker whose web board can also be shown inside a
// chat room as a widget (chat/web's widget page, for Matrix rooms). A
// web board that cannot serve its widget page (no chat client may frame
// it, or nobody can be signed in) gives the bot a plain Linker instead,
// so no room gets a widget nothing can show.
type WidgetLinker interface {
	Linker
	// WidgetURL is the address of game id's widget page.
	WidgetURL(id gobot.GameID) string
}

// ReviewWidgetLinker is a WidgetLinker whose web board shows reviews as
// room widgets too (chat/web).
type ReviewWidgetLinker interface {
	// ReviewWidgetURL is the address of review id's widget page.
	ReviewWidgetURL(id gobot.ReviewID) string
}

// TournamentWidgetLinker is a WidgetLinker whose web board shows a
// tournament's page as a room widget too (chat/web).
type TournamentWidgetLinker interface {
	// TournamentWidgetURL is the address of tournament id's widget page.
	TournamentWidgetURL(id gobot.TournamentID) string
}

// tournamentWidgetOf is tournament t's widget (its standings, pairings
// and games' boards), for its room, where r came from; nil as widgetOf
// is, or when the web board shows no tournament widgets.
func (b *core) tournamentWidgetOf(r *protocol.Request, t *gobot.Tournament) *protocol.Widget {
	wl, ok := b.linker().(TournamentWidgetLinker)
	if _, widgets := b.linker().(WidgetLinker); !ok || !widgets || !r.Platform.ShowsWidgets() || t.Room.Platform() != r.Room.Platform() {
		return nil
	}
	return &protocol.Widget{Tournament: t.ID, Room: t.Room, URL: wl.TournamentWidgetURL(t.ID), Name: say.TournamentWidget(t)}
}

// reviewWidgetOf is review rev's widget, for its room, where r came
// from; nil as widgetOf is, or when the web board shows no review
// widgets.
func (b *core) reviewWidgetOf(r *protocol.Request, rev *gobot.Review) *protocol.Widget {
	wl, ok := b.linker().(ReviewWidgetLinker)
	if _, widgets := b.linker().(WidgetLinker); !ok || !widgets || !r.Platform.ShowsWidgets() || rev.Room.Platform() != r.Room.Platform() {
		return nil
	}
	return &protocol.Widget{Review: rev.ID, Room: rev.Room, URL: wl.ReviewWidgetURL(rev.ID), Name: say.ReviewWidget(rev.ID)}
}

// widgetOf is game match's widget, for its room on the platform r came
// from (its mirror's, a game between platforms); nil when the web board
// is off or has no widget page, or r's platform shows no widgets.
func (b *core) widgetOf(r *protocol.Request, match *gobot.Match) *protocol.Widget {
	wl, ok := b.linker().(WidgetLinker)
	room := roomOn(match, r.Room.Platform())
	if !ok || !r.Platform.ShowsWidgets() || room == "" {
		return nil
	}
	return &protocol.Widget{Game: match.ID, Room: room, URL: wl.WidgetURL(match.ID), Name: say.GameWidget(match.ID)}
}

// roomOn is the room of match on platform: its room, or its mirror (a
// game between platforms); "" when neither is there.
func roomOn(match *gobot.Match, platform string) gobot.RoomID {
	for _, room := range match.Rooms() {
		if room.Platform() == platform {
			return room
		}
	}
	return ""
}

// autoWidget adds a new game's widget to its reply when its room says
// widget=on.
func (b *core) autoWidget(tx gobot.Tx, r *protocol.Request, rep *protocol.Reply, match *gobot.Match) error {
	room := roomOn(match, r.Room.Platform())
	if room == "" {
		return nil
	}
	rm, err := tx.Room(room)
	if errors.Is(err, gobot.ErrNotFound) {
		return nil
	}
	if err != nil {
		return err
	}
	if rm.Widget {
		rep.Widget = b.widgetOf(r, match)
	}
	return nil
}

// widgetSetting takes widget=on|off out of a room's settings; it is
// refused where rooms show no widgets, and widget=on where the web
// board cannot serve them (l is the bot's Linker).
func widgetSetting(room []string, r *protocol.Request, l Linker) (rest []string, on *bool, err error) {
	rest, on, err = onOffSetting(room, "widget")
	switch {
	case len(rest) < len(room) && !r.Platform.ShowsWidgets(): // widget= given
		return nil, nil, guide.NoWidgets()
	case err != nil || on == nil || !*on:
		return rest, on, err
	case l == nil:
		return nil, nil, guide.WidgetNeedsWeb()
	}
	if _, ok := l.(WidgetLinker); !ok {
		return nil, nil, guide.WidgetNotServed()
	}
	return rest, on, nil
}
