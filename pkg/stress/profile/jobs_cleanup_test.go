package profile

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/osctl/osctl/internal/testenv/sandboxenv"
	"github.com/osctl/osctl/pkg/sandbox"
	"github.com/osctl/osctl/pkg/stress/history"
)

// TestJobIDFromKey: the id rule of elb-openapi (main.py _job_id_from_idempotency_key), checked
// against the real service: the key "k1" submitted by an external client made job a10c004f1ddc.
func TestJobIDFromKey(t *testing.T) {
	for _, c := range []struct{ source, key, want string }{
		{"", "k1", "a10c004f1ddc"},
		{"external_api", "k1", "a10c004f1ddc"},
		{" External_API ", "k1 ", "a10c004f1ddc"}, // the source normalised, the whole string stripped
	} {
		if got, ok := JobIDFromKey(c.source, c.key); !ok || got != c.want {
			t.Errorf("JobIDFromKey(%q, %q) = %q %v, want %q", c.source, c.key, got, ok, c.want)
		}
	}
	if _, ok := JobIDFromKey("", strings.Repeat("k", 244)); ok {
		t.Error("a key of 244 characters makes 257 with its source: the service refuses it")
	}
	if _, ok := JobIDFromKey("", ""); ok {
		t.Error("no key, no id")
	}
}

// TestRunJobsNamesEveryJob: cleanup names the jobs of acknowledged submits, of replays, and the
// key's job of a submit that got no answer; a rejected submit made none; a submit without a key
// that got no Answer made a job nobody can name.
func TestRunJobsNamesEveryJob(t *testing.T) {
	t0 := time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)
	h := &history.History{Header: history.Header{Profile: "jobs"}, Records: []history.Record{
		{Kind: history.KindRequest, Op: history.OpSubmitJob, Seq: 1, Target: "http://r0", Start: t0, Outcome: history.Acknowledged, Returned: "aaaaaaaaaaaa", JobFollow: history.JobFollow{KeyJob: "aaaaaaaaaaaa"}},
		{Kind: history.KindRequest, Op: history.OpSubmitJob, Seq: 2, Target: "http://r0", Start: t0, Error: "timeout", Outcome: history.Acknowledged, Returned: "bbbbbbbbbbbb", JobFollow: history.JobFollow{KeyJob: "bbbbbbbbbbbb", Replay: &history.Replay{Start: t0.Add(time.Second), Outcome: history.Acknowledged, Status: 202}}},
		{Kind: history.KindRequest, Op: history.OpSubmitJob, Seq: 3, Target: "http://r1", Start: t0, Error: "timeout", Outcome: history.Ambiguous, JobFollow: history.JobFollow{KeyJob: "cccccccccccc", Replay: &history.Replay{Start: t0.Add(time.Second), Error: "timeout", Outcome: history.Ambiguous}}},
		{Kind: history.KindRequest, Op: history.OpSubmitJob, Seq: 4, Target: "http://r1", Start: t0, Status: 400, Outcome: history.Rejected, JobFollow: history.JobFollow{KeyJob: "dddddddddddd"}},
		{Kind: history.KindRequest, Op: history.OpSubmitJob, Seq: 5, Target: "http://r1", Start: t0, Error: "timeout", Outcome: history.Ambiguous},
		{Kind: history.KindRequest, Op: history.OpSubmitJob, Seq: 6, Target: "http://r1", Start: t0, Error: "connection refused", Outcome: history.Ambiguous, JobFollow: history.JobFollow{KeyJob: "eeeeeeeeeeee"}},
	}}
	jobs, unknown, err := RunJobs(h)
	if err != nil || unknown != 1 || len(jobs) != 4 {
		t.Fatalf("jobs %+v unknown %d err %v", jobs, unknown, err)
	}
	want := []struct {
		id         string
		unanswered bool
		inFlight   bool
		how        string
	}{
		{"aaaaaaaaaaaa", false, false, ""},
		{"bbbbbbbbbbbb", false, true, "its replay was answered as a new submit"},
		{"cccccccccccc", true, true, "its replay got none either"},
		{"eeeeeeeeeeee", true, true, "no replay was sent"},
	}
	for i, w := range want {
		j := jobs[i]
		if j.ID != w.id || j.Unanswered != w.unanswered || j.InFlight != w.inFlight || !strings.Contains(j.How, w.how) {
			t.Errorf("job %d: %+v, want %+v", i, j, w)
		}
	}
	if !jobs[2].Sent.Equal(t0.Add(time.Second)) {
		t.Errorf("the replay was the last request that could make job c: sent %v", jobs[2].Sent)
	}
}

