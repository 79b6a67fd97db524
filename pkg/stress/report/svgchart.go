package report

import (
	"fmt"
	"html"
	"math"
	"strconv"
	"strings"
)

// The geometry of a chart, in SVG user units (points: 8 by 2.8 inches, as the page has drawn its
// plots since they were gonum/plot's).
const (
	chartW      = 576.0
	chartH      = 201.6
	chartLeft   = 52.0 // the y axis: its label, tick labels and ticks to its left
	chartRight  = 10.0
	chartTop    = 22.0 // the title above
	chartBottom = 38.0 // the x axis: ticks, tick labels and its label below
)

// xy is a point in data units.
type xy struct{ X, Y float64 }

// chartMark is one thing a chart draws, in order, over its axes.
type chartMark struct {
	pts    []xy
	color  string
	width  float64
	fill   bool    // fill down to the y axis's lowest value (a filled step line)
	step   bool    // a post-step line: each value holds until the next point
	dashed bool    // a fault mark
	bars   [][2]xy // rectangles, each from its lower-left to its upper-right corner
	text   string  // a label at pts[0]
}

// chart is an x-y chart drawn as inline SVG by hand: a title, two axes (linear or log) with
// their ticks, and marks. The axes span the marks' data, and the range the caller fixes.
type chart struct {
	title, xLabel, yLabel string
	xLog, yLog            bool
	// xr and yr are the axes' ranges: set before adding marks to fix an end (NaN: from the data).
	xr, yr [2]float64
	marks  []chartMark
}

func newChart(title, xLabel, yLabel string) *chart {
	nan := math.NaN()
	return &chart{title: title, xLabel: xLabel, yLabel: yLabel, xr: [2]float64{nan, nan}, yr: [2]float64{nan, nan}}
}

// add draws m, growing the axes to hold its points (a label's too, as gonum/plot did).
func (c *chart) add(m chartMark) {
	grow := func(p xy) {
		c.xr = [2]float64{minNaN(c.xr[0], p.X), maxNaN(c.xr[1], p.X)}
		c.yr = [2]float64{minNaN(c.yr[0], p.Y), maxNaN(c.yr[1], p.Y)}
	}
	for _, p := range m.pts {
		grow(p)
	}
	for _, b := range m.bars {
		grow(b[0])
		grow(b[1])
	}
	c.marks = append(c.marks, m)
}

func minNaN(a, b float64) float64 {
	if math.IsNaN(a) || b < a {
		return b
	}
	return a
}

func maxNaN(a, b float64) float64 {
	if math.IsNaN(a) || b > a {
		return b
	}
	return a
}

// axis maps data values onto the page, linearly or by their logarithm.
type axis struct {
	lo, hi   float64 // data
	from, to float64 // page
	log      bool
}

func newAxis(r [2]float64, from, to float64, log bool) axis {
	lo, hi := r[0], r[1]
	if math.IsNaN(lo) || math.IsNaN(hi) {
		lo, hi = 0, 1
	}
	if log {
		lo, hi = math.Max(lo, 1e-9), math.Max(hi, 1e-9)
	}
	if hi <= lo {
		if log {
			lo, hi = lo/2, lo*2
		} else {
			lo, hi = lo-0.5, lo+0.5
		}
	}
	return axis{lo: lo, hi: hi, from: from, to: to, log: log}
}

func (a axis) at(v float64) float64 {
	if a.log {
		v = math.Max(v, a.lo)
		return a.from + (a.to-a.from)*(math.Log(v)-math.Log(a.lo))/(math.Log(a.hi)-math.Log(a.lo))
	}
	return a.from + (a.to-a.from)*(v-a.lo)/(a.hi-a.lo)
}

// tick is a value on an axis; a major one has a label.
type tick struct {
	v     float64
	label string
}

// ticks are a's ticks: about four labelled ones at 1, 2 or 5 times a power of ten with minor
// ones between, or on a log axis the powers of ten labelled and their multiples between.
func (a axis) ticks() []tick {
	var ts []tick
	in := func(v float64) bool { return v >= a.lo*(1-1e-9)-1e-12 && v <= a.hi*(1+1e-9)+1e-12 }
	if a.log {
		for e := math.Floor(math.Log10(a.lo)); e <= math.Ceil(math.Log10(a.hi)); e++ {
			p := math.Pow(10, e)
			for m := 1.0; m < 10; m++ {
				if v := m * p; in(v) {
					t := tick{v: v}
					if m == 1 {
						t.label = shortNum(v)
					}
					ts = append(ts, t)
				}
			}
		}
		return ts
	}
	step := niceStep((a.hi - a.lo) / 4)
	minor := step / 5
	if m := step / math.Pow(10, math.Floor(math.Log10(step))); math.Abs(m-2) < 1e-9 {
		minor = step / 4
	}
	for i := math.Ceil(a.lo/minor - 1e-9); i*minor <= a.hi+minor*1e-9; i++ {
		v := i * minor
		t := tick{v: v}
		if k := v / step; math.Abs(k-math.Round(k)) < 1e-6 {
			t.label = shortNum(v)
		}
		ts = append(ts, t)
	}
	return ts
}

