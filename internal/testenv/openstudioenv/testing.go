package openstudioenv

import (
	"context"
	"os"
	"testing"
	"time"

	"github.com/osctl/osctl/internal/testenv"
)

// StartT starts an environment for a test in a directory of the test's (o.Dir, when empty),
// failing the test (skipping it outside CI) when Ruby, Passenger or FerretDB is missing. It is
// stopped, every process by its pid, when the test ends; a failed test logs the processes' logs.
func StartT(t testing.TB, o Options) *Server {
	t.Helper()
	testenv.SkipIfShort(t, "the real OpenStudio Server")
	err := Check(FerretDBPath())
	testenv.Require(t, err == nil, "the real OpenStudio Server's dependencies: "+errString(err))
	if o.Dir == "" {
		d, err := os.MkdirTemp("", "osctl-openstudio-")
		if err != nil {
			t.Fatal(err)
		}
		o.Dir = d
	}
	if o.Logf == nil {
		o.Logf = t.Logf
	}
	ctx, cancel := context.WithTimeout(context.Background(), 6*time.Minute)
	defer cancel()
	s, err := Start(ctx, o)
	if err != nil {
		t.Fatalf("starting OpenStudio Server v3.7.0: %v", err)
	}
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("OpenStudio Server logs (the directory %s is kept):\n%s", o.Dir, s.Logs())
		}
		if err := s.Stop(); err != nil {
			t.Errorf("stopping OpenStudio Server: %v", err)
		}
		if !t.Failed() {
			_ = os.RemoveAll(o.Dir)
		}
	})
	return s
}

func errString(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}
