package testenv

import (
	"fmt"
	"testing"
	"time"
)

// pollEvery is how often Eventually and Poll check their condition.
const pollEvery = 10 * time.Millisecond

// Eventually checks cond every 10 ms until it holds. After limit (a generous bound, not a timing
// assertion) it fails the test with "timed out after LIMIT waiting for WHAT", followed by what
// detail returns when given (a process's stderr, say). Call it from the test's goroutine.
func Eventually(t testing.TB, limit time.Duration, what string, cond func() bool, detail ...func() string) {
	t.Helper()
	if err := Poll(limit, what, cond); err != nil {
		msg := err.Error()
		for _, d := range detail {
			msg += "\n" + d()
		}
		t.Fatal(msg)
	}
}

// Poll checks cond every 10 ms until it holds, and returns an error naming what once limit has
// passed without it. It is Eventually for goroutines other than the test's.
func Poll(limit time.Duration, what string, cond func() bool) error {
	deadline := time.Now().Add(limit)
	for !cond() {
		if time.Now().After(deadline) {
			return fmt.Errorf("timed out after %v waiting for %s", limit, what)
		}
		time.Sleep(pollEvery)
	}
	return nil
}
