// Package sandbox serves an OpenStudio-Server-like API (projects, analyses, zip upload and
// extraction, data points, result files) and the elb-openapi job API over one state directory laid
// out like /mnt/openstudio. Several replicas (separate processes) can share the directory; how they
// write it is chosen by a locking mode (none and local keep the real app's races, redlock is the
// fixed app built on pkg/lock), and where the job queue lives by a queue mode (local per replica,
// or shared in Redis). It prints nothing and knows nothing of the command line.
package sandbox

import (
	"fmt"
	"time"

	"github.com/redis/go-redis/v9"
)

// Locking says how a replica serialises the writes of one analysis's zip and extraction.
type Locking string

// Locking modes, from the stress contract's section 2.
const (
	// LockingNone is the real app: zip written in place in pieces, extraction skips existing
	// files, nothing serialises them.
	LockingNone Locking = "none"
	// LockingLocal adds a process-local mutex per analysis: safe with one replica only.
	LockingLocal Locking = "local"
	// LockingRedlock is the fixed app: a Redlock lease per analysis, atomic writes, extraction
	// replacing the directory whole, fencing tokens recorded with each write.
	LockingRedlock Locking = "redlock"
)

// QueueMode says where the job API keeps its jobs.
type QueueMode string

// Queue modes.
const (
	// QueueLocal is elb-openapi's process-local dict: the ceiling holds per replica only.
	QueueLocal QueueMode = "local"
	// QueueShared keeps jobs in Redis and admits them through a Redis semaphore.
	QueueShared QueueMode = "shared"
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
	DefaultLockTTL    = 10 * time.Second
)

// Config configures one replica.
type Config struct {
	// StateDir is the shared directory; server/ under it is laid out like /mnt/openstudio and db/
	// holds the records.
	StateDir string
	// Replica is this replica's index, shown by GET /status.
	Replica int
	// Locking is the storage mode. The default is none.
	Locking Locking
	// Queue is the job queue mode. The default is local.
	Queue QueueMode
	// Masters are the Redis masters (needed by redlock and the shared queue). The shared queue
	// keeps its records on the first one.
	Masters []redis.UniversalClient
	// Namespace separates the Redis keys of one sandbox run from another's.
	Namespace string
	// LockTTL is the Redlock TTL. The default is 10s.
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
	// MaxActive is the job ceiling (ELB_OPENAPI_MAX_ACTIVE_SUBMISSIONS). The default is 2.
	MaxActive int
	// JobDuration is how long a job runs. The default is 1s.
	JobDuration time.Duration
	// Hold is how long to stay inside each critical section (after taking its lock, if any).
	Hold time.Duration
	// UploadChunk is the size of each piece of a non-atomic write. The default is 4096.
	UploadChunk int
	// WriteDelay is the pause after each piece of a write; 0 means none (osctl sandbox up passes
	// DefaultWriteDelay, which makes races reproducible on two cores).
	WriteDelay time.Duration
	// MaxBody bounds a request body; larger ones get 413. The default is 64 MiB.
	MaxBody int64
	// Logf receives one line per notable event (refused fenced writes, lost leases, failures).
	// The default discards them.
	Logf func(format string, args ...any)
}

// withDefaults fills the zero fields of c.
func (c Config) withDefaults() Config {
	if c.Locking == "" {
		c.Locking = LockingNone
	}
	if c.Queue == "" {
		c.Queue = QueueLocal
	}
	if c.LockTTL == 0 {
		c.LockTTL = DefaultLockTTL
	}
	if c.MaxPool == 0 {
		c.MaxPool = DefaultMaxPool
	}
	if c.MaxActive == 0 {
		c.MaxActive = DefaultMaxActive
	}
	if c.JobDuration == 0 {
		c.JobDuration = DefaultJobDuration
	}
	if c.UploadChunk == 0 {
		c.UploadChunk = DefaultUploadChunk
	}
	if c.MaxBody == 0 {
		c.MaxBody = DefaultMaxBody
	}
	if c.Namespace == "" {
		c.Namespace = "default"
	}
	if c.Logf == nil {
		c.Logf = func(string, ...any) {}
	}
	return c
}

// Validate checks c (after defaults) and says what is wrong in one line.
func (c Config) Validate() error {
	c = c.withDefaults()
	switch c.Locking {
	case LockingNone, LockingLocal, LockingRedlock:
	default:
		return fmt.Errorf("locking mode %q is not none, local or redlock", c.Locking)
	}
	switch c.Queue {
	case QueueLocal, QueueShared:
	default:
		return fmt.Errorf("queue mode %q is not local or shared", c.Queue)
	}
	if c.StateDir == "" {
		return fmt.Errorf("no state directory given")
	}
	if (c.Locking == LockingRedlock || c.Queue == QueueShared) && len(c.Masters) == 0 {
		return fmt.Errorf("locking %s / queue %s needs at least one Redis master", c.Locking, c.Queue)
	}
	if c.MaxPool < 1 || c.MaxRequests < 0 || c.MaxActive < 1 {
		return fmt.Errorf("max pool (%d) and max active (%d) must be at least 1, max requests (%d) at least 0", c.MaxPool, c.MaxActive, c.MaxRequests)
	}
	if c.UploadChunk < 1 || c.WriteDelay < 0 || c.Hold < 0 || c.JobDuration < 0 || c.MaxBody < 1 {
		return fmt.Errorf("upload chunk, write delay, hold, job duration and max body must not be negative")
	}
	return nil
}
