package stress_test

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/osctl/osctl/pkg/stress"
	"github.com/osctl/osctl/pkg/stress/attack"
	"github.com/osctl/osctl/pkg/stress/cleanup"
	"github.com/osctl/osctl/pkg/stress/detect"
	"github.com/osctl/osctl/pkg/stress/history"
	"github.com/osctl/osctl/pkg/stress/profile"
	"github.com/osctl/osctl/pkg/stress/report"
	"github.com/osctl/osctl/pkg/stress/snapshot"
)

// TestFourthProfile is the proof that a profile is a value: a key-value service and its profile
// are defined here, in a test, registered, run through stress.Run, judged again offline from the
// saved history and planned for cleanup, and nothing of pkg/stress names them. The service acknowledges every PUT
// but drops every fifth one (a lost write); the profile's judge finds each of them, live and
// offline alike, and the same service without the bug is clean.
func TestFourthProfile(t *testing.T) {
	registerKV.Do(func() { stress.Register(kvProfile{}) })
	const requests = 50
	for _, lossy := range []bool{true, false} {
		t.Run("lossy="+strconv.FormatBool(lossy), func(t *testing.T) {
			kv := newKVServer(lossy)
			srv := httptest.NewServer(kv)
			t.Cleanup(srv.Close)
			u, err := url.Parse(srv.URL)
			if err != nil {
				t.Fatal(err)
			}
			cfg := stress.DefaultConfig()
			cfg.Profile, cfg.Targets, cfg.Requests, cfg.Concurrency = kvName, []*url.URL{u}, requests, 4
			path := filepath.Join(t.TempDir(), "run.jsonl")
			f, err := os.Create(path)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			live, err := stress.Run(context.Background(), cfg, stress.Deps{History: f})
			if err != nil {
				t.Fatalf("Run: %v", err)
			}
			saved, err := stress.ReadSaved(path)
			if err != nil {
				t.Fatalf("ReadSaved: %v", err)
			}
			offline, err := saved.Judge(context.Background(), nil, stress.JudgeOptions{})
			if err != nil {
				t.Fatalf("Judge: %v", err)
			}
			dropped := kv.droppedKeys()
			if lossy && len(dropped) != requests/5 {
				t.Fatalf("the service dropped %d writes, want %d", len(dropped), requests/5)
			}
			for name, rep := range map[string]*report.Report{"live": live, "offline": offline} {
				checkKVReport(t, name, rep, dropped, requests)
			}
			plan, err := cleanup.ForHistory(context.Background(), saved.History, cleanup.Options{})
			if err != nil || plan.Profile != kvName || plan.Run != live.Run || !slices.Equal(slices.Sorted(slices.Values(plan.Removed)), dropped) {
				t.Errorf("the profile's cleanup plan: %+v, %v; want the keys the service dropped (%v) of run %s", plan, err, dropped, live.Run)
			}
		})
	}
}

// checkKVReport checks that rep found exactly the dropped writes as lost (none: a clean verdict).
func checkKVReport(t *testing.T, name string, rep *report.Report, dropped []string, requests int) {
	t.Helper()
	var lost []string
	for _, f := range rep.Findings {
		if f.Kind != detect.Lost {
			t.Errorf("%s: finding %+v: want only lost writes", name, f)
		}
		lost = append(lost, f.Object)
	}
	slices.Sort(lost)
	if !slices.Equal(lost, dropped) {
		t.Errorf("%s: lost %v, the service dropped %v", name, lost, dropped)
	}
	want := detect.Clean
	if len(dropped) > 0 {
		want = detect.Races
	}
	if rep.Verdict != want || rep.Profile != kvName || rep.Counts.Total != int64(requests) {
		t.Errorf("%s: verdict %s of profile %s on %d requests (%v), want %s on %d", name, rep.Verdict, rep.Profile, rep.Counts.Total, rep.Reasons, want, requests)
	}
	if sec, ok := rep.Section.(kvSection); !ok || sec.ReadBack != requests {
		t.Errorf("%s: the profile's report section is %#v, want %d writes read back", name, rep.Section, requests)
	}
}

