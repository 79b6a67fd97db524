package report

import (
	"bytes"
	"fmt"
	"html"
	"image/color"
	"math"
	"strconv"
	"time"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/osctl/osctl/pkg/stress/attack"
	"github.com/osctl/osctl/pkg/stress/nemesis"
)

// The outcome colours, shared by the plots and the timelines (the page's CSS has the same).
var (
	ackColor = color.RGBA{0x2e, 0x7d, 0x32, 0xff}
	rejColor = color.RGBA{0xe6, 0x95, 0x00, 0xff}
	ambColor = color.RGBA{0x8e, 0x24, 0xaa, 0xff}
	p50Color = color.RGBA{0x15, 0x65, 0xc0, 0xff}
	p90Color = color.RGBA{0xef, 0x6c, 0x00, 0xff}
	p99Color = color.RGBA{0xc6, 0x28, 0x28, 0xff}
	flyColor = color.RGBA{0x37, 0x47, 0x4f, 0xff}
	// faultColor marks the nemesis' faults on the in-flight plot.
	faultColor = color.RGBA{0xd8, 0x1b, 0x60, 0xff}
)

// plots are the page's plots, each an inline <svg data-plot="NAME" data-points="N">.
type plots struct{ Throughput, Latency, InFlight, Histogram string }

func makePlots(r *Report) (plots, error) {
	var ps plots
	var err error
	s := r.OverTime
	if ps.Throughput, err = throughputSVG(s); err != nil {
		return ps, err
	}
	if ps.Latency, err = latencyOverTimeSVG(s); err != nil {
		return ps, err
	}
	if ps.InFlight, err = inFlightSVG(s, r.Timeline, r.StartedAt, r.Faults); err != nil {
		return ps, err
	}
	ps.Histogram, err = histogramSVG(r.Histogram)
	return ps, err
}

// timePlot is a plot titled title whose y axis says ylabel, over the run's time in s's buckets.
func timePlot(s *Series, title, ylabel string) *plot.Plot {
	p := plot.New()
	p.Title.Text = title
	p.Y.Label.Text = ylabel
	timeAxis(p, s)
	return p
}

func timeAxis(p *plot.Plot, s *Series) {
	p.X.Label.Text = fmt.Sprintf("seconds since the load began (buckets of %s)", time.Duration(s.StepS*float64(time.Second)))
	p.X.Min, p.X.Max = 0, float64(len(s.Points))*s.StepS
	p.X.Tick.Marker = shortTicks{}
}

// shortTicks are gonum's default ticks labelled without trailing zeros: 500, not 500.00.
type shortTicks struct{}

func (shortTicks) Ticks(lo, hi float64) []plot.Tick {
	ts := plot.DefaultTicks{}.Ticks(lo, hi)
	for i := range ts {
		if ts[i].Label != "" {
			ts[i].Label = strconv.FormatFloat(math.Round(ts[i].Value*1e6)/1e6, 'f', -1, 64)
		}
	}
	return ts
}

// stepLine is a filled step line of ys over a series' buckets.
func stepLine(s *Series, ys func(Point) float64, c color.Color, fill bool) (*plotter.Line, error) {
	xy := make(plotter.XYs, 0, len(s.Points)+1)
	for _, p := range s.Points {
		xy = append(xy, plotter.XY{X: p.AtS, Y: ys(p)})
	}
	last := s.Points[len(s.Points)-1]
	xy = append(xy, plotter.XY{X: last.AtS + s.StepS, Y: ys(last)})
	l, err := plotter.NewLine(xy)
	if err != nil {
		return nil, err
	}
	l.StepStyle = plotter.PostStep
	l.Color = c
	l.Width = vg.Points(1)
	if fill {
		l.FillColor = c
	}
	return l, nil
}

