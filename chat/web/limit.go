package web

import (
	"sync"
	"time"
)

// limiter is a token bucket per session: burst POSTs at once, then rate
// per second. A click storm gets 429 instead of a flood of chat messages.
type limiter struct {
	mu      sync.Mutex
	rate    float64
	burst   float64
	buckets map[string]*bucket
}

type bucket struct {
	tokens float64
	last   time.Time
}

func newLimiter(rate float64, burst int) *limiter {
	return &limiter{rate: rate, burst: float64(burst), buckets: map[string]*bucket{}}
}

// allow takes a token from session sid's bucket at now.
func (l *limiter) allow(sid string, now time.Time) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	b := l.buckets[sid]
	if b == nil {
		if len(l.buckets) >= 100_000 {
			l.sweep(now)
		}
		b = &bucket{tokens: l.burst, last: now}
		l.buckets[sid] = b
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
	for sid, b := range l.buckets {
		if b.tokens+now.Sub(b.last).Seconds()*l.rate >= l.burst {
			delete(l.buckets, sid)
		}
	}
}
