package openstudio

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/osctl/osctl/pkg/stress/profile"
)

// TestWaitingOperationEndsWithTheLoad: a result file waits for its analysis's data point create
// in flight; when the load stops (the error-rate bound, Ctrl-C) it ends the source instead of
// being sent with nothing to attach to.
func TestWaitingOperationEndsWithTheLoad(t *testing.T) {
	p := &Load{Run: "0badc0de", Requests: 10, Mix: profile.Mix{UploadFile: 1}, TailFraction: -1}
	p.st.analyses = []string{"a"}
	p.st.dataPts, p.st.uploaded, p.st.started = map[string][]string{}, map[string]bool{}, map[string]bool{}
	p.st.pendingUp, p.st.pendingDP, p.st.acked = map[string]int{}, map[string]int{"a": 1}, sync.NewCond(&p.st.mu)
	p.st.next.Store(1) // past each analysis's first request (its upload)
	ctx, cancel := context.WithCancel(context.Background())
	src := p.Source()
	done := make(chan bool)
	go func() {
		_, ok := src.Next(ctx)
		done <- ok
	}()
	select {
	case <-done:
		t.Fatal("the result file did not wait for the data point in flight")
	case <-time.After(50 * time.Millisecond):
	}
	cancel()
	if ok := <-done; ok {
		t.Fatal("an operation came out of its wait after the load stopped")
	}
}