func throughputSVG(s *Series) (string, error) {
	if s == nil {
		return noData("throughput", "Throughput by outcome"), nil
	}
	p := timePlot(s, "Throughput by outcome (requests/s, stacked, by the time each ended)", "requests/s")
	per := 1 / s.StepS
	layers := []struct {
		c color.Color
		y func(Point) float64
	}{
		{ambColor, func(q Point) float64 { return per * float64(q.Acknowledged+q.Rejected+q.Ambiguous) }},
		{rejColor, func(q Point) float64 { return per * float64(q.Acknowledged+q.Rejected) }},
		{ackColor, func(q Point) float64 { return per * float64(q.Acknowledged) }},
	}
	for _, ly := range layers {
		l, err := stepLine(s, ly.y, ly.c, true)
		if err != nil {
			return "", err
		}
		p.Add(l)
	}
	p.Y.Min = 0
	return render(p, "throughput", len(s.Points))
}

func latencyOverTimeSVG(s *Series) (string, error) {
	if s == nil {
		return noData("latency", "Latency over time"), nil
	}
	p := timePlot(s, "Latency p50, p90, p99 (ms, of the requests that ended in each bucket)", "ms")
	lo, hi := math.Inf(1), 0.0
	for _, q := range s.Points {
		if q.P50 > 0 {
			lo, hi = min(lo, q.P50), max(hi, q.P99)
		}
	}
	if hi > 0 && hi/lo > 50 {
		p.Y.Scale = plot.LogScale{}
		p.Y.Tick.Marker = plot.LogTicks{Prec: -1}
		p.Y.Label.Text = "ms (log scale)"
	}
	points := 0
	qs := []struct {
		c color.Color
		y func(Point) float64
	}{{p50Color, func(q Point) float64 { return q.P50 }}, {p90Color, func(q Point) float64 { return q.P90 }}, {p99Color, func(q Point) float64 { return q.P99 }}}
	for _, q := range qs {
		// One line per stretch of buckets that had answers: no line drawn through empty buckets.
		var seg plotter.XYs
		flush := func() error {
			if len(seg) == 0 {
				return nil
			}
			l, err := plotter.NewLine(seg)
			if err != nil {
				return err
			}
			l.Color, l.Width = q.c, vg.Points(1.2)
			p.Add(l)
			points += len(seg)
			seg = nil
			return nil
		}
		for _, pt := range s.Points {
			if v := q.y(pt); v > 0 {
				seg = append(seg, plotter.XY{X: pt.AtS + s.StepS/2, Y: v})
				continue
			}
			if err := flush(); err != nil {
				return "", err
			}
		}
		if err := flush(); err != nil {
			return "", err
		}
	}
	if points == 0 {
		return noData("latency", "Latency over time: no request got an answer"), nil
	}
	return render(p, "latency", points/len(qs))
}

func inFlightSVG(s *Series, samples []attack.Sample, began time.Time, faults []nemesis.Fault) (string, error) {
	p := plot.New()
	p.Title.Text = "Requests in flight (the most at once in each bucket)"
	p.Y.Label.Text = "in flight"
	n := 0
	switch {
	case s != nil:
		timeAxis(p, s)
		l, err := stepLine(s, func(q Point) float64 { return float64(q.InFlight) }, flyColor, false)
		if err != nil {
			return "", err
		}
		p.Add(l)
		n = len(s.Points)
	case len(samples) > 0:
		// No per-request records (an http run without a history): the attacker's own samples.
		p.X.Label.Text = "seconds since the run began"
		xy := make(plotter.XYs, len(samples))
		for i, sm := range samples {
			xy[i] = plotter.XY{X: sm.At.Sub(began).Seconds(), Y: float64(sm.InFlight)}
		}
		l, err := plotter.NewLine(xy)
		if err != nil {
			return "", err
		}
		l.Color = flyColor
		p.Add(l)
		n = len(samples)
	default:
		return noData("inflight", "Requests in flight"), nil
	}
	p.Y.Min = 0
	p.Y.Tick.Marker = shortTicks{}
	if s != nil {
		began = s.Began
	}
	if err := faultMarks(p, faults, began); err != nil {
		return "", err
	}
	return render(p, "inflight", n)
}

