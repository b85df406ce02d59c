package matrix

import (
	"context"
	"errors"
	"fmt"

	"maunium.net/go/mautrix"
	"maunium.net/go/mautrix/event"
	"maunium.net/go/mautrix/id"

	"github.com/gobotgo/gobot/chat/protocol"
)

// The room state a widget is: Element reads widgets only from the legacy
// type im.vector.modular.widgets (one state event per widget, its ID the
// state key) and pins them with io.element.widgets.layout.
var (
	stateWidget = event.Type{Type: "im.vector.modular.widgets", Class: event.StateEventType}
	stateLayout = event.Type{Type: "io.element.widgets.layout", Class: event.StateEventType}
)

// partWidget is the transaction ID part of the notice about a widget the
// bot could not add (txnID).
const partWidget = partAck + 1

// widgetContent is a widget's state event.
type widgetContent struct {
	Type string `json:"type"`
	// URL may hold $matrix_room_id and $matrix_user_id, which the
	// client fills in.
	URL               string         `json:"url"`
	Name              string         `json:"name"`
	Data              map[string]any `json:"data"`
	ID                string         `json:"id"`
	CreatorUserID     id.UserID      `json:"creatorUserId"`
	WaitForIframeLoad bool           `json:"waitForIframeLoad"`
}

// addWidget writes w into its room as a widget and pins it above the
// timeline, as far as the bot's power level allows; where it does not,
// it says so in the room. Writing the same widget again changes nothing
// (the same state), so a reply delivered again after a crash is safe.
func (a *Adapter) addWidget(ctx context.Context, w protocol.Widget, key string) error {
	room, _, ok := matrixRoom(w.Room)
	if !ok {
		return fmt.Errorf("matrix: %s is not a Matrix room", w.Room)
	}
	pl, err := a.readPower(ctx, room)
	if err != nil {
		return err
	}
	me := pl.GetUserLevel(a.cli.UserID)
	if need := pl.GetEventLevel(stateWidget); me < need && w.Tournament != 0 {
		return a.widgetNotice(ctx, room, key, fmt.Sprintf(
			"I can't add %s's page to this room as a widget: changing the room's widgets needs power level %d and I have %d. A room admin can raise mine; meanwhile its link above opens the page.",
			w.What(), need, me))
	}
	if need := pl.GetEventLevel(stateWidget); me < need {
		return a.widgetNotice(ctx, room, key, fmt.Sprintf(
			"I can't add %s's board to this room as a widget: changing the room's widgets needs power level %d and I have %d. A room admin can raise mine; meanwhile %s sends each of you a personal link.",
			w.What(), need, me, a.cfg.Prefix+instead(w)))
	}
	data := map[string]any{"game": uint64(w.Game)}
	switch {
	case w.Tournament != 0:
		data = map[string]any{"tournament": uint64(w.Tournament)}
	case w.Review != 0:
		data = map[string]any{"review": uint64(w.Review)}
	}
	c := widgetContent{Type: "m.custom", URL: w.URL, Name: w.Name, Data: data,
		ID: w.WidgetID(), CreatorUserID: a.cli.UserID, WaitForIframeLoad: true}
	if err := a.retry(ctx, "widget", func() error {
		_, err := a.cli.SendStateEvent(ctx, room, stateWidget, w.WidgetID(), c)
		return err
	}); err != nil {
		if errors.Is(err, mautrix.MForbidden) {
			return a.widgetNotice(ctx, room, key, fmt.Sprintf("I can't add %s's board to this room as a widget: the homeserver refused (%s).", w.What(), clipText(err.Error(), 120)))
		}
		return err
	}
	if need := pl.GetEventLevel(stateLayout); me < need {
		return a.widgetNotice(ctx, room, key, fmt.Sprintf(
			"I added %s's board as a widget (the room's info, Extensions), but pinning it above the chat needs power level %d and I have %d.",
			w.What(), need, me))
	}
	return a.pinWidget(ctx, room, w.WidgetID())
}

// instead is the command that gives each person a link where a game's
// or a review's widget cannot be added.
func instead(w protocol.Widget) string {
	switch {
	case w.Review != 0:
		return " reviews"
	}
	return " web"
}

// pinWidget adds widget wid to the room's layout, in the top container,
// keeping the other widgets' places.
func (a *Adapter) pinWidget(ctx context.Context, room id.RoomID, wid string) error {
	layout := map[string]any{}
	err := a.retry(ctx, "widget layout", func() error {
		return a.cli.StateEvent(ctx, room, stateLayout, "", &layout)
	})
	if err != nil && !errors.Is(err, mautrix.MNotFound) {
		return err
	}
	widgets, _ := layout["widgets"].(map[string]any)
	if widgets == nil {
		widgets = map[string]any{}
	}
	if w, ok := widgets[wid].(map[string]any); ok && w["container"] == "top" {
		return nil // pinned already
	}
	top := 0
	for _, w := range widgets {
		if w, ok := w.(map[string]any); ok && w["container"] == "top" {
			top++
		}
	}
	widgets[wid] = map[string]any{"container": "top", "index": top, "height": 60}
	layout["widgets"] = widgets
	return a.retry(ctx, "widget layout", func() error {
		_, err := a.cli.SendStateEvent(ctx, room, stateLayout, "", layout)
		return err
	})
}

// widgetNotice tells the room plainly what the bot could not do with a
// widget.
func (a *Adapter) widgetNotice(ctx context.Context, room id.RoomID, key, text string) error {
	c := &event.MessageEventContent{MsgType: event.MsgNotice, Body: text, Mentions: &event.Mentions{}}
	_, err := a.sendContent(ctx, room, c, a.txnID(key, partWidget))
	return err
}
