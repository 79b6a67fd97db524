// Package sandbox is `osctl sandbox`: a local multi-replica OpenStudio-like web tier (pkg/sandbox)
// with its Redis masters, started as real processes.
package sandbox

import (
	"fmt"
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
replicas) or the way the fixed app does (--locking redlock: none appear). It is as strict as
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

// modeFlags are the flags that `up` passes on to every replica.
type modeFlags struct {
	Locking     string
	Queue       string
	MaxPool     int
	MaxRequests int
	MaxActive   int
	JobDuration time.Duration
	// JobSkew is --job-duration-skew; resolve fills its queue-dependent default.
	JobSkew     float64
	Hold        time.Duration
	UploadChunk int
	WriteDelay  time.Duration
	MaxBody     int64
	LockTTL     time.Duration
	// BackgroundInterval, ZipRewrite and DropCreates are --background-interval, --zip-rewrite and
	// --drop-creates.
	BackgroundInterval time.Duration
	ZipRewrite         bool
	DropCreates        float64
	// Jobs are the job API's flags (jobflags.go).
	Jobs jobFlags
}

func (m *modeFlags) add(cmd *cobra.Command) {
	fl := cmd.Flags()
	fl.StringVar(&m.Locking, "locking", string(sandbox.LockingNone), "how replicas write shared files: none (the real app), local (a per-process mutex), redlock (pkg/lock, atomic writes, fencing)")
	fl.StringVar(&m.Queue, "queue", string(sandbox.QueueLocal), "where the job API keeps jobs: local (per replica, like elb-openapi), split (per replica, each admitting max(1, max-active/replicas): the naive fix) or shared (one queue and ceiling for every replica, in Redis: the fixed service)")
	fl.IntVar(&m.MaxPool, "max-pool", sandbox.DefaultMaxPool, "requests processed at once per replica (passenger_max_pool_size)")
	fl.IntVar(&m.MaxRequests, "max-requests", sandbox.DefaultMaxRequests, "requests that may wait per replica before 503 \"Request queue full\" (passenger_max_request_queue_size; 0 = no limit)")
	fl.IntVar(&m.MaxActive, "max-active", sandbox.DefaultMaxActive, "job ceiling (ELB_OPENAPI_MAX_ACTIVE_SUBMISSIONS): enforced per replica with --queue local, divided between replicas with --queue split, in total with --queue shared")
	fl.DurationVar(&m.JobDuration, "job-duration", sandbox.DefaultJobDuration, "how long each job runs (on replica 0, see --job-duration-skew)")
	fl.Float64Var(&m.JobSkew, "job-duration-skew", 0, fmt.Sprintf("replica i's jobs run --job-duration x (1 + skew x i), as on nodes of unequal speed: with round-robin routing one replica drains its queue while another still has jobs queued, which is what strands jobs with --queue split (default %g with --queue split, else 0; at most %g)", sandbox.DefaultSplitJobDurationSkew, sandbox.MaxJobDurationSkew))
	fl.DurationVar(&m.Hold, "hold", 0, "stay this long inside each critical section (to watch locks with 'osctl locks inspect' and provoke races)")
	fl.IntVar(&m.UploadChunk, "upload-chunk", sandbox.DefaultUploadChunk, "bytes per piece of a file write")
	fl.DurationVar(&m.WriteDelay, "write-delay", sandbox.DefaultWriteDelay, "pause after each piece of a file write (non-atomic writes interleave during it)")
	fl.Int64Var(&m.MaxBody, "max-body", sandbox.DefaultMaxBody, "largest request body in bytes; larger ones get 413")
	fl.DurationVar(&m.LockTTL, "lock-ttl", sandbox.DefaultLockTTL, "Redlock TTL of --locking redlock (renewed while held)")
	fl.DurationVar(&m.BackgroundInterval, "background-interval", sandbox.DefaultBackgroundInterval, "how long each replica's background worker sleeps when its Resque queues are empty (Resque's INTERVAL): a start's extraction can begin this long after its answer")
	cmdutil.RenamedFlag(cmd, "worker-interval", "background-interval") // its name until this release
	fl.BoolVar(&m.ZipRewrite, "zip-rewrite", true, "extraction rewrites a seed zip whose entries are not in name order, sorted (rubyzip's sort_entries, as the real server did until upstream's PR #863); --zip-rewrite=false keeps every zip as uploaded")
	fl.Float64Var(&m.DropCreates, "drop-creates", 0, "fault injection: this fraction (0 to 1) of analysis and data point creates, chosen by a hash of the id, answer 201 but are never stored (a lossy twin that 'osctl stress' must find lost records in)")
	m.Jobs.add(cmd)
}

