package profiles_test

import (
	"bytes"
	"encoding/json"
	"maps"
	"os"
	"reflect"
	"slices"
	"testing"

	"github.com/osctl/osctl/pkg/stress"
	"github.com/osctl/osctl/pkg/stress/history"
	_ "github.com/osctl/osctl/pkg/stress/profiles"
	"github.com/osctl/osctl/pkg/stress/report"
	"github.com/osctl/osctl/pkg/stress/snapshot"
)

// TestReportAsOnMain: a run of each profile that keeps a part of its own, judged now, gives the
// JSON report that osctl gave before the profiles' fields left report.Report (testdata/main:
// the histories, the state and the reports, written by main at 6fc63a3): the same top-level
// keys, the same values; and the same summary rows, headline and next step.
func TestReportAsOnMain(t *testing.T) {
	for _, name := range []string{"openstudio", "jobs"} {
		t.Run(name, func(t *testing.T) {
			h, err := history.ReadFile("testdata/main/" + name + ".jsonl")
			if err != nil {
				t.Fatal(err)
			}
			var st *snapshot.State
			if b, err := os.ReadFile("testdata/main/" + name + "-state.json"); err == nil {
				st = &snapshot.State{}
				if err := json.Unmarshal(b, st); err != nil {
					t.Fatal(err)
				}
			}
			r := stress.Judge(h, st, stress.JudgeOptions{Version: "test"})
			var buf bytes.Buffer
			if err := report.WriteJSON(&buf, r); err != nil {
				t.Fatal(err)
			}
			got, want := topLevel(t, buf.Bytes()), topLevel(t, readFile(t, "testdata/main/report-"+name+".json"))
			if g, w := slices.Sorted(maps.Keys(got)), slices.Sorted(maps.Keys(want)); !slices.Equal(g, w) {
				t.Fatalf("top-level keys:\n%v\nmain's:\n%v", g, w)
			}
			for k, w := range want {
				if !reflect.DeepEqual(got[k], w) {
					t.Errorf("%q: %v\nmain's: %v", k, got[k], w)
				}
			}
			var back report.Report
			if err := json.Unmarshal(buf.Bytes(), &back); err != nil || !reflect.DeepEqual(back.Part, r.Part) || r.Part == nil {
				t.Fatalf("read back, the part is %+v (%v), want %+v", back.Part, err, r.Part)
			}
			var sum struct {
				Headline, Next string
				Rows           []report.Row
			}
			if err := json.Unmarshal(readFile(t, "testdata/main/summary-"+name+".json"), &sum); err != nil {
				t.Fatal(err)
			}
			if r.Headline() != sum.Headline || r.Next() != sum.Next {
				t.Errorf("headline %q, next %q\nmain's: %q, %q", r.Headline(), r.Next(), sum.Headline, sum.Next)
			}
			rows := func(rs []report.Row) []string {
				var out []string
				for _, r := range rs {
					out = append(out, r.Measure+": "+r.Value)
				}
				return slices.Sorted(slices.Values(out))
			}
			if g, w := rows(r.Summary()), rows(sum.Rows); !slices.Equal(g, w) {
				t.Errorf("summary rows:\n%v\nmain's:\n%v", g, w)
			}
		})
	}
}

func readFile(t *testing.T, p string) []byte {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// topLevel is a report's JSON by top-level key, its version left out.
func topLevel(t *testing.T, b []byte) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	delete(m, "osctl_version")
	return m
}
