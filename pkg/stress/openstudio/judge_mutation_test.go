package openstudio

import (
	"archive/zip"
	"bytes"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/osctl/osctl/pkg/stress/detect"
	"github.com/osctl/osctl/pkg/stress/history"
	"github.com/osctl/osctl/pkg/stress/profile"
)

func kinds(fs []detect.Finding) []string {
	var k []string
	for _, f := range fs {
		k = append(k, f.Kind)
	}
	sort.Strings(k)
	return k
}

func TestCleanStateHasNoFinding(t *testing.T) {
	s := buildScenario(t, 3, t.TempDir())
	j := judgeFiles(s.h, s.reread(t), detect.Options{})
	if len(j.Findings) != 0 {
		t.Fatalf("findings on a clean state: %+v", j.Findings)
	}
	if partOfJ(j).Contention == nil || partOfJ(j).Contention.Contended != 3 {
		t.Fatalf("contention %+v", partOfJ(j).Contention)
	}
	if j.Verdict != detect.Clean || !j.Conclusive {
		t.Fatalf("verdict %s %v", j.Verdict, j.Reasons)
	}
}

// TestMutations injects one fault at a time into a clean state and history, and checks that the
// detector finds exactly it, with the right kind.
func TestMutations(t *testing.T) {
	a := profile.AnalysisID(testRun, 1)
	zip := "server/assets/analyses/" + a + "/original/" + profile.ZipName(testRun)
	entry := "server/analyses/" + a + "/seeds/seed.osm"
	// The result files of a started analysis may be deleted by design (the simulation worker);
	// those of an analysis the load never starts must stay: the profile's last analysis.
	kept := profile.AnalysisID(testRun, 2)
	result := func(s *scenario) string {
		for _, r := range s.h.Records {
			if r.Op == history.OpUploadFile && r.Analysis == kept {
				return "server/assets/data_points/" + r.Returned + "/files/original/" + r.File
			}
		}
		t.Fatal("no result file")
		return ""
	}
	uploadOf := func(s *scenario, k int) *history.Record {
		n := 0
		for i := range s.h.Records {
			if r := &s.h.Records[i]; r.Op == history.OpUpload && r.Analysis == a {
				if n == k {
					return r
				}
				n++
			}
		}
		t.Fatal("no upload")
		return nil
	}
	runMutations(t, []mutation{
		{"delete zip", detect.Lost, func(t *testing.T, s *scenario) { rm(t, s, zip) }},
		{"truncate zip", detect.Torn, func(t *testing.T, s *scenario) { truncate(t, s, zip) }},
		{"flip zip bytes", detect.Torn, func(t *testing.T, s *scenario) { flip(t, s, zip) }},
		{"delete extraction", detect.Lost, func(t *testing.T, s *scenario) {
			if err := os.RemoveAll(filepath.Join(s.root, "server/analyses", a)); err != nil {
				t.Fatal(err)
			}
		}},
		{"truncate entry", detect.Torn, func(t *testing.T, s *scenario) { truncate(t, s, entry) }},
		{"flip entry bytes", detect.Torn, func(t *testing.T, s *scenario) { flip(t, s, entry) }},
		{"delete one entry", detect.Mixed, func(t *testing.T, s *scenario) { rm(t, s, entry) }},
		{"mix two uploads' entries", detect.Mixed, func(t *testing.T, s *scenario) {
			// Replace one entry with the same entry of the second upload: every entry matches an
			// upload, but not one upload.
			z := uploadOf(s, 1)
			b := entryOf(t, s, z, "seeds/seed.osm")
			write(t, s, entry, b)
		}},
		{"stray file in extraction", detect.Phantom, func(t *testing.T, s *scenario) { write(t, s, "server/analyses/"+a+"/stray.txt", []byte("x")) }},
		{"stray file beside zip", detect.Phantom, func(t *testing.T, s *scenario) {
			write(t, s, "server/assets/analyses/"+a+"/original/other.zip", []byte("x"))
		}},
		{"stray result file", detect.Phantom, func(t *testing.T, s *scenario) { write(t, s, filepath.Dir(result(s))+"/extra.json", []byte("x")) }},
		// A result file that really vanishes, on an analysis that was never started, is still
		// lost (the judge does not excuse every missing result file).
		{"delete result", detect.Lost, func(t *testing.T, s *scenario) { rm(t, s, result(s)) }},
		{"flip result bytes", detect.Torn, func(t *testing.T, s *scenario) { flip(t, s, result(s)) }},
		{"duplicate result record", detect.Duplicate, func(t *testing.T, s *scenario) {
			dupLine(s, history.OpUploadFile, a)
		}},
		{"duplicate data point record", detect.Duplicate, func(t *testing.T, s *scenario) {
			dupLine(s, history.OpCreateDataPoint, a)
		}},
		{"record not read back", detect.Lost, func(t *testing.T, s *scenario) {
			for i := range s.h.Records {
				if r := &s.h.Records[i]; r.Kind == history.KindReadback && r.ID == profile.DataPointID(testRun, 1) {
					r.Status, r.Found, r.Body = 422, false, `{"error":"No Datapoint"}`
				}
			}
		}},
		{"read-back 200 null", detect.Lost, func(t *testing.T, s *scenario) {
			// The real server answers a missing analysis with 200 and {"analysis":null}.
			for i := range s.h.Records {
				if r := &s.h.Records[i]; r.Kind == history.KindReadback && r.Op == "analysis" && r.ID == a {
					r.Status, r.Found, r.Body = 200, false, `{"analysis":null}`
				}
			}
		}},
		{"zip explained by no upload (lost upload ack)", detect.Torn, func(t *testing.T, s *scenario) {
			// The zip on disk is upload 1's; pretend upload 1 never happened (neither its bytes
			// nor its entries are in the history).
			up := uploadOf(s, 1)
			up.Hash = "0000"
			up.Manifest = append([]history.Entry(nil), up.Manifest...)
			up.Manifest[0].Hash = "0000"
		}},
	})
}

