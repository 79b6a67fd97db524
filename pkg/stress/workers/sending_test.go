package workers

import (
	"bytes"
	"strings"
	"sync"
	"testing"

	"github.com/osctl/osctl/pkg/stress/history"
)

// lockedBuf is what a worker's stdout received, safe to read while it writes.
type lockedBuf struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuf) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuf) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// TestSentRecordIsWrittenThrough: the record of a request about to go out is on the worker's
// stdout when sending returns (a worker killed right after sends nothing it buffered), while
// the records of answered requests may wait for the next flush.
func TestSentRecordIsWrittenThrough(t *testing.T) {
	out := &lockedBuf{}
	s := &server{index: 1}
	s.out = newWriter(out, nil)
	defer s.out.stop()
	s.record(&history.Record{Kind: history.KindRequest, Seq: 1, Nonce: "answered"})
	s.sending(&history.Record{Kind: history.KindRequest, Seq: 2, Nonce: "about-to-go"})
	got := out.String()
	if !strings.Contains(got, `"t":"sent"`) || !strings.Contains(got, "about-to-go") {
		t.Fatalf("after sending, stdout holds %q: want the sent frame written through", got)
	}
}
