package report

import (
	"bytes"
	"fmt"
	"html/template"
	"io"
	"math"
	"time"

	"github.com/osctl/osctl/pkg/stress/attack"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
)

// WriteHTML writes a self-contained page (plots as inline SVG, no script, nothing fetched when it
// is viewed): the summary, the latency histogram, the requests in flight over time, and the
// findings.
func WriteHTML(w io.Writer, r *Report) error {
	lat, err := latencySVG(r.Histogram)
	if err != nil {
		return err
	}
	fly, err := inFlightSVG(r.Timeline, r.StartedAt)
	if err != nil {
		return err
	}
	var lines []string
	for _, f := range r.Findings {
		lines = append(lines, FindingLine(f))
	}
	return page.Execute(w, map[string]any{
		"R": r, "Latency": template.HTML(lat), "InFlight": template.HTML(fly), "Lines": lines,
	})
}

func latencySVG(bs []Bucket) (string, error) {
	p := plot.New()
	p.Title.Text = "Latency (HDR histogram, log-spaced bars)"
	p.X.Label.Text = "latency (ms, log scale)"
	p.Y.Label.Text = "requests"
	if len(bs) == 0 {
		return render(p)
	}
	p.X.Scale = plot.LogScale{}
	p.X.Tick.Marker = plot.LogTicks{Prec: -1}
	h := &plotter.Histogram{Bins: make([]plotter.HistogramBin, len(bs)), Width: 0, FillColor: plotter.DefaultLineStyle.Color, LineStyle: plotter.DefaultLineStyle}
	for i, b := range bs {
		h.Bins[i] = plotter.HistogramBin{Min: b.FromMS, Max: b.ToMS, Weight: float64(b.Count)}
	}
	h.Width = (bs[len(bs)-1].ToMS - bs[0].FromMS) / float64(len(bs))
	p.Add(h)
	p.X.Min, p.X.Max = bs[0].FromMS, bs[len(bs)-1].ToMS
	p.Y.Min = 0
	return render(p)
}

func inFlightSVG(ss []attack.Sample, began time.Time) (string, error) {
	p := plot.New()
	p.Title.Text = "Requests in flight"
	p.X.Label.Text = "seconds since start"
	p.Y.Label.Text = "in flight"
	if len(ss) > 0 {
		xy := make(plotter.XYs, len(ss))
		for i, s := range ss {
			xy[i] = plotter.XY{X: s.At.Sub(began).Seconds(), Y: float64(s.InFlight)}
		}
		l, err := plotter.NewLine(xy)
		if err != nil {
			return "", err
		}
		p.Add(l)
		p.Y.Min = 0
	}
	return render(p)
}

func render(p *plot.Plot) (string, error) {
	wt, err := p.WriterTo(7*vg.Inch, 3.2*vg.Inch, "svg")
	if err != nil {
		return "", err
	}
	var buf bytes.Buffer
	if _, err := wt.WriteTo(&buf); err != nil {
		return "", err
	}
	b := buf.Bytes()
	// Drop the XML declaration: the SVG is inlined in HTML.
	if i := bytes.Index(b, []byte("<svg")); i > 0 {
		b = b[i:]
	}
	return string(b), nil
}

var page = template.Must(template.New("stress").Funcs(template.FuncMap{
	"pct": func(f float64) string { return fmt.Sprintf("%.1f%%", 100*f) },
	"f1":  func(f float64) string { return fmt.Sprintf("%.1f", f) },
	"ok":  func(f float64) bool { return !math.IsNaN(f) },
}).Parse(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>osctl stress {{.R.Run}}: {{.R.Verdict}}</title>
<style>body{font-family:sans-serif;max-width:60em;margin:1em auto;padding:0 1em}
table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:.2em .5em;text-align:left}
.clean{color:#060}.races{color:#a00}.inconclusive{color:#a60}pre{white-space:pre-wrap}</style></head>
<body>
<h1>osctl stress {{.R.Profile}} run {{.R.Run}}: <span class="{{.R.Verdict}}">{{.R.Verdict}}</span>{{if .R.Partial}} (partial){{end}}</h1>
{{range .R.Reasons}}<p>{{.}}</p>{{end}}
<table>
<tr><th>targets</th><td>{{range .R.Targets}}{{.URL}}{{if .Sandbox}} (sandbox{{if .Locking}}, locking {{.Locking}}{{end}}{{if .Queue}}, queue {{.Queue}}{{end}}){{end}}<br>{{end}}</td></tr>
<tr><th>requests / concurrency</th><td>{{.R.Counts.Total}} sent of {{.R.Requests}}, concurrency {{.R.Concurrency}}{{if .R.Rate}}, rate {{.R.Rate}}/s{{end}}, peak in flight {{.R.PeakInFlight}}</td></tr>
<tr><th>outcomes</th><td>{{.R.Counts.Acknowledged}} acknowledged ({{pct .R.AckFraction}}), {{.R.Counts.Rejected}} rejected, {{.R.Counts.Ambiguous}} ambiguous</td></tr>
<tr><th>status</th><td>2xx {{.R.Counts.Status2xx}}, 4xx {{.R.Counts.Status4xx}}, 503 {{.R.Counts.Status503}}, other 5xx {{.R.Counts.Status5xx}}, timeouts {{.R.Counts.Timeouts}}, transport errors {{.R.Counts.Errors}}</td></tr>
<tr><th>latency</th><td>p50 {{f1 .R.Latency.P50}} ms, p90 {{f1 .R.Latency.P90}} ms, p99 {{f1 .R.Latency.P99}} ms, max {{f1 .R.Latency.Max}} ms; {{f1 .R.Throughput}} requests/s</td></tr>
{{with .R.Contention}}<tr><th>contention</th><td>{{.Contended}} of {{.Analyses}} analyses saw two or more overlapping writes; at most {{.MaxOverlappingWrites}} writes and {{.MaxInFlightOneAnalysis}} requests in flight on one analysis</td></tr>{{end}}
<tr><th>time</th><td>{{.R.StartedAt.Format "2006-01-02T15:04:05Z07:00"}} to {{.R.FinishedAt.Format "2006-01-02T15:04:05Z07:00"}}</td></tr>
</table>
<h2>Latency</h2>
{{.Latency}}
<h2>Requests in flight over time</h2>
{{.InFlight}}
<h2>Findings ({{len .R.Findings}})</h2>
{{if .Lines}}<pre>{{range .Lines}}{{.}}
{{end}}</pre>{{else}}<p>None.</p>{{end}}
</body></html>
`))
