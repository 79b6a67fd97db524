package sandbox

import (
	"net/http"
	"sync/atomic"
)

// gate is Passenger's back-pressure: at most pool requests are processed at once, at most queue
// wait for a slot (0: no limit); past that the answer is 503 "Request queue full".
type gate struct {
	slots   chan struct{}
	queue   int64
	waiting atomic.Int64
	full    atomic.Int64 // requests refused so far
}

func newGate(pool, queue int) *gate {
	return &gate{slots: make(chan struct{}, pool), queue: int64(queue)}
}

func (g *gate) wrap(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case g.slots <- struct{}{}:
		default:
			n := g.waiting.Add(1)
			if g.queue > 0 && n > g.queue {
				g.waiting.Add(-1)
				g.full.Add(1)
				w.Header().Set("Content-Type", "text/plain; charset=utf-8")
				w.WriteHeader(http.StatusServiceUnavailable)
				_, _ = w.Write([]byte("Request queue full"))
				return
			}
			select {
			case g.slots <- struct{}{}:
				g.waiting.Add(-1)
			case <-r.Context().Done():
				g.waiting.Add(-1)
				return
			}
		}
		defer func() { <-g.slots }()
		next.ServeHTTP(w, r)
	})
}
