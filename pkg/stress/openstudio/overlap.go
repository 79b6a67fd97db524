package openstudio

import (
	"context"
	"sync"
	"time"

	"github.com/osctl/osctl/pkg/stress/profile"

	"github.com/osctl/osctl/pkg/stress/history"
)

// The real server extracts an analysis in a background worker that takes the job seconds after
// the start was answered (an idle Resque worker polls every 5 s), and each extraction is over in
// moments. A load that ends before a worker wakes never races an upload against an extraction.
// So the last part of the load waits for the workers: it is released in parts, each once a job
// of the run has been seen to leave "queued" since the previous part (a worker is extracting
// now), or after TailWait. Only requests beyond the first Concurrency are held back.
// tailPoll is how often the analyses' status.json is read while a part waits.
const tailPoll = 250 * time.Millisecond

// tailRelease says how one held-back part of the load was released.
type tailRelease struct {
	// At is how far into the load it was released; Waited how long it waited.
	At     time.Duration `json:"at_ns"`
	Waited time.Duration `json:"waited_ns"`
	// Worker is true when a worker was seen taking a job, false when TailWait ran out.
	Worker bool `json:"worker"`
	// JobsRan is how many jobs of the run had left "queued" when it was released.
	JobsRan int `json:"jobs_ran"`
}

// tail holds back the last parts of the load until the workers are busy.
type tail struct {
	p       *Load
	bounds  []int64 // request indexes where each part begins
	wait    time.Duration
	began   time.Time
	once    sync.Once
	gates   []chan struct{}
	mu      sync.Mutex
	release []tailRelease
}

func (p *Load) newTail() *tail {
	frac, parts, wait := p.TailFraction, p.TailParts, p.TailWait
	if frac == 0 {
		frac = profile.DefaultTailFraction
	}
	if parts <= 0 {
		parts = profile.DefaultTailParts
	}
	if wait <= 0 {
		wait = profile.DefaultTailWait
	}
	n := p.Shard.Len(int64(p.Requests)) // this process's part of the load
	held := int64(float64(n) * frac)
	if p.Concurrency > 0 {
		// The first Concurrency requests always go at once: a load of N <= C requests is one
		// burst, and nothing is held back that the concurrency would have sent.
		held = min(held, n-int64(p.Concurrency))
	}
	if frac < 0 || p.effectiveMix().Start == 0 || held < int64(parts) || p.Requests < 3*len(p.st.analyses) {
		return nil // no extraction to wait for, or too small a load to split
	}
	t := &tail{p: p, wait: wait, began: p.now()}
	size := held / int64(parts)
	for k := 0; k < parts; k++ {
		t.bounds = append(t.bounds, n-held+int64(k)*size)
		t.gates = append(t.gates, make(chan struct{}))
	}
	return t
}

// gate blocks request i until its part is released (or ctx ends).
func (t *tail) gate(ctx context.Context, i int64) {
	if t == nil || i < t.bounds[0] {
		return
	}
	t.once.Do(func() { go t.watch(ctx) })
	k := 0
	for k+1 < len(t.bounds) && i >= t.bounds[k+1] {
		k++
	}
	select {
	case <-t.gates[k]:
	case <-ctx.Done():
	}
}

// watch releases the parts one after the other: each once more jobs have left "queued" than
// when the previous part went, or after the wait.
func (t *tail) watch(ctx context.Context) {
	last := -1
	for k := range t.gates {
		start := t.p.now()
		deadline := time.NewTimer(t.wait)
		worker := false
		ran := 0
	poll:
		for {
			ran = t.p.jobsRan(ctx)
			if ran > 0 && ran > last {
				worker = true
				break
			}
			select {
			case <-ctx.Done():
				deadline.Stop()
				return
			case <-deadline.C:
				break poll
			case <-time.After(tailPoll):
			}
		}
		deadline.Stop()
		last = ran
		now := t.p.now()
		t.mu.Lock()
		t.release = append(t.release, tailRelease{At: now.Sub(t.began), Waited: now.Sub(start), Worker: worker, JobsRan: ran})
		t.mu.Unlock()
		close(t.gates[k])
	}
}

// jobsRan reads the status.json of every analysis with an acknowledged start and counts the
// jobs that left "queued".
func (p *Load) jobsRan(ctx context.Context) int {
	p.st.mu.Lock()
	ids := make([]string, 0, len(p.st.started))
	for a := range p.st.started {
		ids = append(ids, a)
	}
	p.st.mu.Unlock()
	counts := make([]int, len(ids))
	p.api().Parallel(ctx, len(ids), func(i int) {
		_, body, errS := p.api().Get(ctx, i, profile.StatusPath(ids[i]))
		if errS != "" {
			return
		}
		_, js := profile.ParseStatus(body, ids[i])
		for _, j := range js {
			if j.Status != history.JobQueued {
				counts[i]++
			}
		}
	})
	n := 0
	for _, c := range counts {
		n += c
	}
	return n
}

// BackgroundWaits says how the held-back parts of the load waited for the target's background
// workers (nil when none was held).
func (p *Load) BackgroundWaits() []history.BackgroundWait {
	if p.st.tail == nil {
		return nil
	}
	p.st.tail.mu.Lock()
	defer p.st.tail.mu.Unlock()
	out := make([]history.BackgroundWait, len(p.st.tail.release))
	for i, r := range p.st.tail.release {
		out[i] = history.BackgroundWait{AtS: r.At.Seconds(), WaitedS: r.Waited.Seconds(), Taken: r.Worker, JobsRan: r.JobsRan}
	}
	return out
}
