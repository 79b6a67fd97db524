package report

import (
	"fmt"
	"html/template"
	"io"
	"strings"

	"github.com/osctl/osctl/pkg/redact"
	"github.com/osctl/osctl/pkg/stress/detect"
)

// FindingsPerKindHTML bounds the rows of each kind's findings table in the page; the JSON report
// has them all.
const FindingsPerKindHTML = 200

// WriteHTML writes a self-contained page: inline SVG and CSS, no script, nothing fetched when it
// is viewed. It holds the verdict and what to do next, the summary, the load over time
// (throughput by outcome, latency p50/p90/p99, requests in flight), the latency histogram, the
// per-operation, per-target and per-worker tables, and the findings grouped by kind with their
// race timelines. Every text from the run goes through pkg/redact.
func WriteHTML(w io.Writer, r *Report) error {
	return page.Execute(w, htmlPage(r, makePlots(r)))
}

type pageData struct {
	R       *Report
	Plots   map[string]template.HTML
	Groups  []pageGroup
	Drawn   int
	Next    string
	Summary []Row
}

type pageGroup struct {
	Kind    string
	Count   int
	Rows    []pageFinding
	More    int
	Figures []pageFigure
}

type pageFinding struct {
	Index                 int
	Object, Expected, Got string
	Path                  template.HTML   // the first path
	More                  []template.HTML // the others, folded under the first
	Requests              []string
	Timeline              bool
}

type pageFigure struct {
	Index   int
	Caption string
	SVG     template.HTML
	Omitted int
}

func htmlPage(r *Report, ps plots) pageData {
	d := pageData{R: r, Next: redact.Text(r.Next()), Summary: r.Summary(),
		Plots: map[string]template.HTML{"throughput": template.HTML(ps.Throughput), "latency": template.HTML(ps.Latency),
			"inflight": template.HTML(ps.InFlight), "histogram": template.HTML(ps.Histogram)}}
	byFinding := map[int]*Timeline{}
	for i := range r.Timelines {
		byFinding[r.Timelines[i].Finding] = &r.Timelines[i]
	}
	for _, g := range r.Groups() {
		pg := pageGroup{Kind: g.Kind, Count: len(g.Indexes)}
		for k, i := range g.Indexes {
			f := r.Findings[i]
			t := byFinding[i]
			if k < FindingsPerKindHTML {
				row := pageFinding{Index: i, Object: redact.Text(f.Object), Expected: redact.Text(f.Expected), Got: redact.Text(f.Got),
					Requests: requestLines(f), Timeline: t != nil}
				for k, p := range f.Paths {
					if k == 0 {
						row.Path = breakable(p)
					} else {
						row.More = append(row.More, breakable(p))
					}
				}
				pg.Rows = append(pg.Rows, row)
			} else {
				pg.More++
			}
			if t != nil {
				caption := redact.Text(fmt.Sprintf("%s %s: %d requests named, %d drawn", f.Kind, f.Object, len(f.Requests), t.Bars()))
				pg.Figures = append(pg.Figures, pageFigure{Index: i, Caption: caption, SVG: template.HTML(timelineSVG(t, caption)), Omitted: t.Omitted})
				d.Drawn++
			}
		}
		d.Groups = append(d.Groups, pg)
	}
	return d
}

// breakable escapes a path and lets the browser break its line after each slash, so that a long
// path wraps at its directories rather than in the middle of a name.
func breakable(path string) template.HTML {
	parts := strings.Split(redact.Text(path), "/")
	for i, p := range parts {
		parts[i] = template.HTMLEscapeString(p)
	}
	return template.HTML(strings.Join(parts, "/<wbr>"))
}

func requestLines(f detect.Finding) []string {
	out := make([]string, 0, len(f.Requests))
	holds := map[int64]bool{}
	for _, s := range f.Holds {
		holds[s] = true
	}
	for _, q := range f.Requests {
		s := fmt.Sprintf("#%d %s %s–%s %d %s", q.Seq, q.Op, q.Start.Format("15:04:05.000"), q.End.Format("05.000"), q.Status, q.Outcome)
		if holds[q.Seq] {
			s += " (the state holds its bytes)"
		}
		out = append(out, redact.Text(s))
	}
	return out
}

var page = template.Must(template.New("stress").Funcs(template.FuncMap{
	"pct":    func(f float64) string { return detect.Pct(f) },
	"f1":     func(f float64) string { return fmt.Sprintf("%.1f", f) },
	"redact": redact.Text,
}).Parse(pageTemplate))
