// Package nemesis injects faults into a stress run's target while the load runs, as Jepsen's
// nemesis does: replicas killed or paused, Redis restarted or paused, on a schedule given as
// KIND@AT[+FOR]. It knows nothing of the CLI; the stress run starts Run with the load. It is a
// leaf: the injectors beneath it (pkg/sandbox's processes, pkg/k8s's pods) implement its Injector,
// as redsync's adapters implement its redis interface, and pkg/stress drives it.
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
	// PauseHolder SIGSTOPs, for FOR, a replica that holds a lock at the moment it is hit: a
	// holder stalled inside its critical section while its lease runs out.
	PauseHolder Kind = "pause-holder"
	// KillHolder SIGKILLs (on Kubernetes deletes the pod of) a replica that holds a lock.
	KillHolder Kind = "kill-holder"
)

// Kinds lists every kind, in the order the help names them.
var Kinds = []Kind{KillReplica, PauseReplica, RestartRedis, PauseRedis, PauseHolder, KillHolder}

// Target is what a kind of fault hits.
type Target string

// The targets of a fault.
const (
	// Replica is a web replica chosen by the seeded generator.
	Replica Target = "replica"
	// Holder is the web replica that holds a lock when the fault is due.
	Holder Target = "holder"
	// Redis is a Redis master chosen by the seeded generator.
	Redis Target = "redis"
)

// kinds says, once for each kind, what it hits and whether it stops a process for FOR (else it
// kills one, or deletes its pod).
var kinds = map[Kind]struct {
	target Target
	pauses bool
}{
	KillReplica:  {Replica, false},
	PauseReplica: {Replica, true},
	RestartRedis: {Redis, false},
	PauseRedis:   {Redis, true},
	PauseHolder:  {Holder, true},
	KillHolder:   {Holder, false},
}

// Target says what the kind hits ("" for an unknown kind).
func (k Kind) Target() Target { return kinds[k].target }

// Pauses says whether the kind stops a process for FOR (and takes +FOR).
func (k Kind) Pauses() bool { return kinds[k].pauses }

// Kills says whether the kind kills a process (or deletes its pod).
func (k Kind) Kills() bool { return k.Target() != "" && !k.Pauses() }

// HitsRedis says whether the kind hits a Redis master rather than a web replica.
func (k Kind) HitsRedis() bool { return k.Target() == Redis }

// TargetsHolder says whether the kind hits the replica that holds a lock when it is due,
// rather than one chosen by the seeded generator.
func (k Kind) TargetsHolder() bool { return k.Target() == Holder }

// HolderWait bounds how long after AT a holder kind waits for a lock to be held.
const HolderWait = 10 * time.Second

// MaxPause bounds FOR: a process stopped longer than this is a hung test, not a fault.
const MaxPause = 10 * time.Minute

// Outcomes of a fault.
const (
	// Done: the fault was injected (and a pause ended).
	Done = "done"
	// NotInjected: the fault was due after the load had ended.
	NotInjected = "not injected: due after the load ended"
	// NoHolder: a holder kind found no lock held within HolderWait of AT (or before the load
	// ended).
	NoHolder = "not injected: no holder"
)

// Fault is one scheduled fault and, once Run returns, what became of it.
type Fault struct {
	Kind Kind `json:"kind"`
	// At is when the fault is due, from the start of the load; For how long a pause lasts.
	At  Duration `json:"at"`
	For Duration `json:"for,omitempty"`
	// Target names the process hit ("replica 1 (pid 4242)"), chosen by the seeded generator
	// (or, for a holder kind, the replica that held Lock).
	Target string `json:"target,omitempty"`
	// Lock is the lock whose holder a holder kind hit.
	Lock *HeldLock `json:"lock,omitempty"`
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
	if f.Kind.Target() == "" {
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
		return Fault{}, fmt.Errorf("fault %q: %s takes no +FOR (only %s last)", item, f.Kind, pauseList())
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

func pauseList() string {
	var s []string
	for _, k := range Kinds {
		if k.Pauses() {
			s = append(s, string(k))
		}
	}
	return strings.Join(s, ", ")
}

func kindList() string {
	s := make([]string, len(Kinds))
	for i, k := range Kinds {
		s[i] = string(k)
	}
	return strings.Join(s, ", ")
}
