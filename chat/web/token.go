package web

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"strings"
	"time"

	"github.com/gobotgo/gobot"
)

// Errors a link or a session cookie is refused with.
var (
	// ErrForged: not signed with this server's secret (tampered, or not
	// issued by gobot).
	ErrForged = errors.New("web: link not issued by this gobot")
	// ErrExpired: signed, but past its expiry.
	ErrExpired = errors.New("web: link expired")
	// ErrRevoked: signed and unexpired, but of an older link generation
	// than the user's in that game (web reset).
	ErrRevoked = errors.New("web: link revoked")
)

// A Pass is what a personal link or a session grants: who may look at
// which game (or review), and whether they may act in it.
type Pass struct {
	Game gobot.GameID `json:"g"`
	// Review is set instead of Game in a review's link and session
	// (review.go): the user follows that review, and controls it when
	// the review says so.
	Review gobot.ReviewID `json:"r,omitempty"`
	// Tournament is set instead of Game in a tournament page's link and
	// session (tournament.go): whoever holds it reads that tournament's
	// page. A link's is the room's, not a person's: User is empty; a
	// frame's (the Activity's, a widget's) names who signed in.
	Tournament gobot.TournamentID `json:"t,omitempty"`
	// Ladder is set instead in a ladder page's link and session
	// (ladder.go): as a tournament link's, the room's, with no User.
	Ladder gobot.LadderID `json:"d,omitempty"`
	// User is who the pass acts as; empty in a tournament link's pass and in
	// the watch-only game session opened from a tournament's page, which
	// are nobody's (a watcher's board).
	User    gobot.UserID `json:"u"`
	Watch   bool         `json:"w,omitempty"` // watch only: no action
	Expires int64        `json:"e"`           // Unix seconds
	// Session is set in a session cookie only: it names one opening of
	// the link, to which the CSRF token and the rate limit are bound.
	Session string `json:"s,omitempty"`
	// Activity: a session opened by the Discord Activity, whose pages
	// Discord's clients may frame (activity.go).
	Activity bool `json:"a,omitempty"`
	// Gen is the user's link generation in the game the link was minted
	// under (gobot.Tx.LinkGeneration); a link and the sessions opened
	// with it end when `web reset` moves the generation past it. Links
	// minted before generations existed have none: generation 0.
	Gen uint64 `json:"n,omitempty"`
}

// A signer signs and checks passes with one secret. Link tokens and
// session cookies are signed under different purposes, so one can never
// stand for the other.
type signer struct{ key []byte }

const (
	purposeLink    = "link"
	purposeSession = "session"
	purposeCSRF    = "csrf"
	// purposeOpen signs the pass of a link being opened, kept in a
	// short-lived cookie until the browser confirms (link.go).
	purposeOpen = "open"
)

func (s signer) mac(purpose string, msg []byte) []byte {
	m := hmac.New(sha256.New, s.key)
	m.Write([]byte(purpose))
	m.Write([]byte{0})
	m.Write(msg)
	return m.Sum(nil)
}

// sign encodes p as "payload.signature", both base64url without padding
// (so a token fits in a path segment and a cookie).
func (s signer) sign(purpose string, p Pass) string {
	payload, _ := json.Marshal(p) // a Pass always encodes
	enc := base64.RawURLEncoding
	return enc.EncodeToString(payload) + "." + enc.EncodeToString(s.mac(purpose, payload))
}

// open checks token's signature for purpose and its expiry at now.
func (s signer) open(purpose, token string, now time.Time) (Pass, error) {
	if len(token) > maxToken {
		return Pass{}, ErrForged
	}
	a, b, ok := strings.Cut(token, ".")
	if !ok {
		return Pass{}, ErrForged
	}
	enc := base64.RawURLEncoding
	payload, err1 := enc.DecodeString(a)
	sig, err2 := enc.DecodeString(b)
	if err1 != nil || err2 != nil || !hmac.Equal(sig, s.mac(purpose, payload)) {
		return Pass{}, ErrForged
	}
	var p Pass
	if err := json.Unmarshal(payload, &p); err != nil || !p.wellFormed() {
		return Pass{}, ErrForged
	}
	if now.Unix() >= p.Expires {
		return p, ErrExpired
	}
	return p, nil
}

// wellFormed: the pass names exactly one game, review, tournament or
// ladder, and a user unless it only reads (a tournament's or a ladder's
// page from its link, or a game watched from it).
func (p Pass) wellFormed() bool {
	n := 0
	for _, set := range []bool{p.Game != 0, p.Review != 0, p.Tournament != 0, p.Ladder != 0} {
		if set {
			n++
		}
	}
	switch {
	case n != 1:
		return false
	case p.Ladder != 0:
		return p.User == "" && !p.Activity
	case p.Tournament != 0:
		// A link's is nobody's; a frame's (the Activity's, a
		// widget's) is who signed in there.
		return p.User != "" || !p.Activity
	case p.User == "":
		return p.Game != 0 && p.Watch && !p.Activity
	}
	return true
}

// csrf is the CSRF token of session sid: a form posted with it comes from
// a page this server gave to that session.
func (s signer) csrf(sid string) string {
	return base64.RawURLEncoding.EncodeToString(s.mac(purposeCSRF, []byte(sid)))
}

// checkCSRF reports whether token is session sid's CSRF token.
func (s signer) checkCSRF(sid, token string) bool {
	got, err := base64.RawURLEncoding.DecodeString(token)
	return err == nil && sid != "" && hmac.Equal(got, s.mac(purposeCSRF, []byte(sid)))
}

// newSessionID returns a random session name.
func newSessionID() string {
	var b [16]byte
	rand.Read(b[:]) // never fails (crypto/rand)
	return base64.RawURLEncoding.EncodeToString(b[:])
}

// maxToken bounds a token's length before any decoding.
const maxToken = 1024
