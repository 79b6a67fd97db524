// Package resqueflags are osctl stress's flags for the app's Redis that holds Resque's failed
// jobs (--resque-redis, --resque-redis-password-file, --resque-namespace): a real OpenStudio
// Server keeps its failed extractions there (resque:failed) and serves them over no HTTP API.
package resqueflags

import (
	"context"
	"fmt"
	"net/url"
	"os"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/osctl/osctl/internal/cli/cmdutil"
	"github.com/osctl/osctl/pkg/redisconn"
	"github.com/osctl/osctl/pkg/setting"
	pstress "github.com/osctl/osctl/pkg/stress"
	"github.com/osctl/osctl/pkg/stress/history"
	"github.com/osctl/osctl/pkg/stress/profile"
)

// EnvVar holds the --resque-redis URL when the flag is not given: a URL with a password stays off
// the command line, where ps shows it.
const EnvVar = "OSCTL_RESQUE_REDIS"

// names are pkg/redisconn's settings as this command's flags: its explanations name them.
var names = cmdutil.Settings{"Redis.Password": "--resque-redis-password-file", "Redis.CAFile": "--redis-ca",
	"Redis.URLs": "--resque-redis", "Redis.Service": "a port-forward (kubectl port-forward svc/NAME)"}

// named is err's text with the settings it names as this command's flags (others are left for
// the command line's own names).
func named(err error) string {
	return setting.Refs(err.Error(), func(n string) string {
		if f, ok := names[n]; ok {
			return f
		}
		return "{" + n + "}"
	})
}

// Flags are --resque-redis, --resque-redis-password-file and --resque-namespace.
type Flags struct {
	URL          string
	PasswordFile string
	Namespace    string
}

// Add binds the flags.
func (r *Flags) Add(cmd *cobra.Command) {
	fl := cmd.Flags()
	fl.StringVar(&r.URL, "resque-redis", "", "openstudio: the app's Redis, redis://[user:password@]host:port[/db] or rediss:// (--redis-ca verifies it; default $"+EnvVar+"): after the load, read the failed extractions of the run's analyses from Resque's failed list there (a real OpenStudio Server has no HTTP API for them; only read, the newest "+fmt.Sprint(profile.ResqueFailedMax)+" entries, those failed since the run began). Checked with PING before the load; given, it is read in place of the sandbox's GET /status/failed_jobs")
	fl.StringVar(&r.PasswordFile, "resque-redis-password-file", "", "file holding the password of --resque-redis (overrides the URL's)")
	fl.StringVar(&r.Namespace, "resque-namespace", profile.DefaultResqueNamespace, "the Resque key namespace of --resque-redis: the failed list is NAMESPACE:failed")
}

// Open connects to --resque-redis (else $OSCTL_RESQUE_REDIS) and checks it answers, before any
// load: a bad URL is a usage error, an unreachable Redis or a refused password an error, each one
// line that never shows the password. It returns nil without a URL; close closes the client.
func (r *Flags) Open(ctx context.Context, f *cmdutil.Factory, profileName string) (rf *pstress.ResqueFailed, close func(), err error) {
	close = func() {}
	raw := r.URL
	if raw == "" {
		raw = strings.TrimSpace(os.Getenv(EnvVar))
	}
	if raw == "" {
		if r.PasswordFile != "" {
			return nil, close, cmdutil.Usage("--resque-redis-password-file is the password of --resque-redis: give the URL too")
		}
		return nil, close, nil
	}
	if !history.KindOf(profileName).ResqueFailures {
		return nil, close, cmdutil.Usage("--resque-redis reads the failed background jobs of a profile whose jobs are Resque's (openstudio): not with --profile %s", profileName)
	}
	if strings.Trim(r.Namespace, ":") == "" {
		return nil, close, cmdutil.Usage("--resque-namespace is empty: give Resque's key namespace (default %s)", profile.DefaultResqueNamespace)
	}
	if u, err := url.Parse(raw); err == nil && u.User != nil {
		if pw, ok := u.User.Password(); ok {
			f.Secrets.Add(pw)
		}
	}
	cfg := redisconn.Config{URLs: []string{raw}, CAFile: f.Redis.CAFile, DialTimeout: 3 * time.Second, ReadTimeout: 5 * time.Second}
	if r.PasswordFile != "" {
		b, err := os.ReadFile(r.PasswordFile)
		if err != nil {
			return nil, close, cmdutil.Usage("cannot read --resque-redis-password-file: %v", err)
		}
		cfg.Password = strings.TrimRight(string(b), "\r\n")
		f.Secrets.Add(cfg.Password)
	}
	ms, err := redisconn.Connect(cfg)
	if err != nil {
		return nil, close, cmdutil.Usage("--resque-redis: %s", named(err))
	}
	close = func() { redisconn.Close(ms) }
	pctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	if err := redisconn.Ping(pctx, ms[0]); err != nil {
		close()
		return nil, func() {}, fmt.Errorf("--resque-redis: %s", named(err))
	}
	return &pstress.ResqueFailed{Client: ms[0].Client, Key: profile.ResqueFailedKey(r.Namespace), Name: ms[0].Name}, close, nil
}
