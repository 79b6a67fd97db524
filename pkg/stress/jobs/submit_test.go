package jobs

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/osctl/osctl/internal/testenv/sandboxenv"
	"github.com/osctl/osctl/pkg/sandbox"
	"github.com/osctl/osctl/pkg/stress/attack"
	"github.com/osctl/osctl/pkg/stress/detect"
	"github.com/osctl/osctl/pkg/stress/history"
	"github.com/osctl/osctl/pkg/stress/profile"
	"github.com/osctl/osctl/pkg/stress/verdict"
)

const jobsToken = "profile-test-token-91c2"

// jobAPI starts an in-process sandbox job API (one replica) and returns its URL.
func jobAPI(t *testing.T, cfg sandbox.Config) string { return sandboxenv.JobAPI(t, cfg, jobsToken) }

// prefixProxy serves upstream under /elb (stripping it, as a path-routing ingress does) and
// holds the answer to the first POST for hold after the upstream gave it: the client times out
// although the job was made.
type prefixProxy struct {
	upstream string
	hold     time.Duration
	posts    atomic.Int64
	mu       sync.Mutex
	paths    []string
}

func (p *prefixProxy) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if !strings.HasPrefix(r.URL.Path, "/elb/") {
		http.NotFound(w, r)
		return
	}
	p.mu.Lock()
	p.paths = append(p.paths, r.Method+" "+r.URL.Path)
	p.mu.Unlock()
	body, _ := io.ReadAll(r.Body)
	resp := sandboxenv.Forward(w, r, body, p.upstream+strings.TrimPrefix(r.URL.RequestURI(), "/elb"))
	if resp == nil {
		return
	}
	defer resp.Body.Close()
	out, _ := io.ReadAll(resp.Body)
	if r.Method == http.MethodPost && p.posts.Add(1) == 1 {
		select {
		case <-time.After(p.hold):
		case <-r.Context().Done():
		}
	}
	w.Header().Set("Content-Type", resp.Header.Get("Content-Type"))
	w.WriteHeader(resp.StatusCode)
	_, _ = w.Write(out)
}

func jobsProfile(t *testing.T, base string, requests int, header string) (*Submitter, *[]history.Record, *sync.Mutex) {
	t.Helper()
	u, err := url.Parse(base)
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var recs []history.Record
	p := &Submitter{Run: "0badc0de", Targets: []profile.Target{{URL: u}}, Requests: requests, Client: attack.NewClient(4, 5*time.Second),
		Poll: 20 * time.Millisecond, Timeout: 20 * time.Second, Header: http.Header{"X-Elb-Api-Token": {header}},
		Record: func(r *history.Record) { mu.Lock(); recs = append(recs, *r); mu.Unlock() }}
	return p, &recs, &mu
}

func runJobs(t *testing.T, p *Submitter, timeout time.Duration) *attack.Stats {
	t.Helper()
	conns := attack.NewConns(4, timeout)
	defer conns.Close()
	st := attack.Run(context.Background(), conns, p.Source(context.Background()), attack.Options{Concurrency: 4})
	p.Wait()
	return st
}

func jobsHistory(p *Submitter, recs []history.Record, maxActive int) *history.History {
	return &history.History{Header: history.Header{Schema: history.SchemaVersion, Profile: "jobs", Thresholds: verdict.Thresholds{MaxActive: maxActive},
		DispatchInterval: "100ms", Poll: p.Poll.String()}, Footer: &history.Footer{}, Records: recs}
}

