package locks

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/osctl/osctl/internal/cli/cmdutil"
	"github.com/osctl/osctl/internal/cli/output"
	"github.com/osctl/osctl/internal/testenv"
	"github.com/osctl/osctl/pkg/redact"
	"github.com/osctl/osctl/pkg/redisconn"
)

// TestWatchRefreshesUntilCancelled runs inspect --watch and cancels its context (what Ctrl-C
// does) when the third refresh connects: it stops by itself, having printed two refreshes,
// and returns the exit status of the last complete one.
func TestWatchRefreshesUntilCancelled(t *testing.T) {
	r := testenv.StartRedis(t)
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(r.Client().Set(context.Background(), "redlock:w:x", "osctl:v1:web-0:7:abc", 0).Err())
	streams, _, out, errOut := cmdutil.Test()
	f := &cmdutil.Factory{IO: streams, Secrets: &redact.Secrets{}, Now: time.Now}
	f.Redis.URLs = []string{r.URL()}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	calls := 0
	var opts *InspectOptions
	cmd := NewCmdInspect(f, func(_ context.Context, o *InspectOptions) error { opts = o; return nil })
	cmd.SetArgs([]string{"--watch", "100ms", "-o", "jsonl"})
	must(cmd.Execute())
	if opts.Watch != 100*time.Millisecond || opts.Format != output.JSONL {
		t.Fatalf("flags parsed as %+v", opts)
	}
	connect := opts.Masters
	opts.Masters = func(ctx context.Context) ([]redisconn.Master, func(), error) {
		calls++
		if calls == 3 {
			cancel()
		}
		return connect(ctx)
	}
	err := inspectRun(ctx, opts)
	if cmdutil.ExitCode(err) != cmdutil.ExitProblem {
		t.Errorf("exit code %d (%v), want 1: the lock is stale", cmdutil.ExitCode(err), err)
	}
	if n := strings.Count(out.String(), `"key":"redlock:w:x"`); n != 2 {
		t.Errorf("%d refreshes printed, want 2:\n%s", n, out.String())
	}
	if n := strings.Count(errOut.String(), "Ctrl-C to stop"); n != 3 {
		t.Errorf("stderr: %s", errOut.String())
	}
}

func TestWatchFlagForms(t *testing.T) {
	f := &cmdutil.Factory{IO: func() *cmdutil.IOStreams { s, _, _, _ := cmdutil.Test(); return s }(), Secrets: &redact.Secrets{}, Now: time.Now}
	for args, want := range map[string]time.Duration{"--watch": 2 * time.Second, "--watch=5s": 5 * time.Second, "--watch 7s": 7 * time.Second, "": 0} {
		var got time.Duration
		cmd := NewCmdInspect(f, func(_ context.Context, o *InspectOptions) error { got = o.Watch; return nil })
		cmd.SetArgs(strings.Fields(args))
		if err := cmd.Execute(); err != nil || got != want {
			t.Errorf("%q: %v, %v; want %v", args, got, err, want)
		}
	}
}
