// Package lock is a Redlock library for services that share files across replicas: a mutex over
// 1..N independent Redis masters (redsync underneath) with auto-renewal that cancels the holder's
// context when the lock is lost, compare-and-delete release, holder values an operator can read,
// monotonic fencing tokens, and a lease-based admission semaphore. It prints nothing and knows
// nothing of the command line.
package lock

import (
	"fmt"
	"strings"
	"time"
)

// TTL bounds from the migration's design: short locks, renewed while held.
const (
	DefaultTTL = 10 * time.Second
	MinTTL     = 5 * time.Second
	MaxTTL     = 30 * time.Second
)

// KeyPrefix starts every Redlock key of OpenStudio Server's file-level critical sections.
const KeyPrefix = "redlock:"

// NamespacePrefix starts every key osctl itself owns (fencing counters, semaphores, the audit
// stream); it is outside the default inspect patterns.
const NamespacePrefix = "osctl:"

// Key returns the lock key for one step of one analysis: redlock:<analysis_id>:<step>.
func Key(analysisID, step string) string {
	return KeyPrefix + analysisID + ":" + step
}

// ParseKey splits redlock:<analysis_id>:<step>. The step is the part after the last colon, so
// analysis ids may contain colons; ok is false for keys of another shape.
func ParseKey(key string) (analysisID, step string, ok bool) {
	rest, found := strings.CutPrefix(key, KeyPrefix)
	if !found {
		return "", "", false
	}
	i := strings.LastIndexByte(rest, ':')
	if i <= 0 || i == len(rest)-1 {
		return "", "", false
	}
	return rest[:i], rest[i+1:], true
}

// CheckTTL returns an error when ttl is outside [MinTTL, MaxTTL] and allowAny is false.
func CheckTTL(ttl time.Duration, allowAny bool) error {
	if ttl <= 0 {
		return fmt.Errorf("lock TTL %v must be positive", ttl)
	}
	if !allowAny && (ttl < MinTTL || ttl > MaxTTL) {
		return fmt.Errorf("lock TTL %v is outside %v-%v (use WithAnyTTL to allow it)", ttl, MinTTL, MaxTTL)
	}
	return nil
}
