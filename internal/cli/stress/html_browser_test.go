package stress

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/osctl/osctl/internal/testenv"
	"github.com/osctl/osctl/internal/testenv/browser"
	"github.com/osctl/osctl/internal/testenv/sandboxenv"
	"github.com/osctl/osctl/pkg/stress/report"
)

// TestReportsOnATerminalAndInABrowser runs a racy and a clean sandbox run on a pseudo-terminal of
// 120 columns, with --html: nothing printed is wider (tables, the progress bar, the closing line),
// the offline judge piped prints whole rows, and the HTML report, opened in headless Chromium,
// loads without console errors or requests, shows as many findings as the JSON report, a race
// timeline for at least the first 5 findings of each kind with a bar for every request the finding
// names, and the over-time plots; the clean run shows the plots and "No findings".
// OSCTL_REPORT_SCREENSHOT=FILE keeps a screenshot of the racy report (docs/stress-report.png).
func TestReportsOnATerminalAndInABrowser(t *testing.T) {
	t.Parallel() // two sandbox runs of 2000 and 600 requests and a page in Chromium: it overlaps the other parallel tests
	cases := []struct {
		name    string
		sandbox []string
		args    []string
		code    int
		next    string
	}{
		{"racy", []string{"--replicas", "3", "--locking", "none"}, []string{"--requests", "2000", "--concurrency", "500", "--analyses", "20", "--settle-timeout", "20s", "--settle-quiet", "5s"}, 1,
			"next: put each upload and extraction under one lock as docs/migration/rails-lock-contract.md says"},
		{"clean", []string{"--replicas", "3", "--locking", "redlock"}, []string{"--requests", "600", "--concurrency", "150", "--analyses", "6"}, 0,
			"next: this run validated 3 replicas"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			sb := sandboxenv.Start(t, c.sandbox...)
			dir := t.TempDir()
			html, rep, hist := filepath.Join(dir, c.name+".html"), filepath.Join(dir, "report.json"), filepath.Join(dir, "history.jsonl")
			args := append([]string{"stress", "--target", strings.Join(sb.Replicas, ","), "--state-dir", sb.StateDir,
				"--history", hist, "--report", rep, "--html", html}, c.args...)
			out, code := testenv.RunTerminal(t, 120, 3*time.Minute, dir, args...)
			if code != c.code {
				t.Fatalf("exit %d, want %d:\n%s", code, c.code, out)
			}
			if bad := testenv.TooWide(out, 120); len(bad) > 0 {
				t.Fatalf("%d lines wider than 120 columns, the first: %q\n%s", len(bad), bad[0], out)
			}
			r := readReport(t, rep)
			if !strings.Contains(out, c.next) {
				t.Errorf("the terminal lacks %q:\n%s", c.next, out)
			}
			if n := len(r.Findings) - 10; n > 0 && !strings.Contains(out, fmt.Sprintf("and %d more (see --html or -o json)", n)) {
				t.Errorf("the terminal does not say how many findings it left out (%d):\n%s", n, out)
			}
			if c.code == 1 {
				checkPipedRows(t, sb, hist, r, out)
			}
			p := browser.Open(t, html)
			checkPage(t, p, r)
			if shot := os.Getenv("OSCTL_REPORT_SCREENSHOT"); shot != "" && c.code == 1 {
				p.Screenshot(shot, 2600)
			}
		})
	}
}

func readReport(t *testing.T, path string) *report.Report {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var r report.Report
	if err := json.Unmarshal(b, &r); err != nil {
		t.Fatal(err)
	}
	return &r
}

// checkPipedRows: the offline judge, piped, prints the findings the terminal showed with every
// cell whole, while the terminal cut some.
func checkPipedRows(t *testing.T, sb *sandboxenv.Sandbox, hist string, r *report.Report, tty string) {
	t.Helper()
	out := runOsctl(t, "stress", "judge", "--history", hist, "--state-dir", sb.StateDir).Stdout
	lines := strings.Split(out, "\n")
	shown := 0
	for _, g := range r.Shown(10) {
		for _, i := range g.Indexes {
			f := r.Findings[i]
			shown++
			if !slices.ContainsFunc(lines, func(l string) bool {
				return strings.Contains(l, f.Object) && strings.Contains(l, f.Expected) && strings.Contains(l, f.Got)
			}) {
				t.Errorf("piped, no whole row for finding %d (%s %s: %s / %s):\n%s", i, f.Kind, f.Object, f.Expected, f.Got, out)
			}
		}
	}
	if shown == 0 || !strings.Contains(tty, "…") || strings.Contains(out, "…") {
		t.Errorf("%d findings shown; want cut cells on the terminal only", shown)
	}
}

