// Package sandbox is `osctl sandbox`: a local multi-replica OpenStudio-like web tier (pkg/sandbox)
// with its Redis masters, started as real processes.
package sandbox

import (
	"fmt"
	"time"

	"github.com/spf13/cobra"

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
replicas) or the way the fixed app does (--locking redlock: none appear).`,
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
	Hold        time.Duration
	UploadChunk int
	WriteDelay  time.Duration
	MaxBody     int64
	LockTTL     time.Duration
}

func (m *modeFlags) add(cmd *cobra.Command) {
	fl := cmd.Flags()
	fl.StringVar(&m.Locking, "locking", string(sandbox.LockingNone), "how replicas write shared files: none (the real app), local (a per-process mutex), redlock (pkg/lock, atomic writes, fencing)")
	fl.StringVar(&m.Queue, "queue", string(sandbox.QueueLocal), "where the job API keeps jobs: local (per replica, like elb-openapi) or shared (Redis, semaphore admission)")
	fl.IntVar(&m.MaxPool, "max-pool", sandbox.DefaultMaxPool, "requests processed at once per replica (passenger_max_pool_size)")
	fl.IntVar(&m.MaxRequests, "max-requests", sandbox.DefaultMaxRequests, "requests that may wait per replica before 503 \"Request queue full\" (passenger_max_request_queue_size; 0 = no limit)")
	fl.IntVar(&m.MaxActive, "max-active", sandbox.DefaultMaxActive, "job ceiling (ELB_OPENAPI_MAX_ACTIVE_SUBMISSIONS): per replica with --queue local, in total with --queue shared")
	fl.DurationVar(&m.JobDuration, "job-duration", sandbox.DefaultJobDuration, "how long each job runs")
	fl.DurationVar(&m.Hold, "hold", 0, "stay this long inside each critical section (to watch locks with 'osctl locks inspect' and provoke races)")
	fl.IntVar(&m.UploadChunk, "upload-chunk", sandbox.DefaultUploadChunk, "bytes per piece of a file write")
	fl.DurationVar(&m.WriteDelay, "write-delay", sandbox.DefaultWriteDelay, "pause after each piece of a file write (non-atomic writes interleave during it)")
	fl.Int64Var(&m.MaxBody, "max-body", sandbox.DefaultMaxBody, "largest request body in bytes; larger ones get 413")
	fl.DurationVar(&m.LockTTL, "lock-ttl", sandbox.DefaultLockTTL, "Redlock TTL of --locking redlock (renewed while held)")
}

// args returns the flags as command-line arguments for a replica.
func (m *modeFlags) args() []string {
	return []string{
		"--locking", m.Locking, "--queue", m.Queue,
		"--max-pool", fmt.Sprint(m.MaxPool), "--max-requests", fmt.Sprint(m.MaxRequests),
		"--max-active", fmt.Sprint(m.MaxActive), "--job-duration", m.JobDuration.String(),
		"--hold", m.Hold.String(), "--upload-chunk", fmt.Sprint(m.UploadChunk),
		"--write-delay", m.WriteDelay.String(), "--max-body", fmt.Sprint(m.MaxBody),
		"--lock-ttl", m.LockTTL.String(),
	}
}

// config turns the flags into a replica's config (without state dir, replica index or Redis).
func (m *modeFlags) config() sandbox.Config {
	return sandbox.Config{
		Locking: sandbox.Locking(m.Locking), Queue: sandbox.QueueMode(m.Queue),
		MaxPool: m.MaxPool, MaxRequests: m.MaxRequests, MaxActive: m.MaxActive, JobDuration: m.JobDuration,
		Hold: m.Hold, UploadChunk: m.UploadChunk, WriteDelay: m.WriteDelay, MaxBody: m.MaxBody, LockTTL: m.LockTTL,
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
	case sandbox.QueueLocal, sandbox.QueueShared:
	default:
		return cmdutil.Usage("--queue %q: use local or shared", m.Queue)
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
	}
	return nil
}

// needsRedis reports whether the modes need Redis masters.
func (m *modeFlags) needsRedis() bool {
	return m.Locking == string(sandbox.LockingRedlock) || m.Queue == string(sandbox.QueueShared)
}
