package sandbox_test

import (
	"archive/zip"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"sync"
	"testing"
	"time"

	"github.com/osctl/osctl/pkg/sandbox"
)

// lockingModes are the modes every behaviour of the real server must hold in.
var lockingModes = []sandbox.Locking{sandbox.LockingNone, sandbox.LockingLocal, sandbox.LockingRedlock}

// eachMode runs f once per locking mode, as a subtest.
func eachMode(t *testing.T, f func(t *testing.T, mode sandbox.Locking)) {
	for _, m := range lockingModes {
		t.Run(string(m), func(t *testing.T) { f(t, m) })
	}
}

// replicaDirs maps the base URL of each replica serveMode started to its state directory.
var replicaDirs sync.Map

// serveMode starts an in-process replica in a locking mode (with its own Redis) and returns
// its base URL.
func serveMode(t *testing.T, mode sandbox.Locking) string {
	t.Helper()
	ts, dir := serve(t, sandbox.Config{Locking: mode})
	replicaDirs.Store(ts.URL, dir)
	return ts.URL
}

// stateDirOf is the state directory of a replica serveMode started.
func stateDirOf(t testing.TB, base string) string {
	t.Helper()
	d, ok := replicaDirs.Load(base)
	if !ok {
		t.Fatalf("no replica at %s", base)
	}
	return d.(string)
}

// exists reports whether the path joined from parts exists.
func exists(parts ...string) bool {
	_, err := os.Lstat(filepath.Join(parts...))
	return err == nil
}

// answer is one HTTP answer: status, headers, body and the body decoded as JSON (nil when it
// is not JSON).
type answer struct {
	status int
	header http.Header
	body   []byte
	json   any
}

// obj returns the answer's JSON object (nil when it is not one).
func (a answer) obj() map[string]any {
	m, _ := a.json.(map[string]any)
	return m
}

// noRedirects answers a redirect as it is.
var noRedirects = &http.Client{Timeout: time.Minute, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}

// send sends one request with optional extra headers (name, value pairs) and reads the answer.
func send(t testing.TB, method, url, ctype string, body []byte, hdr ...string) answer {
	t.Helper()
	req, err := http.NewRequestWithContext(context.Background(), method, url, bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	if ctype != "" {
		req.Header.Set("Content-Type", ctype)
	}
	for i := 0; i+1 < len(hdr); i += 2 {
		req.Header.Set(hdr[i], hdr[i+1])
	}
	resp, err := noRedirects.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, url, err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	a := answer{status: resp.StatusCode, header: resp.Header, body: b}
	_ = json.Unmarshal(b, &a.json)
	return a
}

func sendJSON(t testing.TB, method, url string, v any) answer {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return send(t, method, url, "application/json", b)
}

// railsError is the body Rails renders for an exception of a JSON request.
func railsError(status int) map[string]any {
	texts := map[int]string{400: "Bad Request", 422: "Unprocessable Entity", 500: "Internal Server Error"}
	return map[string]any{"status": float64(status), "error": texts[status]}
}

// wantJSON fails unless the answer has the status and a body equal to want (as JSON).
func wantJSON(t testing.TB, what string, a answer, status int, want any) {
	t.Helper()
	var w any
	b, _ := json.Marshal(want)
	_ = json.Unmarshal(b, &w)
	if a.status != status || !reflect.DeepEqual(a.json, w) {
		t.Errorf("%s: HTTP %d %s, want HTTP %d %s (sandbox says: %s)", what, a.status, bytes.TrimSpace(a.body), status, b, a.header.Get("X-Osctl-Sandbox-Error"))
	}
}

var (
	uuidRE  = regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$`)
	oidRE   = regexp.MustCompile(`^[0-9a-f]{24}$`)
	stampRE = regexp.MustCompile(`^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$`)
)

// newProject creates a project and returns its id.
func newProject(t testing.TB, base string) string {
	t.Helper()
	a := sendJSON(t, "POST", base+"/projects.json", map[string]any{"project": map[string]any{"name": "fidelity"}})
	id, _ := a.obj()["_id"].(string)
	if a.status != http.StatusCreated || id == "" {
		t.Fatalf("create project: HTTP %d %s", a.status, a.body)
	}
	return id
}

// newAnalysis creates an analysis with the given id (a new uuid when "") and returns its id.
func newAnalysis(t testing.TB, base, projectID, id string) string {
	t.Helper()
	obj := map[string]any{"display_name": "fidelity"}
	if id != "" {
		obj["uuid"] = id
	}
	a := sendJSON(t, "POST", base+"/projects/"+projectID+"/analyses.json", map[string]any{"analysis": obj})
	got, _ := a.obj()["_id"].(string)
	if a.status != http.StatusCreated || got == "" {
		t.Fatalf("create analysis: HTTP %d %s", a.status, a.body)
	}
	return got
}

// uploadZip uploads a seed zip under the given file name as application/zip.
func uploadZip(t testing.TB, base, id, name string, body []byte) answer {
	t.Helper()
	ct, b := multipartFile(nil, "file", name, "application/zip", body)
	return send(t, "POST", base+"/analyses/"+id+"/upload.json", ct, b)
}

// startAnalysis sends the start the openstudio-analysis gem sends, and requires code 200.
func startAnalysis(t testing.TB, base, id string) answer {
	t.Helper()
	a := sendJSON(t, "POST", base+"/analyses/"+id+"/action.json", map[string]any{"analysis_action": "start", "without_delay": false, "analysis_type": "batch_run"})
	if a.status != http.StatusOK || a.obj()["code"] != 200.0 {
		t.Fatalf("start %s: HTTP %d %s", id, a.status, a.body)
	}
	return a
}

// orderedZip builds a zip of the entries in the order given (names[i] holds data[i]).
func orderedZip(t testing.TB, names []string, data [][]byte) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for i, n := range names {
		w, err := zw.CreateHeader(&zip.FileHeader{Name: n, Method: zip.Deflate, Modified: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)})
		if err != nil {
			t.Fatal(err)
		}
		_, _ = w.Write(data[i])
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}
