package matrix

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"go.mau.fi/util/exhttp"
	"maunium.net/go/mautrix"
	"maunium.net/go/mautrix/federation"
	"maunium.net/go/mautrix/id"

	"github.com/gobotgo/gobot"
)

// ErrOpenIDRefused: the homeserver does not vouch for the token (made
// up, expired, or not that server's), or vouches for a user of another
// server.
var ErrOpenIDRefused = errors.New("matrix: the homeserver does not vouch for this OpenID token")

// maxOpenIDToken bounds the token before any request is made.
const maxOpenIDToken = 1024

// openIDTimeout bounds one check.
const openIDTimeout = 10 * time.Second

// VerifyOpenID asks server (the matrix_server_name that came with the
// token) who token belongs to: GET
// /_matrix/federation/v1/openid/userinfo. The bot's own server is asked
// at the homeserver URL the bot uses (the route is a federation one: the
// homeserver must serve it there); any other server is found by the
// normal server discovery (.well-known, SRV) and asked over HTTPS. The
// user must be one of server's. A refusal wraps ErrOpenIDRefused; a
// server that could not be asked, gobot.ErrUnavailable. Errors never
// hold the token.
func (a *Adapter) VerifyOpenID(ctx context.Context, token, server string) (gobot.UserID, error) {
	if token == "" || len(token) > maxOpenIDToken || strings.ContainsAny(token, " \t\r\n") {
		return "", ErrOpenIDRefused
	}
	if _, _, ok := federation.ParseServerName(server); !ok {
		return "", fmt.Errorf("%w: %q is not a Matrix server name", ErrOpenIDRefused, clipText(server, 80))
	}
	ctx, cancel := context.WithTimeout(ctx, openIDTimeout)
	defer cancel()
	var sub id.UserID
	var err error
	if strings.EqualFold(server, id.UserID(a.cfg.UserID).Homeserver()) {
		sub, err = a.ownUserInfo(ctx, token)
	} else {
		if err := a.checkServerName(ctx, server); err != nil { // openidguard.go
			return "", err
		}
		var resp *federation.RespOpenIDUserInfo
		resp, err = a.federation().GetOpenIDUserInfo(ctx, server, token)
		if err == nil {
			sub = resp.Sub
		}
		err = openIDError(err, server)
	}
	if err != nil {
		return "", err
	}
	if _, hs, perr := sub.Parse(); perr != nil || !strings.EqualFold(hs, server) {
		return "", fmt.Errorf("%w: %s answered for a user of another server", ErrOpenIDRefused, server)
	}
	return UserID(sub), nil
}

// ownUserInfo asks the bot's own homeserver, at its client URL.
func (a *Adapter) ownUserInfo(ctx context.Context, token string) (id.UserID, error) {
	u := strings.TrimSuffix(a.cfg.Homeserver, "/") + "/_matrix/federation/v1/openid/userinfo?access_token=" + url.QueryEscape(token)
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return "", fmt.Errorf("matrix: the homeserver URL: %w", gobot.ErrUnavailable)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return "", fmt.Errorf("matrix: asking the homeserver about an OpenID token: %w", gobot.ErrUnavailable)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(io.LimitReader(resp.Body, 64<<10))
	switch {
	case resp.StatusCode == http.StatusUnauthorized || resp.StatusCode == http.StatusForbidden:
		return "", ErrOpenIDRefused
	case resp.StatusCode == http.StatusNotFound:
		// No such route: federation is off on this listener.
		return "", fmt.Errorf("matrix: the homeserver does not serve /_matrix/federation/v1/openid/userinfo at %s (enable federation there; see docs/matrix.md): %w", clipText(a.cfg.Homeserver, 80), gobot.ErrUnavailable)
	case resp.StatusCode != http.StatusOK:
		return "", fmt.Errorf("matrix: the homeserver answered %d to an OpenID check: %w", resp.StatusCode, gobot.ErrUnavailable)
	}
	var info struct {
		Sub id.UserID `json:"sub"`
	}
	if err := json.Unmarshal(body, &info); err != nil || info.Sub == "" {
		return "", fmt.Errorf("matrix: the homeserver's OpenID answer is not JSON with a sub: %w", gobot.ErrUnavailable)
	}
	return info.Sub, nil
}

