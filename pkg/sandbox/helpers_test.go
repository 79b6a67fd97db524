package sandbox_test

import (
	"archive/zip"
	"bytes"
	"context"
	"crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math/big"
	"net/http"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/osctl/osctl/internal/testenv"
	"github.com/osctl/osctl/pkg/stress/profile"
)

// entryNames are the entries of every test zip: uploads of one analysis contend for the same
// names with different bytes, so that a mix of two uploads is visible.
var entryNames = []string{"seed.osm", "weather.epw", "scripts/analysis/run.rb", "data/big.bin"}

// testZip is one upload: its bytes and the manifest of its entries.
type testZip struct {
	body    []byte
	entries map[string][]byte
}

func randBytes(n int) []byte {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	return b
}

func randInt(n int) int {
	v, _ := rand.Int(rand.Reader, big.NewInt(int64(n)))
	return int(v.Int64())
}

// newTestZip builds a stored (uncompressed) zip of random entries, 20-80 KiB in all.
func newTestZip(t testing.TB) testZip {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	z := testZip{entries: map[string][]byte{}}
	for _, name := range entryNames {
		data := randBytes(2048 + randInt(18*1024))
		w, err := zw.CreateHeader(&zip.FileHeader{Name: name, Method: zip.Store})
		if err != nil {
			t.Fatal(err)
		}
		_, _ = w.Write(data)
		z.entries[name] = data
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	z.body = buf.Bytes()
	return z
}

var httpClient = &http.Client{Timeout: 60 * time.Second}

// call sends a request and returns the status and body; err only for transport failures.
func call(ctx context.Context, method, url, ctype string, body []byte) (int, []byte, error) {
	req, err := http.NewRequestWithContext(ctx, method, url, bytes.NewReader(body))
	if err != nil {
		return 0, nil, err
	}
	if ctype != "" {
		req.Header.Set("Content-Type", ctype)
	}
	resp, err := httpClient.Do(req)
	if err != nil {
		return 0, nil, err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	return resp.StatusCode, b, err
}

func postJSON(ctx context.Context, url string, v any) (int, map[string]any, error) {
	b, _ := json.Marshal(v)
	st, out, err := call(ctx, http.MethodPost, url, "application/json", b)
	var m map[string]any
	_ = json.Unmarshal(out, &m)
	return st, m, err
}

func getJSON(ctx context.Context, url string) (int, map[string]any, error) {
	st, out, err := call(ctx, http.MethodGet, url, "", nil)
	var m map[string]any
	_ = json.Unmarshal(out, &m)
	return st, m, err
}

// multipartBody builds a multipart/form-data body with fields and one file part, sent as
// application/zip when its name ends in .zip (Paperclip accepts no other seed zip), else as
// application/octet-stream.
func multipartBody(fields map[string]string, fileField, fileName string, data []byte) (string, []byte) {
	ctype := "application/octet-stream"
	if strings.HasSuffix(fileName, ".zip") {
		ctype = "application/zip"
	}
	return multipartFile(fields, fileField, fileName, ctype, data)
}

// multipartFile builds a multipart/form-data body with fields and one file part of the given
// content type (no file part when fileField is empty); the filename parameter is sent as given.
func multipartFile(fields map[string]string, fileField, fileName, ctype string, data []byte) (string, []byte) {
	body, ct := profile.Multipart(fields, fileField, fileName, ctype, data)
	return ct, body
}

func upload(ctx context.Context, base, id string, z testZip) (int, error) {
	ct, body := multipartBody(nil, "file", "analysis.zip", z.body)
	st, _, err := call(ctx, http.MethodPost, base+"/analyses/"+id+"/upload.json", ct, body)
	return st, err
}

func start(ctx context.Context, base, id string) (int, error) {
	st, m, err := postJSON(ctx, base+"/analyses/"+id+"/action.json", map[string]any{"analysis_action": "start"})
	if err != nil || st != http.StatusOK {
		return 0, fmt.Errorf("start: HTTP %d: %v", st, err)
	}
	code, _ := m["code"].(float64)
	return int(code), nil
}

// mustCreate creates a project and n analyses through base and returns the analysis ids.
func mustCreate(t testing.TB, base string, n int) []string {
	t.Helper()
	ctx := context.Background()
	st, p, err := postJSON(ctx, base+"/projects.json", map[string]any{"project": map[string]any{"name": "race"}})
	if err != nil || st != http.StatusCreated {
		t.Fatalf("create project: %d %v %v", st, p, err)
	}
	pid, _ := p["_id"].(string)
	ids := make([]string, n)
	for i := range ids {
		ids[i] = fmt.Sprintf("a-%s-%d", pidShort(pid), i)
		st, a, err := postJSON(ctx, base+"/projects/"+pid+"/analyses.json", map[string]any{"analysis": map[string]any{"uuid": ids[i], "display_name": "race"}})
		if err != nil || st != http.StatusCreated || a["_id"] != ids[i] {
			t.Fatalf("create analysis: %d %v %v", st, a, err)
		}
	}
	return ids
}

func pidShort(pid string) string {
	if len(pid) > 8 {
		return pid[len(pid)-8:]
	}
	return pid
}

// roundStats says what one round of concurrent requests achieved.
type roundStats struct {
	uploadsOK, uploads int
	startsOK, starts   int
	rejected503        int
	elapsed            time.Duration // from the first request sent to the last answer
}

// raceRound sends, for each analysis, `uploads` uploads of different zips and `starts` starts,
// all at once, spread round-robin over the replicas. It returns the zips sent per analysis.
func raceRound(t testing.TB, replicas []string, ids []string, uploads, starts int, during func()) (map[string][]testZip, roundStats) {
	t.Helper()
	ctx := context.Background()
	sent := map[string][]testZip{}
	for _, id := range ids {
		for range uploads {
			sent[id] = append(sent[id], newTestZip(t))
		}
	}
	var mu sync.Mutex
	var stats roundStats
	var wg sync.WaitGroup
	began := time.Now()
	n := 0
	for _, id := range ids {
		for i, z := range sent[id] {
			base := replicas[(n+i)%len(replicas)]
			wg.Go(func() {
				st, err := upload(ctx, base, id, z)
				mu.Lock()
				defer mu.Unlock()
				stats.uploads++
				if err == nil && st == http.StatusCreated {
					stats.uploadsOK++
				}
				if st == http.StatusServiceUnavailable {
					stats.rejected503++
				}
			})
		}
		for i := range starts {
			base := replicas[(n+i+1)%len(replicas)]
			delay := time.Duration(5+randInt(150)) * time.Millisecond // some during the uploads, some after
			wg.Go(func() {
				time.Sleep(delay)
				code, err := start(ctx, base, id)
				mu.Lock()
				defer mu.Unlock()
				stats.starts++
				if err == nil && code == 200 {
					stats.startsOK++
				}
			})
		}
		n++
	}
	if during != nil {
		during()
	}
	wg.Wait()
	stats.elapsed = time.Since(began)
	return sent, stats
}

// finding is one race seen in the state directory.
type finding struct{ kind, path, detail string }

func (f finding) String() string { return f.kind + " " + f.path + ": " + f.detail }

// checkState compares the state directory with what was sent: a zip must equal one upload's
// bytes; an extraction must hold exactly one upload's entries with their bytes.
func checkState(t testing.TB, stateDir string, sent map[string][]testZip) []finding {
	t.Helper()
	var out []finding
	for id, zips := range sent {
		zp := filepath.Join(stateDir, "server/assets/analyses", id, "original", "analysis.zip")
		b, err := os.ReadFile(zp)
		switch {
		case errors.Is(err, fs.ErrNotExist):
		case err != nil:
			t.Fatal(err)
		default:
			// The server may have sort-rewritten the zip: then its entries are one upload's.
			match := false
			for _, z := range zips {
				if bytes.Equal(b, z.body) || zipHolds(b, z.entries) {
					match = true
				}
			}
			if !match {
				out = append(out, finding{"torn", zp, fmt.Sprintf("%d bytes equal no upload, nor do its entries", len(b))})
			}
		}
		dir := filepath.Join(stateDir, "server/analyses", id)
		got, err := readTree(dir)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		match := false
		for _, z := range zips {
			if sameEntries(got, z.entries) {
				match = true
			}
		}
		if !match {
			out = append(out, finding{"mixed", dir, describeTree(got, zips)})
		}
	}
	return out
}

// zipEntries reads a zip's entries (checksums verified) in their order; nil when it is not a
// readable zip.
func zipEntries(b []byte) ([]string, map[string][]byte) {
	zr, err := zip.NewReader(bytes.NewReader(b), int64(len(b)))
	if err != nil {
		return nil, nil
	}
	var names []string
	out := map[string][]byte{}
	for _, f := range zr.File {
		rc, err := f.Open()
		if err != nil {
			return nil, nil
		}
		data, err := io.ReadAll(rc)
		rc.Close()
		if err != nil {
			return nil, nil
		}
		names = append(names, f.Name)
		out[f.Name] = data
	}
	return names, out
}

// zipHolds reports whether b is a readable zip of exactly these entries.
func zipHolds(b []byte, entries map[string][]byte) bool {
	names, got := zipEntries(b)
	return names != nil && len(names) == len(got) && sameEntries(got, entries)
}

// waitIdle waits until the sandbox's workers have taken and finished every job.
func waitIdle(t testing.TB, replicas []string) {
	t.Helper()
	if err := testenv.WaitSandboxIdle(context.Background(), replicas, 2*time.Minute); err != nil {
		t.Fatal(err)
	}
}

// statusJobs returns the jobs GET /analyses/<id>/status.json lists.
func statusJobs(t testing.TB, base, id string) []map[string]any {
	t.Helper()
	st, m, err := getJSON(context.Background(), base+"/analyses/"+id+"/status.json")
	a, _ := m["analysis"].(map[string]any)
	if err != nil || st != http.StatusOK || a == nil {
		t.Fatalf("status.json of %s: %d %v %v", id, st, m, err)
	}
	var out []map[string]any
	for _, j := range a["jobs"].([]any) {
		out = append(out, j.(map[string]any))
	}
	return out
}

// extracted counts the analyses one of whose jobs left queued (its extraction succeeded).
func extracted(t testing.TB, base string, ids []string) int {
	t.Helper()
	n := 0
	for _, id := range ids {
		for _, j := range statusJobs(t, base, id) {
			if j["status"] != "queued" {
				n++
				break
			}
		}
	}
	return n
}

// readTree reads every file under dir except the names the app generates.
func readTree(dir string) (map[string][]byte, error) {
	if _, err := os.Stat(dir); err != nil {
		return nil, err
	}
	out := map[string][]byte{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() || ignored(d.Name()) {
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		out[filepath.ToSlash(rel)] = b
		return nil
	})
	return out, err
}

func ignored(name string) bool {
	return strings.HasPrefix(name, ".osctl-") || strings.HasPrefix(name, ".nfs") ||
		name == "analysis_zip.lock" || name == "analysis_zip.receipt"
}

func sameEntries(got, want map[string][]byte) bool {
	if len(got) != len(want) {
		return false
	}
	for k, v := range want {
		if !bytes.Equal(got[k], v) {
			return false
		}
	}
	return true
}

func describeTree(got map[string][]byte, zips []testZip) string {
	var parts []string
	for name, b := range got {
		from := "no upload"
		for i, z := range zips {
			if bytes.Equal(z.entries[name], b) {
				from = fmt.Sprintf("upload %d", i)
				break
			}
		}
		parts = append(parts, fmt.Sprintf("%s(%dB, %s)", name, len(b), from))
	}
	sort.Strings(parts)
	return fmt.Sprintf("%d of %d entries: %s", len(got), len(entryNames), strings.Join(parts, " "))
}
