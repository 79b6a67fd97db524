package jobs

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"sync/atomic"
	"time"

	"github.com/osctl/osctl/pkg/stress/profile"

	"github.com/osctl/osctl/pkg/redact"
	"github.com/osctl/osctl/pkg/stress/history"
)

type jobStats struct {
	followed, ended, gone, notFinished, requeued, replayed atomic.Int64
	unanswered, found, notFound                            atomic.Int64
}

// Summary returns what following the jobs saw (after Wait).
func (p *Submitter) Summary() profile.JobsSummary {
	s := &p.stats
	return profile.JobsSummary{Followed: s.followed.Load(), Ended: s.ended.Load(), Gone: s.gone.Load(), NotFinished: s.notFinished.Load(),
		Requeued: s.requeued.Load(), Replayed: s.replayed.Load(), Unanswered: s.unanswered.Load(), Found: s.found.Load(), NotFound: s.notFound.Load()}
}

// follow polls one job's status on the replica that accepted it until the job ends, answers 404
// goneAfter times in a row after it was seen, the timeout passes, or ctx ends, and records one job
// line with the runs of states its polls saw. first is the submit's answer, the job's first
// observation; nil for a job no answer named (its submit got no answer, and the id is the one its
// key names), which is looked for until lookUntil and followed from when a poll finds it.
func (p *Submitter) follow(ctx context.Context, target, id, statusURL string, first *history.StateRun, lookUntil time.Time) {
	p.stats.followed.Add(1)
	rec := &history.Record{Kind: history.KindJob, JobFollow: history.JobFollow{Job: id}, Target: target, Path: redact.URL(statusURL)}
	if first != nil {
		rec.Runs = []history.StateRun{*first}
	} else {
		p.stats.unanswered.Add(1)
	}
	found := first != nil
	defer func() {
		if hasRequeue(rec.Runs) {
			p.stats.requeued.Add(1)
		}
		switch {
		case first == nil && !found:
			p.stats.notFound.Add(1)
		case rec.Done:
			p.stats.ended.Add(1)
		case rec.Gone:
			p.stats.gone.Add(1)
		default:
			p.stats.notFinished.Add(1)
		}
		if first == nil && found {
			p.stats.found.Add(1)
		}
		p.Record(rec)
	}()
	if first != nil && history.TerminalStates[first.State] {
		rec.Done = true
		return
	}
	timeout := p.timeout()
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	tick := time.NewTicker(p.poll())
	defer tick.Stop()
	missing := 0
	for {
		select {
		case <-ctx.Done():
			rec.Error = "not finished within " + timeout.String()
			if ctx.Err() == context.Canceled {
				rec.Error = "following stopped before the job ended"
			}
			return
		case <-tick.C:
		}
		s, e, state, phase := p.pollOnce(ctx, statusURL)
		if ctx.Err() != nil {
			continue // a poll cut by the timeout saw nothing
		}
		rec.AddPoll(state, phase, s, e)
		found = found || history.KnownState(state)
		if history.TerminalStates[state] {
			rec.Done = true
			return
		}
		if !found {
			if !p.now().Before(lookUntil) {
				rec.Error = "no such job: its submit made none within " + unansweredWait.String()
				return
			}
			continue
		}
		if state == "missing" {
			missing++
		} else {
			missing = 0
		}
		if missing >= goneAfter {
			rec.Gone = true
			rec.Error = fmt.Sprintf("answered 404 %d times in a row", missing)
			return
		}
	}
}

func hasRequeue(runs []history.StateRun) bool {
	active := false
	for _, r := range runs {
		if history.ActiveStates[r.State] {
			active = true
		} else if active && r.State == "queued" {
			return true
		}
	}
	return false
}

// pollOnce reads a job's status: its state and phase (the phase only when it says more than
// the state), or missing (404), http-<status>, error or unreadable.
func (p *Submitter) pollOnce(ctx context.Context, statusURL string) (time.Time, time.Time, string, string) {
	start := p.now()
	a, err := profile.Exchange(ctx, p.Client, http.MethodGet, statusURL, p.Header, nil, 1<<20)
	end := p.now()
	switch {
	case err != nil:
		return start, end, "error", ""
	case a.Status == http.StatusNotFound:
		return start, end, "missing", ""
	case a.Status != http.StatusOK:
		return start, end, fmt.Sprintf("http-%d", a.Status), ""
	}
	var ans struct {
		Status string `json:"status"`
		Phase  string `json:"phase"`
	}
	if json.Unmarshal(a.Body, &ans) != nil || ans.Status == "" {
		return start, end, "unreadable", ""
	}
	state, phase := strings.ToLower(ans.Status), strings.ToLower(ans.Phase)
	if phase == state {
		phase = ""
	}
	return start, end, state, phase
}