// openIDError turns a federation client's error into a refusal (the
// server answered no) or an unavailable server, without the request's
// URL (it holds the token).
func openIDError(err error, server string) error {
	if err == nil {
		return nil
	}
	var he mautrix.HTTPError
	if errors.As(err, &he) && he.Response != nil && he.Response.StatusCode >= 400 && he.Response.StatusCode < 500 {
		return fmt.Errorf("%w (%s answered %d)", ErrOpenIDRefused, clipText(server, 80), he.Response.StatusCode)
	}
	return fmt.Errorf("matrix: %s could not be asked about an OpenID token: %w", clipText(server, 80), gobot.ErrUnavailable)
}

// federation is the client that finds other homeservers (server
// discovery, HTTPS only) and asks them, its every connection to a public
// address only unless Config.OpenIDAllowPrivate (openidguard.go); made
// once per adapter.
func (a *Adapter) federation() *federation.Client {
	a.fed.once.Do(func() {
		cli := federation.NewClient("", nil, nil, exhttp.ClientSettings{DialTimeout: 5 * time.Second, GlobalTimeout: openIDTimeout})
		cli.AllowIP = a.allowIP // the federation dialer's Control asks it
		if t, ok := cli.HTTP.Transport.(*federation.ServerResolvingTransport); ok {
			t.ResolveOpts = &federation.ResolveServerNameOpts{HTTPClient: a.wellKnownClient()}
		} else {
			// A mautrix that builds its client otherwise: the .well-known
			// lookup is not guarded, and the operator must hear of it.
			a.log.Error("matrix: the federation client's transport is not mautrix's resolving one: the .well-known lookup of OpenID checks is not guarded against private addresses", "transport", fmt.Sprintf("%T", cli.HTTP.Transport))
		}
		a.fed.cli = cli
	})
	return a.fed.cli
}

// fedClient is an adapter's federation client, made on first use.
type fedClient struct {
	once sync.Once
	cli  *federation.Client
}

// InRoom reports whether user is joined to room (a game's room; a
// thread's room is its room's). The widget page lets only the room's
// members watch a game there.
func (a *Adapter) InRoom(ctx context.Context, room gobot.RoomID, user gobot.UserID) (bool, error) {
	r, _, ok := matrixRoom(room)
	u, ok2 := matrixUser(user)
	if !ok || !ok2 {
		return false, nil
	}
	cli, err := a.readClient()
	if err != nil {
		return false, err
	}
	var resp *mautrix.RespJoinedMembers
	if err := a.retry(ctx, "members", func() error {
		var err error
		resp, err = cli.JoinedMembers(ctx, r)
		return err
	}); err != nil {
		return false, fmt.Errorf("matrix: listing the members of a game's room: %w", gobot.ErrUnavailable)
	}
	_, in := resp.Joined[u]
	return in, nil
}

// readClient is a client to read rooms with: the running adapter's, or,
// in an adapter that does not sync here (the web board's checker, a
// process standing by while another holds the sync lease), one with the
// configured access token or the session the syncing process stored.
func (a *Adapter) readClient() (*mautrix.Client, error) {
	select {
	case <-a.ready:
		return a.cli, nil
	default:
	}
	token := a.cfg.AccessToken
	if token == "" {
		var s session
		if b, err := a.getState("session " + a.cfg.UserID); err == nil && b != nil && json.Unmarshal(b, &s) == nil {
			token = s.AccessToken
		}
	}
	if token == "" {
		return nil, fmt.Errorf("matrix: the bot has not logged in yet: %w", gobot.ErrUnavailable)
	}
	cli, err := mautrix.NewClient(a.cfg.Homeserver, id.UserID(a.cfg.UserID), token)
	if err != nil {
		return nil, fmt.Errorf("matrix: %w", err)
	}
	cli.Log = zerologTo(a.log)
	cli.DefaultHTTPRetries = 0
	return cli, nil
}
