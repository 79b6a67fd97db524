// Package sandbox is `osctl sandbox`: a local multi-replica OpenStudio-like web tier (pkg/sandbox)
// with its Redis masters, started as real processes.
package sandbox

import (
	"context"
	"fmt"
	"os"
	"slices"
	"strconv"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/osctl/osctl/internal/cli/cmdutil"
	"github.com/osctl/osctl/pkg/sandbox"
)

// NewCmdSandbox returns `osctl sandbox` with its subcommands.
func NewCmdSandbox(f *cmdutil.Factory) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "sandbox",
		Short: "Run a local multi-replica OpenStudio-like web tier that reproduces the races",
		Long: `A local stand-in for OpenStudio Server's web tier: N replicas (separate processes on loopback
ports) share one state directory laid out like /mnt/openstudio, and one or more Redis masters.
It serves the OpenStudio routes a stress run uses and the elb-openapi job API, and can write the
shared files the way the real app does (--locking none or local: races appear with two or more
replicas), the way the fixed app does (--locking redlock: none appear), or the way an app that
took redlock-rb alone does (--locking redlock-nofence: clean until a holder stalls past the
lock's TTL and writes after another replica took the lock). It is as strict as
OpenStudio Server v3.7.0 (strict models, string ids, missing records answered as the real
server answers them), and a start is asynchronous: every replica runs a background worker, as
every web pod runs resque:work, that takes InitializeAnalysis jobs from Redis and extracts. Its job queue is
elb-openapi's per-replica dict (--queue local: the ceiling is multiplied by the replicas), the
naive fix that divides the ceiling between replicas (--queue split: jobs are stranded on a busy
replica while another idles), or the real fix in Redis (--queue shared).`,
	}
	cmd.AddCommand(NewCmdUp(f, nil), NewCmdServe(f, nil))
	return cmd
}

// modeFlags are the flags that `up` passes on to every replica: a replica's sandbox.Config
// (without state dir, replica index or Redis), its defaults sandbox.DefaultConfig's.
type modeFlags struct {
	sandbox.Config
	// ZipRewrite is --zip-rewrite, the opposite of Config.NoZipRewrite.
	ZipRewrite bool
}

func (m *modeFlags) add(cmd *cobra.Command) {
	d := sandbox.DefaultConfig()
	fl := cmd.Flags()
	fl.StringVar((*string)(&m.Locking), "locking", string(d.Locking), "how replicas write shared files: none (the real app), local (a per-process mutex), redlock (pkg/lock, atomic writes, fencing), redlock-nofence (a Redlock lease as redlock-rb gives it: not renewed, no fencing, writes in place)")
	fl.StringVar((*string)(&m.Queue), "queue", string(d.Queue), "where the job API keeps jobs: local (per replica, like elb-openapi), split (per replica, each admitting max(1, max-active/replicas): the naive fix) or shared (one queue and ceiling for every replica, in Redis: the fixed service)")
	fl.IntVar(&m.MaxPool, "max-pool", d.MaxPool, "requests processed at once per replica (passenger_max_pool_size)")
	fl.IntVar(&m.MaxRequests, "max-requests", d.MaxRequests, "requests that may wait per replica before 503 \"Request queue full\" (passenger_max_request_queue_size; 0 = no limit)")
	fl.IntVar(&m.MaxActive, "max-active", d.MaxActive, "job ceiling (ELB_OPENAPI_MAX_ACTIVE_SUBMISSIONS): enforced per replica with --queue local, divided between replicas with --queue split, in total with --queue shared")
	fl.DurationVar(&m.JobDuration, "job-duration", d.JobDuration, "how long each job runs (on replica 0, see --job-duration-skew)")
	fl.Float64Var(&m.JobDurationSkew, "job-duration-skew", d.JobDurationSkew, fmt.Sprintf("replica i's jobs run --job-duration x (1 + skew x i), as on nodes of unequal speed: with round-robin routing one replica drains its queue while another still has jobs queued, which is what strands jobs with --queue split (default %g with --queue split, else 0; at most %g)", sandbox.DefaultSplitJobDurationSkew, sandbox.MaxJobDurationSkew))
	fl.DurationVar(&m.Hold, "hold", d.Hold, "stay this long inside each critical section (to watch locks with 'osctl locks inspect' and provoke races)")
	fl.IntVar(&m.UploadChunk, "upload-chunk", d.UploadChunk, "bytes per piece of a file write")
	fl.DurationVar(&m.WriteDelay, "write-delay", d.WriteDelay, "pause after each piece of a file write (non-atomic writes interleave during it)")
	fl.Int64Var(&m.MaxBody, "max-body", d.MaxBody, "largest request body in bytes; larger ones get 413")
	fl.DurationVar(&m.LockTTL, "lock-ttl", d.LockTTL, "Redlock TTL of --locking redlock (renewed while held) and redlock-nofence (never renewed)")
	fl.DurationVar(&m.BackgroundInterval, "background-interval", d.BackgroundInterval, "how long each replica's background worker sleeps when its Resque queues are empty (Resque's INTERVAL): a start's extraction can begin this long after its answer")
	cmdutil.RenamedFlag(cmd, "worker-interval", "background-interval") // its name until this release
	fl.BoolVar(&m.ZipRewrite, "zip-rewrite", !d.NoZipRewrite, "extraction rewrites a seed zip whose entries are not in name order, sorted (rubyzip's sort_entries, as the real server did until upstream's PR #863); --zip-rewrite=false keeps every zip as uploaded")
	fl.Float64Var(&m.DropCreates, "drop-creates", d.DropCreates, "fault injection: this fraction (0 to 1) of analysis and data point creates, chosen by a hash of the id, answer 201 but are never stored (a lossy twin that 'osctl stress' must find lost records in)")
	addJobFlags(cmd, &m.Jobs, d.Jobs)
}

