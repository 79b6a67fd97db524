package ops

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/osctl/osctl/pkg/lock"
)

// Conditions are the facts about a key that one read of the masters cannot give.
type Conditions struct {
	// MaxTTL is the longest TTL a lock may have before it is reported as long. The default is
	// lock.MaxTTL.
	MaxTTL time.Duration
	// SecondRead is set when the view comes from a re-read at least one retry window after a
	// first read that found the value on fewer masters than a quorum.
	SecondRead bool
	// MinorityConfirmed is set when both reads found the same value on fewer masters than a
	// quorum: not an acquisition in progress.
	MinorityConfirmed bool
	// Window is the time between the two reads, for the reason text.
	Window time.Duration
	// HolderGone names the pod of an osctl holder value that is known gone from the namespace
	// its value records, as "<pod> in namespace <ns>" ("" if alive or unknown).
	HolderGone string
}

// Minority reports whether v's value is on fewer masters than a quorum even if every unreachable
// master held it too: then no holder can have the lock, and it is debris unless an acquisition
// is in progress.
func Minority(v View) bool {
	return v.Type == "string" && v.Held > 0 && v.Held+v.unreachable() < QuorumOf(v.Masters)
}

// Classify returns the verdict on v. It is a pure function of the view and the conditions.
func Classify(v View, c Conditions) Verdict {
	if c.MaxTTL <= 0 {
		c.MaxTTL = lock.MaxTTL
	}
	if strings.HasPrefix(v.Key, lock.NamespacePrefix) {
		return Verdict{StatusNotALock, RuleInternal, "a key under " + lock.NamespacePrefix + " belongs to osctl (fencing counter, semaphore or audit stream), not a lock"}
	}
	if v.Type != "string" {
		return Verdict{StatusNotALock, RuleNotString, fmt.Sprintf("a %s, not a string: no lock library writes one, so it is never treated as a lock", v.Type)}
	}
	var noTTL []string
	foreign := false // a value without a TTL that no known lock library writes
	var maxTTL int64 = -2
	for _, h := range v.Holdings {
		if !h.Present || h.Type != "string" {
			continue
		}
		if h.TTLMillis == NoTTL {
			where := h.Master
			if h.Node != "" {
				where = h.Node // the shard, or Sentinel's master: the NODE column's server
			}
			noTTL = append(noTTL, where)
			if !lockShaped(v.Key, h.Value) {
				foreign = true
			}
		}
		if h.Value == v.Value && h.TTLMillis > maxTTL {
			maxTTL = h.TTLMillis
		}
	}
	if len(noTTL) > 0 {
		if foreign {
			return Verdict{StatusNotALock, RuleNoTTLUnknownValue, fmt.Sprintf("a string with no TTL on %s whose value no known lock library writes (osctl, redlock-rb, redsync, a worker id under a lock key): not taken for a lock (a session or cache entry?)", strings.Join(noTTL, ", "))}
		}
		return Verdict{StatusStale, RuleNoTTL, fmt.Sprintf("no TTL on %s: redsync, redlock-rb and SET NX PX always set one, so it would never expire", strings.Join(noTTL, ", "))}
	}
	if c.HolderGone != "" {
		return Verdict{StatusStale, RuleHolderGone, fmt.Sprintf("holder pod %s no longer exists", c.HolderGone)}
	}
	q := QuorumOf(v.Masters)
	if Minority(v) {
		if c.MinorityConfirmed {
			return Verdict{StatusStale, RuleMinority, fmt.Sprintf("held on %d of %d masters (quorum %d) on two reads %v apart: debris of a failed acquisition or release", v.Held, v.Masters, q, c.Window.Round(time.Millisecond))}
		}
		if c.SecondRead {
			return Verdict{StatusLive, RuleMinority, fmt.Sprintf("held on %d of %d masters (quorum %d) but the value changed between reads: an acquisition in progress", v.Held, v.Masters, q)}
		}
		return Verdict{StatusLive, RuleMinority, fmt.Sprintf("held on %d of %d masters (quorum %d), not re-read yet: maybe an acquisition in progress", v.Held, v.Masters, q)}
	}
	ttl := time.Duration(maxTTL) * time.Millisecond
	if ttl > c.MaxTTL {
		return Verdict{StatusLongTTL, RuleLongTTL, "TTL " + ttl.Round(time.Millisecond).String() + " above the " + c.MaxTTL.String() + " maximum: reported, not stale (it expires by itself)"}
	}
	// The common case, built without fmt: inspect classifies every key it streams.
	reason := "held on " + strconv.Itoa(v.Held) + " of " + strconv.Itoa(v.Masters) + " masters, TTL " + ttl.Round(time.Millisecond).String()
	if !v.Quorum {
		reason += fmt.Sprintf("; quorum unknown: %d master(s) unreachable", v.unreachable())
	}
	return Verdict{StatusLive, RuleLive, reason}
}

// lockShaped reports whether value, held under key, has the shape of a lock library's value:
// osctl's holder, redlock-rb's UUID, redsync's base64, or a plain SET NX PX lease of a worker
// id (host:pid[:queues], as Resque names workers) under a lock key (redlock:<id>:<step>, or
// upstream OpenStudio's analysis:<id>:init_lock). A string without a TTL is taken for a lock only
// then: anything else may be a session or a cache entry.
func lockShaped(key, value string) bool {
	if f, _ := FlavourOf(value); f != FlavourUnknown {
		return true
	}
	if id, _ := ParseKey(key); id == "" {
		return false
	}
	parts := strings.SplitN(value, ":", 3)
	if len(parts) < 2 || !lock.IsPodName(strings.ToLower(parts[0])) {
		return false
	}
	_, err := strconv.ParseUint(parts[1], 10, 31)
	return err == nil
}
