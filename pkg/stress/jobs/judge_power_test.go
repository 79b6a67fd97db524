package jobs

import (
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/osctl/osctl/pkg/stress/detect"
	"github.com/osctl/osctl/pkg/stress/history"
)

// sequential is n jobs at ceiling 1, each running `run` seconds after the previous one ended
// (a correct replica), all submitted at once.
func sequential(n int, run float64) []timelineJob {
	var js []timelineJob
	for i := range n {
		start := 0.3 + float64(i)*(run+0.6)
		segs := []seg{{"running", "", start + run}, {"completed", "", 0}}
		if i > 0 {
			segs = append([]seg{{"queued", "", start}}, segs...)
		}
		js = append(js, timelineJob{string(rune('a' + i)), 0.1 + 0.01*float64(i), segs})
	}
	return js
}

// TestJobsPowerLongJobsConclusive: jobs of 4 s polled every second are each seen active for
// longer than a poll cycle: a correct replica's run is conclusive and clean.
func TestJobsPowerLongJobsConclusive(t *testing.T) {
	h := timelineHistory(1, time.Second, poll1s, sequential(3, 4)...)
	p := PowerOf(h, 1, time.Second)
	if !p.Ceiling || !p.Stranded || p.MostSeen != 1 || p.SeenActive != 3 {
		t.Fatalf("power %+v", p)
	}
	if j := judgeJobs(h, nil, detect.Options{}); j.Verdict != detect.Clean || !j.Conclusive {
		t.Fatalf("verdict %s %v", j.Verdict, j.Reasons)
	}
}

// TestJobsPowerShortJobsInconclusive: jobs of 0.4 s polled every 3 s are never seen active by
// two polls: the run could not have seen a breach, and says what to change.
func TestJobsPowerShortJobsInconclusive(t *testing.T) {
	h := timelineHistory(1, time.Second, 3*time.Second, sequential(3, 0.4)...)
	p := PowerOf(h, 1, time.Second)
	if p.Ceiling || p.MostSeen != 0 || p.CycleS < 3 {
		t.Fatalf("power %+v", p)
	}
	j := judgeJobs(h, nil, detect.Options{})
	if j.Verdict != detect.Inconclusive || len(j.Findings) != 0 {
		t.Fatalf("verdict %s %v", j.Verdict, j.Reasons)
	}
	r := strings.Join(j.Reasons, "; ")
	// Reads take 20 ms of a 3 s poll: a faster poll is what shortens the cycle.
	for _, want := range []string{"could not have seen a breach of the ceiling 1", "longer than two poll cycles", "poll more often ({Poll} 750ms"} {
		if !strings.Contains(r, want) {
			t.Errorf("reasons lack %q: %s", want, r)
		}
	}
	// The strand limit (1 s grace + 1 s tick + 3 s poll) is longer than a poll cycle here.
	if !p.Stranded || strings.Contains(r, "strand limit") {
		t.Errorf("stranded power %v: %s", p.Stranded, r)
	}
	// Status reads of 6 s (a service that answers slowly) make a cycle longer than that limit.
	for i := range h.Records {
		for k := range h.Records[i].Runs {
			run := &h.Records[i].Runs[k]
			run.FirstEnd, run.LastEnd = run.FirstStart.Add(6*time.Second), run.LastStart.Add(6*time.Second)
		}
	}
	j = judgeJobs(h, nil, detect.Options{})
	if p := PowerOf(h, 1, time.Second); p.Stranded || !strings.Contains(strings.Join(j.Reasons, ";"), "longer than the strand limit (5s") {
		t.Errorf("slow reads: stranded power %v: %v", p.Stranded, j.Reasons)
	}
	if r := strings.Join(j.Reasons, ";"); !strings.Contains(r, "poll less often ({Poll}) so that the service answers faster") {
		t.Errorf("slow reads: the remedy should be a slower poll: %s", r)
	}
}

// TestJobsPowerMutation is the power rule's mutation test on the simulated service: per-replica
// queues (the bug, 4 jobs at once for a ceiling of 2) with jobs shorter than a poll cycle give no
// finding, since no finding may come from polling granularity. Without the rule the verdict is a
// false clean; with it, inconclusive.
func TestJobsPowerMutation(t *testing.T) {
	for seed := uint64(0); seed < 6; seed++ {
		c := simConfig{replicas: 2, limit: 2, tick: 5000, watchdog: 60000, poll: 3000, jobs: 12, step: 50, minDur: 300, maxDur: 600}
		h := runSim(c, rand.New(rand.NewPCG(seed, 7)))
		if fs := Findings(h, 2, time.Second); len(fs) != 0 {
			t.Fatalf("seed %d: findings %v: the polls resolved the breach after all, pick shorter jobs", seed, kinds(fs))
		}
		if j := judgeJobs(h, nil, detect.Options{IgnorePower: true}); j.Verdict != detect.Clean {
			t.Fatalf("seed %d without the rule: %s %v, want the false clean", seed, j.Verdict, j.Reasons)
		}
		if j := judgeJobs(h, nil, detect.Options{}); j.Verdict != detect.Inconclusive || powerOf(j) == nil || powerOf(j).Ceiling {
			t.Fatalf("seed %d with the rule: %s %v", seed, j.Verdict, j.Reasons)
		}
	}
}