// modeCommand finishes cmd, which takes no arguments and whose options opts carry the mode
// flags: it adds them, and its RunE resolves them and runs check (the options' own) before runF
// or run.
func modeCommand[O any](cmd *cobra.Command, opts *O, mode *modeFlags, check func() error, runF, run func(context.Context, *O) error) *cobra.Command {
	cmd.Args = cobra.NoArgs
	cmd.RunE = cmdutil.RunE(opts, func(cmd *cobra.Command, _ []string) error {
		mode.resolve(cmd.Flags())
		return check()
	}, runF, func(ctx context.Context, o *O) error {
		if err := cmdutil.NeedsLinux("sandbox", "its replicas are process groups that end with it (Linux's parent-death signal), watched through /proc; run it on a Linux machine or in a Linux container"); err != nil {
			return err
		}
		return run(ctx, o)
	})
	mode.add(cmd)
	return cmd
}

// args returns the flags as command-line arguments for a replica.
func (m *modeFlags) args() []string {
	return append([]string{
		"--locking", string(m.Locking), "--queue", string(m.Queue),
		"--max-pool", fmt.Sprint(m.MaxPool), "--max-requests", fmt.Sprint(m.MaxRequests),
		"--max-active", fmt.Sprint(m.MaxActive), "--job-duration", m.JobDuration.String(),
		"--job-duration-skew", strconv.FormatFloat(m.JobDurationSkew, 'g', -1, 64),
		"--hold", m.Hold.String(), "--upload-chunk", fmt.Sprint(m.UploadChunk),
		"--write-delay", m.WriteDelay.String(), "--max-body", fmt.Sprint(m.MaxBody),
		"--lock-ttl", m.LockTTL.String(), "--background-interval", m.BackgroundInterval.String(),
		"--zip-rewrite=" + strconv.FormatBool(m.ZipRewrite), "--drop-creates", strconv.FormatFloat(m.DropCreates, 'g', -1, 64),
	}, jobArgs(m.Jobs)...)
}

// config turns the flags into a replica's config (without state dir, replica index or Redis); a
// replica takes the job API's token from tokenEnv when --api-token was not given.
func (m *modeFlags) config() sandbox.Config {
	c := m.Config
	c.NoZipRewrite = !m.ZipRewrite
	if c.Jobs.APIToken == "" {
		c.Jobs.APIToken = os.Getenv(tokenEnv)
	}
	return c
}