type pageFacts struct {
	Findings  int  `json:"findings"`
	None      bool `json:"none"`
	Timelines []struct {
		Finding int     `json:"finding"`
		Seqs    []int64 `json:"seqs"`
		W       float64 `json:"w"`
	} `json:"timelines"`
	Plots []plotFacts `json:"plots"`
	Kinds []struct {
		Kind  string `json:"kind"`
		Count int    `json:"count"`
	} `json:"kinds"`
	PerOperation int `json:"per_operation"`
}

type plotFacts struct {
	Name   string  `json:"name"`
	Points int     `json:"points"`
	W      float64 `json:"w"`
	H      float64 `json:"h"`
	Paths  int     `json:"paths"`
}

const factsJS = `(() => {
  const q = (root, s) => [...root.querySelectorAll(s)];
  const box = e => e.getBoundingClientRect();
  return {
    findings: +document.getElementById('findings').dataset.findings,
    none: !!document.querySelector('.nofindings') && document.body.innerText.includes('No findings'),
    timelines: q(document, 'svg[data-finding]').map(s => ({finding: +s.dataset.finding, seqs: q(s, '[data-seq]').map(e => +e.dataset.seq), w: box(s).width})),
    plots: q(document, 'svg[data-plot]').map(s => ({name: s.dataset.plot, points: +s.dataset.points, w: box(s).width, h: box(s).height, paths: q(s, 'path').length})),
    kinds: q(document, 'section.kind').map(s => ({kind: s.dataset.kind, count: +s.dataset.count})),
    per_operation: q(document, '#per-operation tr').length - 1,
  };
})()`

func checkPage(t *testing.T, p *browser.Page, r *report.Report) {
	t.Helper()
	facts := browser.Eval[pageFacts](p, factsJS)
	if errs := p.Errors(); len(errs) > 0 {
		t.Errorf("console errors: %v", errs)
	}
	if reqs := p.Requests(); len(reqs) != 1 {
		t.Errorf("the page made requests beyond itself: %v", reqs)
	}
	if facts.Findings != len(r.Findings) {
		t.Errorf("the page counts %d findings, the JSON report %d", facts.Findings, len(r.Findings))
	}
	if len(r.Findings) == 0 && !facts.None {
		t.Errorf("a clean run's page does not say No findings")
	}
	for _, name := range []string{"throughput", "latency", "inflight"} {
		i := slices.IndexFunc(facts.Plots, func(pl plotFacts) bool { return pl.Name == name })
		if i < 0 {
			t.Errorf("no %s plot", name)
			continue
		}
		if pl := facts.Plots[i]; pl.Points == 0 || pl.W < 300 || pl.H < 80 || pl.Paths < 5 {
			t.Errorf("the %s plot is empty: %+v", name, pl)
		}
	}
	if facts.PerOperation != len(r.PerOperation) || len(r.PerOperation) == 0 {
		t.Errorf("per-operation table: %d rows, the report %d", facts.PerOperation, len(r.PerOperation))
	}
	drawn := map[int][]int64{}
	for _, tl := range facts.Timelines {
		if tl.W < 300 {
			t.Errorf("timeline of finding %d is %.0f px wide", tl.Finding, tl.W)
		}
		drawn[tl.Finding] = tl.Seqs
	}
	perKind := map[string]int{}
	for i, f := range r.Findings {
		seqs, ok := drawn[i]
		if !ok {
			continue
		}
		perKind[f.Kind]++
		for _, q := range f.Requests {
			if !slices.Contains(seqs, q.Seq) {
				t.Errorf("the timeline of finding %d has no bar for request #%d", i, q.Seq)
			}
		}
	}
	for _, k := range facts.Kinds {
		if k.Count != r.FindingCounts[k.Kind] {
			t.Errorf("kind %s: the page counts %d, the report %d", k.Kind, k.Count, r.FindingCounts[k.Kind])
		}
	}
	for kind, n := range r.FindingCounts {
		if perKind[kind] < min(n, report.TimelinesAlways) {
			t.Errorf("%d timelines drawn for %d %s findings, want at least %d", perKind[kind], n, kind, min(n, report.TimelinesAlways))
		}
	}
	if len(r.Findings) > 0 && len(facts.Timelines) == 0 {
		t.Errorf("no timeline drawn")
	}
}
