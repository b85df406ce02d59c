package discord

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/gobotgo/gobot"
)

// membersAPI answers the three reads InRoom makes, as Discord does: a
// server (100, owner 900) whose @everyone may see channels, a channel 102
// that only the role 200 may see, a thread 103 of 102; the members listed
// (others are 404 Unknown Member), and 500 for every read while down.
type membersAPI struct {
	mu      sync.Mutex
	members map[string]string // user → their roles' JSON array
	down    bool
	// emojis pads the server's object with that many custom emojis, as
	// a big server's is (some 100 bytes each).
	emojis int
	// memberForbidden answers the member's read 403, as Discord does a
	// bot whose token or access is wrong: no answer about the member.
	memberForbidden bool
}

func (f *membersAPI) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if r.Header.Get("Authorization") != "Bot tok" {
		http.Error(w, `{"code":0,"message":"401: Unauthorized"}`, http.StatusUnauthorized)
		return
	}
	if f.down {
		http.Error(w, "down", http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	view := "1024" // VIEW_CHANNEL
	switch p := strings.TrimPrefix(r.URL.Path, "/api/v9/"); {
	case p == "channels/101":
		io.WriteString(w, `{"id":"101","type":0,"guild_id":"100","permission_overwrites":[]}`)
	case p == "channels/102":
		io.WriteString(w, `{"id":"102","type":0,"guild_id":"100","permission_overwrites":[{"id":"100","type":0,"allow":"0","deny":"`+view+`"},{"id":"200","type":0,"allow":"`+view+`","deny":"0"}]}`)
	case p == "channels/103":
		io.WriteString(w, `{"id":"103","type":11,"guild_id":"100","parent_id":"102"}`)
	case p == "channels/104":
		w.WriteHeader(http.StatusForbidden)
		io.WriteString(w, `{"code":50001,"message":"Missing Access"}`)
	case p == "guilds/100":
		var emojis []string
		for i := range f.emojis {
			emojis = append(emojis, fmt.Sprintf(`{"id":"%d","name":"stone_emoji_%06d","roles":[],"require_colons":true,"managed":false,"animated":false,"available":true}`, 5000+i, i))
		}
		io.WriteString(w, `{"id":"100","owner_id":"900","roles":[{"id":"100","permissions":"`+view+`"},{"id":"200","permissions":"0"}],"emojis":[`+strings.Join(emojis, ",")+`]}`)
	case strings.HasPrefix(p, "guilds/100/members/") && f.memberForbidden:
		w.WriteHeader(http.StatusForbidden)
		io.WriteString(w, `{"code":50001,"message":"Missing Access"}`)
	case strings.HasPrefix(p, "guilds/100/members/"):
		u := strings.TrimPrefix(p, "guilds/100/members/")
		roles, ok := f.members[u]
		if !ok {
			w.WriteHeader(http.StatusNotFound)
			io.WriteString(w, `{"code":10007,"message":"Unknown Member"}`)
			return
		}
		io.WriteString(w, `{"user":{"id":"`+u+`","username":"u`+u+`"},"roles":`+roles+`}`)
	default:
		w.WriteHeader(http.StatusNotFound)
		io.WriteString(w, `{"code":10003,"message":"Unknown Channel"}`)
	}
}

// TestInRoom: the web board's membership question, answered from
// Discord: a member of the server who may see the channel is in its
// room (a thread's room is its channel's), one whose roles cannot see
// it is not, one removed from the server is not; a room or user of
// another platform is not; Discord out of reach is an error that says
// so, never a yes.
func TestInRoom(t *testing.T) {
	api := &membersAPI{members: map[string]string{"111": `[]`, "222": `["200"]`}}
	srv := httptest.NewServer(api)
	t.Cleanup(srv.Close)
	e := newEnv(t)
	a, err := New(Config{Mode: "gateway", Token: "tok", ApplicationID: "app", APIURL: srv.URL + "/api/v9/"}, e.bot, gobot.StoreState(e.db), slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	for _, c := range []struct {
		room, user string
		in         bool
	}{
		{"discord:101", "discord:111", true},
		{"discord:102", "discord:111", false}, // @everyone may not see 102
		{"discord:102", "discord:222", true},  // 200 may
		{"discord:103", "discord:111", false}, // 102's thread
		{"discord:103", "discord:222", true},
		{"discord:101", "discord:333", false}, // not in the server
		{"discord:101", "matrix:@a:example.org", false},
		{"matrix:!r:example.org", "discord:111", false},
	} {
		in, err := a.InRoom(ctx, gobot.RoomID(c.room), gobot.UserID(c.user))
		if err != nil || in != c.in {
			t.Errorf("%s in %s: %v %v, want %v", c.user, c.room, in, err, c.in)
		}
	}
	api.mu.Lock()
	delete(api.members, "222") // removed from the server
	api.mu.Unlock()
	if in, err := a.InRoom(ctx, "discord:102", "discord:222"); err != nil || in {
		t.Errorf("a removed member: %v %v", in, err)
	}
	if in, err := a.InRoom(ctx, "discord:104", "discord:111"); in || !errors.Is(err, gobot.ErrNotFound) {
		t.Errorf("a channel the bot cannot read: %v %v", in, err)
	}
	// A big server: its object (roles, emojis, stickers) is well over
	// 64 KB; a member is still found in it.
	api.mu.Lock()
	api.emojis = 2000
	api.mu.Unlock()
	if in, err := a.InRoom(ctx, "discord:101", "discord:111"); err != nil || !in {
		t.Errorf("a member of a big server: %v %v", in, err)
	}
	// A 403 on the member's read says nothing of the member: not "no
	// longer a member", but unknown.
	api.mu.Lock()
	api.emojis, api.memberForbidden = 0, true
	api.mu.Unlock()
	if in, err := a.InRoom(ctx, "discord:101", "discord:111"); in || !errors.Is(err, gobot.ErrUnavailable) {
		t.Errorf("the member's read refused: %v %v, want unavailable", in, err)
	}
	api.mu.Lock()
	api.memberForbidden = false
	api.down = true
	api.mu.Unlock()
	if in, err := a.InRoom(ctx, "discord:101", "discord:111"); in || !errors.Is(err, gobot.ErrUnavailable) {
		t.Errorf("Discord down: %v %v", in, err)
	}
}