// args returns the flags as command-line arguments for a replica.
func (m *modeFlags) args() []string {
	return append([]string{
		"--locking", m.Locking, "--queue", m.Queue,
		"--max-pool", fmt.Sprint(m.MaxPool), "--max-requests", fmt.Sprint(m.MaxRequests),
		"--max-active", fmt.Sprint(m.MaxActive), "--job-duration", m.JobDuration.String(),
		"--job-duration-skew", strconv.FormatFloat(m.JobSkew, 'g', -1, 64),
		"--hold", m.Hold.String(), "--upload-chunk", fmt.Sprint(m.UploadChunk),
		"--write-delay", m.WriteDelay.String(), "--max-body", fmt.Sprint(m.MaxBody),
		"--lock-ttl", m.LockTTL.String(), "--background-interval", m.BackgroundInterval.String(),
		"--zip-rewrite=" + strconv.FormatBool(m.ZipRewrite), "--drop-creates", strconv.FormatFloat(m.DropCreates, 'g', -1, 64),
	}, m.Jobs.args()...)
}

// config turns the flags into a replica's config (without state dir, replica index or Redis).
func (m *modeFlags) config() sandbox.Config {
	return sandbox.Config{
		Locking: sandbox.Locking(m.Locking), Queue: sandbox.QueueMode(m.Queue),
		MaxPool: m.MaxPool, MaxRequests: m.MaxRequests, MaxActive: m.MaxActive, JobDuration: m.JobDuration,
		JobDurationSkew: m.JobSkew, Hold: m.Hold, UploadChunk: m.UploadChunk, WriteDelay: m.WriteDelay, MaxBody: m.MaxBody, LockTTL: m.LockTTL,
		BackgroundInterval: m.BackgroundInterval, NoZipRewrite: !m.ZipRewrite, DropCreates: m.DropCreates,
		Jobs: m.Jobs.config(),
	}
}

// validate checks the flags and names the wrong one.
func (m *modeFlags) validate() error {
	switch sandbox.Locking(m.Locking) {
	case sandbox.LockingNone, sandbox.LockingLocal, sandbox.LockingRedlock:
	default:
		return cmdutil.Usage("--locking %q: use none, local or redlock", m.Locking)
	}
	switch sandbox.QueueMode(m.Queue) {
	case sandbox.QueueLocal, sandbox.QueueSplit, sandbox.QueueShared:
	default:
		return cmdutil.Usage("--queue %q: use local, split or shared", m.Queue)
	}
	switch {
	case m.MaxPool < 1:
		return cmdutil.Usage("--max-pool %d: must be at least 1", m.MaxPool)
	case m.MaxRequests < 0:
		return cmdutil.Usage("--max-requests %d: must be 0 (no limit) or more", m.MaxRequests)
	case m.MaxActive < 1:
		return cmdutil.Usage("--max-active %d: must be at least 1", m.MaxActive)
	case m.JobDuration < 0:
		return cmdutil.Usage("--job-duration %v: must not be negative", m.JobDuration)
	case !(m.JobSkew >= 0 && m.JobSkew <= sandbox.MaxJobDurationSkew): // also refuses NaN
		return cmdutil.Usage("--job-duration-skew %v: use 0 to %g", m.JobSkew, sandbox.MaxJobDurationSkew)
	case m.Hold < 0:
		return cmdutil.Usage("--hold %v: must not be negative", m.Hold)
	case m.UploadChunk < 1:
		return cmdutil.Usage("--upload-chunk %d: must be at least 1 byte", m.UploadChunk)
	case m.WriteDelay < 0:
		return cmdutil.Usage("--write-delay %v: must not be negative", m.WriteDelay)
	case m.MaxBody < 1:
		return cmdutil.Usage("--max-body %d: must be at least 1 byte", m.MaxBody)
	case m.LockTTL < time.Second || m.LockTTL > time.Minute:
		return cmdutil.Usage("--lock-ttl %v: use 1s to 1m", m.LockTTL)
	case m.BackgroundInterval < time.Millisecond || m.BackgroundInterval > time.Hour:
		return cmdutil.Usage("--background-interval %v: use 1ms to 1h", m.BackgroundInterval)
	case !(m.DropCreates >= 0 && m.DropCreates <= 1): // also refuses NaN
		return cmdutil.Usage("--drop-creates %v: use a fraction from 0 to 1", m.DropCreates)
	}
	return m.Jobs.validate()
}

// resolve fills the defaults that depend on other flags: --job-duration-skew is
// sandbox.DefaultSplitJobDurationSkew with --queue split unless given.
func (m *modeFlags) resolve(fl *pflag.FlagSet) {
	if !fl.Changed("job-duration-skew") && m.Queue == string(sandbox.QueueSplit) {
		m.JobSkew = sandbox.DefaultSplitJobDurationSkew
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
	switch sandbox.QueueMode(m.Queue) {
	case sandbox.QueueLocal:
		note = " per replica"
	case sandbox.QueueSplit:
		note = fmt.Sprintf(" split as %d per replica", max(1, m.MaxActive/replicas))
	}
	if m.JobSkew > 0 && replicas > 1 {
		last := time.Duration(float64(m.JobDuration) * (1 + m.JobSkew*float64(replicas-1)))
		note += fmt.Sprintf(", jobs run %v on replica 0 to %v on replica %d", m.JobDuration, last, replicas-1)
	}
	return note
}