// validate checks the flags and names the wrong one.
func (m *modeFlags) validate() error {
	if err := firstUsage(
		check(!slices.Contains(sandbox.Lockings, m.Locking), "--locking %q: use %s", m.Locking, sandbox.OneOf(sandbox.Lockings)),
		check(!slices.Contains(sandbox.QueueModes, m.Queue), "--queue %q: use %s", m.Queue, sandbox.OneOf(sandbox.QueueModes)),
		check(m.MaxPool < 1, "--max-pool %d: must be at least 1", m.MaxPool),
		check(m.MaxRequests < 0, "--max-requests %d: must be 0 (no limit) or more", m.MaxRequests),
		check(m.MaxActive < 1, "--max-active %d: must be at least 1", m.MaxActive),
		check(m.JobDuration < 0, "--job-duration %v: must not be negative", m.JobDuration),
		check(!(m.JobDurationSkew >= 0 && m.JobDurationSkew <= sandbox.MaxJobDurationSkew), // also refuses NaN
			"--job-duration-skew %v: use 0 to %g", m.JobDurationSkew, sandbox.MaxJobDurationSkew),
		check(m.Hold < 0, "--hold %v: must not be negative", m.Hold),
		check(m.UploadChunk < 1, "--upload-chunk %d: must be at least 1 byte", m.UploadChunk),
		check(m.WriteDelay < 0, "--write-delay %v: must not be negative", m.WriteDelay),
		check(m.MaxBody < 1, "--max-body %d: must be at least 1 byte", m.MaxBody),
		check(m.LockTTL < time.Second || m.LockTTL > time.Minute, "--lock-ttl %v: use 1s to 1m", m.LockTTL),
		check(m.BackgroundInterval < time.Millisecond || m.BackgroundInterval > time.Hour,
			"--background-interval %v: use 1ms to 1h", m.BackgroundInterval),
		check(!(m.DropCreates >= 0 && m.DropCreates <= 1), // also refuses NaN
			"--drop-creates %v: use a fraction from 0 to 1", m.DropCreates),
	); err != nil {
		return err
	}
	return validateJobFlags(m.Jobs)
}

// usageCheck is one check of a flag: when bad, the usage error format and args say what is wrong.
type usageCheck struct {
	bad    bool
	format string
	args   []any
}

func check(bad bool, format string, args ...any) usageCheck {
	return usageCheck{bad: bad, format: format, args: args}
}

// firstUsage returns the usage error of the first bad check, or nil.
func firstUsage(checks ...usageCheck) error {
	for _, c := range checks {
		if c.bad {
			return cmdutil.Usage(c.format, c.args...)
		}
	}
	return nil
}

// resolve fills the defaults that depend on other flags: --job-duration-skew is
// sandbox.DefaultSplitJobDurationSkew with --queue split unless given.
func (m *modeFlags) resolve(fl *pflag.FlagSet) {
	if !fl.Changed("job-duration-skew") && m.Queue == sandbox.QueueSplit {
		m.JobDurationSkew = sandbox.DefaultSplitJobDurationSkew
	}
}

// faultNote says, for up's summary line, what differs from the real server's behaviour.
func (m *modeFlags) faultNote() string {
	note := ""
	if !m.ZipRewrite {
		note += ", seed zips kept as uploaded (--zip-rewrite=false)"
	}
	if m.DropCreates > 0 {
		note += fmt.Sprintf(", LOSING %g of analysis and data point creates (--drop-creates)", m.DropCreates)
	}
	return note
}

// ceilingNote says, for up's summary line, what each replica enforces of --max-active and how
// long its jobs run when the skew makes that differ between replicas.
func (m *modeFlags) ceilingNote(replicas int) string {
	note := ""
	switch m.Queue {
	case sandbox.QueueLocal:
		note = " per replica"
	case sandbox.QueueSplit:
		note = fmt.Sprintf(" split as %d per replica", max(1, m.MaxActive/replicas))
	}
	if m.JobDurationSkew > 0 && replicas > 1 {
		last := time.Duration(float64(m.JobDuration) * (1 + m.JobDurationSkew*float64(replicas-1)))
		note += fmt.Sprintf(", jobs run %v on replica 0 to %v on replica %d", m.JobDuration, last, replicas-1)
	}
	return note
}