// lateProxy forwards to upstream, holding each POST for hold before it forwards it: a submit
// whose client gave up reaches the service afterwards, as one still in flight does.
type lateProxy struct {
	upstream string
	hold     time.Duration
}

func (p *lateProxy) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	if r.Method == http.MethodPost {
		time.Sleep(p.hold) // not cut short by the client: the service goes on without it
	}
	resp := sandboxenv.Forward(w, r, body, p.upstream+r.URL.RequestURI())
	if resp == nil {
		return
	}
	defer resp.Body.Close()
	w.WriteHeader(resp.StatusCode)
	_, _ = io.Copy(w, resp.Body)
}

// TestCleanupFindsAJobThatLandsLate: a submit that timed out reaches the service 1 s later.
// Cleanup does not find its job at first, looks again, deletes it when it appears, reports a key
// whose submit never made a job as not found, and leaves another client's job alone.
func TestCleanupFindsAJobThatLandsLate(t *testing.T) {
	api := jobAPI(t, sandbox.Config{MaxActive: 1, JobDuration: time.Hour})
	late := httptest.NewServer(&lateProxy{upstream: api, hold: time.Second})
	t.Cleanup(late.Close)
	hdr := http.Header{"X-Elb-Api-Token": {jobsToken}}
	submit := func(base, key string, timeout time.Duration) {
		req, _ := http.NewRequest(http.MethodPost, base+"/v1/jobs", strings.NewReader(string(DefaultJobBody(key))))
		req.Header = hdr.Clone()
		req.Header.Set("Content-Type", "application/json")
		resp, err := (&http.Client{Timeout: timeout}).Do(req)
		if err == nil {
			resp.Body.Close()
		}
	}
	submit(api, "another-client", 10*time.Second)
	sent := time.Now()
	submit(late.URL, "late-submit", 200*time.Millisecond) // times out; lands at the service ~1 s later
	lateID, _ := JobIDFromKey("", "late-submit")
	neverID, _ := JobIDFromKey("", "never-submitted")
	otherID, _ := JobIDFromKey("", "another-client")
	c := &JobCleanup{Client: http.DefaultClient, Header: hdr, InFlightWait: 2500 * time.Millisecond, Retry: 200 * time.Millisecond}
	dels, err := c.Delete(context.Background(), []JobRef{
		{ID: lateID, Target: api, Seq: 1, Unanswered: true, InFlight: true, Sent: sent},
		{ID: neverID, Target: api, Seq: 2, Unanswered: true, InFlight: true, Sent: sent},
	})
	if err != nil || len(dels) != 2 {
		t.Fatalf("delete: %v %+v", err, dels)
	}
	if dels[0].Outcome != JobDeleted || dels[1].Outcome != JobNotFound || !strings.Contains(dels[1].Error, "made none") {
		t.Fatalf("outcomes %+v", dels)
	}
	if took := time.Since(sent); took < 2500*time.Millisecond {
		t.Errorf("cleanup ended %v after the submit: it must look until InFlightWait has passed", took)
	}
	for id, want := range map[string]int{lateID: 404, otherID: 200} {
		req, _ := http.NewRequest(http.MethodGet, api+"/v1/jobs/"+id+"/status", nil)
		req.Header = hdr.Clone()
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != want {
			t.Errorf("job %s after cleanup: %d, want %d", id, resp.StatusCode, want)
		}
	}
}
