package realserver

import (
	"archive/zip"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/osctl/osctl/internal/testenv"
	"github.com/osctl/osctl/internal/testenv/openstudioenv"
	"github.com/osctl/osctl/pkg/stress/history"
	"github.com/osctl/osctl/pkg/stress/profile"
	"github.com/redis/go-redis/v9"
)

func TestMain(m *testing.M) { os.Exit(testenv.RunMain(m)) }

// report is the part of `osctl stress --report`'s JSON these tests read.
type report struct {
	Verdict     string         `json:"verdict"`
	Conclusive  bool           `json:"conclusive"`
	Reasons     []string       `json:"reasons"`
	Counts      map[string]int `json:"finding_counts"`
	Findings    []finding      `json:"findings"`
	Outcomes    map[string]int `json:"outcomes"`
	Notices     []string       `json:"notices"`
	Extractions struct {
		Jobs   int `json:"jobs"`
		Ran    int `json:"ran"`
		Queued int `json:"queued"`
		Judged int `json:"judged"`
	} `json:"extractions"`
	ResultFiles struct {
		Judged    int `json:"judged"`
		NotJudged int `json:"not_judged"`
	} `json:"result_files"`
	SettleWait    float64 `json:"settle_wait_s"`
	SettleStopped string  `json:"settle_stopped"`
}

type finding struct {
	Kind   string   `json:"kind"`
	Object string   `json:"object"`
	Paths  []string `json:"paths"`
	Got    string   `json:"got"`
}

// run is one `osctl stress` run against the real server: its exit code, report and history.
type run struct {
	code   int
	out    string
	rep    report
	h      *history.History
	wall   time.Duration
	volume string
}

// stress runs the osctl binary's `osctl stress` against the server's replicas with --allow-start,
// --state-dir and --resque-redis (what a person adds to point it at a real server) and the given
// flags.
func stress(t *testing.T, s *openstudioenv.Server, args ...string) run {
	t.Helper()
	dir := t.TempDir()
	hist, rep := filepath.Join(dir, "run.jsonl"), filepath.Join(dir, "run.json")
	argv := append([]string{"stress", "--target", strings.Join(s.Targets, ","), "--allow-start", "--state-dir", s.Volume,
		"--resque-redis", s.RedisURL, "--history", hist, "--report", rep}, args...)
	o := testenv.RunOsctl(t, 10*time.Minute, argv...)
	r := run{code: o.Code, out: o.Output, wall: o.Wall, volume: s.Volume}
	t.Logf("osctl %s: exit %d after %s\n%s", strings.Join(argv, " "), r.code, r.wall.Round(time.Second), r.out)
	b, err := os.ReadFile(rep)
	if err != nil {
		t.Fatalf("no report: %v", err)
	}
	if err := json.Unmarshal(b, &r.rep); err != nil {
		t.Fatalf("report: %v", err)
	}
	if r.h, err = history.ReadFile(hist); err != nil {
		t.Fatalf("history: %v", err)
	}
	return r
}

// upload is one acknowledged or ambiguous zip upload of the run, rebuilt from its nonce (the
// profile's generator), not taken from the judge's records of it.
type upload struct {
	seq     int64
	bytes   []byte
	entries map[string]string // name -> sha256
}

func sum(b []byte) string { s := sha256.Sum256(b); return hex.EncodeToString(s[:]) }

// uploadsOf rebuilds every upload of analysis a that may have been applied.
func uploadsOf(t *testing.T, h *history.History, a string) []upload {
	t.Helper()
	var out []upload
	for i := range h.Records {
		r := &h.Records[i]
		if r.Kind != history.KindRequest || r.Op != history.OpUpload || r.Analysis != a || !r.Maybe() {
			continue
		}
		z, _, err := profile.BuildZip(r.Nonce)
		if err != nil {
			t.Fatal(err)
		}
		zr, err := zip.NewReader(bytes.NewReader(z), int64(len(z)))
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, upload{seq: r.Seq, bytes: z, entries: zipEntries(t, zr)})
	}
	return out
}

func zipEntries(t *testing.T, zr *zip.Reader) map[string]string {
	t.Helper()
	m := map[string]string{}
	for _, f := range zr.File {
		rc, err := f.Open()
		if err != nil {
			return nil
		}
		var b bytes.Buffer
		_, err = b.ReadFrom(rc)
		rc.Close()
		if err != nil {
			return nil // a checksum error: no entry set to compare
		}
		m[f.Name] = sum(b.Bytes())
	}
	return m
}

