package report

import (
	"fmt"
	"html"
	"math"
	"time"

	"github.com/osctl/osctl/pkg/nemesis"
	"github.com/osctl/osctl/pkg/stress/attack"
)

// The outcome colours, shared by the plots and the timelines (the page's CSS has the same).
const (
	ackColor = "#2e7d32"
	rejColor = "#e69500"
	ambColor = "#8e24aa"
	p50Color = "#1565c0"
	p90Color = "#ef6c00"
	p99Color = "#c62828"
	flyColor = "#37474f"
	// faultColor marks the nemesis' faults on the in-flight plot.
	faultColor = "#d81b60"
)

// plots are the page's plots, each an inline <svg data-plot="NAME" data-points="N"> drawn by
// hand (svgchart.go), as the race timelines are.
type plots struct{ Throughput, Latency, InFlight, Histogram string }

func makePlots(r *Report) plots {
	s := r.OverTime
	return plots{Throughput: throughputSVG(s), Latency: latencyOverTimeSVG(s),
		InFlight: inFlightSVG(s, r.Timeline, r.StartedAt, r.Faults), Histogram: histogramSVG(r.Histogram)}
}

// timePlot is a chart titled title whose y axis says ylabel, over the run's time in s's buckets.
func timePlot(s *Series, title, ylabel string) *chart {
	c := newChart(title, fmt.Sprintf("seconds since the load began (buckets of %s)", time.Duration(s.StepS*float64(time.Second))), ylabel)
	c.xr = [2]float64{0, float64(len(s.Points)) * s.StepS}
	return c
}

// stepLine is a step line of ys over a series' buckets, filled below when fill is set.
func stepLine(s *Series, ys func(Point) float64, c string, fill bool) chartMark {
	pts := make([]xy, 0, len(s.Points)+1)
	for _, p := range s.Points {
		pts = append(pts, xy{p.AtS, ys(p)})
	}
	last := s.Points[len(s.Points)-1]
	pts = append(pts, xy{last.AtS + s.StepS, ys(last)})
	return chartMark{pts: pts, color: c, width: 1, fill: fill, step: true}
}

func throughputSVG(s *Series) string {
	if s == nil {
		return noData("throughput", "Throughput by outcome")
	}
	c := timePlot(s, "Throughput by outcome (requests/s, stacked, by the time each ended)", "requests/s")
	c.yr[0] = 0
	per := 1 / s.StepS
	for _, ly := range []struct {
		c string
		y func(Point) float64
	}{
		{ambColor, func(q Point) float64 { return per * float64(q.Acknowledged+q.Rejected+q.Ambiguous) }},
		{rejColor, func(q Point) float64 { return per * float64(q.Acknowledged+q.Rejected) }},
		{ackColor, func(q Point) float64 { return per * float64(q.Acknowledged) }},
	} {
		c.add(stepLine(s, ly.y, ly.c, true))
	}
	return c.svg("throughput", len(s.Points))
}

func latencyOverTimeSVG(s *Series) string {
	if s == nil {
		return noData("latency", "Latency over time")
	}
	c := timePlot(s, "Latency p50, p90, p99 (ms, of the requests that ended in each bucket)", "ms")
	lo, hi := math.Inf(1), 0.0
	for _, q := range s.Points {
		if q.P50 > 0 {
			lo, hi = min(lo, q.P50), max(hi, q.P99)
		}
	}
	if hi > 0 && hi/lo > 50 {
		c.yLog, c.yLabel = true, "ms (log scale)"
	}
	points := 0
	for _, q := range []struct {
		c string
		y func(Point) float64
	}{{p50Color, func(q Point) float64 { return q.P50 }}, {p90Color, func(q Point) float64 { return q.P90 }}, {p99Color, func(q Point) float64 { return q.P99 }}} {
		// One line per stretch of buckets that had answers: no line drawn through empty buckets.
		var seg []xy
		flush := func() {
			if len(seg) > 0 {
				c.add(chartMark{pts: seg, color: q.c, width: 1.2})
				points += len(seg)
				seg = nil
			}
		}
		for _, pt := range s.Points {
			if v := q.y(pt); v > 0 {
				seg = append(seg, xy{pt.AtS + s.StepS/2, v})
				continue
			}
			flush()
		}
		flush()
	}
	if points == 0 {
		return noData("latency", "Latency over time: no request got an answer")
	}
	return c.svg("latency", points/3)
}

func inFlightSVG(s *Series, samples []attack.Sample, began time.Time, faults []nemesis.Fault) string {
	title, ylabel := "Requests in flight (the most at once in each bucket)", "in flight"
	var c *chart
	n := 0
	switch {
	case s != nil:
		c = timePlot(s, title, ylabel)
		c.add(stepLine(s, func(q Point) float64 { return float64(q.InFlight) }, flyColor, false))
		n = len(s.Points)
		began = s.Began
	case len(samples) > 0:
		// No per-request records (an http run without a history): the attacker's own samples.
		c = newChart(title, "seconds since the run began", ylabel)
		pts := make([]xy, len(samples))
		for i, sm := range samples {
			pts[i] = xy{sm.At.Sub(began).Seconds(), float64(sm.InFlight)}
		}
		c.add(chartMark{pts: pts, color: flyColor, width: 1})
		n = len(samples)
	default:
		return noData("inflight", "Requests in flight")
	}
	c.yr[0] = 0
	faultMarks(c, faults, began)
	return c.svg("inflight", n)
}

// faultMarks draws each injected fault as a dashed vertical line at its time (a pause: one at
// its start and one at its end), labelled with its kind.
func faultMarks(c *chart, faults []nemesis.Fault, began time.Time) {
	top := c.yr[1]
	if math.IsNaN(top) || top <= 0 {
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
			c.add(chartMark{pts: []xy{{x, 0}, {x, top}}, color: faultColor, width: 1, dashed: true})
		}
		c.add(chartMark{pts: []xy{{x0, top}}, text: string(f.Kind)})
	}
}

func histogramSVG(bs []Bucket) string {
	if len(bs) == 0 {
		return noData("histogram", "Latency histogram")
	}
	c := newChart("Latency (HDR histogram, log-spaced bars)", "latency (ms, log scale)", "requests")
	c.xLog = true
	c.xr, c.yr = [2]float64{bs[0].FromMS, bs[len(bs)-1].ToMS}, [2]float64{0, math.NaN()}
	bars := make([][2]xy, len(bs))
	for i, b := range bs {
		bars[i] = [2]xy{{b.FromMS, 0}, {b.ToMS, float64(b.Count)}}
	}
	c.add(chartMark{bars: bars, color: p50Color})
	return c.svg("histogram", len(bs))
}

// noData is a plot that has nothing to draw, saying why.
func noData(name, title string) string {
	return fmt.Sprintf(`<svg class="plot nodata" data-plot="%s" data-points="0" viewBox="0 0 576 40" role="img" aria-label="%s"><text x="8" y="24">%s: no per-request records to draw (an http run keeps them only when it writes a history)</text></svg>`,
		name, html.EscapeString(title), html.EscapeString(title))
}
