package resqueflags_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/osctl/osctl/internal/testenv"
	"github.com/osctl/osctl/pkg/redisproc"
)

// TestResqueRedisRefusedBeforeTheLoad: a --resque-redis that is not a Redis URL, a Redis that does
// not answer, or one that refuses the password fails osctl stress before anything is sent or
// written: exit 2, one line saying what is wrong, and never the password (given in the URL, in
// $OSCTL_RESQUE_REDIS or in --resque-redis-password-file).
func TestResqueRedisRefusedBeforeTheLoad(t *testing.T) {
	const secret = "s3cret-Pa55word"
	rs := testenv.StartRedis(t, testenv.WithPassword("the-right-one"))
	port, err := redisproc.FreePort()
	if err != nil {
		t.Fatal(err)
	}
	var sent atomic.Int64 // a refusal comes before the load: the target must get no request
	target := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		sent.Add(1)
		http.Error(w, "no request was expected", http.StatusTeapot)
	}))
	t.Cleanup(target.Close)
	pwFile := filepath.Join(t.TempDir(), "pw")
	if err := os.WriteFile(pwFile, []byte(secret+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		env  string
		args []string
		want string
	}{
		{"not a Redis URL", "", []string{"--resque-redis", "http://:" + secret + "@127.0.0.1:6379"}, `scheme "http" is not redis:// or rediss://`},
		{"unreachable", "", []string{"--resque-redis", fmt.Sprintf("redis://:%s@127.0.0.1:%d", secret, port)}, fmt.Sprintf("--resque-redis: Redis redis://:xxxxx@127.0.0.1:%d: connection refused", port)},
		{"wrong password in the URL", "", []string{"--resque-redis", "redis://:" + secret + "@" + rs.Addr}, "authentication failed"},
		{"wrong password in the environment", "redis://:" + secret + "@" + rs.Addr, nil, "authentication failed"},
		{"wrong password in a file", "", []string{"--resque-redis", "redis://" + rs.Addr, "--resque-redis-password-file", pwFile}, "authentication failed (wrong user or password): check the URL's user and password, --resque-redis-password-file"},
		{"not the openstudio profile", "", []string{"--resque-redis", "redis://" + rs.Addr, "--profile", "jobs", "--max-active", "2"}, "not with --profile jobs"},
		{"a password file without the URL", "", []string{"--resque-redis-password-file", pwFile}, "give the URL too"},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Setenv("OSCTL_RESQUE_REDIS", c.env)
			dir := t.TempDir()
			report := filepath.Join(dir, "report.json")
			hist := filepath.Join(dir, "run.jsonl")
			args := append([]string{"stress", "--target", target.URL, "--requests", "10", "--report", report, "--history", hist}, c.args...)
			r := testenv.RunOsctl(t, time.Minute, args...)
			errLine, _, _ := strings.Cut(r.Stderr, "\n")
			if r.Code != 2 || !strings.HasPrefix(errLine, "Error: ") || !strings.Contains(errLine, c.want) {
				t.Fatalf("exit %d, stderr %q: want exit 2 and an error line saying %q", r.Code, r.Stderr, c.want)
			}
			if strings.Contains(r.Output, secret) {
				t.Errorf("the password shows: %q", r.Output)
			}
			// One line (and, for a usage error, the usual pointer to --help).
			if rest := strings.TrimSuffix(strings.TrimPrefix(r.Stderr, errLine+"\n"), "\n"); rest != "" && !strings.HasPrefix(rest, "Run 'osctl stress --help'") {
				t.Errorf("more than one line: %q", r.Stderr)
			}
			if strings.Contains(r.Output, "run ") || strings.Contains(r.Output, "creating the project") {
				t.Errorf("the run began: %q", r.Output)
			}
			for _, f := range []string{report, hist} {
				if _, err := os.Stat(f); err == nil {
					t.Errorf("%s was written before the error", filepath.Base(f))
				}
			}
			if n := sent.Load(); n != 0 {
				t.Errorf("the target got %d requests before the error", n)
			}
		})
	}
}
