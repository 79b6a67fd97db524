// Package ops inspects and safely breaks Redis locks made by redsync, redlock-rb, plain
// `SET NX PX` leases and osctl's own pkg/lock, over 1..N independent masters. It is a pipeline:
// scan (SCAN MATCH per master, pipelined GET + PTTL, streamed) -> group (one View per key) ->
// classify (a Verdict with its reason) -> break (a server-side compare-and-delete that re-checks
// the stale condition) -> audit (one AuditRecord per break, appended to the osctl:audit stream).
// It prints nothing and never prompts.
package ops

import (
	"strconv"
	"time"
	"unicode/utf8"

	"github.com/osctl/osctl/pkg/lock"
)

// TTL sentinels of Holding.TTLMillis, as Redis's PTTL returns them.
const (
	NoTTL  int64 = -1 // the key exists and has no expiry
	Absent int64 = -2 // the key does not exist
)

// Holding is what one master holds under a key.
type Holding struct {
	Master string `json:"master"`
	// Node is the server the key was read on when the master is a cluster (the shard owning its
	// slot) or Sentinel-managed (the master the sentinels named), as host:port.
	Node      string `json:"node,omitempty"`
	Present   bool   `json:"present"`
	Type      string `json:"type,omitempty"`  // Redis type when present: string, hash, list, ...
	Value     string `json:"value,omitempty"` // the string value (locks only)
	TTLMillis int64  `json:"ttlMs"`           // PTTL: -1 no expiry, -2 absent
	Error     string `json:"error,omitempty"` // why this master could not be read (redacted)
}

// Reachable reports whether the master answered for this key.
func (h Holding) Reachable() bool { return h.Error == "" }

// Flavour says which library most likely wrote a lock value.
type Flavour string

// The value flavours inspect recognises.
const (
	FlavourRedlockRb Flavour = "redlock-rb" // SecureRandom.uuid
	FlavourRedsync   Flavour = "redsync"    // base64 of 16 random bytes
	FlavourOsctl     Flavour = "osctl"      // osctl:v1:<host>:<pid>:<random> (pkg/lock)
	FlavourUnknown   Flavour = "unknown"    // anything else, e.g. a worker id in a plain lease
)

// Status is the verdict on one key.
type Status string

// The verdicts. Only StatusStale may be broken without --force; a not-a-lock key never is, save
// a string with no TTL (RuleNoTTLUnknownValue) named with --force.
const (
	StatusLive     Status = "live"
	StatusStale    Status = "stale"
	StatusLongTTL  Status = "long-ttl"   // TTL above the allowed maximum: reported, not stale
	StatusNotALock Status = "not-a-lock" // a hash, list, ..., a key osctl owns, or a string with no TTL and no lock's value
)

// Rule names the condition that decided a verdict; it is stable (scripts may match on it).
type Rule string

// The rules, in the order they are tried.
const (
	RuleInternal  Rule = "osctl-internal" // a key under osctl: (fencing counter, audit stream)
	RuleNotString Rule = "not-a-string"   // a hash, list, set, zset or stream
	RuleNoTTL     Rule = "no-ttl"         // PTTL -1 on a master: no lock library writes that
	// RuleNoTTLUnknownValue: PTTL -1 and a value of no known lock library: not taken for a lock
	// (a session, a cache entry); broken only when named with --force.
	RuleNoTTLUnknownValue Rule = "no-ttl-unknown-value"
	RuleHolderGone        Rule = "holder-gone" // the osctl holder's pod is gone from the namespace its value records
	RuleMinority          Rule = "minority"    // held on fewer masters than a quorum, twice, a retry window apart
	RuleLongTTL           Rule = "long-ttl"    // TTL above the maximum
	RuleLive              Rule = "live"
)

// Verdict is the classification of one key with a reason a person can act on.
type Verdict struct {
	Status Status `json:"status"`
	Rule   Rule   `json:"rule"`
	Reason string `json:"reason"`
}

// View is everything inspect knows about one key across all masters.
type View struct {
	Key string `json:"key"`
	// KeyQuoted is the key quoted Go-style (strconv.Quote), set only when it is not valid UTF-8
	// (JSON would replace its odd bytes); `osctl locks break` accepts it as a KEY.
	KeyQuoted string `json:"keyQuoted,omitempty"`
	Type      string `json:"type"` // "string" for locks, else the Redis type seen
	Value     string `json:"value,omitempty"`
	// ValueQuoted is the value quoted Go-style, set only when it is not valid UTF-8.
	ValueQuoted string       `json:"valueQuoted,omitempty"`
	Flavour     Flavour      `json:"flavour,omitempty"`
	Holder      *lock.Holder `json:"holder,omitempty"`
	AnalysisID  string       `json:"analysisId,omitempty"`
	Step        string       `json:"step,omitempty"`
	Held        int          `json:"held"`    // masters holding Value
	Masters     int          `json:"masters"` // all masters, reachable or not
	Quorum      bool         `json:"quorum"`  // Value on a majority of all masters
	Holdings    []Holding    `json:"holdings"`
	Verdict     Verdict      `json:"verdict"`
	// ReadAtUnixMs is when the masters were read (the last read for a key read twice).
	ReadAtUnixMs int64 `json:"readAtUnixMs"`
	// readAt is when the read returned, on the reader's clock (monotonic with time.Now): the
	// break's re-check subtracts the time since from the TTL read.
	readAt time.Time
}

// QuorumOf returns the majority of n masters, n/2+1, as Redlock defines it.
func QuorumOf(n int) int { return n/2 + 1 }

// unreachable counts the masters that could not be read for this key.
func (v *View) unreachable() int {
	n := 0
	for _, h := range v.Holdings {
		if !h.Reachable() {
			n++
		}
	}
	return n
}

// present reports whether any master holds the key.
func (v *View) present() bool {
	for _, h := range v.Holdings {
		if h.Present {
			return true
		}
	}
	return false
}

// group fills the derived fields of v from its holdings: the value held on the most masters,
// how many hold it, quorum, the key's parsed parts and the value's flavour.
func (v *View) group() {
	v.Masters = len(v.Holdings)
	v.Type, v.Value, v.Held = "", "", 0
	for _, h := range v.Holdings {
		if h.Present && h.Type != "string" {
			v.Type = h.Type
		}
	}
	// The value on the most masters; the first master breaks ties. Masters are few: no map.
	for i, h := range v.Holdings {
		if !h.Present || h.Type != "string" {
			continue
		}
		n := 0
		for _, o := range v.Holdings[i:] {
			if o.Present && o.Type == "string" && o.Value == h.Value {
				n++
			}
		}
		if n > v.Held {
			v.Value, v.Held = h.Value, n
		}
	}
	if v.Type == "" && v.Held > 0 {
		v.Type = "string"
	}
	v.Quorum = v.Held >= QuorumOf(v.Masters)
	v.AnalysisID, v.Step = ParseKey(v.Key)
	v.KeyQuoted, v.ValueQuoted = quoteInvalid(v.Key), quoteInvalid(v.Value)
	v.Flavour, v.Holder = "", nil
	if v.Type == "string" {
		v.Flavour, v.Holder = FlavourOf(v.Value)
	}
}

// quoteInvalid returns s quoted Go-style when it is not valid UTF-8, else "".
func quoteInvalid(s string) string {
	if utf8.ValidString(s) {
		return ""
	}
	return strconv.Quote(s)
}
