package sandbox

import (
	"bytes"
	"context"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/spf13/cobra"

	"github.com/osctl/osctl/internal/cli/cmdutil"
	"github.com/osctl/osctl/pkg/sandbox"
)

func newRoot(f *cmdutil.Factory, sub *cobra.Command) *cobra.Command {
	root := &cobra.Command{Use: "osctl", SilenceErrors: true, SilenceUsage: true}
	f.AddGlobalFlags(root)
	sb := &cobra.Command{Use: "sandbox"}
	sb.AddCommand(sub)
	root.AddCommand(sb)
	return root
}

// parse runs `osctl sandbox NAME args` as newCmd builds it and returns the options it was
// given, or its error.
func parse[O any](name string, newCmd func(*cmdutil.Factory, func(context.Context, *O) error) *cobra.Command, args ...string) (*O, error) {
	f := cmdutil.New("test")
	io, _, _, _ := cmdutil.Test()
	f.IO = io
	var got *O
	root := newRoot(f, newCmd(f, func(_ context.Context, o *O) error { got = o; return nil }))
	root.SetArgs(append([]string{"sandbox", name}, args...))
	return got, root.Execute()
}

func TestUpFlags(t *testing.T) {
	cases := []struct {
		args    []string
		wantErr string
		check   func(*testing.T, *UpOptions)
	}{
		{args: nil, check: func(t *testing.T, o *UpOptions) {
			if o.Replicas != 1 || o.Mode.Locking != "none" || o.Mode.Queue != "local" || o.Mode.MaxPool != 154 ||
				o.Mode.MaxRequests != 13125 || o.Mode.MaxActive != 2 || o.RedisMasters != 1 || o.Dir != "" {
				t.Errorf("defaults: %+v", o)
			}
			if o.Mode.BackgroundInterval != 5*time.Second || !o.Mode.ZipRewrite || o.Mode.DropCreates != 0 || o.Mode.faultNote() != "" {
				t.Errorf("worker defaults: interval %v, zip rewrite %v, drop %v (note %q); want 5s, on, 0", o.Mode.BackgroundInterval, o.Mode.ZipRewrite, o.Mode.DropCreates, o.Mode.faultNote())
			}
			if o.Mode.JobDurationSkew != 0 {
				t.Errorf("--queue local: job duration skew %v, want 0", o.Mode.JobDurationSkew)
			}
		}},
		{args: []string{"--replicas", "2", "--queue", "split"}, check: func(t *testing.T, o *UpOptions) {
			if o.Mode.Queue != "split" || o.Mode.JobDurationSkew != sandbox.DefaultSplitJobDurationSkew {
				t.Errorf("--queue split: %+v, want skew %v", o.Mode, sandbox.DefaultSplitJobDurationSkew)
			}
			if got := o.Mode.ceilingNote(2); !strings.Contains(got, "1 per replica") || !strings.Contains(got, "2s on replica 1") {
				t.Errorf("summary note %q", got)
			}
		}},
		{args: []string{"--queue", "split", "--job-duration-skew", "0"}, check: func(t *testing.T, o *UpOptions) {
			if o.Mode.JobDurationSkew != 0 {
				t.Errorf("an explicit --job-duration-skew 0 became %v", o.Mode.JobDurationSkew)
			}
		}},
		{args: []string{"--queue", "shared", "--job-duration-skew", "0.5", "--redis", "redis://127.0.0.1:1"}, check: func(t *testing.T, o *UpOptions) {
			if o.Mode.JobDurationSkew != 0.5 {
				t.Errorf("skew %v, want 0.5", o.Mode.JobDurationSkew)
			}
		}},
		{args: []string{"--job-duration-skew", "-1"}, wantErr: "--job-duration-skew -1"},
		{args: []string{"--job-duration-skew", "NaN"}, wantErr: "--job-duration-skew NaN"},
		{args: []string{"--job-duration-skew", "1000"}, wantErr: "--job-duration-skew 1000"},
		{args: []string{"--replicas", "3", "--locking", "redlock", "--queue", "shared", "--redis", "redis://127.0.0.1:1", "--redis", "redis://127.0.0.1:2"}, check: func(t *testing.T, o *UpOptions) {
			if o.Replicas != 3 || len(o.RedisURLs()) != 2 {
				t.Errorf("parsed %+v urls %v", o, o.RedisURLs())
			}
		}},
		{args: []string{"--background-interval", "250ms", "--zip-rewrite=false", "--drop-creates", "0.25"}, check: func(t *testing.T, o *UpOptions) {
			cfg := o.Mode.config()
			if cfg.BackgroundInterval != 250*time.Millisecond || !cfg.NoZipRewrite || cfg.DropCreates != 0.25 {
				t.Errorf("config %+v: want a 250ms worker, no zip rewrite, drop 0.25", cfg)
			}
			if n := o.Mode.faultNote(); !strings.Contains(n, "--zip-rewrite=false") || !strings.Contains(n, "LOSING 0.25") {
				t.Errorf("summary note %q does not say what differs from the real server", n)
			}
		}},
		{args: []string{"--background-interval", "0s"}, wantErr: "--background-interval 0s: use 1ms to 1h"},
		{args: []string{"--background-interval", "2h"}, wantErr: "--background-interval 2h0m0s"},
		{args: []string{"--drop-creates", "1.5"}, wantErr: "--drop-creates 1.5: use a fraction from 0 to 1"},
		{args: []string{"--drop-creates", "-0.1"}, wantErr: "--drop-creates -0.1"},
		{args: []string{"--drop-creates", "NaN"}, wantErr: "--drop-creates NaN"},
		{args: []string{"--locking", "mutex"}, wantErr: `--locking "mutex": use none, local, redlock or redlock-nofence`},
		{args: []string{"--locking", "redlock-nofence", "--lock-ttl", "2s"}, check: func(t *testing.T, o *UpOptions) {
			if cfg := o.Mode.config(); cfg.Locking != sandbox.LockingRedlockNoFence || cfg.LockTTL != 2*time.Second {
				t.Errorf("config %+v: want redlock-nofence with a 2s TTL", cfg)
			}
		}},
		{args: []string{"--queue", "global"}, wantErr: `--queue "global": use local, split or shared`},
		{args: []string{"--replicas", "0"}, wantErr: "--replicas 0"},
		{args: []string{"--replicas", "99"}, wantErr: "--replicas 99"},
		{args: []string{"--redis-masters", "0"}, wantErr: "--redis-masters 0"},
		{args: []string{"--max-pool", "0"}, wantErr: "--max-pool 0"},
		{args: []string{"--max-requests", "-1"}, wantErr: "--max-requests -1"},
		{args: []string{"--max-active", "0"}, wantErr: "--max-active 0"},
		{args: []string{"--hold", "-1s"}, wantErr: "--hold"},
		{args: []string{"--upload-chunk", "0"}, wantErr: "--upload-chunk 0"},
		{args: []string{"--port-base", "80"}, wantErr: "--port-base 80"},
		{args: []string{"--redis-service", "queue"}, wantErr: "--redis-service"},
	}
	for _, c := range cases {
		t.Run(strings.Join(c.args, " "), func(t *testing.T) {
			got, err := parse("up", NewCmdUp, c.args...)
			if c.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), c.wantErr) {
					t.Fatalf("error %v, want one naming %q", err, c.wantErr)
				}
				if cmdutil.ExitCode(err) != cmdutil.ExitError {
					t.Errorf("exit code %d, want 2", cmdutil.ExitCode(err))
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			c.check(t, got)
		})
	}
}

