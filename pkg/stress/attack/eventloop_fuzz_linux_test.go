//go:build linux

package attack

import (
	"net/http"
	"testing"
)

// FuzzEventLoopHead: whatever a server sends, the event loop finds the end of the head and parses
// it into an answer or an error, never a panic.
func FuzzEventLoopHead(f *testing.F) {
	addAnswerSeeds(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		w := &evSlot{}
		w.resp.Request, _ = http.NewRequest(http.MethodGet, "http://example.test/", nil)
		for len(data) > 0 {
			i := headEnd(data)
			if i < 0 {
				return
			}
			if err := (&evLoop{}).parseHead(w, data[:i]); err != nil || w.headDone {
				return
			}
			data = data[i:] // informational: the next head follows
		}
	})
}
