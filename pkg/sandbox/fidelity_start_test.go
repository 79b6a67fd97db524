package sandbox_test

import (
	"archive/zip"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"maps"
	"net/http"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/osctl/osctl/internal/testenv"
	"github.com/osctl/osctl/pkg/sandbox"
)

// shared is what two in-process replicas of one sandbox share: a state directory, a Redis and
// a namespace.
type shared struct {
	dir string
	rdb *redis.Client
	ns  string
}

func newShared(t *testing.T) shared {
	return shared{dir: t.TempDir(), rdb: testenv.StartRedis(t).Client(), ns: "t" + randHex(4)}
}

func randHex(n int) string {
	const digits = "0123456789abcdef"
	b := make([]byte, 2*n)
	for i := range b {
		b[i] = digits[randInt(16)]
	}
	return string(b)
}

// replica starts a replica of the shared sandbox whose worker sleeps interval when idle, and
// waits until that worker has looked at the queues once.
func (sh shared) replica(t *testing.T, mode sandbox.Locking, interval time.Duration, cfg sandbox.Config) *replica {
	t.Helper()
	cfg.StateDir, cfg.Masters, cfg.Namespace, cfg.Locking, cfg.BackgroundInterval = sh.dir, []redis.UniversalClient{sh.rdb}, sh.ns, mode, interval
	r := startReplica(t, cfg)
	t.Cleanup(r.stop)
	testenv.Eventually(t, time.Minute, "the worker's first look at its queues", func() bool { return !workerStatus(t, r.url).Busy })
	return r
}

func (sh shared) key(name string) string { return "osctl:sandbox:" + sh.ns + ":resque:" + name }

// payloads returns the jobs waiting in a Resque queue.
func (sh shared) payloads(t *testing.T, queue string) []map[string]any {
	t.Helper()
	raw, err := sh.rdb.LRange(context.Background(), sh.key("queue:"+queue), 0, -1).Result()
	if err != nil {
		t.Fatal(err)
	}
	var out []map[string]any
	for _, r := range raw {
		var m map[string]any
		if err := json.Unmarshal([]byte(r), &m); err != nil {
			t.Fatalf("queue %s holds %q: %v", queue, r, err)
		}
		out = append(out, m)
	}
	return out
}

func workerStatus(t testing.TB, base string) sandbox.WorkerStatus {
	t.Helper()
	var st sandbox.Status
	a := send(t, "GET", base+"/status", "", nil)
	if err := json.Unmarshal(a.body, &st); err != nil || a.status != 200 {
		t.Fatalf("GET /status: HTTP %d %s", a.status, a.body)
	}
	return st.Worker
}

func analysisState(t testing.TB, base, id string) map[string]any {
	t.Helper()
	a, _ := send(t, "GET", base+"/analyses/"+id+"/status.json", "", nil).obj()["analysis"].(map[string]any)
	if a == nil {
		t.Fatalf("status.json of %s lists no analysis", id)
	}
	return a
}

func TestStartIsAsynchronous(t *testing.T) {
	eachMode(t, func(t *testing.T, mode sandbox.Locking) {
		sh := newShared(t)
		idle := sh.replica(t, mode, time.Hour, sandbox.Config{}) // its worker looked once and sleeps
		aid := newAnalysis(t, idle.url, newProject(t, idle.url), "")
		if a := uploadZip(t, idle.url, aid, "seed.zip", orderedZip(t, []string{"a.txt"}, [][]byte{[]byte("A")})); a.status != 201 {
			t.Fatalf("upload: HTTP %d", a.status)
		}
		startAnalysis(t, idle.url, aid)
		st := analysisState(t, idle.url, aid)
		keys := slices.Sorted(maps.Keys(st))
		if want := []string{"_id", "analysis_type", "data_points", "exit_on_guideline_14", "id", "jobs", "run_flag", "status", "total_datapoints"}; !reflect.DeepEqual(keys, want) {
			t.Errorf("status.json keys %v, want %v", keys, want)
		}
		wantJobs := []any{map[string]any{"index": 0.0, "analysis_type": "batch_run", "status": "queued", "status_message": ""}}
		if st["status"] != "queued" || st["analysis_type"] != "batch_run" || !reflect.DeepEqual(st["jobs"], wantJobs) {
			t.Fatalf("status.json right after the start: %v, want one job queued", st)
		}
		if exists(sh.dir, "server/analyses", aid) {
			t.Fatalf("extracted before any worker took the job")
		}
		ps := sh.payloads(t, "analysis_wrappers")
		args, _ := ps[0]["args"].([]any)
		if len(ps) != 1 || ps[0]["class"] != "ResqueJobs::InitializeAnalysis" || len(args) != 4 || args[0] != "batch_run" || args[1] != aid || !oidRE.MatchString(args[2].(string)) {
			t.Fatalf("analysis_wrappers holds %v, want one InitializeAnalysis [batch_run, %s, <job id>, options]", ps, aid)
		}
		if ok, _ := sh.rdb.SIsMember(context.Background(), sh.key("queues"), "analysis_wrappers").Result(); !ok {
			t.Errorf("analysis_wrappers is not registered in %s", sh.key("queues"))
		}
		// Another replica's worker takes the job: the extraction happens there, later.
		busy := sh.replica(t, mode, 10*time.Millisecond, sandbox.Config{})
		waitIdle(t, []string{idle.url, busy.url})
		st = analysisState(t, idle.url, aid)
		if jobs := st["jobs"].([]any); st["status"] != "started" || st["run_flag"] != true || len(jobs) != 1 || jobs[0].(map[string]any)["status"] != "started" {
			t.Errorf("status.json after the worker ran: %v, want the job started", st)
		}
		if b, err := os.ReadFile(filepath.Join(sh.dir, "server/analyses", aid, "a.txt")); err != nil || string(b) != "A" {
			t.Errorf("extraction: %q %v", b, err)
		}
		if w := workerStatus(t, busy.url); w.Performed != 1 || w.Failed != 0 {
			t.Errorf("the second replica's worker: %+v, want 1 job performed", w)
		}
	})
}

