package web

import (
	"sync"
	"time"
)

// limiter is a token bucket per key: burst at once, then rate per
// second. A click storm gets 429 instead of a flood of chat messages.
type limiter struct {
	mu      sync.Mutex
	rate    float64
	burst   float64
	buckets map[string]*bucket
	swept   time.Time
}

type bucket struct {
	tokens float64
	last   time.Time
}

func newLimiter(rate float64, burst int) *limiter {
	return &limiter{rate: rate, burst: float64(burst), buckets: map[string]*bucket{}}
}

// allow takes a token from key's bucket at now.
func (l *limiter) allow(key string, now time.Time) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	b := l.buckets[key]
	if b == nil {
		if len(l.buckets) >= 100_000 && now.Sub(l.swept) >= time.Second {
			l.swept = now
			l.sweep(now)
		}
		b = &bucket{tokens: l.burst, last: now}
		l.buckets[key] = b
	}
	b.tokens = min(l.burst, b.tokens+now.Sub(b.last).Seconds()*l.rate)
	b.last = now
	if b.tokens < 1 {
		return false
	}
	b.tokens--
	return true
}

// sweep forgets the buckets that are full again.
func (l *limiter) sweep(now time.Time) {
	for key, b := range l.buckets {
		if b.tokens+now.Sub(b.last).Seconds()*l.rate >= l.burst {
			delete(l.buckets, key)
		}
	}
}

// A sign-in (the Activity's, the widget's) passes three limits in turn:
// its client's (clientKey), its target's (the Activity instance, the
// homeserver it names; none for the Activity's first step) and one for
// everyone. A client over its own limit is refused before it takes
// anything from the others, and one client's rate is well below a
// target's and far below everyone's: a flood from one client refuses
// that client only. The ceiling for everyone is what keeps Discord and
// the homeservers from being flooded through the board, and it stays
// far above a real community's sign-ins.
type signInLimit struct {
	client, target, all *limiter
}

// rate is one limit: Burst at once, then Rate per second.
type rate struct {
	Rate  float64
	Burst int
}

// The sign-in limits, per route. A sign-in in Discord is two steps
// (/activity/token, /activity/session), in Element one.
var (
	// activityClient: 60 steps at once from one client, then 2 a second
	// (30 sign-ins, then 60 a minute). Inside Discord the requests come
	// through Discord's proxy, which hides the users' addresses: many
	// users share one, so this is higher than the widget's. A client
	// that calls the board directly with made-up codes still reaches
	// Discord at most 1,200 times in 10 minutes, and stays under the
	// process's rate, so it refuses no one else.
	activityClient = rate{2, 60}
	// activityInstance: 60 session steps at once in one Activity (a
	// full voice channel opening the board together), then 2 a second.
	activityInstance = rate{2, 60}
	// activityAll: 240 steps at once, then 7 a second (210 sign-ins a
	// minute), each at most two calls to Discord: at most 8,880 calls in
	// 10 minutes, under the 10,000 refused requests after which Discord
	// bans an address for a while.
	activityAll = rate{7, 240}
	// widgetClient: 20 sign-ins at once from one client, then one every
	// 2 s.
	widgetClient = rate{0.5, 20}
	// widgetServer: 60 sign-ins at once naming one homeserver, then 2 a
	// second (120 a minute).
	widgetServer = rate{2, 60}
	// widgetAll: 300 sign-ins at once, then 10 a second (600 a minute).
	widgetAll = rate{10, 300}
)

// reviewLooks: a follower looking around a review may have 40
// positions replayed and drawn for them at once, then 5 a second; one
// already drawn at the review's version is answered from the cache
// without charge. Holding the arrow key walks 40 moves before waiting.
var reviewLooks = rate{5, 40}

func newSignInLimit(client, target, all rate) *signInLimit {
	return &signInLimit{client: newLimiter(client.Rate, client.Burst), target: newLimiter(target.Rate, target.Burst), all: newLimiter(all.Rate, all.Burst)}
}

// A refusal says which limit refused.
type refusal int

const (
	allowed      refusal = iota
	overClient           // the client's own
	overTarget           // the instance's, the homeserver's
	overAll              // everyone's
	overInFlight         // too many checks under way (inFlight)
)

// allow charges a sign-in of client's for target ("": none) at now.
func (l *signInLimit) allow(client, target string, now time.Time) refusal {
	if !l.client.allow(client, now) {
		return overClient
	}
	if target != "" && !l.target.allow(target, now) {
		return overTarget
	}
	if !l.all.allow("", now) {
		return overAll
	}
	return allowed
}

// places counts what is under way (live streams, outgoing checks) in
// all and per key of each kind (a session, a client, a server name),
// each kind with its own limit: a place is taken only when the total
// and every key are under their limits.
type places struct {
	mu     sync.Mutex
	max, n int
	limits []int            // per kind of key
	held   []map[string]int // per kind: places held by key
}

func newPlaces(max int, limits ...int) *places {
	p := &places{max: max, limits: limits}
	for range limits {
		p.held = append(p.held, map[string]int{})
	}
	return p
}

// take takes a place for keys (one per kind, in newPlaces' order).
// ok false: the total (over -1) or the kind over its limit (over) is
// full. release gives the place back.
func (p *places) take(keys ...string) (release func(), over int, ok bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.n >= p.max {
		return nil, -1, false
	}
	for i, k := range keys {
		if p.held[i][k] >= p.limits[i] {
			return nil, i, false
		}
	}
	p.n++
	for i, k := range keys {
		p.held[i][k]++
	}
	return func() {
		p.mu.Lock()
		defer p.mu.Unlock()
		p.n--
		for i, k := range keys {
			if p.held[i][k]--; p.held[i][k] == 0 {
				delete(p.held[i], k)
			}
		}
	}, 0, true
}

// count reports how many places are taken.
func (p *places) count() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.n
}

// The outgoing OpenID checks under way (places by server, by client):
// 16 in all, 4 per homeserver, 2 per client. A client holds at most 2
// of them, so a flood from one client (naming servers that never
// answer, say) leaves the rest to everyone else.
const (
	maxChecks          = 16
	maxChecksPerServer = 4
	maxChecksPerClient = 2
)
