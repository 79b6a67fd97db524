// Package sandbox serves an OpenStudio-Server-like API (projects, analyses, zip upload, start,
// data points, result files) and the elb-openapi job API over one state directory laid out like
// /mnt/openstudio. It is as strict as OpenStudio Server v3.7.0 (docs/sandbox.md): strict models,
// string ids, missing records answered as Mongoid and Rails answer them, and an asynchronous
// start whose extraction runs later in a background worker that every replica runs beside its
// HTTP server, as every web pod runs resque:work beside Passenger. Several replicas (separate
// processes) can share the directory and one Redis; how they write the directory is chosen by a
// locking mode (none and local keep the real app's races, redlock is the fixed app built on
// pkg/lock, redlock-nofence the app that took redlock-rb and nothing else), and where the job API's queue lives by a queue mode (local per replica, split per
// replica with the ceiling divided between replicas, or shared in Redis). It prints nothing and
// knows nothing of the command line.
package sandbox

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/osctl/osctl/pkg/lock"
)

// Locking says how a replica serialises the writes of one analysis's zip and extraction.
type Locking string

// Locking modes, from the stress contract in docs/architecture.md (point 2, what a fixed
// application guarantees).
const (
	// LockingNone is the real app: zip written in place in pieces, extraction skips existing
	// files, nothing serialises them.
	LockingNone Locking = "none"
	// LockingLocal adds a process-local mutex per analysis: safe with one replica only.
	LockingLocal Locking = "local"
	// LockingRedlock is the fixed app: a Redlock lease per analysis, atomic writes, extraction
	// replacing the directory whole, fencing tokens recorded with each write.
	LockingRedlock Locking = "redlock"
	// LockingRedlockNoFence is what a Rails app gets from redlock-rb alone: the same Redlock
	// lease per analysis as redlock (same key, same TTL) but never renewed, no fencing token, and
	// nothing stops the work when the lease runs out; the zip is written in place in pieces and
	// the extraction skips existing files, as in none, only under the lease. A holder stalled
	// past the TTL (a GC pause, a frozen VM) writes after another replica took the lock.
	LockingRedlockNoFence Locking = "redlock-nofence"
)

// QueueMode says where the job API keeps its jobs.
type QueueMode string

// Queue modes.
const (
	// QueueLocal is elb-openapi's process-local dict: the ceiling holds per replica only.
	QueueLocal QueueMode = "local"
	// QueueShared keeps one queue and one ceiling for every replica in Redis (the fixed service).
	QueueShared QueueMode = "shared"
	// QueueSplit is the naive fix of the local queue: each replica keeps its own dict but admits
	// only max(1, MaxActive/Replicas) jobs at once. The ceiling holds (unless there are more
	// replicas than MaxActive: each still admits one), but a job queued on a busy replica waits
	// while another replica idles below the ceiling (stranded).
	QueueSplit QueueMode = "split"
)

// Defaults of Config, as in the seeds and chosen so that races show on two cores.
const (
	DefaultMaxPool     = 154
	DefaultMaxRequests = 13125
	DefaultMaxActive   = 2
	DefaultJobDuration = time.Second
	DefaultUploadChunk = 4096
	// DefaultWriteDelay is the CLI's pause after each piece of a write (Config's zero is none).
	DefaultWriteDelay = time.Millisecond
	DefaultMaxBody    = 64 << 20
	DefaultLockTTL    = lock.DefaultTTL
	// DefaultBackgroundInterval is how long an idle background worker sleeps between polls of its
	// queues: Resque's INTERVAL default.
	DefaultBackgroundInterval = 5 * time.Second
	// DefaultSplitJobDurationSkew is the CLI's --job-duration-skew with --queue split (0 with the
	// other queue modes): replica i's jobs run (1+i) times --job-duration, so that with
	// round-robin routing one replica drains its queue while another still has jobs queued.
	DefaultSplitJobDurationSkew = 1.0
	// MaxJobDurationSkew bounds JobDurationSkew.
	MaxJobDurationSkew = 100.0
)