// TestJobsPowerCorrectServiceConclusive: the fixed service (one queue for both replicas) with jobs
// of 2-4 s polled every 200 ms is judged clean and conclusive.
func TestJobsPowerCorrectServiceConclusive(t *testing.T) {
	for seed := uint64(0); seed < 6; seed++ {
		c := simConfig{replicas: 2, shared: true, limit: 2, tick: 1000, watchdog: 60000, poll: 200, jobs: 10, step: 50, minDur: 2000, maxDur: 4000}
		h := runSim(c, rand.New(rand.NewPCG(seed, 8)))
		if j := judgeJobs(h, nil, detect.Options{}); j.Verdict != detect.Clean || !j.Conclusive {
			t.Fatalf("seed %d: %s %v (power %+v)", seed, j.Verdict, j.Reasons, powerOf(j))
		}
	}
}

// TestJobsCeilingSaysAtLeast: the ceiling finding is a lower bound, names the stretch it saw and
// what the service's own job list shows when that is more.
func TestJobsCeilingSaysAtLeast(t *testing.T) {
	a := timelineJob{"a", 0, []seg{{"running", "", 4}, {"completed", "", 0}}}
	b := timelineJob{"b", 0.2, []seg{{"running", "", 4}, {"completed", "", 0}}}
	h := timelineHistory(1, time.Second, poll1s, a, b)
	fs := Findings(h, 1, time.Second)
	if len(fs) != 1 || fs[0].Kind != detect.Ceiling || !strings.HasPrefix(fs[0].Got, "at least 2 jobs active at once") || !strings.Contains(fs[0].Got, "more than 1 seen active from") {
		t.Fatalf("findings %+v", fs)
	}
	// The list shows a third job of the run, one the polls never saw active, alongside them.
	three := int64(3)
	for _, id := range []string{"a", "b", "c"} {
		h.Records = append(h.Records, history.Record{Kind: history.KindReadback, Op: history.OpJobList, JobFollow: history.JobFollow{Job: id, Listed: &history.Listed{Status: "completed", StartedAt: sec(0.5), RunSeconds: &three}}})
	}
	if n, _, _ := ServicePeak(h); n != 3 {
		t.Fatalf("service peak %d", n)
	}
	fs = Findings(h, 1, time.Second)
	if len(fs) != 1 || !strings.Contains(fs[0].Got, "the service's own job list shows 3 active at once") {
		t.Fatalf("findings %+v", fs)
	}
}

// TestJobsReplayRace: a breach on one replica alone after a replay that was answered as a new
// job (its submit was still in flight) is the service's replay race; the same breach across two
// replicas, or after a replay answered with the existing job, is not.
func TestJobsReplayRace(t *testing.T) {
	build := func(targets [2]string, existing bool) *history.History {
		a := timelineJob{"a", 1.2, []seg{{"running", "", 6}, {"completed", "", 0}}}
		b := timelineJob{"b", 1.3, []seg{{"running", "", 6}, {"completed", "", 0}}}
		h := timelineHistory(1, time.Second, poll1s, a, b)
		for i := range h.Records {
			r := &h.Records[i]
			if r.Kind != history.KindRequest {
				continue
			}
			r.Target = targets[r.Seq-1]
			if r.Returned == "a" { // its submit timed out; the replay answered
				r.Start, r.Error, r.Timeout = sec(0), "timeout", true
				r.Replay = &history.Replay{Start: sec(1), End: sec(1.2), Status: 202, Outcome: history.Acknowledged, Existing: existing}
			}
		}
		return h
	}
	one := [2]string{"http://r0", "http://r0"}
	fs := Findings(build(one, false), 1, time.Second)
	if len(fs) != 1 || fs[0].Cause != detect.CauseReplayRace || !strings.Contains(fs[0].Got, "replay race") {
		t.Fatalf("one replica, replay answered as new: %+v", fs)
	}
	if fs := Findings(build(one, true), 1, time.Second); len(fs) != 1 || fs[0].Cause != "" {
		t.Fatalf("replay answered with the existing job: %+v", fs)
	}
	if fs := Findings(build([2]string{"http://r0", "http://r1"}, false), 1, time.Second); len(fs) != 1 || fs[0].Cause != "" {
		t.Fatalf("two replicas: %+v", fs)
	}
}

// TestJobsUnansweredSubmitFoundByKey: a submit that got no answer whose job the polls found by
// the id its key names is judged as a job of the run.
func TestJobsUnansweredSubmitFoundByKey(t *testing.T) {
	a := timelineJob{"a", 0, []seg{{"running", "", 4}, {"completed", "", 0}}}
	b := timelineJob{"b", 0.2, []seg{{"running", "", 4}, {"completed", "", 0}}}
	h := timelineHistory(1, time.Second, poll1s, a, b)
	for i := range h.Records {
		if r := &h.Records[i]; r.Kind == history.KindRequest && r.Returned == "b" {
			r.Returned, r.Outcome, r.Error, r.KeyJob = "", history.Ambiguous, "timeout", "b"
		}
	}
	if fs := Findings(h, 1, time.Second); len(fs) != 1 || fs[0].Kind != detect.Ceiling {
		t.Fatalf("findings %+v", fs)
	}
}