func sameSet(a, b map[string]string) bool {
	if len(a) != len(b) || len(a) == 0 {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}

// checkTornZip checks independently that the stored zip of a torn finding is no upload: it fails
// `unzip -t` or Go's zip reader, or neither its bytes nor its entries are any upload's.
func checkTornZip(t *testing.T, r run, f finding) string {
	t.Helper()
	a := analysisOf(f.Paths[0])
	p := filepath.Join(r.volume, f.Paths[0])
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatalf("torn %s: the stored zip cannot be read: %v", f.Paths[0], err)
	}
	ut, utErr := exec.Command("unzip", "-t", "-q", p).CombinedOutput()
	zr, zerr := zip.NewReader(bytes.NewReader(b), int64(len(b)))
	var got map[string]string
	if zerr == nil {
		got = zipEntries(t, zr)
	}
	for _, u := range uploadsOf(t, r.h, a) {
		if bytes.Equal(u.bytes, b) || sameSet(got, u.entries) {
			t.Errorf("torn %s is upload #%d (its bytes or its entries): a false finding", f.Paths[0], u.seq)
			return ""
		}
	}
	switch {
	case utErr != nil:
		return "fails unzip -t: " + lastLine(string(ut))
	case zerr != nil || got == nil:
		return "Go's zip reader refuses it"
	default:
		return "readable, but its bytes and entries match none of the uploads"
	}
}

// checkExtraction checks independently that an extracted directory named by a torn or mixed
// finding holds exactly no upload's entries.
func checkExtraction(t *testing.T, r run, f finding) string {
	t.Helper()
	a := analysisOf(f.Paths[0])
	dir := filepath.Join(r.volume, "server", "analyses", a)
	got := map[string]string{}
	err := filepath.Walk(dir, func(p string, fi os.FileInfo, err error) error {
		if err != nil || fi.IsDir() || strings.HasPrefix(fi.Name(), ".osctl-") {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		got[filepath.ToSlash(rel)] = sum(b)
		return nil
	})
	if err != nil {
		t.Fatalf("%s %s: %v", f.Kind, dir, err)
	}
	ups := uploadsOf(t, r.h, a)
	for _, u := range ups {
		if sameSet(got, u.entries) {
			t.Errorf("%s %s holds exactly upload #%d's entries: a false finding", f.Kind, dir, u.seq)
			return ""
		}
	}
	from := map[int64]bool{}
	for name, h := range got {
		for _, u := range ups {
			if u.entries[name] == h {
				from[u.seq] = true
			}
		}
	}
	return fmt.Sprintf("its %d entries are no one upload's (entries from %d uploads)", len(got), len(from))
}

func analysisOf(p string) string {
	parts := strings.Split(p, "/")
	for i, s := range parts {
		if s == "analyses" && i+1 < len(parts) {
			return parts[i+1]
		}
	}
	return ""
}

func lastLine(s string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	return strings.TrimSpace(lines[len(lines)-1])
}

// startedAnalyses are the analyses of the run with an acknowledged or ambiguous start.
func startedAnalyses(h *history.History) map[string]bool {
	out := map[string]bool{}
	for i := range h.Records {
		if r := &h.Records[i]; r.Kind == history.KindRequest && r.Op == history.OpStart && r.Maybe() {
			out[r.Analysis] = true
		}
	}
	return out
}

// resultFiles lists the acknowledged result files of the run: path on the volume -> analysis.
func resultFiles(h *history.History) map[string]string {
	out := map[string]string{}
	for i := range h.Records {
		if r := &h.Records[i]; r.Kind == history.KindRequest && r.Op == history.OpUploadFile && r.Applied() && r.Returned != "" {
			out["server/assets/data_points/"+r.Returned+"/files/original/"+r.File] = r.Analysis
		}
	}
	return out
}

// appRedis is a client of the server's own Redis (the app's: its locks and Resque's lists),
// closed when the test ends.
func appRedis(t *testing.T, s *openstudioenv.Server) *redis.Client {
	t.Helper()
	opt, err := redis.ParseURL(s.RedisURL)
	if err != nil {
		t.Fatal(err)
	}
	rc := redis.NewClient(opt)
	t.Cleanup(func() { rc.Close() })
	return rc
}
