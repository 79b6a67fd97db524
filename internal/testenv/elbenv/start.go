package elbenv

import (
	"os"
	"testing"

	"github.com/osctl/osctl/internal/testenv"
)

// Start runs the service for a test (Up, in a t.TempDir()) and stops it when the test ends; a
// service that does not come up fails the test. The replicas' logs are printed when the test
// failed.
func Start(t testing.TB, o Options) *Service {
	t.Helper()
	testenv.SkipIfShort(t, "the real elb-openapi")
	if o.Dir == "" {
		o.Dir = t.TempDir()
	}
	s, err := Up(t.Context(), o)
	if err != nil {
		t.Fatalf("elb-openapi: %v", err)
	}
	t.Cleanup(func() {
		s.Close()
		if t.Failed() {
			for _, l := range s.Logs {
				if b, err := os.ReadFile(l); err == nil {
					t.Logf("%s (last 4000 bytes):\n%s", l, tail(b, 4000))
				}
			}
		}
	})
	return s
}

func tail(b []byte, n int) []byte {
	if len(b) > n {
		return b[len(b)-n:]
	}
	return b
}
