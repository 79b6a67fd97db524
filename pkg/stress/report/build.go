package report

import (
	"slices"

	"github.com/osctl/osctl/pkg/stress/attack"
	"github.com/osctl/osctl/pkg/stress/detect"
	"github.com/osctl/osctl/pkg/stress/history"
)

// Build makes the report of a run from its history, its statistics and its judgement: the one
// way both a live run and `osctl stress judge` make theirs. st are the attacker's statistics
// (attack.Replay rebuilds them from the history).
func Build(h *history.History, st *attack.Stats, j detect.Judgement, version string) *Report {
	return BuildFolded(h, st, nil, j, version)
}

// BuildFolded is Build with the load's breakdown from f, the fold of its request records, when
// the history keeps none (nil: from the history's records).
func BuildFolded(h *history.History, st *attack.Stats, f *LoadFold, j detect.Judgement, version string) *Report {
	hd := h.Header
	r := &Report{Schema: Schema, SchemaVersion: SchemaVersion, OsctlVersion: version, Run: hd.Run, Profile: hd.Profile,
		Requests: hd.Requests, Concurrency: hd.Concurrency, Rate: hd.Rate, Duration: hd.Duration,
		FileLimit: hd.FileLimit, StartedAt: hd.Started, Targets: targets(h),
		ConcurrencySource: hd.ConcurrencySource, TierCapacity: hd.TierCapacity}
	r.Counts = st.Counts()
	hist := st.Histogram()
	r.Latency = attack.Summarize(hist)
	r.Histogram = Buckets(hist, 8)
	r.Timeline = st.Timeline()
	r.PeakInFlight = st.PeakInFlight()
	if el := st.Ended.Sub(st.Began).Seconds(); el > 0 {
		r.Throughput = float64(r.Counts.Total) / el
	}
	if f := h.Footer; f != nil {
		r.FinishedAt, r.StopReason, r.Engine = f.Finished, f.Reason, f.Engine
		r.Elapsed = f.Finished.Sub(hd.Started).Seconds()
		r.Notices, r.SettleWait, r.Workload = f.Notices, f.SettleWait, f.Workload
		r.SettleStopped = f.SettleStopped
		r.Workers, r.Faults, r.NemesisSeed = f.LoadWorkers, f.Faults, f.NemesisSeed
		r.StateRead = f.StateRead
	}
	r.ApplyJudgement(j)
	if f != nil {
		r.PerOperation, r.PerTarget, r.OverTime = f.perOperation(h), f.perTarget(r.Targets), f.series.series()
	} else {
		load := loadRecords(h)
		r.PerOperation, r.PerTarget = perOperation(h, load), perTarget(load, r.Targets)
		r.OverTime = overTime(load)
	}
	countTargets(r)
	r.Timelines = timelines(h, r)
	r.MaxReplicasValidated = ReplicasValidated(r)
	r.addFaults(h)
	return r
}

// targets are the run's targets: the header's, then the pods the load took in (the footer's),
// those let go marked gone.
func targets(h *history.History) []Target {
	hd := h.Header
	var out []Target
	if len(hd.TargetInfo) == len(hd.Targets) {
		out = append([]Target{}, hd.TargetInfo...)
	} else {
		out = make([]Target, 0, len(hd.Targets))
		for _, t := range hd.Targets {
			out = append(out, Target{URL: t})
		}
	}
	if f := h.Footer; f != nil {
		out = append(out, f.TargetsAdded...)
		for i := range out {
			out[i].Requests = nil
			if slices.Contains(f.TargetsGone, out[i].URL) {
				out[i].Gone = true
			}
		}
	}
	return out
}

// ReplicasValidated is how many replicas a clean, conclusive run validated: the Deployment's
// ready replicas when known, else the distinct sandbox replicas that answered, else, for a jobs
// run (whose targets are each replica's own URL, docs/migration/jobs.md), its distinct targets,
// else 1 (a real server behind one URL may be one replica or many).
func ReplicasValidated(r *Report) int {
	n, _ := replicasValidated(r)
	return n
}

// replicasValidated is ReplicasValidated and what the count rests on, for the next step's line.
func replicasValidated(r *Report) (int, string) {
	if r.Verdict != detect.Clean || !r.Conclusive {
		return 0, ""
	}
	if r.Workload != nil {
		return int(r.Workload.Replicas), "the Deployment's ready replicas"
	}
	if n := livePods(r); n > 0 {
		return n, "the pods it sent to that were still ready at its end"
	}
	seen := map[int]bool{}
	for _, t := range r.Targets {
		if t.Replica != nil {
			seen[*t.Replica] = true
		}
	}
	if len(seen) > 0 {
		return len(seen), "the sandbox replicas that answered"
	}
	urls := map[string]bool{}
	for _, t := range r.Targets {
		urls[t.URL] = true
	}
	if r.Kind().Jobs && len(urls) > 1 {
		return len(urls), "one per {Targets} URL, each a replica's own"
	}
	return 1, "one {Targets} URL may be one replica or many: give each replica's own URL, or {Deployment}, to count them"
}