func TestStartBeforeUploadStaysQueuedForGood(t *testing.T) {
	eachMode(t, func(t *testing.T, mode sandbox.Locking) {
		sh := newShared(t)
		r := sh.replica(t, mode, 10*time.Millisecond, sandbox.Config{})
		aid := newAnalysis(t, r.url, newProject(t, r.url), "")
		startAnalysis(t, r.url, aid)
		testenv.Eventually(t, time.Minute, "the InitializeAnalysis job to fail", func() bool { return workerStatus(t, r.url).Failed == 1 })
		failed, err := sh.rdb.LRange(context.Background(), sh.key("failed"), 0, -1).Result()
		if err != nil || len(failed) != 1 || !strings.Contains(failed[0], "failed 3 times") || !strings.Contains(failed[0], aid) {
			t.Errorf("%s: %v %v, want one failure after 3 attempts", sh.key("failed"), failed, err)
		}
		if a := uploadZip(t, r.url, aid, "seed.zip", orderedZip(t, []string{"a.txt"}, [][]byte{[]byte("A")})); a.status != 201 {
			t.Fatalf("upload: HTTP %d", a.status)
		}
		waitIdle(t, []string{r.url})
		if st := analysisState(t, r.url, aid); st["status"] != "queued" || st["jobs"].([]any)[0].(map[string]any)["status"] != "queued" {
			t.Errorf("after the failure and a later upload: %v, want the job still queued", st)
		}
		if exists(sh.dir, "server/analyses", aid) {
			t.Errorf("an extraction appeared without a new start")
		}
	})
}

func TestSequentialStartsMakeNewJobs(t *testing.T) {
	sh := newShared(t)
	r := sh.replica(t, sandbox.LockingNone, 10*time.Millisecond, sandbox.Config{})
	aid := newAnalysis(t, r.url, newProject(t, r.url), "")
	uploadZip(t, r.url, aid, "seed.zip", orderedZip(t, []string{"a.txt"}, [][]byte{[]byte("A")}))
	for range 3 {
		startAnalysis(t, r.url, aid)
		waitIdle(t, []string{r.url})
	}
	jobs := analysisState(t, r.url, aid)["jobs"].([]any)
	for i, j := range jobs {
		if j.(map[string]any)["index"] != float64(i) || j.(map[string]any)["status"] != "started" {
			t.Errorf("job %d: %v", i, j)
		}
	}
	if len(jobs) != 3 {
		t.Errorf("%d jobs after 3 starts one after the other, want 3 (index jobs.length each time)", len(jobs))
	}
}

// rawEntries returns each entry's name and raw (compressed) bytes, in the zip's order.
func rawEntries(t *testing.T, b []byte) ([]string, map[string][]byte) {
	t.Helper()
	zr, err := zip.NewReader(bytes.NewReader(b), int64(len(b)))
	if err != nil {
		t.Fatalf("not a zip: %v", err)
	}
	var names []string
	raw := map[string][]byte{}
	for _, f := range zr.File {
		r, err := f.OpenRaw()
		if err != nil {
			t.Fatal(err)
		}
		data, _ := io.ReadAll(r)
		names = append(names, f.Name)
		raw[f.Name] = data
	}
	return names, raw
}