// mutation is one change to a clean run's state and the one finding it must give.
type mutation struct {
	name   string
	want   string
	mutate func(t *testing.T, s *scenario)
}

// runMutations judges each mutation of a clean run: one finding of its kind, with evidence.
func runMutations(t *testing.T, cases []mutation) {
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := buildScenario(t, 3, t.TempDir())
			c.mutate(t, s)
			j := judgeFiles(s.h, s.reread(t), detect.Options{})
			got := kinds(j.Findings)
			if len(got) != 1 || got[0] != c.want {
				t.Fatalf("want one %s, got %v: %+v", c.want, got, j.Findings)
			}
			if j.Verdict != detect.Races {
				t.Fatalf("verdict %s", j.Verdict)
			}
			f := j.Findings[0]
			if f.Object == "" || f.Expected == "" || f.Got == "" {
				t.Fatalf("finding lacks evidence: %+v", f)
			}
		})
	}
}

// TestHarmlessMutations changes what a correct server may change, and checks that the detector
// finds nothing.
func TestHarmlessMutations(t *testing.T) {
	a := profile.AnalysisID(testRun, 1)
	zipPath := "server/assets/analyses/" + a + "/original/" + profile.ZipName(testRun)
	cases := []struct {
		name   string
		mutate func(t *testing.T, s *scenario)
		check  func(t *testing.T, j detect.Judgement)
	}{
		{"stored zip rewritten with sorted entries", func(t *testing.T, s *scenario) {
			// What the real server's extraction did before upstream's fix: the same entries
			// with the same bytes, in name order, in a zip whose bytes differ.
			full := filepath.Join(s.root, zipPath)
			old, err := os.ReadFile(full)
			if err != nil {
				t.Fatal(err)
			}
			re := sortedZip(t, old)
			if bytes.Equal(re, old) {
				t.Fatal("the rewrite kept the bytes: the mutation proves nothing")
			}
			write(t, s, zipPath, re)
		}, nil},
		{"job still queued: extraction not judged", func(t *testing.T, s *scenario) {
			// The extraction is gone, but its analysis's only job never left "queued": it
			// may not have run yet, or it failed. That is never "lost".
			if err := os.RemoveAll(filepath.Join(s.root, "server/analyses", a)); err != nil {
				t.Fatal(err)
			}
			for i := range s.h.Records {
				if r := &s.h.Records[i]; r.Kind == history.KindReadback && r.Op == history.ReadbackStatus && r.ID == a {
					r.Jobs[0].Status = history.JobQueued
				}
			}
		}, func(t *testing.T, j detect.Judgement) {
			if x := partOfJ(j).Extractions; x == nil || x.NotJudged != 1 || x.Judged != 1 || x.Queued != 1 || x.Ran != 1 {
				t.Fatalf("the report must say one extraction was not judged: %+v", partOfJ(j).Extractions)
			}
		}},
		{"result file of a started analysis deleted by the simulation worker", func(t *testing.T, s *scenario) {
			// RunSimulateDataPoint begins with DELETE /data_points/:id/result_files: once an
			// analysis was started, its data points' result files may be gone by design.
			for _, r := range s.h.Records {
				if r.Op == history.OpUploadFile && r.Analysis == a {
					rm(t, s, "server/assets/data_points/"+r.Returned+"/files/original/"+r.File)
				}
			}
		}, func(t *testing.T, j detect.Judgement) {
			if x := partOfJ(j).ResultFiles; x == nil || x.NotJudged != 2 || x.Judged != 1 {
				t.Fatalf("the report must say two result files were not judged lost if missing: %+v", partOfJ(j).ResultFiles)
			}
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := buildScenario(t, 3, t.TempDir())
			c.mutate(t, s)
			j := judgeFiles(s.h, s.reread(t), detect.Options{})
			if len(j.Findings) != 0 || j.Verdict != detect.Clean {
				t.Fatalf("want no finding, got %s: %+v", j.Verdict, j.Findings)
			}
			if c.check != nil {
				c.check(t, j)
			}
		})
	}
}