// Config configures one replica.
type Config struct {
	// StateDir is the shared directory; server/ under it is laid out like /mnt/openstudio and db/
	// holds the records.
	StateDir string
	// Replica is this replica's index (0 to Replicas-1), shown by GET /status.
	Replica int
	// Replicas is how many replicas serve the state directory; the split queue divides MaxActive
	// by it. The default is 1.
	Replicas int
	// Locking is the storage mode. The default is none.
	Locking Locking
	// Queue is the job queue mode. The default is local.
	Queue QueueMode
	// Masters are the Redis masters (at least one: the background worker's Resque queues live on
	// the first, as do the shared queue's records; redlock and redlock-nofence lock on all of
	// them).
	Masters []redis.UniversalClient
	// Namespace separates the Redis keys of one sandbox run from another's.
	Namespace string
	// LockTTL is the Redlock TTL of modes redlock (renewed while held) and redlock-nofence (never
	// renewed). The default is 10s.
	LockTTL time.Duration
	// Host names the holder of locks (shown by `osctl locks inspect`). The default is pkg/lock's.
	Host string
	// MaxPool is how many requests are processed at once (passenger_max_pool_size). The default
	// is 154.
	MaxPool int
	// MaxRequests is how many requests may wait for the pool (passenger_max_request_queue_size);
	// past it the answer is 503 "Request queue full". 0 means no limit (osctl sandbox
	// up passes 13125, the seed's value).
	MaxRequests int
	// MaxActive is the job ceiling (ELB_OPENAPI_MAX_ACTIVE_SUBMISSIONS) of the whole service. The
	// local queue enforces it per replica, the split queue enforces max(1, MaxActive/Replicas) per
	// replica, the shared queue enforces it across replicas. The default is 2.
	MaxActive int
	// JobDuration is how long a job runs (on replica 0, see JobDurationSkew). The default is 1s.
	JobDuration time.Duration
	// JobDurationSkew makes replica i's jobs run JobDuration*(1+JobDurationSkew*i), as on nodes
	// of unequal speed: deterministic imbalance between replicas, which is what strands jobs on a
	// split queue. 0 (the default) gives every replica the same duration.
	JobDurationSkew float64
	// Hold is how long to stay inside each critical section (after taking its lock, if any).
	Hold time.Duration
	// UploadChunk is the size of each piece of a non-atomic write. The default is 4096.
	UploadChunk int
	// WriteDelay is the pause after each piece of a write; 0 means none (osctl sandbox up passes
	// DefaultWriteDelay, which makes races reproducible on two cores).
	WriteDelay time.Duration
	// MaxBody bounds a request body; larger ones get 413. The default is 64 MiB.
	MaxBody int64
	// BackgroundInterval is how long the background worker (resque:work beside Passenger) sleeps
	// when its queues are empty. The default is DefaultBackgroundInterval.
	BackgroundInterval time.Duration
	// NoZipRewrite turns off the extraction's sort-rewrite of a seed zip whose entries are not
	// in name order (rubyzip's Zip.sort_entries plus commit-on-close, which the real server did
	// until upstream's fix, PR #863). The zero value rewrites, as the real server did.
	NoZipRewrite bool
	// DropCreates is the fraction (0 to 1) of analysis and data point creates that answer 201
	// but are never stored, chosen from the id: a lossy twin for checking that a stress run
	// finds lost records. 0 (the default) stores every create.
	DropCreates float64
	// Jobs configures the job API: its token, dispatch tick, watchdog and requeues.
	Jobs JobsConfig
	// Logf receives one line per notable event (refused fenced writes, lost leases, failures).
	// The default discards them.
	Logf func(format string, args ...any)
}

// DefaultConfig returns the sandbox's defaults, their one home: the flag defaults of `osctl
// sandbox up` and `serve`, and what withDefaults gives a zero field (but for MaxRequests and
// WriteDelay, whose zero means no limit and no pause).
func DefaultConfig() Config {
	return Config{
		Replicas: 1, Locking: LockingNone, Queue: QueueLocal, Namespace: "default",
		LockTTL: DefaultLockTTL, MaxPool: DefaultMaxPool, MaxRequests: DefaultMaxRequests, MaxActive: DefaultMaxActive,
		JobDuration: DefaultJobDuration, UploadChunk: DefaultUploadChunk, WriteDelay: DefaultWriteDelay, MaxBody: DefaultMaxBody,
		BackgroundInterval: DefaultBackgroundInterval,
		Jobs:               JobsConfig{}.withDefaults(),
	}
}

