package testenv

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"sync"
	"time"
)

// WaitSandboxIdle waits until no Resque job waits in the queues of the sandbox whose replicas
// are given and no replica's background worker holds one: GET /status answers
// worker.pending 0, and then every replica answers worker.busy false (a worker is busy from
// before it pops a job until a pop finds none, and nothing enqueues once the test stopped
// sending, so this order cannot miss a job). It fails after timeout.
func WaitSandboxIdle(ctx context.Context, replicas []string, timeout time.Duration) error {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	c := &http.Client{Timeout: 5 * time.Second}
	type status struct {
		Worker struct {
			Busy    bool   `json:"busy"`
			Pending *int64 `json:"pending"`
		} `json:"worker"`
	}
	get := func(base string) (status, error) {
		var st status
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, base+"/status", nil)
		if err != nil {
			return st, err
		}
		resp, err := c.Do(req)
		if err != nil {
			return st, err
		}
		defer resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			return st, fmt.Errorf("GET %s/status: HTTP %d", base, resp.StatusCode)
		}
		return st, json.NewDecoder(resp.Body).Decode(&st)
	}
	var last error
	for {
		idle := false
		if st, err := get(replicas[0]); err != nil {
			last = err
		} else if st.Worker.Pending == nil || *st.Worker.Pending > 0 {
			last = fmt.Errorf("jobs still queued (pending %v)", st.Worker.Pending)
		} else {
			idle = true
			for _, base := range replicas {
				st, err := get(base)
				if err != nil || st.Worker.Busy {
					idle, last = false, fmt.Errorf("the worker of %s is busy (%v)", base, err)
					break
				}
			}
		}
		if idle {
			return nil
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("sandbox workers not idle after %v: %v", timeout, last)
		case <-time.After(20 * time.Millisecond):
		}
	}
}

// LockedBuffer is an io.Writer that several goroutines (a process's stdout and stderr copiers)
// may write while a test reads it.
type LockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

// Write appends p.
func (l *LockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

// String returns what was written so far.
func (l *LockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}
