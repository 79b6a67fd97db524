package profile

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"sync"
	"time"
)

// Outcomes of deleting one job.
const (
	JobDeleted     = "deleted"      // DELETE answered 200, then the status read 404
	JobAlreadyGone = "already gone" // DELETE answered 404, and so did the status read
	JobNotFound    = "not found"    // a job no Answer named, never found: its submit made none
	JobStillThere  = "still there"  // the status read after DELETE still found it
	JobNotDeleted  = "failed"       // DELETE or the check failed otherwise
)

// DefaultInFlightWait is how long after a submit that got no Answer was sent cleanup keeps
// looking for the job it may make.
const DefaultInFlightWait = 30 * time.Second

// JobDeletion is what deleting one job did.
type JobDeletion struct {
	JobRef
	Outcome      string `json:"outcome"`
	DeleteStatus int    `json:"delete_status,omitempty"`
	CheckStatus  int    `json:"check_status,omitempty"`
	Error        string `json:"error,omitempty"`
	// Again is set when the job came back after it was deleted (a submit still in flight made it
	// again) and was deleted once more.
	Again bool `json:"deleted_again,omitempty"`
}

// JobCleanup deletes jobs through the job API: DELETE /v1/jobs/{id} on the replica that
// accepted each, then a status read of it that must Answer 404.
type JobCleanup struct {
	Client Doer
	// Header is added to every request (X-ELB-API-Token).
	Header http.Header
	// InFlightWait is how long after a submit that got no Answer was sent (JobRef.InFlight) its
	// job is looked for: the service goes on with a submit after the client gave up, and makes
	// the job seconds later. Until then a job not found is looked for again, and a job deleted
	// is deleted again should it come back. The default is DefaultInFlightWait.
	InFlightWait time.Duration
	// Retry is the interval between looks. The default is 1s.
	Retry time.Duration
	Now   func() time.Time
}

func (c *JobCleanup) now() time.Time {
	if c.Now != nil {
		return c.Now()
	}
	return time.Now()
}

// Delete deletes the jobs, one replica at a time each but the replicas side by side (a DELETE of
// a job elb-openapi dispatched runs elastic-blast delete on the replica's event loop), then looks
// again for those a submit still in flight may make (InFlightWait), and returns what happened to
// each, in the order given. It stops at the first refusal of the token (an *AuthError),
// returning what was done before it.
func (c *JobCleanup) Delete(ctx context.Context, jobs []JobRef) ([]JobDeletion, error) {
	out := make([]JobDeletion, len(jobs))
	done := make([]bool, len(jobs))
	byTarget := map[string][]int{}
	for i, j := range jobs {
		byTarget[j.Target] = append(byTarget[j.Target], i)
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var (
		wg    sync.WaitGroup
		mu    sync.Mutex
		first error
	)
	for _, idx := range byTarget {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for _, i := range idx {
				d, err := c.deleteOne(ctx, jobs[i])
				if err != nil {
					mu.Lock()
					first = cmp.Or(first, err)
					mu.Unlock()
					cancel()
				}
				if err != nil || ctx.Err() != nil {
					return
				}
				out[i], done[i] = d, true
			}
		}()
	}
	wg.Wait()
	if first != nil {
		var kept []JobDeletion
		for i := range out {
			if done[i] {
				kept = append(kept, out[i])
			}
		}
		return kept, first
	}
	if err := c.lookAgain(ctx, out); err != nil {
		return out, err
	}
	for i := range out {
		if d := &out[i]; d.Unanswered && d.Outcome == JobAlreadyGone {
			d.Outcome = JobNotFound
			d.Error = fmt.Sprintf("no such job, up to %s after the submit was sent: the submit made none", c.wait())
		}
	}
	return out, nil
}

// InFlightWaitOrDefault is InFlightWait, or its default.
func (c *JobCleanup) InFlightWaitOrDefault() time.Duration { return c.wait() }

func (c *JobCleanup) wait() time.Duration {
	if c.InFlightWait > 0 {
		return c.InFlightWait
	}
	return DefaultInFlightWait
}

// lookAgain deletes again, every Retry until InFlightWait after its submit was sent, each job a
// submit still in flight may make: found by now (it was not, or it came back), it is deleted.
func (c *JobCleanup) lookAgain(ctx context.Context, out []JobDeletion) error {
	retry := c.Retry
	if retry <= 0 {
		retry = time.Second
	}
	for {
		var due []int
		for i, d := range out {
			if d.InFlight && c.now().Before(d.Sent.Add(c.wait())) && (d.Outcome == JobDeleted || d.Outcome == JobAlreadyGone) {
				due = append(due, i)
			}
		}
		if len(due) == 0 {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(retry):
		}
		for _, i := range due {
			d, err := c.deleteOne(ctx, out[i].JobRef)
			if err != nil {
				return err
			}
			if d.Outcome == JobDeleted {
				d.Again = out[i].Outcome == JobDeleted // it came back after it was deleted
				out[i] = d
			}
		}
	}
}

func (c *JobCleanup) do(ctx context.Context, method, u string) (int, string, error) {
	a, err := Exchange(ctx, c.Client, method, u, c.Header, nil, 1<<20)
	if err != nil {
		return 0, "", err
	}
	var ans struct {
		Detail any `json:"detail"`
	}
	_ = json.Unmarshal(a.Body, &ans)
	return a.Status, DetailText(ans.Detail), nil
}

func (c *JobCleanup) deleteOne(ctx context.Context, j JobRef) (JobDeletion, error) {
	d := JobDeletion{JobRef: j}
	base, err := url.Parse(j.Target)
	if err != nil {
		d.Outcome, d.Error = JobNotDeleted, fmt.Sprintf("target %q: %v", j.Target, err)
		return d, nil
	}
	jobURL := JoinPath(base, "/v1/jobs/"+url.PathEscape(j.ID))
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
