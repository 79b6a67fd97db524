package openstudio

import (
	"archive/zip"
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/osctl/osctl/pkg/stress/detect"
	"github.com/osctl/osctl/pkg/stress/history"
	"github.com/osctl/osctl/pkg/stress/profile"
	"github.com/osctl/osctl/pkg/stress/snapshot"
)

// scenario is a run's history and the state a correct server leaves: built by hand, the way the
// sandbox's redlock mode behaves (last acknowledged upload's zip, one upload's entries
// extracted, result files under their own ids).
type scenario struct {
	h    *history.History
	st   *snapshot.State
	root string // state on disk, when written
}

const testRun = "0badc0de"

var t0 = time.Date(2026, 11, 30, 5, 0, 0, 0, time.UTC)

// buildScenario makes n analyses. With real set, zips are real and the state is written under
// root; otherwise manifests and hashes are synthetic and the state is only in memory (benchmarks).
func buildScenario(tb testing.TB, n int, root string) *scenario {
	real := root != ""
	h := &history.History{Header: history.Header{Schema: history.SchemaVersion, Run: testRun, Profile: "openstudio", Started: t0,
		Mix: map[string]int{"upload": 5, "start": 2, "data_point": 1, "upload_file": 2}}}
	st := snapshot.NewState()
	seq := int64(0)
	at := func(ms int) time.Time { return t0.Add(time.Duration(ms) * time.Millisecond) }
	add := func(r history.Record) *history.Record {
		seq++
		r.Seq, r.Kind = seq, history.KindRequest
		if r.Nonce == "" {
			r.Nonce = profile.Nonce(testRun, seq)
		}
		h.Records = append(h.Records, r)
		return &h.Records[len(h.Records)-1]
	}
	put := func(p string, b []byte) {
		st.Files[p] = snapshot.File{Size: int64(len(b)), Hash: profile.Sum(b)}
		if real {
			full := filepath.Join(root, filepath.FromSlash(p))
			if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
				tb.Fatal(err)
			}
			if err := os.WriteFile(full, b, 0o644); err != nil {
				tb.Fatal(err)
			}
		}
	}
	add(history.Record{Op: history.OpCreateProject, Setup: true, Returned: "p1", Status: 201, Outcome: history.Acknowledged, Start: at(0), End: at(1)})
	var readbacks []history.Record
	for i := 0; i < n; i++ {
		a := profile.AnalysisID(testRun, i)
		add(history.Record{Op: history.OpCreateAnalysis, Setup: true, Upload: history.Upload{Analysis: a}, ID: a, Returned: a, Status: 201, Outcome: history.Acknowledged, Start: at(1), End: at(2)})
		readbacks = append(readbacks, history.Record{Kind: history.KindReadback, Op: "analysis", ID: a, Status: 200, Upload: history.Upload{Found: true}},
			// Its one job left "queued": the extraction ran.
			history.Record{Kind: history.KindReadback, Op: history.ReadbackStatus, ID: a, Status: 200, Upload: history.Upload{Found: true, Jobs: []history.JobState{{Index: 0, Status: "started"}}}})
		type upl struct {
			rec     *history.Record
			zip     []byte
			entries map[string][]byte
		}
		var ups []upl
		for k, outcome := range []string{history.Acknowledged, history.Acknowledged, history.Ambiguous, history.Rejected} {
			nonce := profile.Nonce(testRun, seq+1)
			u := upl{entries: map[string][]byte{}}
			var man []history.Entry
			if real {
				z, m, err := profile.BuildZip(nonce)
				if err != nil {
					tb.Fatal(err)
				}
				u.zip, man = z, m
				zr, _ := zip.NewReader(bytes.NewReader(z), int64(len(z)))
				for _, f := range zr.File {
					rc, _ := f.Open()
					b, _ := io.ReadAll(rc)
					rc.Close()
					u.entries[f.Name] = b
				}
			} else {
				u.zip = []byte("zip " + nonce)
				for _, e := range []string{"analysis.json", "seeds/seed.osm", "weather/weather.epw"} {
					b := []byte(nonce + e)
					u.entries[e] = b
					man = append(man, history.Entry{Name: e, Hash: profile.Sum(b), Size: int64(len(b))})
				}
			}
			status := map[string]int{history.Acknowledged: 201, history.Ambiguous: 500, history.Rejected: 503}[outcome]
			u.rec = add(history.Record{Op: history.OpUpload, Upload: history.Upload{Analysis: a, File: profile.ZipName(testRun), Hash: profile.Sum(u.zip), Size: int64(len(u.zip)), Manifest: man, Generator: profile.ZipGenerator}, Nonce: nonce, Start: at(10 + 3*k), End: at(20 + 3*k), Status: status, Outcome: outcome})
			ups = append(ups, u)
		}
		// The correct server: the zip is the second upload's; extraction happened from the first.
		put(fmt.Sprintf("server/assets/analyses/%s/original/%s", a, profile.ZipName(testRun)), ups[1].zip)
		if neverStarted(i, n) {
			// As the profile does: the last quarter of the analyses is never started, so their
			// result files stay judged. Nothing extracted, no job.
			readbacks[len(readbacks)-1].Jobs = nil
		} else {
			add(history.Record{Op: history.OpStart, Upload: history.Upload{Analysis: a}, Start: at(40), End: at(41), Status: 200, BodyCode: 200, Outcome: history.Acknowledged})
			for name, b := range ups[0].entries {
				put("server/analyses/"+a+"/"+name, b)
			}
		}
		dp := profile.DataPointID(testRun, i)
		add(history.Record{Op: history.OpCreateDataPoint, Upload: history.Upload{Analysis: a, DataPoint: dp}, ID: dp, Returned: dp, Status: 201, Outcome: history.Acknowledged, Start: at(50), End: at(51)})
		readbacks = append(readbacks, history.Record{Kind: history.KindReadback, Op: "data_point", ID: dp, Status: 200, Upload: history.Upload{Found: true}})
		content := []byte(fmt.Sprintf("result of %s %d", a, i))
		rid := fmt.Sprintf("r%06d", i)
		name := profile.ResultName(testRun, seq+1)
		add(history.Record{Op: history.OpUploadFile, Upload: history.Upload{Analysis: a, DataPoint: dp, File: name, Hash: profile.Sum(content), Size: int64(len(content))}, Returned: rid, Status: 201, Outcome: history.Acknowledged, Start: at(60), End: at(61)})
		put("server/assets/data_points/"+rid+"/files/original/"+name, content)
	}
	readbacks = append(readbacks, history.Record{Kind: history.KindReadback, Op: "project", ID: "p1", Status: 200, Upload: history.Upload{Found: true}})
	h.Records = append(h.Records, readbacks...)
	h.Footer = &history.Footer{Finished: t0.Add(time.Minute), Settled: true}
	return &scenario{h: h, st: st, root: root}
}

