package detect

import (
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/osctl/osctl/pkg/nemesis"
	"github.com/osctl/osctl/pkg/stress/history"
)

// Blocked is how long, at most, a killed or paused replica kept the others waiting on the
// analyses it was working on: the longest a load request on one of those analyses, other than
// those it caught (on another replica, or on the victim started again), waited after the fault hit (from the fault, or from its own start if later,
// to its answer). The replica was serving requests on them, so it may have held their locks; the
// wait also holds the request's own work, so it bounds the blocking from above.
type Blocked struct {
	Fault    string  `json:"fault"`
	Analysis string  `json:"analysis"`
	Seq      int64   `json:"seq"`
	Seconds  float64 `json:"seconds"`
}

// FaultsCaught returns the run's faults with InFlight set from the history's request times (a
// copy: the footer's faults stay as the run wrote them), and, for each kill or pause of a replica
// that caught requests on an analysis, how long it may have blocked the others. It is a pure
// function of the history, so a live run and `osctl stress judge` give the same. A profile that
// keeps no request records (http) gets its faults without InFlight: none were counted.
//
// A request is caught when it was sent before the fault hit (before a pause ended) and not
// answered before it hit (before a pause began, or never answered), on the replica the fault hit
// (the targets whose GET /status named that replica), or on any target for a Redis fault and
// where the history cannot tell which targets are the replica's.
func FaultsCaught(h *history.History) ([]nemesis.Fault, []Blocked) {
	if h.Footer == nil || len(h.Footer.Faults) == 0 {
		return nil, nil
	}
	faults := append([]nemesis.Fault(nil), h.Footer.Faults...)
	if !h.Header.Kind().Records {
		return faults, nil // no request records kept (the http profile): nothing to count them from
	}
	var blocked []Blocked
	for i := range faults {
		f := &faults[i]
		from, to, ok := faultWindow(*f, h.Footer.Finished)
		if !ok {
			continue
		}
		victims, scope := faultTargets(h, *f)
		caught := caughtBy(h, from, to, victims)
		f.InFlight = inFlightOf(scope, caught)
		if !f.Kind.HitsRedis() {
			if b, ok := blockedAfter(h, *f, from, caught); ok {
				blocked = append(blocked, b)
			}
		}
	}
	return faults, blocked
}

// faultWindow is when f could catch a request: the moment of a kill or restart, a pause's whole
// window (to the end of the run when its end was not recorded). ok is false for a fault that
// did nothing (not injected, or its injection failed).
func faultWindow(f nemesis.Fault, finished time.Time) (from, to time.Time, ok bool) {
	if f.Injected.IsZero() || (f.Outcome != nemesis.Done && !strings.HasPrefix(f.Outcome, "failed: resuming")) {
		return time.Time{}, time.Time{}, false
	}
	from, to = f.Injected, f.Injected
	if f.Kind.Pauses() {
		to = f.Ended
		if to.IsZero() {
			to = finished
		}
	}
	return from, to, true
}

// faultTargets are the targets (as the records name them) whose requests f could catch, nil for
// every target, and a line that says which.
func faultTargets(h *history.History, f nemesis.Fault) (map[string]bool, string) {
	if f.Kind.HitsRedis() {
		return nil, "every target (a Redis fault reaches every replica's locks)"
	}
	if pod, ok := strings.CutPrefix(f.Target, "pod "); ok {
		return PodTargets(h, f, pod)
	}
	var idx int
	if _, err := fmt.Sscanf(f.Target, "replica %d", &idx); err != nil {
		return nil, fmt.Sprintf("every target (the history does not say which target is %s)", f.Target)
	}
	urls := map[string]bool{}
	var names []string
	for _, ti := range h.Header.TargetInfo {
		if ti.Replica != nil && *ti.Replica == idx && !urls[ti.URL] {
			urls[ti.URL] = true
			names = append(names, ti.URL)
		}
	}
	if len(urls) == 0 {
		return nil, fmt.Sprintf("every target (no target said it is replica %d)", idx)
	}
	return urls, fmt.Sprintf("replica %d (%s)", idx, strings.Join(names, ", "))
}

// PodTargets are the targets of the pod ns/name a fault deleted, when the run sent to each pod
// through a forward of its own (osctl stress --target-pods).
func PodTargets(h *history.History, f nemesis.Fault, pod string) (map[string]bool, string) {
	_, name, _ := strings.Cut(pod, "/")
	infos := h.Header.TargetInfo
	if h.Footer != nil {
		infos = append(append([]history.TargetInfo(nil), infos...), h.Footer.TargetsAdded...)
	}
	urls := map[string]bool{}
	var names []string
	for _, ti := range infos {
		if ti.Pod == name && !urls[ti.URL] {
			urls[ti.URL] = true
			names = append(names, ti.URL)
		}
	}
	if len(urls) == 0 {
		return nil, fmt.Sprintf("every target (the history does not say which target is %s)", f.Target)
	}
	return urls, fmt.Sprintf("%s (%s)", f.Target, strings.Join(names, ", "))
}

// caughtBy returns the load requests on victims (nil: any target) in flight during [from, to].
func caughtBy(h *history.History, from, to time.Time, victims map[string]bool) []*history.Record {
	var out []*history.Record
	for i := range h.Records {
		r := &h.Records[i]
		if r.Kind != history.KindRequest || r.Setup || r.Start.IsZero() || (victims != nil && !victims[r.Target]) {
			continue
		}
		if !r.Start.After(to) && (r.End.IsZero() || !r.End.Before(from)) {
			out = append(out, r)
		}
	}
	return out
}

func inFlightOf(scope string, caught []*history.Record) *nemesis.InFlight {
	in := &nemesis.InFlight{Scope: scope, Requests: len(caught)}
	for _, r := range caught {
		switch r.Outcome {
		case history.Acknowledged:
			in.Acknowledged++
		case history.Rejected:
			in.Rejected++
		default:
			in.Ambiguous++
		}
		in.Seqs = append(in.Seqs, r.Seq)
	}
	sort.Slice(in.Seqs, func(i, j int) bool { return in.Seqs[i] < in.Seqs[j] })
	if len(in.Seqs) > nemesis.MaxInFlightSeqs {
		in.Seqs = in.Seqs[:nemesis.MaxInFlightSeqs]
	}
	return in
}

// blockedAfter is the longest wait after f of a request on one of the caught requests'
// analyses, other than those caught (the victim's own): on another replica, or on the victim's
// target once it was started again.
func blockedAfter(h *history.History, f nemesis.Fault, from time.Time, caught []*history.Record) (Blocked, bool) {
	analyses := map[string]bool{}
	own := map[*history.Record]bool{}
	for _, r := range caught {
		own[r] = true
		if r.Analysis != "" {
			analyses[r.Analysis] = true
		}
	}
	var best Blocked
	found := false
	for i := range h.Records {
		r := &h.Records[i]
		if r.Kind != history.KindRequest || r.Setup || !analyses[r.Analysis] || own[r] || r.End.IsZero() || !r.End.After(from) {
			continue
		}
		wait := r.End.Sub(maxTime(r.Start, from)).Seconds()
		if !found || wait > best.Seconds || (wait == best.Seconds && r.Seq < best.Seq) {
			best, found = Blocked{Fault: f.String(), Analysis: r.Analysis, Seq: r.Seq, Seconds: wait}, true
		}
	}
	return best, found
}

func maxTime(a, b time.Time) time.Time {
	if a.After(b) {
		return a
	}
	return b
}
