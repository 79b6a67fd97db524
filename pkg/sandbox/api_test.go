package sandbox_test

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/osctl/osctl/internal/testenv"
	"github.com/osctl/osctl/pkg/sandbox"
)

// serve starts one in-process replica (race-instrumented) on a loopback httptest server, with
// a redis-server of its own unless cfg has masters, and a worker polling every 10ms unless
// cfg says otherwise; it stops when the test ends.
func serve(t *testing.T, cfg sandbox.Config) (*httptest.Server, string) {
	t.Helper()
	r := startReplica(t, cfg)
	t.Cleanup(r.stop)
	return r.ts, r.cfg.StateDir
}

// newLoopbackServer serves h on a loopback httptest server closed when tb ends.
func newLoopbackServer(tb testing.TB, h http.Handler) string {
	ts := httptest.NewServer(h)
	tb.Cleanup(ts.Close)
	return ts.URL
}

func TestStatusSaysSandbox(t *testing.T) {
	ts, _ := serve(t, sandbox.Config{Replica: 4, Replicas: 5, MaxActive: 3})
	st, m, err := getJSON(context.Background(), ts.URL+"/status")
	if err != nil || st != 200 {
		t.Fatalf("GET /status: %d %v", st, err)
	}
	want := map[string]any{"status": "ok", "sandbox": true, "replica": 4.0, "replicas": 5.0, "locking": "none", "queue": "local",
		"max_active": 3.0, "replica_max_active": 3.0, "job_duration": "1s", "background_interval": "10ms", "zip_rewrite": true, "drop_creates": 0.0}
	for k, v := range want {
		if m[k] != v {
			t.Errorf("/status %s = %v, want %v (all: %v)", k, m[k], v, m)
		}
	}
}

func TestOpenStudioFlow(t *testing.T) {
	ts, dir := serve(t, sandbox.Config{})
	ctx := context.Background()
	ids := mustCreate(t, ts.URL, 1)
	id := ids[0]
	st, m, _ := getJSON(ctx, ts.URL+"/analyses/"+id+"/status.json")
	if st != 200 || m["analysis"].(map[string]any)["status"] != "unknown" {
		t.Fatalf("status before start: %d %v, want unknown (no job yet)", st, m)
	}
	z := newTestZip(t)
	if st, err := upload(ctx, ts.URL, id, z); err != nil || st != http.StatusCreated {
		t.Fatalf("upload: %d %v", st, err)
	}
	if code, err := start(ctx, ts.URL, id); err != nil || code != 200 {
		t.Fatalf("start: %d %v", code, err)
	}
	waitIdle(t, []string{ts.URL})
	st, m, _ = getJSON(ctx, ts.URL+"/analyses/"+id+"/status.json")
	if st != 200 || m["analysis"].(map[string]any)["status"] != "started" {
		t.Fatalf("status after the worker ran: %d %v", st, m)
	}
	if fs := checkState(t, dir, map[string][]testZip{id: {z}}); len(fs) > 0 {
		t.Fatalf("sequential upload and start left %v", fs)
	}
	if _, err := os.Stat(filepath.Join(dir, "server/analyses", id, "seed.osm")); err != nil {
		t.Fatalf("extraction missing: %v", err)
	}

	// Data point and result file: stored under the result's own id.
	st, dp, _ := postJSON(ctx, ts.URL+"/analyses/"+id+"/data_points.json", map[string]any{"data_point": map[string]any{"name": "dp"}})
	if st != http.StatusCreated {
		t.Fatalf("create data point: %d %v", st, dp)
	}
	dpID := dp["_id"].(string)
	ct, body := multipartBody(map[string]string{"file[display_name]": "report", "file[type]": "Report"}, "file[attachment]", "report.html", []byte("<html>ok</html>"))
	st, out, _ := call(ctx, http.MethodPost, ts.URL+"/data_points/"+dpID+"/upload_file.json", ct, body)
	var rf map[string]any
	_ = json.Unmarshal(out, &rf)
	if st != http.StatusCreated || rf["data_point_id"] != dpID || rf["display_name"] != "report" || rf["type"] != "Report" {
		t.Fatalf("upload_file: %d %s", st, out)
	}
	got, err := os.ReadFile(filepath.Join(dir, "server/assets/data_points", rf["id"].(string), "files/original/report.html"))
	if err != nil || string(got) != "<html>ok</html>" {
		t.Fatalf("result file: %q %v", got, err)
	}
	st, m, _ = getJSON(ctx, ts.URL+"/data_points/"+dpID+".json")
	if got, _ := m["data_point"].(map[string]any); st != 200 || got == nil || len(got["result_files"].([]any)) != 1 {
		t.Fatalf("GET data point: %d %v", st, m)
	}
	// Every record reads back without the .json suffix too.
	for _, p := range []string{"/analyses/" + id, "/data_points/" + dpID} {
		if st, _, _ := getJSON(ctx, ts.URL+p); st != 200 {
			t.Errorf("GET %s: %d", p, st)
		}
	}
}