func TestExtractionSortRewritesTheSeedZip(t *testing.T) {
	unsortedNames := []string{"z.txt", "a.txt", "m/b.txt"}
	data := [][]byte{[]byte(strings.Repeat("z", 3000)), []byte("aaa"), []byte(strings.Repeat("b", 500))}
	sortedNames := append([]string(nil), unsortedNames...)
	sort.Strings(sortedNames)
	eachMode(t, func(t *testing.T, mode sandbox.Locking) {
		for _, c := range []struct {
			name      string
			names     []string
			noRewrite bool
			rewritten bool
		}{
			{"unsorted zip", unsortedNames, false, true},
			{"sorted zip", sortedNames, false, false},
			{"unsorted zip, --zip-rewrite=false", unsortedNames, true, false},
		} {
			sh := newShared(t)
			r := sh.replica(t, mode, 10*time.Millisecond, sandbox.Config{NoZipRewrite: c.noRewrite})
			aid := newAnalysis(t, r.url, newProject(t, r.url), "")
			var entries [][]byte
			for _, n := range c.names {
				for i, u := range unsortedNames {
					if u == n {
						entries = append(entries, data[i])
					}
				}
			}
			sent := orderedZip(t, c.names, entries)
			uploadZip(t, r.url, aid, "seed.zip", sent)
			startAnalysis(t, r.url, aid)
			waitIdle(t, []string{r.url})
			if st := analysisState(t, r.url, aid); st["status"] != "started" {
				t.Fatalf("%s: %v, want the job started", c.name, st)
			}
			zdir := filepath.Join(sh.dir, "server/assets/analyses", aid, "original")
			stored, err := os.ReadFile(filepath.Join(zdir, "seed.zip"))
			if err != nil {
				t.Fatal(err)
			}
			if bytes.Equal(stored, sent) == c.rewritten {
				t.Errorf("%s: stored zip rewritten %v, want %v", c.name, !bytes.Equal(stored, sent), c.rewritten)
			}
			sentNames, sentRaw := rawEntries(t, sent)
			gotNames, gotRaw := rawEntries(t, stored)
			if !reflect.DeepEqual(gotRaw, sentRaw) {
				t.Errorf("%s: the stored zip's entries (raw bytes) differ from the upload's", c.name)
			}
			if want := sentNames; c.rewritten {
				if want = sortedNames; !reflect.DeepEqual(gotNames, want) {
					t.Errorf("%s: stored entries in order %v, want %v", c.name, gotNames, want)
				}
			} else if !reflect.DeepEqual(gotNames, want) {
				t.Errorf("%s: stored entries in order %v, want %v", c.name, gotNames, want)
			}
			if ents, _ := os.ReadDir(zdir); len(ents) != 1 {
				t.Errorf("%s: %d files beside the zip (a temporary file left?)", c.name, len(ents))
			}
			got, err := readTree(filepath.Join(sh.dir, "server/analyses", aid))
			if err != nil || len(got) != 3 || string(got["m/b.txt"]) != string(data[2]) {
				t.Errorf("%s: extraction %v %v", c.name, got, err)
			}
		}
	})
}

