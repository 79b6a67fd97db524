package jobs

import (
	"fmt"
	"math/rand/v2"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/osctl/osctl/pkg/stress/detect"
	"github.com/osctl/osctl/pkg/stress/history"
	"github.com/osctl/osctl/pkg/stress/snapshot"
	"github.com/osctl/osctl/pkg/stress/verdict"
)

// seg is one stretch of a job's true life: its state (and phase) until a time, in seconds.
type seg struct {
	state, phase string
	until        float64
}

// timelineJob is one job submitted at `at` and living through segs; ending with "completed"
// (whose until is ignored) means it ended, else it is still in its last state when following
// stops at the last until.
type timelineJob struct {
	id   string
	at   float64
	segs []seg
}

func sec(f float64) time.Time { return t0.Add(time.Duration(f * float64(time.Second))) }

func (j timelineJob) stateAt(t float64) (string, string) {
	for _, s := range j.segs {
		if t < s.until || history.TerminalStates[s.state] {
			return s.state, s.phase
		}
	}
	last := j.segs[len(j.segs)-1]
	return last.state, last.phase
}

// history polls every job as the profile does: the submit answer first, then every poll
// seconds, each poll taking 20 ms and reading the state 10 ms in. A job whose last segment is
// not terminal is followed until its last until.
func timelineHistory(maxActive int, dispatch, poll time.Duration, jobs ...timelineJob) *history.History {
	h := &history.History{Header: history.Header{Schema: history.SchemaVersion, Profile: "jobs", Thresholds: verdict.Thresholds{MaxActive: maxActive},
		DispatchInterval: dispatch.String(), Poll: poll.String()}, Footer: &history.Footer{}}
	for i, j := range jobs {
		h.Records = append(h.Records, history.Record{Kind: history.KindRequest, Seq: int64(i + 1), Op: history.OpSubmitJob,
			Start: sec(j.at - 0.001), End: sec(j.at), Status: 202, Returned: j.id, Outcome: history.Acknowledged})
		line := history.Record{Kind: history.KindJob, JobFollow: history.JobFollow{Job: j.id}}
		st, ph := j.stateAt(j.at)
		line.AddPoll(st, phaseSeen(st, ph), sec(j.at-0.001), sec(j.at))
		stop := j.segs[len(j.segs)-1].until
		if history.TerminalStates[j.segs[len(j.segs)-1].state] {
			stop = 1e9
		}
		for t := j.at + poll.Seconds(); ; t += poll.Seconds() {
			st, ph := j.stateAt(t + 0.01)
			if !history.TerminalStates[st] && t > stop {
				break
			}
			line.AddPoll(st, phaseSeen(st, ph), sec(t), sec(t+0.02))
			if history.TerminalStates[st] {
				line.Done = true
				break
			}
		}
		h.Records = append(h.Records, line)
	}
	return h
}

func phaseSeen(state, phase string) string {
	if phase == state {
		return ""
	}
	return phase
}

var (
	dispatch5s = 5 * time.Second
	poll1s     = time.Second
)

// TestJobsRequeueInsideActiveRun: A is requeued (recovered) while B was queued; B takes the
// slot, and A runs again once B ends. Taking A as active from its first active poll to its last
// would overlap B: a false ceiling. No finding.
func TestJobsRequeueInsideActiveRun(t *testing.T) {
	a := timelineJob{"a", 0, []seg{{"running", "", 2.3}, {"queued", "recovered", 8.5}, {"running", "", 11}, {"completed", "", 0}}}
	b := timelineJob{"b", 0.1, []seg{{"queued", "", 2.6}, {"running", "", 8.05}, {"completed", "", 0}}}
	if fs := Findings(timelineHistory(1, dispatch5s, poll1s, a, b), 1, time.Second); len(fs) != 0 {
		t.Fatalf("findings %v %+v", kinds(fs), fs)
	}
}

// TestJobsRequeuedLeftQueuedIsStranded: A is requeued and then left queued for 11 s with the
// whole ceiling free: past grace (1 s) + dispatch interval (5 s) + poll (1 s).
func TestJobsRequeuedLeftQueuedIsStranded(t *testing.T) {
	a := timelineJob{"a", 0, []seg{{"running", "", 2.3}, {"queued", "recovered", 14}, {"running", "", 15}, {"completed", "", 0}}}
	fs := Findings(timelineHistory(1, dispatch5s, poll1s, a), 1, time.Second)
	if len(fs) != 1 || fs[0].Kind != detect.Stranded || fs[0].Object != "a" {
		t.Fatalf("want a stranded, got %v %+v", kinds(fs), fs)
	}
}