func TestBadRequestsGet4xx(t *testing.T) {
	ts, _ := serve(t, sandbox.Config{MaxBody: 64 << 10})
	ctx := context.Background()
	id := mustCreate(t, ts.URL, 1)[0]
	_, p, _ := postJSON(ctx, ts.URL+"/projects.json", map[string]any{"project": map[string]any{}})
	pid := p["_id"].(string)
	otherCT, otherBody := multipartBody(map[string]string{"x": "y"}, "other", "a.zip", []byte("zz"))
	bigCT, bigBody := multipartBody(nil, "file", "a.zip", bytes.Repeat([]byte("x"), 100<<10))
	cases := []struct {
		name, method, path, ctype string
		body                      []byte
		want                      int
	}{
		{"bad JSON project", "POST", "/projects.json", "application/json", []byte("{nope"), 400},
		{"empty body", "POST", "/projects.json", "application/json", nil, 400},
		{"missing root key", "POST", "/projects.json", "application/json", []byte(`{"name":"x"}`), 400},
		{"root not an object", "POST", "/projects/" + pid + "/analyses.json", "application/json", []byte(`{"analysis":3}`), 500},
		{"uuid with slash", "POST", "/projects/" + pid + "/analyses.json", "application/json", []byte(`{"analysis":{"uuid":"a/b"}}`), 422},
		{"uuid with dotdot", "POST", "/projects/" + pid + "/analyses.json", "application/json", []byte(`{"analysis":{"uuid":".."}}`), 422},
		{"uuid not a string", "POST", "/projects/" + pid + "/analyses.json", "application/json", []byte(`{"analysis":{"uuid":5}}`), 422},
		{"empty uuid", "POST", "/projects/" + pid + "/analyses.json", "application/json", []byte(`{"analysis":{"uuid":""}}`), 422},
		{"upload not multipart", "POST", "/analyses/" + id + "/upload.json", "application/json", []byte("{}"), 400},
		{"upload oversized", "POST", "/analyses/" + id + "/upload.json", bigCT, bigBody, 413},
		{"oversized JSON", "POST", "/projects.json", "application/json", append(append([]byte(`{"project":{"n":"`), bytes.Repeat([]byte("x"), 100<<10)...), []byte(`"}}`)...), 413},
		{"action bad JSON", "POST", "/analyses/" + id + "/action.json", "application/json", []byte("]"), 400},
		{"data point missing root", "POST", "/analyses/" + id + "/data_points.json", "application/json", []byte(`{}`), 400},
		{"upload_file without an attachment", "POST", "/data_points/nope/upload_file.json", otherCT, otherBody, 422},
		{"job bad JSON", "POST", "/v1/jobs", "application/json", []byte("nope"), 422},
		{"job bad program", "POST", "/v1/jobs", "application/json", []byte(`{"program":7}`), 422},
		{"job id not hex", "GET", "/v1/jobs/nope/status", "", nil, 400},
		{"unknown job", "GET", "/v1/jobs/0123456789ab/status", "", nil, 404},
		{"delete unknown job", "DELETE", "/v1/jobs/0123456789ab", "", nil, 404},
		{"unknown route", "GET", "/nowhere", "", nil, 404},
		{"wrong method", "DELETE", "/projects.json", "", nil, 404},
	}
	for _, c := range cases {
		st, out, err := call(ctx, c.method, ts.URL+c.path, c.ctype, c.body)
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		if st != c.want {
			t.Errorf("%s: HTTP %d, want %d: %s", c.name, st, c.want, out)
		}
		var m map[string]any
		if json.Unmarshal(out, &m) != nil || (m["error"] == nil && m["detail"] == nil) {
			t.Errorf("%s: answer is not a JSON error: %s", c.name, out)
		}
	}
	// The server is still answering.
	if st, _, _ := getJSON(ctx, ts.URL+"/status"); st != 200 {
		t.Fatalf("server stopped answering: %d", st)
	}
}