// faultMarks draws each injected fault as a vertical line at its time (a pause as a band from
// its start to its end), labelled with its kind.
func faultMarks(p *plot.Plot, faults []nemesis.Fault, began time.Time) error {
	top := p.Y.Max
	if top <= 0 {
		top = 1
	}
	for _, f := range faults {
		if f.Injected.IsZero() {
			continue
		}
		x0 := f.Injected.Sub(began).Seconds()
		xs := []float64{x0}
		if !f.Ended.IsZero() {
			xs = append(xs, f.Ended.Sub(began).Seconds())
		}
		for _, x := range xs {
			l, err := plotter.NewLine(plotter.XYs{{X: x, Y: 0}, {X: x, Y: top}})
			if err != nil {
				return err
			}
			l.Color, l.Dashes = faultColor, []vg.Length{vg.Points(3), vg.Points(2)}
			p.Add(l)
		}
		lb, err := plotter.NewLabels(plotter.XYLabels{XYs: plotter.XYs{{X: x0, Y: top}}, Labels: []string{string(f.Kind)}})
		if err != nil {
			return err
		}
		p.Add(lb)
	}
	return nil
}

func histogramSVG(bs []Bucket) (string, error) {
	p := plot.New()
	p.Title.Text = "Latency (HDR histogram, log-spaced bars)"
	p.X.Label.Text = "latency (ms, log scale)"
	p.Y.Label.Text = "requests"
	if len(bs) == 0 {
		return noData("histogram", "Latency histogram"), nil
	}
	p.X.Scale = plot.LogScale{}
	p.X.Tick.Marker = plot.LogTicks{Prec: -1}
	h := &plotter.Histogram{Bins: make([]plotter.HistogramBin, len(bs)), FillColor: p50Color, LineStyle: draw.LineStyle{Color: color.White, Width: vg.Points(0.5)}}
	for i, b := range bs {
		h.Bins[i] = plotter.HistogramBin{Min: b.FromMS, Max: b.ToMS, Weight: float64(b.Count)}
	}
	h.Width = (bs[len(bs)-1].ToMS - bs[0].FromMS) / float64(len(bs))
	p.Add(h)
	p.X.Min, p.X.Max = bs[0].FromMS, bs[len(bs)-1].ToMS
	p.Y.Min = 0
	return render(p, "histogram", len(bs))
}

// render draws p as SVG for inlining: without the XML declaration, its root tagged with the
// plot's name and how many points it draws, and scaled by the page's CSS.
func render(p *plot.Plot, name string, points int) (string, error) {
	p.Title.TextStyle.Font.Size = vg.Points(11)
	wt, err := p.WriterTo(8*vg.Inch, 2.8*vg.Inch, "svg")
	if err != nil {
		return "", err
	}
	var buf bytes.Buffer
	if _, err := wt.WriteTo(&buf); err != nil {
		return "", err
	}
	b := buf.Bytes()
	i := bytes.Index(b, []byte("<svg"))
	if i < 0 {
		return "", fmt.Errorf("plot %s: no <svg> in the output", name)
	}
	tag := fmt.Sprintf(`<svg class="plot" data-plot="%s" data-points="%d" role="img" aria-label="%s"`, name, points, html.EscapeString(p.Title.Text))
	return tag + string(b[i+len("<svg"):]), nil
}

// noData is a plot that has nothing to draw, saying why.
func noData(name, title string) string {
	return fmt.Sprintf(`<svg class="plot nodata" data-plot="%s" data-points="0" viewBox="0 0 576 40" role="img" aria-label="%s"><text x="8" y="24">%s: no per-request records to draw (an http run keeps them only with --history)</text></svg>`,
		name, html.EscapeString(title), html.EscapeString(title))
}
