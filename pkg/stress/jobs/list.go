package jobs

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"time"

	"github.com/osctl/osctl/pkg/stress/profile"

	"github.com/osctl/osctl/pkg/stress/history"
)

// listPages bounds how many pages of GET /v1/jobs one target is read for (500 jobs a page).
const listPages = 20

// noteJob remembers a job the run made, or may have made, on the target that accepted it.
func (p *Submitter) noteJob(target, id string) {
	if id == "" {
		return
	}
	p.madeMu.Lock()
	defer p.madeMu.Unlock()
	if p.made == nil {
		p.made = map[string]map[string]bool{}
	}
	if p.made[target] == nil {
		p.made[target] = map[string]bool{}
	}
	p.made[target][id] = true
}

// ReadList reads the service's own job list (GET /v1/jobs, which elb-openapi answers from memory)
// on every target that accepted a job of this run, once following the jobs ended, and records
// one read-back per job of the run it lists: its status, when the service first dispatched it and
// for how long it ran by the service's count. The judge compares that with what the polls saw
// (ServicePeak). A target whose list cannot be read is skipped.
func (p *Submitter) ReadList(ctx context.Context) {
	p.madeMu.Lock()
	made := p.made
	p.made = nil
	p.madeMu.Unlock()
	for _, t := range p.Targets {
		ids := made[t.URL.Redacted()]
		if len(ids) == 0 {
			continue
		}
		p.readListOf(ctx, t.URL, ids)
	}
}

type listedJob struct {
	JobID      string `json:"job_id"`
	Status     string `json:"status"`
	StartedAt  string `json:"started_at"`
	RunSeconds *int64 `json:"run_seconds"`
}

func (p *Submitter) readListOf(ctx context.Context, target *url.URL, ids map[string]bool) {
	cursor, left := "", len(ids)
	for page := 0; page < listPages && left > 0; page++ {
		q := "/v1/jobs?limit=500"
		if cursor != "" {
			q += "&cursor=" + url.QueryEscape(cursor)
		}
		var ans struct {
			Jobs       []listedJob `json:"jobs"`
			NextCursor *string     `json:"next_cursor"`
			HasMore    bool        `json:"has_more"`
		}
		if err := p.getJSON(ctx, profile.JoinPath(target, q), &ans); err != nil {
			return
		}
		for _, j := range ans.Jobs {
			if !ids[j.JobID] {
				continue
			}
			delete(ids, j.JobID)
			left--
			l := &history.Listed{Status: j.Status, RunSeconds: j.RunSeconds}
			if t, err := time.Parse(time.RFC3339Nano, j.StartedAt); err == nil {
				l.StartedAt = t
			}
			p.Record(&history.Record{Kind: history.KindReadback, Op: history.OpJobList, Target: target.Redacted(), JobFollow: history.JobFollow{Job: j.JobID, Listed: l},
				Path: "/v1/jobs", Status: http.StatusOK})
		}
		if !ans.HasMore || ans.NextCursor == nil || *ans.NextCursor == "" {
			return
		}
		cursor = *ans.NextCursor
	}
}

func (p *Submitter) getJSON(ctx context.Context, u string, v any) error {
	ctx, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	a, err := profile.Exchange(ctx, p.Client, http.MethodGet, u, p.Header, nil, 16<<20)
	if err != nil {
		return err
	}
	if a.Status != http.StatusOK {
		return fmt.Errorf("GET %s answered %d", u, a.Status)
	}
	return json.Unmarshal(a.Body, v)
}