// TestJobsReplayAndPrefix: the first submit's answer is held past the client's timeout by a
// path-prefix proxy; the replay with the same key names the job (sha256 of the key), every job
// is polled through the prefix until it ends, and the verdict is clean.
func TestJobsReplayAndPrefix(t *testing.T) {
	api := jobAPI(t, sandbox.Config{MaxActive: 1, JobDuration: 200 * time.Millisecond, Jobs: sandbox.JobsConfig{DispatchInterval: 100 * time.Millisecond}})
	px := &prefixProxy{upstream: api, hold: 2 * time.Second}
	ts := httptest.NewServer(px)
	defer ts.Close()
	p, recs, mu := jobsProfile(t, ts.URL+"/elb/", 3, jobsToken)
	if err := p.Check(context.Background()); err != nil {
		t.Fatalf("Check: %v", err)
	}
	runJobs(t, p, 500*time.Millisecond)
	mu.Lock()
	defer mu.Unlock()
	replayed, lines := 0, 0
	for _, r := range *recs {
		switch r.Kind {
		case history.KindRequest:
			if r.Timeout {
				sum := sha256.Sum256([]byte("external_api:" + r.Nonce))
				if r.Replay == nil || r.Replay.Outcome != history.Acknowledged || r.Outcome != history.Acknowledged || r.Returned != hex.EncodeToString(sum[:])[:12] {
					t.Fatalf("timed-out submit: %+v replay %+v", r, r.Replay)
				}
				replayed++
			}
		case history.KindJob:
			lines++
			if !r.Done || !strings.Contains(r.Path, "/elb/v1/jobs/"+r.Job+"/status") {
				t.Errorf("job %s: done %v, polled at %s, runs %+v", r.Job, r.Done, r.Path, r.Runs)
			}
		}
	}
	if replayed != 1 || lines != 3 || p.Summary().Replayed != 1 {
		t.Fatalf("%d replayed, %d job lines, summary %+v", replayed, lines, p.Summary())
	}
	if fs := Findings(jobsHistory(p, *recs, 1), 1, time.Second); len(fs) != 0 {
		t.Fatalf("findings: %+v", fs)
	}
}

// TestJobsGoneIsLost: a job deleted behind osctl's back answers 404: following stops after a few,
// and the verdict says lost.
func TestJobsGoneIsLost(t *testing.T) {
	api := jobAPI(t, sandbox.Config{MaxActive: 1, JobDuration: time.Hour})
	p, recs, mu := jobsProfile(t, api, 1, jobsToken)
	p.Record = func(r *history.Record) {
		mu.Lock()
		*recs = append(*recs, *r)
		mu.Unlock()
		if r.Kind == history.KindRequest {
			go func() {
				time.Sleep(100 * time.Millisecond)
				req, _ := http.NewRequest(http.MethodDelete, api+"/v1/jobs/"+r.Returned, nil)
				req.Header.Set(sandbox.TokenHeader, jobsToken)
				if resp, err := http.DefaultClient.Do(req); err == nil {
					resp.Body.Close()
				}
			}()
		}
	}
	runJobs(t, p, 5*time.Second)
	mu.Lock()
	defer mu.Unlock()
	var line *history.Record
	for i := range *recs {
		if (*recs)[i].Kind == history.KindJob {
			line = &(*recs)[i]
		}
	}
	if line == nil || !line.Gone || line.Done || line.Runs[len(line.Runs)-1].State != "missing" || line.Runs[len(line.Runs)-1].Polls != goneAfter {
		t.Fatalf("job line %+v", line)
	}
	if fs := Findings(jobsHistory(p, *recs, 1), 1, time.Second); len(fs) != 1 || fs[0].Kind != detect.Lost {
		t.Fatalf("findings %+v, want lost", fs)
	}
}

// TestJobsNotFinishedAtTimeout: a job still running when following it stops is no finding, but
// counted as not finished.
func TestJobsNotFinishedAtTimeout(t *testing.T) {
	api := jobAPI(t, sandbox.Config{MaxActive: 1, JobDuration: time.Hour})
	p, recs, mu := jobsProfile(t, api, 1, jobsToken)
	p.Timeout = 300 * time.Millisecond
	runJobs(t, p, 5*time.Second)
	mu.Lock()
	defer mu.Unlock()
	h := jobsHistory(p, *recs, 1)
	if fs := Findings(h, 1, time.Second); len(fs) != 0 || NotFinished(h) != 1 || p.Summary().NotFinished != 1 {
		t.Fatalf("findings %+v, not finished %d, summary %+v", fs, NotFinished(h), p.Summary())
	}
}

