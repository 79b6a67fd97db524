package jobs

import (
	"slices"
	"time"

	"github.com/osctl/osctl/pkg/stress/detect"
	"github.com/osctl/osctl/pkg/stress/history"
)

// PowerOf measures what a jobs run could see, from its history alone.
func PowerOf(h *history.History, maxActive int, grace time.Duration) Power {
	r := readJobsRun(h)
	p := Power{StrandLimitS: StrandLimit(h, grace).Seconds(), PollS: headerDuration(h.Header.Poll).Seconds()}
	var sure []interval
	var brackets, reads []time.Duration
	for _, id := range r.ids {
		line := r.lines[id]
		if line == nil {
			continue
		}
		p.Jobs++
		s := sureActive(id, line.Runs)
		if len(s) > 0 {
			p.SeenActive++
		}
		sure = append(sure, s...)
		for i, run := range line.Runs {
			reads = append(reads, run.FirstEnd.Sub(run.FirstStart), run.LastEnd.Sub(run.LastStart))
			p.SlowestReadS = max(p.SlowestReadS, run.FirstEnd.Sub(run.FirstStart).Seconds(), run.LastEnd.Sub(run.LastStart).Seconds())
			if i > 0 {
				brackets = append(brackets, run.FirstEnd.Sub(line.Runs[i-1].LastStart))
			}
		}
	}
	p.Changes = len(brackets)
	p.CycleS, p.ReadS = median(brackets).Seconds(), median(reads).Seconds()
	p.MostSeen, _, _ = peak(sure)
	if maxActive > 0 {
		p.FullForS = longestAtLeast(sure, maxActive).Seconds()
	}
	p.Ceiling = maxActive > 0 && p.FullForS > 0 && p.FullForS >= p.CycleS
	p.Stranded = p.Changes > 0 && p.CycleS <= p.StrandLimitS
	p.Service, p.ServiceAt, _ = ServicePeak(h)
	return p
}

func median(ds []time.Duration) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	slices.Sort(ds)
	return ds[len(ds)/2]
}

// longestAtLeast returns the longest stretch during which at least n intervals are open.
func longestAtLeast(iv []interval, n int) time.Duration {
	var best time.Duration
	for _, a := range detect.Above(spansOf(iv), n-1) {
		best = max(best, a.End.Sub(a.Start))
	}
	return best
}

func spansOf(iv []interval) []detect.Span {
	out := make([]detect.Span, len(iv))
	for i, x := range iv {
		out[i] = detect.Span{Start: x.s, End: x.e, Job: x.job}
	}
	return out
}

// ServicePeak is the most jobs of the run that the service's own job list (the OpJobList
// read-backs) shows active at once, when, and which: each listed job that the service dispatched
// held its slot at least from its started_at for its run_seconds (whole seconds, rounded down).
// A job the polls saw sent back to queued is left out: the service keeps its first dispatch time
// across requeues, so its list entry spans its wait as well.
func ServicePeak(h *history.History) (int, time.Time, []string) {
	requeued := map[string]bool{}
	for i := range h.Records {
		if r := &h.Records[i]; r.Kind == history.KindJob && requeuedRuns(r.Runs) {
			requeued[r.Job] = true
		}
	}
	var iv []interval
	for i := range h.Records {
		r := &h.Records[i]
		if r.Kind != history.KindReadback || r.Op != history.OpJobList || r.Listed == nil {
			continue
		}
		l := r.Listed
		if l.StartedAt.IsZero() || l.RunSeconds == nil || *l.RunSeconds <= 0 || l.Status == "queued" || requeued[r.Job] {
			continue
		}
		iv = append(iv, interval{l.StartedAt, l.StartedAt.Add(time.Duration(*l.RunSeconds) * time.Second), r.Job})
	}
	return peak(iv)
}

// requeuedRuns reports whether a job line shows the job back in queued after it was active.
func requeuedRuns(runs []history.StateRun) bool {
	active := false
	for _, r := range runs {
		switch {
		case history.ActiveStates[r.State]:
			active = true
		case active && r.State == "queued":
			return true
		case r.State == "queued" && r.Phase != "":
			return true // waiting_for_capacity, recovered: it was dispatched before
		}
	}
	return false
}