// The key-value service: PUT /kv/KEY stores the body, GET /kv/KEY returns it (404: no such key).
// A lossy one answers 204 to every PUT but keeps only four of every five.

type kvServer struct {
	lossy bool
	puts  atomic.Int64

	mu      sync.Mutex
	vals    map[string]string
	dropped []string
}

func newKVServer(lossy bool) *kvServer { return &kvServer{lossy: lossy, vals: map[string]string{}} }

func (s *kvServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	key, ok := strings.CutPrefix(r.URL.Path, "/kv/")
	if !ok || key == "" {
		http.NotFound(w, r)
		return
	}
	switch r.Method {
	case http.MethodPut:
		b, err := io.ReadAll(r.Body)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		n := s.puts.Add(1)
		s.mu.Lock()
		if s.lossy && n%5 == 0 {
			s.dropped = append(s.dropped, key) // the bug: acknowledged, never stored
		} else {
			s.vals[key] = string(b)
		}
		s.mu.Unlock()
		w.WriteHeader(http.StatusNoContent)
	case http.MethodGet:
		s.mu.Lock()
		v, ok := s.vals[key]
		s.mu.Unlock()
		if !ok {
			http.NotFound(w, r)
			return
		}
		_, _ = io.WriteString(w, v)
	default:
		http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
	}
}

func (s *kvServer) droppedKeys() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Sorted(slices.Values(s.dropped))
}

// The kv profile: Requests PUTs of distinct keys, each acknowledged one read back after the load;
// a write acknowledged and not read back is lost.

const (
	kvName = "kv"
	kvPut  = "put"
	kvGet  = "get"
)

var registerKV sync.Once

type kvProfile struct{}

func (kvProfile) Kind() history.Profile {
	return history.Profile{Name: kvName, Records: true, Ops: []string{kvPut}, Findings: []string{detect.Lost}}
}

func (kvProfile) Defaults(*stress.Config) {}

func (kvProfile) Check(c stress.Config) error {
	if c.Requests < 1 {
		return stress.FieldErrorf("Requests", "%d: the kv profile writes one key per request", c.Requests)
	}
	return nil
}

func (kvProfile) Stage(_ context.Context, e *stress.StageEnv) (stress.Stage, error) {
	for _, t := range e.Targets() {
		e.Header.TargetInfo = append(e.Header.TargetInfo, stress.TargetInfo(t, false))
	}
	return kvStage{e: e}, nil
}

func (kvProfile) Load(e stress.SendEnv) stress.Loader { return &kvLoad{e: e} }

func (kvProfile) Rules() detect.Rules { return kvRules{} }

// Cleanup plans nothing it could not show is the run's: it lists the keys the run wrote and lost.
func (kvProfile) Cleanup() cleanup.PlanFunc {
	return func(_ context.Context, h *history.History, _ cleanup.Options) (*cleanup.Plan, error) {
		p := &cleanup.Plan{Result: cleanup.Result{Run: h.Header.Run, Profile: h.Header.Profile, DryRun: true, Removed: []string{}}}
		for _, f := range (kvRules{}).Findings(h, nil, detect.Options{}, nil) {
			p.Removed = append(p.Removed, f.Object)
		}
		return p, nil
	}
}

func (kvProfile) Section(h *history.History, _ *report.Report) any {
	var s kvSection
	for i := range h.Records {
		if r := &h.Records[i]; r.Kind == history.KindReadback && r.Op == kvGet {
			s.ReadBack++
		}
	}
	return s
}

// kvSection is the kv profile's part of the report.
type kvSection struct {
	ReadBack int `json:"read_back"`
}

// kvLoad sends the PUTs, each to the target of its sequence number.
type kvLoad struct {
	e    stress.SendEnv
	next atomic.Int64
}

func (*kvLoad) Setup(context.Context, *stress.Setup) error { return nil }

