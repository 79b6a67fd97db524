package history

import "time"

// Leftovers is what the run found, after its load, that a dead holder may have left behind
// (osctl stress --nemesis): lock files without their receipt and .osctl-tmp-* files in the run's
// directories, and the locks on the sandbox's Redis masters. The run records it in the footer
// (Footer.Leftovers) so that `osctl stress judge` reports the same: Redis cannot be re-read
// offline, and the files may have been cleaned since.
type Leftovers struct {
	// ReadAt is when they were read (after the state the verdict judges).
	ReadAt     time.Time      `json:"read_at"`
	LockFiles  []LeftoverFile `json:"lock_files"`
	TempFiles  []LeftoverFile `json:"temp_files"`
	RedisLocks []LeftoverLock `json:"redis_locks"`
	// Warnings say what could not be read (a directory, the masters), and why.
	Warnings []string `json:"warnings,omitempty"`
}

// LeftoverFile is one lock file without its receipt, or one temp file, in the run's directories.
type LeftoverFile struct {
	// Path is relative to the state directory (server/assets/analyses/<id>/original/...).
	Path string `json:"path"`
	// Status is, for a lock file, stale (nobody flocks it) or held (flocked right now); empty for
	// a temp file.
	Status  string    `json:"status,omitempty"`
	Dir     bool      `json:"dir,omitempty"` // a temp directory (an extraction built aside)
	Size    int64     `json:"size"`
	ModTime time.Time `json:"mod_time"`
}

// LeftoverLock is one lock on the sandbox's Redis masters when the run read them.
type LeftoverLock struct {
	Key      string `json:"key"`
	Analysis string `json:"analysis,omitempty"`
	// Value is the holder value (osctl:v1:<host>:<pid>:<random>); HolderPID the pid it names.
	Value     string `json:"value"`
	HolderPID int    `json:"holder_pid,omitempty"`
	// Held is how many masters hold Value, of Masters; TTLMillis the longest TTL left on them.
	Held      int   `json:"held"`
	Masters   int   `json:"masters"`
	TTLMillis int64 `json:"ttl_ms"`
	// Status is stale (its holder is gone, or `osctl locks inspect` calls it stale) or live.
	Status string `json:"status"`
	Reason string `json:"reason"`
}
