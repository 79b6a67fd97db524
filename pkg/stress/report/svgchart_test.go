package report

import (
	"math"
	"slices"
	"strings"
	"testing"
)

func labels(a axis) []string {
	var out []string
	for _, t := range a.ticks() {
		if t.label != "" {
			out = append(out, t.label)
		}
	}
	return out
}

// TestChartTicks: a linear axis is labelled at 1, 2 or 5 times a power of ten, without trailing
// zeros or -0; a log axis at the powers of ten; values map into the page's range.
func TestChartTicks(t *testing.T) {
	lin := newAxis([2]float64{0, 67.5}, 0, 100, false)
	if got := labels(lin); !slices.Equal(got, []string{"0", "20", "40", "60"}) {
		t.Errorf("linear 0..67.5: %v", got)
	}
	if got := labels(newAxis([2]float64{math.Copysign(0, -1), 0.9}, 0, 100, false)); !slices.Equal(got, []string{"0", "0.5"}) {
		t.Errorf("linear 0..0.9: %v", got)
	}
	lg := newAxis([2]float64{4.2, 260}, 0, 100, true)
	if got := labels(lg); !slices.Equal(got, []string{"10", "100"}) {
		t.Errorf("log 4.2..260: %v", got)
	}
	if lin.at(0) != 0 || math.Abs(lin.at(67.5)-100) > 1e-9 || math.Abs(lg.at(4.2)) > 1e-9 || math.Abs(lg.at(260)-100) > 1e-9 {
		t.Errorf("the ends do not map onto the page's range")
	}
}

// TestChartSVG: a chart's SVG carries its name, its points, its title escaped, and a dashed path
// only for a dashed mark.
func TestChartSVG(t *testing.T) {
	c := newChart("a <b> title", "x", "y")
	c.add(chartMark{pts: []xy{{0, 1}, {1, 3}, {2, 2}}, color: ackColor, width: 1, step: true, fill: true})
	s := c.svg("demo", 3)
	if !strings.HasPrefix(s, `<svg class="plot" data-plot="demo" data-points="3"`) || strings.Contains(s, "<b>") || !strings.Contains(s, "a &lt;b&gt; title") {
		t.Fatalf("%.300s", s)
	}
	if strings.Contains(s, "stroke-dasharray") {
		t.Fatal("a chart without a dashed mark has a dashed path")
	}
	c.add(chartMark{pts: []xy{{1, 0}, {1, 3}}, color: faultColor, width: 1, dashed: true})
	if n := strings.Count(c.svg("demo", 3), "stroke-dasharray"); n != 1 {
		t.Fatalf("%d dashed paths, want 1", n)
	}
}
