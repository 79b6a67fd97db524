package stress

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/osctl/osctl/internal/testenv"
)

// TestSecondInterruptExitsAt130: the first Ctrl-C stops the load and the run goes on to read the
// records back; a second one, while those reads hang, exits at once with 130 and says what it
// left undone. The target answers every create at once and holds every read until the test ends.
func TestSecondInterruptExitsAt130(t *testing.T) {
	t.Parallel() // 4 requests in flight to a loopback server; it mostly waits for hung reads: it overlaps the other parallel tests
	hold := make(chan struct{})
	defer close(hold)
	var posts atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		switch {
		case r.URL.Path == "/status":
			_, _ = io.WriteString(w, `{"status":"ok","sandbox":true}`)
		case r.Method == http.MethodPost:
			posts.Add(1)
			time.Sleep(20 * time.Millisecond)
			w.WriteHeader(http.StatusCreated)
			_, _ = io.WriteString(w, `{"_id":"p-1"}`)
		default:
			select { // read-backs and status reads hang
			case <-hold:
			case <-r.Context().Done():
			}
		}
	}))
	defer srv.Close()
	o := testenv.StartOsctl(t, 2*time.Minute, "stress", "--target", srv.URL, "--requests", "100000", "--concurrency", "4",
		"--analyses", "2", "--mix", "upload=1", "--background-wait", "0")
	testenv.Eventually(t, time.Minute, "the load to be under way", func() bool { return posts.Load() >= 20 }, o.Stderr.String)
	_ = o.Cmd.Process.Signal(syscall.SIGINT)
	testenv.Eventually(t, time.Minute, "the read-backs after the first Ctrl-C", func() bool { return strings.Contains(o.Stderr.String(), "reading the records back") },
		o.Stderr.String)
	_ = o.Cmd.Process.Signal(syscall.SIGINT)
	r := o.Wait(t)
	if r.Code != 130 {
		t.Fatalf("exit %d after the second Ctrl-C, want 130\n%s", r.Code, r.Stderr)
	}
	if !strings.Contains(r.Stderr, "left undone: the state was not read") {
		t.Fatalf("the second Ctrl-C must say what it left undone:\n%s", r.Stderr)
	}
}
