package detect

import (
	"fmt"
	"math/rand/v2"
	"sort"
	"testing"
	"time"

	"github.com/osctl/osctl/pkg/stress/history"
)

// simJob is one job's true life: queued at q, active from a to e, ended at e.
type simJob struct {
	id      string
	q, a, e time.Time
	replica int
}

// simulate runs jobs through queues: replicas independent queues of maxActive slots each
// (shared=false), or one shared queue of maxActive slots. Job i arrives at arrive[i] on replica
// i%replicas and runs for dur[i].
func simulate(n, maxActive, replicas int, shared bool, rng *rand.Rand) []simJob {
	jobs := make([]simJob, n)
	queues := replicas
	if shared {
		queues = 1
	}
	slots := make([][]time.Time, queues)
	for q := range slots {
		slots[q] = make([]time.Time, maxActive)
		for k := range slots[q] {
			slots[q][k] = t0
		}
	}
	for i := range jobs {
		arrive := t0.Add(time.Duration(i) * time.Millisecond)
		dur := time.Duration(100+rng.IntN(400)) * time.Millisecond
		if !shared && i%replicas == 0 {
			dur *= 4 // replica 0 is busy: its queue backs up while the others idle
		}
		q := 0
		if !shared {
			q = i % replicas
		}
		k := 0
		for j := range slots[q] {
			if slots[q][j].Before(slots[q][k]) {
				k = j
			}
		}
		start := arrive
		if slots[q][k].After(start) {
			start = slots[q][k]
		}
		start = start.Add(time.Duration(rng.IntN(5)) * time.Millisecond) // dispatcher delay
		jobs[i] = simJob{id: fmt.Sprintf("j%03d", i), q: arrive, a: start, e: start.Add(dur), replica: i % replicas}
		slots[q][k] = jobs[i].e
	}
	return jobs
}

func stateAt(j simJob, t time.Time) string {
	switch {
	case t.Before(j.a):
		return "queued"
	case t.Before(j.e):
		return "running"
	default:
		return "completed"
	}
}

// observe polls every job as the profile does, every poll ms with random latency, the state
// being read at a random instant inside the poll, and builds the history.
func observe(jobs []simJob, poll time.Duration, maxActive int, rng *rand.Rand) *history.History {
	h := &history.History{Header: history.Header{Schema: history.SchemaVersion, Profile: "jobs", MaxActive: maxActive}, Footer: &history.Footer{}}
	for i, j := range jobs {
		h.Records = append(h.Records, history.Record{Kind: history.KindRequest, Seq: int64(i + 1), Op: history.OpSubmitJob, Start: j.q.Add(-time.Millisecond), End: j.q, Status: 202, Returned: j.id, Outcome: history.Acknowledged})
		line := history.Record{Kind: history.KindJob, Job: j.id}
		for t := j.q; ; t = t.Add(poll) {
			s := t
			e := s.Add(time.Duration(1+rng.IntN(20)) * time.Millisecond)
			read := s.Add(time.Duration(rng.Int64N(int64(e.Sub(s)) + 1)))
			st := stateAt(j, read)
			if n := len(line.Runs); n > 0 && line.Runs[n-1].State == st {
				line.Runs[n-1].Polls++
				line.Runs[n-1].LastStart, line.Runs[n-1].LastEnd = s, e
			} else {
				line.Runs = append(line.Runs, history.StateRun{State: st, Polls: 1, FirstStart: s, FirstEnd: e, LastStart: s, LastEnd: e})
			}
			if st == "completed" {
				line.Done = true
				break
			}
			t = e
		}
		h.Records = append(h.Records, line)
	}
	return h
}

// TestJobsCorrectServerNeverFlagged: whatever the polling granularity, a server that keeps its
// ceiling and starts queued jobs at once gives no finding.
func TestJobsCorrectServerNeverFlagged(t *testing.T) {
	for seed := uint64(0); seed < 30; seed++ {
		rng := rand.New(rand.NewPCG(seed, 1))
		jobs := simulate(40, 2, 2, true, rng)
		for _, poll := range []time.Duration{5 * time.Millisecond, 50 * time.Millisecond, 400 * time.Millisecond} {
			h := observe(jobs, poll, 2, rng)
			if fs := Jobs(h, 2, time.Second); len(fs) != 0 {
				t.Fatalf("seed %d poll %s: %v %+v", seed, poll, kinds(fs), fs[0])
			}
		}
	}
}

func TestJobsLocalQueuesOverCeiling(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 1))
	jobs := simulate(60, 2, 2, false, rng)
	h := observe(jobs, 50*time.Millisecond, 2, rng)
	got := map[string]int{}
	for _, f := range Jobs(h, 2, 500*time.Millisecond) {
		got[f.Kind]++
	}
	if got[Ceiling] != 1 || len(got) != 1 {
		t.Fatalf("want one ceiling finding, got %v", got)
	}
}

// TestJobsStranded: the last job waits 3 s in the queue after every other job has ended (a
// dispatcher that does not see it): stranded, and nothing else.
func TestJobsStranded(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 1))
	jobs := simulate(20, 2, 1, true, rng)
	last := &jobs[len(jobs)-1]
	var end time.Time
	for _, j := range jobs[:len(jobs)-1] {
		if j.e.After(end) {
			end = j.e
		}
	}
	dur := last.e.Sub(last.a)
	last.a = end.Add(3 * time.Second)
	last.e = last.a.Add(dur)
	h := observe(jobs, 50*time.Millisecond, 2, rng)
	fs := Jobs(h, 2, time.Second)
	if len(fs) != 1 || fs[0].Kind != Stranded || fs[0].Object != last.id {
		t.Fatalf("want %s stranded, got %v %+v", last.id, kinds(fs), fs)
	}
}

func TestJobsInvisibleAndLost(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 1))
	jobs := simulate(6, 2, 1, true, rng)
	h := observe(jobs, 50*time.Millisecond, 2, rng)
	for i := range h.Records {
		r := &h.Records[i]
		switch {
		case r.Kind == history.KindJob && r.Job == "j001":
			for k := range r.Runs {
				r.Runs[k].State = "missing"
			}
			r.Done = false
		case r.Kind == history.KindJob && r.Job == "j002":
			r.Runs = r.Runs[:1]
			r.Done = false
		}
	}
	fs := Jobs(h, 2, time.Second)
	k := kinds(fs)
	sort.Strings(k)
	if fmt.Sprint(k) != "[invisible lost]" {
		t.Fatalf("got %v %+v", k, fs)
	}
}
