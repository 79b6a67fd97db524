package profile

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"sort"
	"strings"

	"github.com/osctl/osctl/pkg/redact"
	"github.com/osctl/osctl/pkg/stress/history"
)

// JobRef is one job a run created, and the base URL of the replica that accepted it (which
// holds it in its own memory).
type JobRef struct {
	ID     string `json:"job_id"`
	Target string `json:"target"`
}

// RunJobs returns the jobs a jobs run's history says it created: every acknowledged submit (its
// replay's job for a submit that got no answer), on the replica that accepted it. Unknown counts
// the submits that may have made a job nobody knows the id of (no answer, no replay).
func RunJobs(h *history.History) (jobs []JobRef, unknown int, err error) {
	if h.Header.Profile != "jobs" {
		return nil, 0, fmt.Errorf("the history is of a %s run, not a jobs run", h.Header.Profile)
	}
	seen := map[JobRef]bool{}
	for _, r := range h.Records {
		if r.Kind != history.KindRequest || r.Op != history.OpSubmitJob {
			continue
		}
		switch {
		case r.Applied() && r.Returned != "":
			ref := JobRef{ID: r.Returned, Target: r.Target}
			if strings.Contains(r.Target, redact.Mask) {
				return nil, 0, fmt.Errorf("the history keeps target %s without its password: the jobs cannot be reached from it", r.Target)
			}
			if !seen[ref] {
				seen[ref] = true
				jobs = append(jobs, ref)
			}
		case r.Outcome == history.Ambiguous:
			unknown++
		}
	}
	sort.Slice(jobs, func(a, b int) bool {
		if jobs[a].Target != jobs[b].Target {
			return jobs[a].Target < jobs[b].Target
		}
		return jobs[a].ID < jobs[b].ID
	})
	return jobs, unknown, nil
}

// Outcomes of deleting one job.
const (
	JobDeleted     = "deleted"      // DELETE answered 200, then the status read 404
	JobAlreadyGone = "already gone" // DELETE answered 404, and so did the status read
	JobStillThere  = "still there"  // the status read after DELETE still found it
	JobNotDeleted  = "failed"       // DELETE or the check failed otherwise
)

// JobDeletion is what deleting one job did.
type JobDeletion struct {
	JobRef
	Outcome      string `json:"outcome"`
	DeleteStatus int    `json:"delete_status,omitempty"`
	CheckStatus  int    `json:"check_status,omitempty"`
	Error        string `json:"error,omitempty"`
}

// JobCleanup deletes jobs through the job API: DELETE /v1/jobs/{id} on the replica that
// accepted each, then a status read of it that must answer 404.
type JobCleanup struct {
	Client Doer
	// Header is added to every request (X-ELB-API-Token).
	Header http.Header
}

// Delete deletes the jobs one after the other and returns what happened to each. It stops at
// the first refusal of the token (an *AuthError), returning what was done before it.
func (c *JobCleanup) Delete(ctx context.Context, jobs []JobRef) ([]JobDeletion, error) {
	out := make([]JobDeletion, 0, len(jobs))
	for _, j := range jobs {
		d, err := c.deleteOne(ctx, j)
		if err != nil {
			return out, err
		}
		out = append(out, d)
	}
	return out, nil
}

func (c *JobCleanup) do(ctx context.Context, method, u string) (int, string, error) {
	req, err := http.NewRequestWithContext(ctx, method, u, http.NoBody)
	if err != nil {
		return 0, "", err
	}
	req.Header.Set("Accept", "application/json")
	for k, v := range c.Header {
		req.Header[k] = v
	}
	resp, err := c.Client.Do(req)
	if err != nil {
		return 0, "", err
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	var ans struct {
		Detail any `json:"detail"`
	}
	_ = json.Unmarshal(b, &ans)
	return resp.StatusCode, detailText(ans.Detail), nil
}

func (c *JobCleanup) deleteOne(ctx context.Context, j JobRef) (JobDeletion, error) {
	d := JobDeletion{JobRef: j}
	base, err := url.Parse(j.Target)
	if err != nil {
		d.Outcome, d.Error = JobNotDeleted, fmt.Sprintf("target %q: %v", j.Target, err)
		return d, nil
	}
	jobURL := join(base, "/v1/jobs/"+url.PathEscape(j.ID))
	st, detail, err := c.do(ctx, http.MethodDelete, jobURL)
	d.DeleteStatus = st
	switch {
	case err != nil:
		d.Outcome, d.Error = JobNotDeleted, err.Error()
		return d, nil
	case st == http.StatusUnauthorized || st == http.StatusForbidden:
		return d, &AuthError{Method: http.MethodDelete, URL: j.Target + "/v1/jobs/" + j.ID, Status: st, Detail: detail}
	case st != http.StatusOK && st != http.StatusNotFound:
		d.Outcome, d.Error = JobNotDeleted, fmt.Sprintf("DELETE answered %d %s", st, detail)
		return d, nil
	}
	cst, cdetail, err := c.do(ctx, http.MethodGet, jobURL+"/status")
	d.CheckStatus = cst
	switch {
	case err != nil:
		d.Outcome, d.Error = JobNotDeleted, "checking it is gone: "+err.Error()
	case cst == http.StatusNotFound && st == http.StatusNotFound:
		d.Outcome = JobAlreadyGone
	case cst == http.StatusNotFound:
		d.Outcome = JobDeleted
	case cst == http.StatusOK:
		d.Outcome, d.Error = JobStillThere, "its status still answers 200 after DELETE"
	default:
		d.Outcome, d.Error = JobNotDeleted, fmt.Sprintf("checking it is gone: status answered %d %s", cst, cdetail)
	}
	return d, nil
}