// TestJobsRefusedToken: Check names the 401, and a run with a wrong token stops at once.
func TestJobsRefusedToken(t *testing.T) {
	api := jobAPI(t, sandbox.Config{})
	p, recs, _ := jobsProfile(t, api, 50, "wrong-token")
	err := p.Check(context.Background())
	ae, ok := err.(*profile.AuthError)
	if !ok || ae.Status != 401 || !strings.Contains(err.Error(), "401") || !strings.Contains(err.Error(), "X-ELB-API-Token") {
		t.Fatalf("Check: %v", err)
	}
	st := runJobs(t, p, 5*time.Second)
	if p.Refused() == nil || p.Refused().Status != 401 {
		t.Fatalf("refused %v", p.Refused())
	}
	if n := st.Counts().Total; n > 4 || len(*recs) != int(n) {
		t.Fatalf("%d submits sent (%d records) after the first 401, want at most the 4 in flight", n, len(*recs))
	}
}

func TestResolveStatusURL(t *testing.T) {
	for _, c := range []struct{ target, statusURL, want string }{
		{"http://h:1", "/v1/jobs/abc/status", "http://h:1/v1/jobs/abc/status"},
		{"http://h:1/", "/v1/jobs/abc/status", "http://h:1/v1/jobs/abc/status"},
		{"https://h/elb", "/v1/jobs/abc/status", "https://h/elb/v1/jobs/abc/status"},
		{"https://h/elb/", "/elb/v1/jobs/abc/status", "https://h/elb/v1/jobs/abc/status"},
		{"https://h/elb", "http://other:9/v1/jobs/abc/status?x=1", "https://h/elb/v1/jobs/abc/status?x=1"},
		{"https://h/elb", "v1/jobs/abc/status", "https://h/elb/v1/jobs/abc/status"},
		{"https://h/elb", "", "https://h/elb/v1/jobs/abc/status"},
	} {
		u, _ := url.Parse(c.target)
		if got := resolveStatusURL(u, c.statusURL, "abc"); got != c.want {
			t.Errorf("%s + %q = %s, want %s", c.target, c.statusURL, got, c.want)
		}
	}
}

func TestPrepareBody(t *testing.T) {
	for _, c := range []struct {
		body    string
		hasKey  bool
		wantErr string
	}{
		{"", true, ""},
		{`{"db":"nt","query_fasta":">{{nonce}}\nACGT","idempotency_key":"{{nonce}}"}`, true, ""},
		{`{"db":"nt","query_fasta":">{{seq}}\nACGT"}`, false, ""},
		{`{"db":"nt","idempotency_key":"fixed"}`, false, "same idempotency_key"},
		{`{"db":"nt","idempotency_key":7}`, false, "not a string"},
		{`db=nt`, false, "not a JSON object"},
	} {
		p := &Submitter{Run: "0badc0de", Body: c.body}
		has, err := p.Prepare()
		if has != c.hasKey || (err == nil) != (c.wantErr == "") || (err != nil && !strings.Contains(err.Error(), c.wantErr)) {
			t.Errorf("%q: key %v err %v, want key %v err %q", c.body, has, err, c.hasKey, c.wantErr)
		}
	}
	b, key := (&Submitter{}).renderBody(7, "osctl-0badc0de-00000007")
	if key != "osctl-0badc0de-00000007" || !bytes.Contains(b, []byte(`"query_fasta":">osctl-0badc0de-00000007`)) || !bytes.Contains(b, []byte(`"db":"16S_ribosomal_RNA"`)) {
		t.Fatalf("default body %s key %s", b, key)
	}
}