// TestEveryResultFileDeletedIsLost deletes every result file from the volume after a run: each
// that the judge counts as judged (on an analysis the load never started) is lost, and nothing
// else is found.
func TestEveryResultFileDeletedIsLost(t *testing.T) {
	s := buildScenario(t, 8, t.TempDir())
	if err := os.RemoveAll(filepath.Join(s.root, "server/assets/data_points")); err != nil {
		t.Fatal(err)
	}
	j := judgeFiles(s.h, s.reread(t), detect.Options{})
	if partOfJ(j).ResultFiles == nil || partOfJ(j).ResultFiles.Judged != 2 || partOfJ(j).ResultFiles.NotJudged != 6 {
		t.Fatalf("result files %+v: want 2 judged (the 2 never-started analyses of 8), 6 not", partOfJ(j).ResultFiles)
	}
	got := kinds(j.Findings)
	if len(got) != 2 || got[0] != detect.Lost || got[1] != detect.Lost || j.Verdict != detect.Races {
		t.Fatalf("want 2 lost, got %s %v: %+v", j.Verdict, got, j.Findings)
	}
	for _, f := range j.Findings {
		if len(f.Paths) != 1 || !strings.HasPrefix(f.Paths[0], "server/assets/data_points/") {
			t.Fatalf("lost finding is not a result file: %+v", f)
		}
	}
}

// sortedZip rewrites a zip with its entries in name order, stored instead of deflated.
func sortedZip(t *testing.T, b []byte) []byte {
	zr, err := zip.NewReader(bytes.NewReader(b), int64(len(b)))
	if err != nil {
		t.Fatal(err)
	}
	files := append([]*zip.File(nil), zr.File...)
	sort.Slice(files, func(i, j int) bool { return files[i].Name < files[j].Name })
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, f := range files {
		rc, err := f.Open()
		if err != nil {
			t.Fatal(err)
		}
		w, err := zw.CreateHeader(&zip.FileHeader{Name: f.Name, Method: zip.Store})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := io.Copy(w, rc); err != nil {
			t.Fatal(err)
		}
		rc.Close()
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func dupLine(s *scenario, op, a string) {
	for _, r := range s.h.Records {
		if r.Op == op && r.Analysis == a {
			r.Seq += 100000
			r.Nonce = profile.Nonce(testRun, r.Seq)
			s.h.Records = append(s.h.Records, r)
			return
		}
	}
}

func rm(t *testing.T, s *scenario, p string) {
	if err := os.Remove(filepath.Join(s.root, p)); err != nil {
		t.Fatal(err)
	}
}

func truncate(t *testing.T, s *scenario, p string) {
	full := filepath.Join(s.root, p)
	fi, err := os.Stat(full)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(full, fi.Size()/2); err != nil {
		t.Fatal(err)
	}
}

func flip(t *testing.T, s *scenario, p string) {
	full := filepath.Join(s.root, p)
	b, err := os.ReadFile(full)
	if err != nil {
		t.Fatal(err)
	}
	b[len(b)/2] ^= 0xff
	write(t, s, p, b)
}

func write(t *testing.T, s *scenario, p string, b []byte) {
	full := filepath.Join(s.root, p)
	if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(full, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

func entryOf(t *testing.T, s *scenario, up *history.Record, name string) []byte {
	// Rebuild the upload's zip from its nonce (the history's generator makes this possible) and
	// read the entry.
	if up.Generator != profile.ZipGenerator {
		t.Fatalf("generator %q", up.Generator)
	}
	z, _, err := profile.BuildZip(up.Nonce)
	if err != nil {
		t.Fatal(err)
	}
	return unzipEntry(t, z, name)
}
