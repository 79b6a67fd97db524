// Package nemesis injects faults into a stress run's target while the load runs, as Jepsen's
// nemesis does: replicas killed or paused, Redis restarted or paused, on a schedule given as
// KIND@AT[+FOR]. It knows nothing of the CLI; the stress run starts Run with the load.
package nemesis

import (
	"fmt"
	"sort"
	"strings"
	"time"
)

// Kind is a kind of fault.
type Kind string

// The kinds of fault.
const (
	// KillReplica SIGKILLs one replica (its supervisor starts it again, as a Deployment would).
	KillReplica Kind = "kill-replica"
	// PauseReplica SIGSTOPs one replica for FOR, then SIGCONTs it: a GC pause, CPU throttling,
	// a frozen VM.
	PauseReplica Kind = "pause-replica"
	// RestartRedis kills one Redis master, which comes back empty (no persistence).
	RestartRedis Kind = "restart-redis"
	// PauseRedis SIGSTOPs one Redis master for FOR.
	PauseRedis Kind = "pause-redis"
)

// Kinds lists every kind, in the order the help names them.
var Kinds = []Kind{KillReplica, PauseReplica, RestartRedis, PauseRedis}

// Pauses says whether the kind stops a process for FOR (and takes +FOR).
func (k Kind) Pauses() bool { return k == PauseReplica || k == PauseRedis }

// MaxPause bounds FOR: a process stopped longer than this is a hung test, not a fault.
const MaxPause = 10 * time.Minute

// Outcomes of a fault.
const (
	// Done: the fault was injected (and a pause ended).
	Done = "done"
	// NotInjected: the fault was due after the load had ended.
	NotInjected = "not injected: due after the load ended"
)

// Fault is one scheduled fault and, once Run returns, what became of it.
type Fault struct {
	Kind Kind `json:"kind"`
	// At is when the fault is due, from the start of the load; For how long a pause lasts.
	At  Duration `json:"at"`
	For Duration `json:"for,omitempty"`
	// Target names the process hit ("replica 1 (pid 4242)"), chosen by the seeded generator.
	Target string `json:"target,omitempty"`
	// Outcome is Done, NotInjected, or "failed: ..." with the reason.
	Outcome string `json:"outcome,omitempty"`
	// Injected is when it was injected; Ended when a pause ended.
	Injected time.Time `json:"injected_at,omitzero"`
	Ended    time.Time `json:"ended_at,omitzero"`
	// InFlight is what the verdict found of the load requests the fault caught (set by the
	// judgement from the history's times, never written in a history).
	InFlight *InFlight `json:"in_flight,omitempty"`
}

// String is the fault as the schedule spells it.
func (f Fault) String() string {
	s := string(f.Kind) + "@" + f.At.String()
	if f.For > 0 {
		s += "+" + f.For.String()
	}
	return s
}

// Duration is a time.Duration that reads and writes itself as "5s" in JSON.
type Duration time.Duration

func (d Duration) String() string { return time.Duration(d).String() }

// MarshalText writes "5s".
func (d Duration) MarshalText() ([]byte, error) { return []byte(d.String()), nil }

// UnmarshalText reads what MarshalText wrote.
func (d *Duration) UnmarshalText(b []byte) error {
	v, err := time.ParseDuration(string(b))
	*d = Duration(v)
	return err
}

// Parse reads a schedule: comma-separated KIND@AT[+FOR], times as Go durations from the start
// of the load ("kill-replica@5s,pause-replica@10s+8s"). A pause needs FOR; a kill or a restart
// takes none. The faults are returned in the order they are due.
func Parse(spec string) ([]Fault, error) {
	var out []Fault
	for _, item := range strings.Split(spec, ",") {
		item = strings.TrimSpace(item)
		if item == "" {
			continue
		}
		f, err := parseOne(item)
		if err != nil {
			return nil, err
		}
		out = append(out, f)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("no fault in %q: give KIND@AT[+FOR], e.g. kill-replica@5s,pause-replica@10s+8s", spec)
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].At < out[j].At })
	return out, nil
}

func parseOne(item string) (Fault, error) {
	kind, when, ok := strings.Cut(item, "@")
	if !ok {
		return Fault{}, fmt.Errorf("fault %q has no @AT: write KIND@AT[+FOR], e.g. kill-replica@5s", item)
	}
	f := Fault{Kind: Kind(kind)}
	known := false
	for _, k := range Kinds {
		known = known || k == f.Kind
	}
	if !known {
		return Fault{}, fmt.Errorf("fault %q: unknown kind %q; use one of %s", item, kind, kindList())
	}
	at, dur, hasFor := strings.Cut(when, "+")
	v, err := time.ParseDuration(at)
	if err != nil || v < 0 {
		return Fault{}, fmt.Errorf("fault %q: AT %q is not a duration of 0 or more (e.g. 5s)", item, at)
	}
	f.At = Duration(v)
	switch {
	case hasFor && !f.Kind.Pauses():
		return Fault{}, fmt.Errorf("fault %q: %s takes no +FOR (only pause-replica and pause-redis last)", item, f.Kind)
	case !hasFor && f.Kind.Pauses():
		return Fault{}, fmt.Errorf("fault %q: %s needs +FOR, how long the pause lasts (e.g. %s@%s+8s)", item, f.Kind, f.Kind, at)
	case hasFor:
		d, err := time.ParseDuration(dur)
		if err != nil || d <= 0 || d > MaxPause {
			return Fault{}, fmt.Errorf("fault %q: FOR %q is not a duration above 0 and at most %v", item, dur, MaxPause)
		}
		f.For = Duration(d)
	}
	return f, nil
}

func kindList() string {
	s := make([]string, len(Kinds))
	for i, k := range Kinds {
		s[i] = string(k)
	}
	return strings.Join(s, ", ")
}