// shortNum is v without trailing zeros: 500, not 500.00.
func shortNum(v float64) string {
	if v == 0 {
		return "0" // not -0
	}
	return strconv.FormatFloat(math.Round(v*1e6)/1e6, 'f', -1, 64)
}

// svg draws the chart as an inline <svg class="plot" data-plot="NAME" data-points="N">. Its
// fonts are set on a group inside: a font-size on the <svg> would change the em of the page's
// max-width for it.
func (c *chart) svg(name string, points int) string {
	x := newAxis(c.xr, chartLeft, chartW-chartRight, c.xLog)
	y := newAxis(c.yr, chartH-chartBottom, chartTop, c.yLog)
	var b strings.Builder
	fmt.Fprintf(&b, `<svg class="plot" data-plot="%s" data-points="%d" role="img" aria-label="%s" width="576pt" height="201.6pt" viewBox="0 0 %g %g" xmlns="http://www.w3.org/2000/svg"><g font-family="sans-serif" font-size="10">`,
		name, points, html.EscapeString(c.title), chartW, chartH)
	fmt.Fprintf(&b, `<rect width="%g" height="%g" fill="#fff"/>`, chartW, chartH)
	fmt.Fprintf(&b, `<text x="%g" y="13" font-size="11" text-anchor="middle">%s</text>`, (chartLeft+chartW-chartRight)/2, html.EscapeString(c.title))
	c.axes(&b, x, y)
	for _, m := range c.marks {
		drawMark(&b, m, x, y)
	}
	b.WriteString(`</g></svg>`)
	return b.String()
}

// axes draws the x axis below the plot and the y axis left of it, with ticks and labels.
func (c *chart) axes(b *strings.Builder, x, y axis) {
	const gap = 4.0 // between the plot and an axis
	ax, ay := y.from+gap, x.from-gap
	fmt.Fprintf(b, `<path d="M%.2f %.2fH%.2f" stroke="#000" stroke-width="0.5" fill="none"/>`, x.from, ax, x.to)
	fmt.Fprintf(b, `<path d="M%.2f %.2fV%.2f" stroke="#000" stroke-width="0.5" fill="none"/>`, ay, y.from, y.to)
	for _, t := range x.ticks() {
		px, l := x.at(t.v), 2.5
		if t.label != "" {
			l = 5
			fmt.Fprintf(b, `<text x="%.2f" y="%.2f" text-anchor="middle">%s</text>`, px, ax+l+10, t.label)
		}
		fmt.Fprintf(b, `<path d="M%.2f %.2fv%g" stroke="#000" stroke-width="0.5"/>`, px, ax, l)
	}
	for _, t := range y.ticks() {
		py, l := y.at(t.v), 2.5
		if t.label != "" {
			l = 5
			fmt.Fprintf(b, `<text x="%.2f" y="%.2f" text-anchor="end">%s</text>`, ay-l-2, py+3.5, t.label)
		}
		fmt.Fprintf(b, `<path d="M%.2f %.2fh%g" stroke="#000" stroke-width="0.5"/>`, ay, py, -l)
	}
	fmt.Fprintf(b, `<text x="%.2f" y="%.2f" font-size="12" text-anchor="middle">%s</text>`, (x.from+x.to)/2, chartH-4, html.EscapeString(c.xLabel))
	fmt.Fprintf(b, `<text transform="translate(14 %.2f) rotate(-90)" font-size="12" text-anchor="middle">%s</text>`, (y.from+y.to)/2, html.EscapeString(c.yLabel))
}

// drawMark draws one mark on the axes x and y.
func drawMark(b *strings.Builder, m chartMark, x, y axis) {
	switch {
	case m.text != "":
		fmt.Fprintf(b, `<text x="%.2f" y="%.2f">%s</text>`, x.at(m.pts[0].X), y.at(m.pts[0].Y)-2, html.EscapeString(m.text))
	case len(m.bars) > 0:
		for _, r := range m.bars {
			x0, x1, y0, y1 := x.at(r[0].X), x.at(r[1].X), y.at(r[0].Y), y.at(r[1].Y)
			fmt.Fprintf(b, `<path d="M%.2f %.2fH%.2fV%.2fH%.2fZ" fill="%s" stroke="#fff" stroke-width="0.5"/>`, x0, y0, x1, y1, x0, m.color)
		}
	case len(m.pts) > 0:
		var d strings.Builder
		for i, p := range m.pts {
			px, py := x.at(p.X), y.at(p.Y)
			switch {
			case i == 0:
				fmt.Fprintf(&d, "M%.2f %.2f", px, py)
			case m.step:
				fmt.Fprintf(&d, "H%.2fV%.2f", px, py)
			default:
				fmt.Fprintf(&d, "L%.2f %.2f", px, py)
			}
		}
		if m.fill {
			bottom := y.at(y.lo)
			fmt.Fprintf(b, `<path d="%sV%.2fH%.2fZ" fill="%s" stroke="none"/>`, d.String(), bottom, x.at(m.pts[0].X), m.color)
		}
		dash := ""
		if m.dashed {
			dash = ` stroke-dasharray="3 2"`
		}
		fmt.Fprintf(b, `<path d="%s" fill="none" stroke="%s" stroke-width="%g"%s/>`, d.String(), m.color, m.width, dash)
	}
}
