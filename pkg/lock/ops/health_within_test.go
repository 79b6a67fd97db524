package ops

import (
	"context"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestHealthWithinAnswersBeforeTheScanEnds: with its one master stopped (SIGSTOP: it accepts
// connections and answers nothing), a caller with a deadline gets an incomplete health that says
// why while the scan is still running; once the master runs again, a caller gets the scan.
func TestHealthWithinAnswersBeforeTheScanEnds(t *testing.T) {
	rs, ms := startMasters(t, 1)
	pid := rs[0].Pid()
	if err := syscall.Kill(pid, syscall.SIGSTOP); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = syscall.Kill(pid, syscall.SIGCONT) })
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	// MinInterval: the caller after the resume gets the first scan whether it is still running or
	// has just ended (without it, a scan that ended first would be followed by a second).
	m := NewMonitor(ctx, ms, HealthOptions{ScanTimeout: time.Minute, MinInterval: time.Minute})
	sctx, scancel := context.WithTimeout(ctx, 200*time.Millisecond)
	h := m.HealthWithin(sctx)
	scancel()
	m.shared.mu.Lock()
	running := m.shared.running != nil
	m.shared.mu.Unlock()
	if h.Complete || !strings.Contains(h.Error, "scrape's timeout") || h.Locks != nil || !running {
		t.Fatalf("health %+v (scan still running: %v), want an incomplete one saying the scrape's timeout, while the scan runs", h, running)
	}
	if err := syscall.Kill(pid, syscall.SIGCONT); err != nil {
		t.Fatal(err)
	}
	if h := m.Health(); h.Scans != 1 {
		t.Fatalf("after the master resumed: %+v, want the first scan's result", h)
	}
}
