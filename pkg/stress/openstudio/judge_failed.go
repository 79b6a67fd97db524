package openstudio

import (
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/osctl/osctl/pkg/stress/detect"
	"github.com/osctl/osctl/pkg/stress/history"
)

// settleStalled is profile.SettleStalled: the settle wait ended with jobs still queued and no
// progress, so that what is queued failed or will not run.
const settleStalled = "no progress"

// failedExtractions are the findings of the run's failed extractions: one per failure the
// target named (a job lost with a killed worker, Resque's dirty exit, is not one: the app did
// not fail it), with the uploads of its analysis that overlapped the job, else the last ones
// before it.
func failedExtractions(h *history.History, r *run) []detect.Finding {
	if h.Footer == nil {
		return nil
	}
	var out []detect.Finding
	for _, fj := range h.Footer.FailedJobs {
		if fj.Exception == history.DirtyExit || len(r.byA[fj.Analysis]) == 0 {
			continue
		}
		out = append(out, detect.Finding{Kind: detect.FailedExtraction, Object: fj.Analysis, Requests: detect.Refs(overlapping(r.uploads[fj.Analysis], fj), 5),
			Expected: "the analysis's extraction (InitializeAnalysis) succeeds and its job leaves \"queued\"",
			Got:      fmt.Sprintf("worker %s began it at %s and it failed at %s: %s: %s", fj.Worker, stamp(fj.RunAt), fj.FailedAt, fj.Exception, fj.Error)})
	}
	return out
}

// overlapping are the uploads whose request overlapped fj's job (from its start to the end of
// the second it failed in), else the last two that ended before it began.
func overlapping(uploads []*history.Record, fj history.FailedJob) []*history.Record {
	end := fj.RunAt.Add(time.Hour)
	if t, err := time.Parse("2006/01/02 15:04:05 MST", fj.FailedAt); err == nil {
		end = t.Add(time.Second)
	}
	var out, before []*history.Record
	for _, u := range uploads {
		switch {
		case fj.RunAt.IsZero():
		case !u.Start.After(end) && (u.End.IsZero() || !u.End.Before(fj.RunAt)):
			out = append(out, u)
		case !u.End.IsZero() && u.End.Before(fj.RunAt):
			before = append(before, u)
		}
	}
	if len(out) > 0 {
		return out
	}
	sort.Slice(before, func(i, j int) bool { return before[i].End.Before(before[j].End) })
	return before[max(0, len(before)-2):]
}

func stamp(t time.Time) string {
	if t.IsZero() {
		return "an unknown time"
	}
	return t.UTC().Format("15:04:05.000")
}

// stuckReasons says which analyses have jobs left "queued" that no failure the run saw explains,
// when the settle wait ended without progress: their extraction failed where osctl cannot see
// it, or never ran, so a clean verdict would not judge them.
func stuckReasons(h *history.History, r *run) []string {
	if h.Footer == nil || h.Footer.SettleStopped != settleStalled {
		return nil
	}
	failed := map[string]int{}
	for _, fj := range h.Footer.FailedJobs {
		failed[fj.Analysis]++
	}
	restartedRedis := lostWithRedis(h)
	lostPods, anyPod := lostPodTargets(h)
	var stuck []string
	for _, a := range r.analyses {
		st := r.readbacks[history.ReadbackStatus+"/"+a]
		if st == nil {
			continue
		}
		queued := 0
		for _, j := range st.Jobs {
			if j.Status == history.JobQueued {
				queued++
			}
		}
		if queued > failed[a] && !restartedRedis && !anyPod && !startedOn(r.byA[a], lostPods) {
			stuck = append(stuck, a)
		}
	}
	if len(stuck) == 0 {
		return nil
	}
	shown := stuck[:min(len(stuck), 5)]
	more := ""
	if len(stuck) > len(shown) {
		more = fmt.Sprintf(" and %d more", len(stuck)-len(shown))
	}
	return []string{fmt.Sprintf("%d analyses have jobs stuck in \"queued\" that no failure osctl could read explains (%s%s): their extraction failed or never ran, so they were not judged",
		len(stuck), strings.Join(shown, ", "), more)}
}

// lostWithRedis says whether a Redis master the run restarted (restart-redis, which comes back
// empty) may explain stuck jobs: the restarted master may have held their queued
// jobs, or the failure records of their extractions (resque:failed lives on the first master).
// Those are the fault's effect, not stuck for an unknown reason.
func lostWithRedis(h *history.History) bool {
	for _, f := range h.Footer.Faults {
		if f.Kind.HitsRedis() && f.Kind.Kills() && !f.Injected.IsZero() {
			return true
		}
	}
	return false
}

// lostPodTargets are the targets whose web pod went away during the run: let go by osctl stress
// --target-pods, or deleted by the nemesis (kill-replica, kill-holder on Kubernetes). Its
// background worker may have been performing the job of a start sent to it, and Resque prunes a
// dead worker only from a worker on the same host, which a deleted pod's never comes back as:
// that job stays "queued" for good, the fault's effect and not stuck for an unknown reason. any
// says a pod went whose targets the history does not name (a pod behind a Service): any start
// may have gone to it.
func lostPodTargets(h *history.History) (urls map[string]bool, any bool) {
	urls = map[string]bool{}
	for _, u := range h.Footer.TargetsGone {
		urls[u] = true
	}
	for _, f := range h.Footer.Faults {
		pod, ok := strings.CutPrefix(f.Target, "pod ")
		if !ok || !f.Kind.Kills() || f.Kind.HitsRedis() || f.Injected.IsZero() {
			continue
		}
		victims, _ := detect.PodTargets(h, f, pod)
		if victims == nil {
			return urls, true
		}
		for u := range victims {
			urls[u] = true
		}
	}
	return urls, false
}

// startedOn says whether a start among recs was sent to one of targets.
func startedOn(recs []*history.Record, targets map[string]bool) bool {
	for _, rec := range recs {
		if rec.Op == history.OpStart && targets[rec.Target] {
			return true
		}
	}
	return false
}