func TestDeleteAnalysis(t *testing.T) {
	eachMode(t, func(t *testing.T, mode sandbox.Locking) {
		sh := newShared(t)
		first := sh.replica(t, mode, 10*time.Millisecond, sandbox.Config{})
		base := first.url
		pid := newProject(t, base)
		uuid, named := newAnalysis(t, base, pid, ""), newAnalysis(t, base, pid, "osctl-named-1")
		results := map[string]string{}
		for _, aid := range []string{uuid, named} {
			uploadZip(t, base, aid, "seed.zip", orderedZip(t, []string{"a.txt"}, [][]byte{[]byte("A")}))
			startAnalysis(t, base, aid)
		}
		waitIdle(t, []string{base})
		// Data points made after the analysis ran: RunAnalysis did not delete their result files.
		for _, aid := range []string{uuid, named} {
			dp := sendJSON(t, "POST", base+"/analyses/"+aid+"/data_points.json", map[string]any{"data_point": map[string]any{"uuid": "dp-" + aid}}).obj()["_id"].(string)
			ct, body := multipartFile(nil, "file[attachment]", "r.json", "application/json", []byte("{}"))
			results[aid], _ = send(t, "POST", base+"/data_points/"+dp+"/upload_file.json", ct, body).obj()["id"].(string)
		}
		first.stop()
		// A replica whose worker sleeps: what DELETE does at once, and what it leaves to a job.
		r := sh.replica(t, mode, time.Hour, sandbox.Config{})
		for _, aid := range []string{uuid, named} {
			if a := send(t, "DELETE", r.url+"/analyses/"+aid, "", nil, "Accept", "application/json"); a.status != http.StatusNoContent || len(a.body) != 0 {
				t.Fatalf("DELETE %s: HTTP %d %q, want 204", aid, a.status, a.body)
			}
			wantJSON(t, "GET the deleted analysis", send(t, "GET", r.url+"/analyses/"+aid+".json", "", nil), 200, map[string]any{"analysis": nil})
			wantJSON(t, "its status", send(t, "GET", r.url+"/analyses/"+aid+"/status.json", "", nil), 200, map[string]any{"analyses": []any{}})
			wantJSON(t, "its data point", send(t, "GET", r.url+"/data_points/dp-"+aid+".json", "", nil), 422, map[string]any{"error": "No Datapoint"})
			if exists(sh.dir, "server/assets/analyses", aid, "original", "seed.zip") {
				t.Errorf("%s: the seed zip survived the destroy (Paperclip deletes it)", aid)
			}
			if !exists(sh.dir, "server/assets/data_points", results[aid], "files/original/r.json") {
				t.Errorf("%s: the result file was deleted; embedded result files keep theirs", aid)
			}
			if !exists(sh.dir, "server/analyses", aid, "a.txt") {
				t.Errorf("%s: the extraction was removed by the request, not later by a job", aid)
			}
		}
		if p := send(t, "GET", r.url+"/projects/"+pid+".json", "", nil).obj(); len(p["analyses"].([]any)) != 0 {
			t.Errorf("project still lists analyses: %v", p)
		}
		ps := sh.payloads(t, "background")
		want := []string{filepath.Join(sh.dir, "analysis_"+uuid), filepath.Join(sh.dir, "server/analyses", uuid)}
		if len(ps) != 2 || ps[0]["class"] != "ResqueJobs::DeleteAnalysis" || ps[0]["args"].([]any)[0] != want[0] || ps[1]["args"].([]any)[0] != want[1] {
			t.Fatalf("background queue %v, want DeleteAnalysis of %v (and none for the analysis whose id is no uuid)", ps, want)
		}
		later := sh.replica(t, mode, 10*time.Millisecond, sandbox.Config{})
		waitIdle(t, []string{r.url, later.url})
		if exists(sh.dir, "server/analyses", uuid) {
			t.Errorf("the DeleteAnalysis job did not remove the extraction")
		}
		if !exists(sh.dir, "server/analyses", named, "a.txt") {
			t.Errorf("the extraction of %s is gone: queue_delete_files queues nothing for an id that is no uuid", named)
		}
		aid := newAnalysis(t, r.url, pid, "")
		a := send(t, "DELETE", r.url+"/analyses/"+aid, "", nil)
		if a.status != http.StatusFound || a.header.Get("Location") != r.url+"/projects/"+pid {
			t.Errorf("DELETE as HTML: HTTP %d Location %q, want a redirect to the project", a.status, a.header.Get("Location"))
		}
	})
}

func TestDropCreatesLosesRecords(t *testing.T) {
	base, _ := serve(t, sandbox.Config{DropCreates: 0.5})
	pid := newProject(t, base.URL)
	keep := newAnalysis(t, base.URL, pid, "")
	for send(t, "GET", base.URL+"/analyses/"+keep+".json", "", nil).obj()["analysis"] == nil {
		keep = newAnalysis(t, base.URL, pid, "") // a kept analysis to hold the data points
	}
	lost := map[string]int{}
	for i := range 40 {
		id := "drop-" + string(rune('a'+i%26)) + randHex(3)
		a := sendJSON(t, "POST", base.URL+"/projects/"+pid+"/analyses.json", map[string]any{"analysis": map[string]any{"uuid": id}})
		if a.status != 201 || a.obj()["_id"] != id || a.header.Get("Location") == "" {
			t.Fatalf("create %s: HTTP %d %s, want 201 whether kept or not", id, a.status, a.body)
		}
		if send(t, "GET", base.URL+"/analyses/"+id+".json", "", nil).obj()["analysis"] == nil {
			lost["analysis"]++
			if again := sendJSON(t, "POST", base.URL+"/projects/"+pid+"/analyses.json", map[string]any{"analysis": map[string]any{"uuid": id}}); again.status != 201 {
				t.Errorf("the same dropped id again: HTTP %d, want 201 (dropped again, not a duplicate)", again.status)
			}
			wantJSON(t, "upload to a dropped analysis", uploadZip(t, base.URL, id, "seed.zip", orderedZip(t, []string{"a"}, [][]byte{{1}})), 500, railsError(500))
		}
		dp := "dp-" + id
		if a := sendJSON(t, "POST", base.URL+"/analyses/"+keep+"/data_points.json", map[string]any{"data_point": map[string]any{"uuid": dp}}); a.status != 201 {
			t.Fatalf("create data point: HTTP %d", a.status)
		}
		if send(t, "GET", base.URL+"/data_points/"+dp+".json", "", nil).status == 422 {
			lost["data point"]++
		}
	}
	for _, kind := range []string{"analysis", "data point"} {
		if lost[kind] == 0 || lost[kind] == 40 {
			t.Errorf("--drop-creates 0.5 lost %d of 40 %s creates", lost[kind], kind)
		}
	}
	t.Logf("lost %v of 40 each", lost)
}