// freeSlot: B runs until 3.05 s (its poll at 3 s notices it ended), A waits queued and starts
// `wait` seconds later; a ceiling of 1.
func freeSlot(wait float64) []timelineJob {
	b := timelineJob{"b", 0, []seg{{"running", "", 3.05}, {"completed", "", 0}}}
	a := timelineJob{"a", 0.1, []seg{{"queued", "", 3.05 + wait}, {"running", "", 3.05 + wait + 2}, {"completed", "", 0}}}
	return []timelineJob{b, a}
}

func TestJobsFreeSlotShorterThanDispatchInterval(t *testing.T) {
	if fs := Findings(timelineHistory(1, dispatch5s, poll1s, freeSlot(4.5)...), 1, time.Second); len(fs) != 0 {
		t.Fatalf("a 4.5 s wait for a 5 s tick: %v %+v", kinds(fs), fs)
	}
	// Without the dispatch interval (a history from before it was recorded), the same wait is
	// past grace and poll: the interval is what keeps a correct replica clean.
	if fs := Findings(timelineHistory(1, 0, poll1s, freeSlot(4.5)...), 1, time.Second); len(fs) != 1 || fs[0].Kind != detect.Stranded {
		t.Fatalf("with no dispatch interval: %v, want stranded", kinds(fs))
	}
}

func TestJobsFreeSlotLongerThanLimitIsStranded(t *testing.T) {
	fs := Findings(timelineHistory(1, dispatch5s, poll1s, freeSlot(9)...), 1, time.Second)
	if len(fs) != 1 || fs[0].Kind != detect.Stranded || fs[0].Object != "a" || !strings.Contains(fs[0].Expected, "7s") {
		t.Fatalf("a 9 s wait past 1 s + 5 s + 1 s: %v %+v", kinds(fs), fs)
	}
}

func TestJobsLostNotFinishedInvisible(t *testing.T) {
	ok := timelineJob{"ok", 0, []seg{{"running", "", 2}, {"completed", "", 0}}}
	gone := timelineJob{"gone", 0, []seg{{"running", "", 2}, {"missing", "", 5}}}
	slow := timelineJob{"slow", 0, []seg{{"running", "", 30}}}
	never := timelineJob{"never", 0, []seg{{"http-503", "", 3}}}
	h := timelineHistory(4, dispatch5s, poll1s, ok, gone, slow, never)
	for i := range h.Records {
		if h.Records[i].Job == "gone" {
			h.Records[i].Gone = true
		}
	}
	fs := Findings(h, 4, time.Second)
	if got := fmt.Sprint(kinds(fs)); got != "[invisible lost]" {
		t.Fatalf("findings %s %+v", got, fs)
	}
	if n := NotFinished(h); n != 1 {
		t.Fatalf("not finished: %d, want 1 (slow)", n)
	}
	j := judgeJobs(&history.History{Header: h.Header, Footer: h.Footer, Records: h.Records[:6]}, nil, detect.Options{}) // ok, gone, slow
	if j.Verdict != detect.Races {
		t.Fatalf("verdict %s", j.Verdict)
	}
	j = judgeJobs(&history.History{Header: h.Header, Footer: h.Footer, Records: append(append([]history.Record{}, h.Records[:2]...), h.Records[4:6]...)}, nil, detect.Options{Thresholds: verdict.Thresholds{MaxActive: 2}})
	if j.Verdict != detect.Inconclusive || !strings.Contains(strings.Join(j.Reasons, ";"), "1 of the jobs had not finished") {
		t.Fatalf("ok and slow: verdict %s %v, want inconclusive about the unfinished job", j.Verdict, j.Reasons)
	}
}