func TestServeRefusesNonLoopback(t *testing.T) {
	f := cmdutil.New("test")
	io, _, _, _ := cmdutil.Test()
	f.IO = io
	root := newRoot(f, NewCmdServe(f, func(context.Context, *ServeOptions) error { return nil }))
	for _, addr := range []string{"0.0.0.0:8080", "10.1.2.3:80", "example.com:80", "nonsense"} {
		root.SetArgs([]string{"sandbox", "serve", "--dir", t.TempDir(), "--listen", addr})
		if err := root.Execute(); err == nil || !strings.Contains(err.Error(), "--listen") {
			t.Errorf("--listen %s: %v, want a refusal", addr, err)
		}
	}
	root.SetArgs([]string{"sandbox", "serve", "--dir", t.TempDir(), "--listen", "127.0.0.2:0"})
	if err := root.Execute(); err != nil {
		t.Errorf("--listen 127.0.0.2:0: %v", err)
	}
}

func TestModeArgsRoundTrip(t *testing.T) {
	up, err := parse("up", NewCmdUp, "--locking", "local", "--queue", "shared", "--max-pool", "3", "--max-requests", "4",
		"--max-active", "5", "--job-duration", "2s", "--job-duration-skew", "0.37", "--hold", "250ms", "--upload-chunk", "99", "--write-delay", "3ms", "--max-body", "1234", "--lock-ttl", "7s",
		"--background-interval", "1.5s", "--zip-rewrite=false", "--drop-creates", "0.125")
	if err != nil {
		t.Fatal(err)
	}
	serve, err := parse("serve", NewCmdServe, append([]string{"--dir", "/tmp/x", "--listen-fd", "3"}, up.Mode.args()...)...)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(serve.Mode, up.Mode) {
		t.Fatalf("replica got %+v, up had %+v", serve.Mode, up.Mode)
	}
}