// neverStarted is the profile's rule (profile.OpenStudio.neverStarted): with n >= 2 analyses,
// the last quarter of them (at least one) get no start.
func neverStarted(k, n int) bool { return n >= 2 && k >= n-(n+3)/4 }

// reread reads the scenario's state from disk through the real snapshot reader.
func (s *scenario) reread(tb testing.TB) *snapshot.State {
	st, err := snapshot.Local{Root: s.root}.Read(tb.(*testing.T).Context(), Dirs(s.h))
	if err != nil {
		tb.Fatal(err)
	}
	return st
}

func unzipEntry(tb testing.TB, z []byte, name string) []byte {
	zr, err := zip.NewReader(bytes.NewReader(z), int64(len(z)))
	if err != nil {
		tb.Fatal(err)
	}
	for _, f := range zr.File {
		if f.Name == name {
			rc, _ := f.Open()
			b, _ := io.ReadAll(rc)
			rc.Close()
			return b
		}
	}
	tb.Fatalf("no entry %s", name)
	return nil
}

// judgeFiles is detect.Judge with the openstudio profile's rules.
func judgeFiles(h *history.History, st *snapshot.State, o detect.Options) detect.Judgement {
	o.Rules = Rules{}
	return detect.Judge(h, st, o)
}

// partOfJ is a judgement's openstudio part (an empty one when it has none).
func partOfJ(j detect.Judgement) *Part {
	if p, ok := j.Part.(*Part); ok {
		return p
	}
	return &Part{}
}