func TestQueueFullGets503(t *testing.T) {
	ts, _ := serve(t, sandbox.Config{MaxPool: 1, MaxRequests: 1, Hold: time.Second})
	ids := mustCreate(t, ts.URL, 1)
	ctx := context.Background()
	z := newTestZip(t)
	var mu sync.Mutex
	counts := map[int]int{}
	var bodies []string
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			ct, body := multipartBody(nil, "file", "analysis.zip", z.body)
			st, out, err := call(ctx, http.MethodPost, ts.URL+"/analyses/"+ids[0]+"/upload.json", ct, body)
			mu.Lock()
			defer mu.Unlock()
			if err != nil {
				t.Errorf("upload: %v", err)
				return
			}
			counts[st]++
			if st == http.StatusServiceUnavailable {
				bodies = append(bodies, string(out))
			}
		})
	}
	wg.Wait()
	// One in the pool and one waiting may be served; the rest are refused. (At least one slot
	// and one queue place exist, so at least one upload succeeds.)
	if counts[http.StatusServiceUnavailable] == 0 || counts[http.StatusCreated] == 0 {
		t.Fatalf("answers %v: want both 201 and 503 with pool 1, queue 1 and 8 concurrent slow uploads", counts)
	}
	for _, b := range bodies {
		if !strings.Contains(b, "Request queue full") {
			t.Errorf("503 body %q does not say Request queue full", b)
		}
	}
	t.Logf("answers: %v", counts)
}

func TestRedlockInProcess(t *testing.T) {
	r := testenv.StartRedis(t)
	masters := []redis.UniversalClient{r.Client()}
	dir := t.TempDir()
	var replicas []string
	for i := range 2 {
		ts, _ := serve(t, sandbox.Config{StateDir: dir, Replica: i, Replicas: 2, Locking: sandbox.LockingRedlock, Masters: masters, WriteDelay: 100 * time.Microsecond})
		replicas = append(replicas, ts.URL)
	}
	ids := mustCreate(t, replicas[0], 2)
	sent, stats := raceRound(t, replicas, ids, 4, 3, nil)
	waitIdle(t, replicas)
	if fs := checkState(t, dir, sent); len(fs) > 0 {
		t.Fatalf("redlock left races: %v", fs)
	}
	if stats.uploadsOK != stats.uploads {
		t.Fatalf("uploads acknowledged %d of %d", stats.uploadsOK, stats.uploads)
	}
	if n := extracted(t, replicas[0], ids); n == 0 {
		t.Fatalf("no job of %d analyses left queued: the workers never extracted", len(ids))
	}
	// The fencing record sits beside the zip and inside the extraction.
	for _, id := range ids {
		if _, err := os.Stat(filepath.Join(dir, "server/assets/analyses", id, ".osctl-fence")); err != nil {
			t.Errorf("no fence record for %s: %v", id, err)
		}
	}
	// Nothing but the app's own names is left in the judged directories.
	for _, id := range ids {
		ents, _ := os.ReadDir(filepath.Join(dir, "server/assets/analyses", id, "original"))
		for _, e := range ents {
			if e.Name() != "analysis.zip" {
				t.Errorf("unexpected file %s beside the zip", e.Name())
			}
		}
	}
	ents, _ := os.ReadDir(filepath.Join(dir, "server/analyses"))
	for _, e := range ents {
		if strings.HasPrefix(e.Name(), ".osctl-") {
			t.Errorf("temporary extraction %s left behind", e.Name())
		}
	}
}