// TestServeReplicaCount checks that a replica is told how many replicas there are (the split
// queue divides the ceiling by it) and refuses an index outside that count.
func TestServeReplicaCount(t *testing.T) {
	cases := []struct {
		args    []string
		want    int
		wantErr string
	}{
		{args: nil, want: 1},
		{args: []string{"--replica", "2", "--replicas", "3"}, want: 3},
		{args: []string{"--replica", "1"}, wantErr: "--replica 1 of --replicas 1"},
		{args: []string{"--replicas", "0"}, wantErr: "--replicas 0"},
		{args: []string{"--replica", "-1", "--replicas", "2"}, wantErr: "--replica -1"},
	}
	for _, c := range cases {
		t.Run(strings.Join(c.args, " "), func(t *testing.T) {
			got, err := parse("serve", NewCmdServe, append([]string{"--dir", t.TempDir(), "--queue", "split"}, c.args...)...)
			if c.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), c.wantErr) || cmdutil.ExitCode(err) != cmdutil.ExitError {
					t.Fatalf("error %v, want one naming %q with exit 2", err, c.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got.Replicas != c.want {
				t.Errorf("replicas %d, want %d", got.Replicas, c.want)
			}
			if got.Mode.JobDurationSkew != sandbox.DefaultSplitJobDurationSkew {
				t.Errorf("serve --queue split: skew %v, want the split default", got.Mode.JobDurationSkew)
			}
		})
	}
}

// TestWorkerIntervalIsTheOldNameOfBackgroundInterval: --worker-interval still sets the background
// workers' interval, with a notice that it is now --background-interval.
func TestWorkerIntervalIsTheOldNameOfBackgroundInterval(t *testing.T) {
	f := cmdutil.TestFactory()
	var got time.Duration
	cmd := NewCmdUp(f, func(_ context.Context, o *UpOptions) error { got = o.Mode.BackgroundInterval; return nil })
	cmd.SetArgs([]string{"--worker-interval", "250ms"})
	cmd.SetOut(f.IO.Out)
	cmd.SetErr(f.IO.ErrOut)
	if err := cmd.Execute(); err != nil || got != 250*time.Millisecond {
		t.Fatalf("--worker-interval 250ms: interval %v, err %v", got, err)
	}
	if !strings.Contains(f.IO.ErrOut.(*bytes.Buffer).String(), "use --background-interval") {
		t.Errorf("no deprecation notice: %q", f.IO.ErrOut.(*bytes.Buffer).String())
	}
}