// withDefaults fills the zero fields of c from DefaultConfig (MaxRequests and WriteDelay stay 0).
func (c Config) withDefaults() Config {
	d := DefaultConfig()
	orDefault(&c.Locking, d.Locking)
	orDefault(&c.Queue, d.Queue)
	orDefault(&c.Namespace, d.Namespace)
	orDefault(&c.Replicas, d.Replicas)
	orDefault(&c.MaxPool, d.MaxPool)
	orDefault(&c.MaxActive, d.MaxActive)
	orDefault(&c.UploadChunk, d.UploadChunk)
	orDefault(&c.MaxBody, d.MaxBody)
	orDefault(&c.LockTTL, d.LockTTL)
	orDefault(&c.JobDuration, d.JobDuration)
	orDefault(&c.BackgroundInterval, d.BackgroundInterval)
	if c.Logf == nil {
		c.Logf = func(string, ...any) {}
	}
	c.Jobs = c.Jobs.withDefaults()
	return c
}

// orDefault sets *v to def when *v is the zero value.
func orDefault[T comparable](v *T, def T) {
	var zero T
	if *v == zero {
		*v = def
	}
}

// Lockings are the locking modes, and QueueModes the queue modes, in the order they are named.
var (
	Lockings   = []Locking{LockingNone, LockingLocal, LockingRedlock, LockingRedlockNoFence}
	QueueModes = []QueueMode{QueueLocal, QueueSplit, QueueShared}
)

// OneOf names the modes for a message: "a, b or c".
func OneOf[T ~string](modes []T) string {
	names := make([]string, len(modes))
	for i, m := range modes {
		names[i] = string(m)
	}
	if len(names) < 2 {
		return strings.Join(names, "")
	}
	return strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
}

// Validate checks c (after defaults) and says what is wrong in one line.
func (c Config) Validate() error {
	c = c.withDefaults()
	if !slices.Contains(Lockings, c.Locking) {
		return fmt.Errorf("locking mode %q is not %s", c.Locking, OneOf(Lockings))
	}
	if !slices.Contains(QueueModes, c.Queue) {
		return fmt.Errorf("queue mode %q is not %s", c.Queue, OneOf(QueueModes))
	}
	if c.Replicas < 1 || c.Replica < 0 || c.Replica >= c.Replicas {
		return fmt.Errorf("replica index %d must be at least 0 and below the replica count %d", c.Replica, c.Replicas)
	}
	if c.JobDurationSkew < 0 || c.JobDurationSkew > MaxJobDurationSkew {
		return fmt.Errorf("job duration skew %v must be 0 to %v", c.JobDurationSkew, MaxJobDurationSkew)
	}
	if c.StateDir == "" {
		return fmt.Errorf("no state directory given")
	}
	if len(c.Masters) == 0 {
		return fmt.Errorf("no Redis master given: the background worker takes InitializeAnalysis jobs from Redis (and the redlock lock mode and the shared queue keep their state there)")
	}
	if c.BackgroundInterval < 0 {
		return fmt.Errorf("background interval %v must not be negative", c.BackgroundInterval)
	}
	if !(c.DropCreates >= 0 && c.DropCreates <= 1) { // also refuses NaN
		return fmt.Errorf("drop fraction %v must be 0 to 1", c.DropCreates)
	}
	if c.MaxPool < 1 || c.MaxRequests < 0 || c.MaxActive < 1 {
		return fmt.Errorf("max pool (%d) and max active (%d) must be at least 1, max requests (%d) at least 0", c.MaxPool, c.MaxActive, c.MaxRequests)
	}
	if c.UploadChunk < 1 || c.WriteDelay < 0 || c.Hold < 0 || c.JobDuration < 0 || c.MaxBody < 1 {
		return fmt.Errorf("upload chunk, write delay, hold, job duration and max body must not be negative")
	}
	return c.Jobs.Validate()
}

// replicaJobDuration is how long a job runs on this replica: JobDuration stretched by the skew.
func (c Config) replicaJobDuration() time.Duration {
	return time.Duration(float64(c.JobDuration) * (1 + c.JobDurationSkew*float64(c.Replica)))
}

// replicaMaxActive is how many jobs this replica admits by itself: the whole ceiling with the
// local queue, its share max(1, MaxActive/Replicas) with the split queue, and 0 with the shared
// queue (admission is global there).
func (c Config) replicaMaxActive() int {
	switch c.Queue {
	case QueueLocal:
		return c.MaxActive
	case QueueSplit:
		return max(1, c.MaxActive/c.Replicas)
	}
	return 0
}
