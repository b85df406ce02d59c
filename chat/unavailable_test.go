package chat_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/gobotgo/gobot"
	"github.com/gobotgo/gobot/chat"
	"github.com/gobotgo/gobot/chat/protocol"
)

// downStore is a shared database that cannot be reached: every
// transaction fails as storage/postgres fails after its retries.
type downStore struct{}

func (downStore) Update(ctx context.Context, fn func(gobot.Tx) error) error {
	return fmt.Errorf("%w: dial tcp 10.0.0.5:5432: connect: connection refused", gobot.ErrUnavailable)
}

func (downStore) View(ctx context.Context, fn func(gobot.Tx) error) error {
	return fmt.Errorf("%w: dial tcp 10.0.0.5:5432: connect: connection refused", gobot.ErrUnavailable)
}

func TestUnavailableStoreGetsAFriendlyReply(t *testing.T) {
	bot := chat.New(chat.Config{}, downStore{}, nil, nil, nil)
	for _, line := range [][]string{{"play", "D4"}, {"games"}, {"challenge", "@console:bob"}} {
		rep := bot.Handle(context.Background(), protocol.Request{
			User: protocol.User{ID: "console:alice", Name: "alice"}, Room: "console:main",
			EventID: "console:1", Command: line[0], Args: line[1:],
		})
		if !rep.Error || !strings.Contains(rep.Text, "database is unavailable, try again in a moment") {
			t.Errorf("%v with the database down: %+v", line, rep)
		}
	}
}
