package discord

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"sync/atomic"

	"github.com/bwmarrin/discordgo"
)

// discordAPI is where discordgo sends every REST request: its endpoint
// strings are package globals computed from this base, and they are left
// as they are.
var discordAPI = mustParse(discordgo.EndpointAPI)

func mustParse(s string) *url.URL {
	u, err := url.Parse(s)
	if err != nil {
		panic(err)
	}
	return u
}

// transport is the HTTP transport of the adapter's sessions. It sends
// requests for Discord's REST API to the configured API base instead
// (a Discord-compatible server, or a test's stand-in), and answers
// discordgo's GET /gateway with the configured gateway URL, so the
// websocket goes there. Each adapter has its own: nothing process-wide
// changes.
type transport struct {
	api     atomic.Pointer[url.URL] // nil: Discord's own
	gateway string
	next    http.RoundTripper
}

// parseAPIBase checks an api_url such as "https://discord.example/api/v9".
func parseAPIBase(base string) (*url.URL, error) {
	u, err := url.Parse(base)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("discord: api_url %q is not an http(s) URL like https://discord.com/api/v9", clip(base, 100))
	}
	if !strings.HasSuffix(u.Path, "/") {
		u.Path += "/"
	}
	u.RawPath = ""
	return u, nil
}

func (t *transport) RoundTrip(r *http.Request) (*http.Response, error) {
	rest, isAPI := strings.CutPrefix(r.URL.Path, discordAPI.Path)
	restRaw, _ := strings.CutPrefix(r.URL.EscapedPath(), discordAPI.Path)
	isAPI = isAPI && r.URL.Host == discordAPI.Host
	if isAPI && t.gateway != "" && r.Method == http.MethodGet && rest == "gateway" {
		body, _ := json.Marshal(map[string]string{"url": t.gateway})
		return &http.Response{StatusCode: 200, Header: http.Header{"Content-Type": {"application/json"}},
			Body: io.NopCloser(bytes.NewReader(body)), Request: r, ContentLength: int64(len(body))}, nil
	}
	if base := t.api.Load(); isAPI && base != nil {
		r2 := r.Clone(r.Context())
		u := *r.URL
		u.Scheme, u.Host, u.Path, u.RawPath = base.Scheme, base.Host, base.Path+rest, base.EscapedPath()+restRaw
		r2.URL, r2.Host = &u, ""
		r = r2
	}
	return t.next.RoundTrip(r)
}