// TestJobsAmbiguousSubmitLowersTheLimit: a submit that may have made a job nobody follows may
// hold a slot throughout: with a ceiling of 2, a free slot is not proof of stranding.
func TestJobsAmbiguousSubmitLowersTheLimit(t *testing.T) {
	h := timelineHistory(2, dispatch5s, poll1s, freeSlot(9)...)
	if fs := Findings(h, 2, time.Second); len(fs) != 1 || fs[0].Kind != detect.Stranded {
		t.Fatalf("ceiling 2 with one slot idle: %v", kinds(fs))
	}
	h.Records = append(h.Records, history.Record{Kind: history.KindRequest, Op: history.OpSubmitJob, Seq: 9, Start: sec(0), End: sec(60), Timeout: true, Outcome: history.Ambiguous})
	h.Records = append(h.Records, history.Record{Kind: history.KindRequest, Op: history.OpSubmitJob, Seq: 10, Start: sec(0), End: sec(60), Timeout: true, Outcome: history.Ambiguous})
	if fs := Findings(h, 2, time.Second); len(fs) != 0 {
		t.Fatalf("two ambiguous submits and a ceiling of 2: %v", kinds(fs))
	}
}

// TestJobsCorrectServiceNeverFlagged: elb-openapi's own dispatcher on one shared store (the fixed
// service), with its 5 s tick, requeues of both kinds and any poll interval, gives no finding.
func TestJobsCorrectServiceNeverFlagged(t *testing.T) {
	for seed := uint64(0); seed < 12; seed++ {
		for _, poll := range []int{200, 1000, 3000} {
			for _, phase := range []string{"recovered", "waiting_for_capacity"} {
				c := simConfig{replicas: 2, shared: true, limit: 2, tick: 5000, watchdog: 7000, poll: poll, jobs: 14, step: 50,
					minDur: 1000, maxDur: 4000, requeueEvery: 3, requeuePhase: phase}
				h := runSim(c, rand.New(rand.NewPCG(seed, 1)))
				if fs := Findings(h, 2, time.Second); len(fs) != 0 {
					t.Fatalf("seed %d poll %dms %s: %v %+v", seed, poll, phase, kinds(fs), fs[0])
				}
			}
		}
	}
}

// TestJobsPerReplicaQueuesOverCeiling: the same dispatcher with a store and ceiling per replica
// (the bug) runs 4 jobs at once for a ceiling of 2: ceiling, and nothing else.
func TestJobsPerReplicaQueuesOverCeiling(t *testing.T) {
	for seed := uint64(0); seed < 6; seed++ {
		c := simConfig{replicas: 2, limit: 2, tick: 5000, watchdog: 7000, poll: 1000, jobs: 12, step: 50, minDur: 3000, maxDur: 3000,
			requeueEvery: 4, requeuePhase: "recovered"}
		h := runSim(c, rand.New(rand.NewPCG(seed, 2)))
		got := map[string]int{}
		for _, f := range Findings(h, 2, time.Second) {
			got[f.Kind]++
		}
		if got[detect.Ceiling] != 1 || len(got) != 1 {
			t.Fatalf("seed %d: want one ceiling finding, got %v", seed, got)
		}
	}
}

// TestJobsSplitQueuesStrand: each replica admits 1 of the ceiling 2 (the naive fix), replica
// 1's jobs run 5x longer: replica 0 drains and idles while replica 1 has jobs queued.
func TestJobsSplitQueuesStrand(t *testing.T) {
	c := simConfig{replicas: 2, limit: 1, tick: 5000, watchdog: 60000, poll: 1000, jobs: 8, step: 50, minDur: 2000, maxDur: 2000, skew: 4}
	h := runSim(c, rand.New(rand.NewPCG(5, 3)))
	h.Header.MaxActive = 2
	got := map[string]int{}
	for _, f := range Findings(h, 2, time.Second) {
		got[f.Kind]++
	}
	if got[detect.Stranded] == 0 || got[detect.Ceiling] != 0 || len(got) != 1 {
		t.Fatalf("want stranded only, got %v", got)
	}
}

// judgeJobs is detect.Judge with the jobs profile's rules.
func judgeJobs(h *history.History, st *snapshot.State, o detect.Options) detect.Judgement {
	o.Rules = Rules{}
	return detect.Judge(h, st, o)
}

// kinds are the findings' kinds, sorted.
func kinds(fs []detect.Finding) []string {
	var k []string
	for _, f := range fs {
		k = append(k, f.Kind)
	}
	sort.Strings(k)
	return k
}

// t0 is when the timelines begin.
var t0 = time.Date(2026, 11, 30, 5, 0, 0, 0, time.UTC)

// powerOf is what a judgement's jobs part says the polls could see (nil: none).
func powerOf(j detect.Judgement) *Power {
	if p, ok := j.Part.(*Part); ok {
		return p.Power
	}
	return nil
}
