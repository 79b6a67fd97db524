package profile

import (
	"context"
	"encoding/json"
	"net/url"
	"time"

	"github.com/osctl/osctl/pkg/stress/history"
)

// ReadbackPlan is what a run reads back: its project, its analyses (and their status.json) and
// the data points it created.
type ReadbackPlan struct {
	Project    string   `json:"project,omitempty"`
	Analyses   []string `json:"analyses,omitempty"`
	DataPoints []string `json:"data_points,omitempty"`
}

// PlanReadback is the read-back of a run from its records: the project and analyses its setup
// created, and every data point an acknowledged create answered.
func PlanReadback(s SetupState, recs []history.Record) ReadbackPlan {
	plan := ReadbackPlan{Project: s.Project, Analyses: s.Analyses}
	for i := range recs {
		r := &recs[i]
		if r.Kind != history.KindRequest || r.Op != history.OpCreateDataPoint || !r.Applied() {
			continue
		}
		plan.DataPoints = append(plan.DataPoints, r.CreatedID())
	}
	return plan
}

// StatusPath is the path of analysis a's status.json.
func StatusPath(a string) string { return "/analyses/" + url.PathEscape(a) + "/status.json" }

// HoldsRecord reports whether a show's body holds the record id of kind: the bare document
// (project show) or the document under its kind (analysis, data_point show), with that _id.
func HoldsRecord(body []byte, kind, id string) bool {
	var m map[string]any
	if json.Unmarshal(body, &m) != nil || m == nil {
		return false // null, or not an object
	}
	if sub, ok := m[kind].(map[string]any); ok {
		return RecordID(sub) == id
	}
	if _, wrapped := m[kind]; wrapped {
		return false // {"analysis":null}
	}
	return RecordID(m) == id
}

// ParseStatus reads GET /analyses/:id/status.json: whether the analysis is listed
// ({"analysis":{...}}, or among {"analyses":[...]}), and its jobs.
func ParseStatus(body []byte, id string) (bool, []history.JobState) {
	type analysis struct {
		ID   string `json:"_id"`
		Jobs []struct {
			Index  int    `json:"index"`
			Status string `json:"status"`
		} `json:"jobs"`
	}
	var v struct {
		Analysis *analysis  `json:"analysis"`
		Analyses []analysis `json:"analyses"`
	}
	if json.Unmarshal(body, &v) != nil {
		return false, nil
	}
	list := v.Analyses
	if v.Analysis != nil {
		list = append(list, *v.Analysis)
	}
	for _, a := range list {
		if a.ID != id {
			continue
		}
		jobs := make([]history.JobState, 0, len(a.Jobs))
		for _, j := range a.Jobs {
			jobs = append(jobs, history.JobState{Index: j.Index, Status: j.Status})
		}
		return true, jobs
	}
	return false, nil
}

// SettleResult says how the target settled after the load.
type SettleResult struct {
	// Settled is true when no job was still queued and the files had stopped changing.
	Settled bool `json:"settled"`
	// Quiet is true when the files had stopped changing (two identical fingerprints in a row) by
	// the end, even if some jobs were still queued: a job whose extraction failed stays queued
	// for good on the real server.
	Quiet  bool          `json:"quiet"`
	Waited time.Duration `json:"waited_ns"`
	Rounds int           `json:"rounds"`
	// Jobs is how many jobs status.json listed for the run's analyses at the end, and Queued how
	// many of them were still queued (their extraction had not run, or failed).
	Jobs   int `json:"jobs"`
	Queued int `json:"queued"`
	// Stopped says why the wait ended: SettleDone, SettleStalled, SettleCeiling or
	// SettleCanceled.
	Stopped string `json:"stopped"`
}

// Why a settle wait ended.
const (
	// SettleDone: no job was queued and the files had stopped changing.
	SettleDone = "settled"
	// SettleStalled: jobs were still queued, but no job had left "queued" (nor any appeared) and
	// the files had not changed for the quiet period: what is still queued failed or will not run.
	SettleStalled = "no progress"
	// SettleCeiling: the ceiling was reached while the jobs still made progress.
	SettleCeiling = "ceiling"
	// SettleCanceled: the run's context ended.
	SettleCanceled = "canceled"
)

// DefaultSettleQuiet is how long a settle wait goes on without progress before it stops: the real
// server's single background worker starts one RunAnalysis at a time, each at least one 5 s poll
// long, so a queue of jobs leaves "queued" one every several seconds.
const DefaultSettleQuiet = time.Minute

// SettleOptions bound a settle wait.
type SettleOptions struct {
	// Ceiling is the longest the wait may take.
	Ceiling time.Duration
	// Quiet ends the wait early once no job changed state and the files did not change for that
	// long (DefaultSettleQuiet when 0).
	Quiet time.Duration
	// Interval is how often the jobs and the files are read (1 s when 0).
	Interval time.Duration
}

// WithDefaults fills what o leaves 0 (or below): Quiet with DefaultSettleQuiet, Interval with 1 s.
// Settle waits as it says; a caller reads it to say how long that is.
func (o SettleOptions) WithDefaults() SettleOptions {
	if o.Interval <= 0 {
		o.Interval = time.Second
	}
	if o.Quiet <= 0 {
		o.Quiet = DefaultSettleQuiet
	}
	return o
}

// Settle waits until no job that status.json lists for the run's analyses is still queued (a start
// only queues a job; a worker on some web pod extracts later, and the job leaves "queued" only
// once its extraction succeeded) and the files stop changing: two identical fingerprints (a cheap
// listing of the run's files) in a row. It keeps waiting while the jobs make progress, and stops
// once nothing changed for the quiet period, or at the ceiling. Without a fingerprint the files
// count as quiet once no job is queued.
// jobCounts counts the jobs listed and queued (an OpenStudio's JobCounts; osctl stress
// --workers asks a load worker).
func Settle(ctx context.Context, o SettleOptions, now func() time.Time, jobCounts func(context.Context) (jobs, queued int),
	fingerprint func(context.Context) (string, error)) SettleResult {
	o = o.WithDefaults()
	begin := now()
	deadline := time.NewTimer(o.Ceiling)
	defer deadline.Stop()
	res := SettleResult{}
	last, lastJobs, lastQueued := "", -1, -1
	progress := begin // when a job or the files last changed
	for {
		res.Rounds++
		if res.Rounds == 1 || res.Queued > 0 {
			res.Jobs, res.Queued = jobCounts(ctx)
		}
		changed := res.Jobs != lastJobs || res.Queued != lastQueued
		lastJobs, lastQueued = res.Jobs, res.Queued
		if fingerprint == nil {
			res.Quiet = res.Queued == 0
		} else {
			f, err := fingerprint(ctx)
			if err != nil {
				f = "error:" + err.Error()
			}
			res.Quiet = res.Rounds > 1 && f == last && err == nil
			changed = changed || f != last
			last = f
		}
		if changed {
			progress = now()
		}
		if res.Quiet && res.Queued == 0 {
			res.Settled, res.Stopped = true, SettleDone
			break
		}
		if now().Sub(progress) >= o.Quiet {
			res.Stopped = SettleStalled
			break
		}
		select {
		case <-ctx.Done():
			res.Stopped = SettleCanceled
		case <-deadline.C:
			res.Stopped = SettleCeiling
		case <-time.After(o.Interval):
			continue
		}
		break
	}
	res.Waited = now().Sub(begin)
	return res
}