func (l *kvLoad) Source(context.Context, *stress.Setup, profile.Recorder, stress.LoadObserver) (attack.Source, bool, error) {
	n := l.e.Shard.Len(int64(l.e.Config.Requests))
	return attack.SourceFunc(func(context.Context) (attack.Op, bool) {
		i := l.next.Add(1) - 1
		if i >= n {
			return nil, false
		}
		seq := l.e.Shard.Global(i) + 1
		t := l.e.Targets[int(seq)%len(l.e.Targets)].URL
		return &kvOp{l: l, seq: seq, target: t, key: profile.Nonce(l.e.Config.Run, seq)}, true
	}), false, nil
}

func (*kvLoad) Finish(context.Context, *stress.Load, stress.LoadObserver) {}

type kvOp struct {
	l      *kvLoad
	seq    int64
	target *url.URL
	key    string
}

func (o *kvOp) Request(ctx context.Context) (*http.Request, error) {
	return http.NewRequestWithContext(ctx, http.MethodPut, o.target.JoinPath("kv", o.key).String(), strings.NewReader("v-"+o.key))
}

func (o *kvOp) Done(r *attack.Result, _ *http.Response) attack.Outcome {
	out := attack.Classify(r)
	rec := &history.Record{Kind: history.KindRequest, Seq: o.seq, Op: kvPut, Method: http.MethodPut, Target: o.target.Redacted(),
		Path: "/kv/" + o.key, Nonce: o.key, ID: o.key, Start: r.Start, End: o.l.e.Now(), Status: r.Status, Outcome: out.String()}
	if r.Err != nil {
		rec.Error = r.Err.Error()
	}
	o.l.e.Record(rec)
	return out
}

// kvStage reads every acknowledged write back after the load.
type kvStage struct{ e *stress.StageEnv }

func (s kvStage) After(ctx context.Context, _ bool, _ *stress.Load, _ *history.Footer) (*snapshot.State, bool, error) {
	c := s.e.Deps().Client
	if c == nil {
		c = &http.Client{Timeout: 10 * time.Second}
	}
	for _, r := range s.e.Records() {
		if r.Kind != history.KindRequest || !r.Applied() {
			continue
		}
		rb := &history.Record{Kind: history.KindReadback, Op: kvGet, Target: r.Target, ID: r.ID}
		u, err := url.Parse(r.Target)
		if err != nil {
			return nil, false, err
		}
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.JoinPath("kv", r.ID).String(), nil)
		if err != nil {
			return nil, false, err
		}
		resp, err := c.Do(req)
		if err != nil {
			rb.Error = err.Error()
		} else {
			b, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			rb.Status, rb.Found = resp.StatusCode, resp.StatusCode == http.StatusOK && string(b) == "v-"+r.ID
		}
		s.e.Record(rb)
	}
	return nil, true, nil
}

// kvRules: an acknowledged write whose read-back did not find its value is lost.
type kvRules struct{}

func (kvRules) Findings(h *history.History, _ *snapshot.State, _ detect.Options, _ *detect.Judgement) []detect.Finding {
	found := map[string]bool{}
	for i := range h.Records {
		if r := &h.Records[i]; r.Kind == history.KindReadback && r.Op == kvGet {
			found[r.ID] = r.Found
		}
	}
	var out []detect.Finding
	for i := range h.Records {
		r := &h.Records[i]
		if r.Kind == history.KindRequest && r.Applied() && !found[r.ID] {
			out = append(out, detect.Finding{Kind: detect.Lost, Object: r.ID, Expected: "the acknowledged value", Got: "not read back",
				Requests: []detect.RequestRef{{Seq: r.Seq, Op: r.Op, Start: r.Start, End: r.End, Status: r.Status, Outcome: r.Outcome}}})
		}
	}
	return out
}

func (kvRules) Unearned(*history.History, *snapshot.State, detect.Options, *detect.Judgement) []string {
	return nil
}
