package report

import (
	"fmt"
	"html"
	"math"
	"strings"
	"time"
)

// The geometry of a timeline, in SVG user units.
const (
	tlWidth  = 960.0
	tlLabel  = 190.0 // the lane labels' gutter
	tlRight  = 14.0
	tlBreak  = 70.0 // room right of an axis break for a state read long after the requests
	tlRowH   = 9.0
	tlRowGap = 2.0
	tlLaneP  = 5.0 // padding above and below a lane's rows
	tlAxisH  = 26.0
	tlTop    = 14.0
)

// timelineSVG draws one timeline as an inline <svg data-finding="I">; each request's bar carries
// data-seq, its seq in the history.
func timelineSVG(t *Timeline, f string) string {
	span := t.To.Sub(t.From)
	if span <= 0 {
		span = time.Millisecond
	}
	pad := span / 30
	from, to := t.From.Add(-pad), t.To.Add(pad)
	right := tlWidth - tlRight
	// A state read long after the requests is drawn beyond a break in the axis, not to scale.
	broken := !t.StateRead.IsZero() && t.StateRead.After(to.Add(span/4))
	if broken {
		right -= tlBreak
	} else if !t.StateRead.IsZero() && t.StateRead.After(to) {
		to = t.StateRead.Add(pad)
	}
	x := func(at time.Time) float64 {
		return tlLabel + (right-tlLabel)*float64(at.Sub(from))/float64(to.Sub(from))
	}
	var b strings.Builder
	// Lanes.
	y := tlTop
	ys := make([]laneY, len(t.Lanes))
	for i, l := range t.Lanes {
		h := 2*tlLaneP + float64(max(l.Rows, 1))*(tlRowH+tlRowGap) - tlRowGap
		ys[i] = laneY{y, h}
		y += h
	}
	jobsTop := y
	if len(t.Jobs) > 0 {
		y += 2*tlLaneP + float64(len(jobRows(t.Jobs)))*(tlRowH/2+tlRowGap)
	}
	height := y + tlAxisH
	fmt.Fprintf(&b, `<svg class="timeline" data-finding="%d" viewBox="0 0 %g %g" role="img" aria-label="%s">`, t.Finding, tlWidth, height, html.EscapeString(f))
	for i, l := range t.Lanes {
		cls := "lane"
		if i%2 == 1 {
			cls = "lane odd"
		}
		fmt.Fprintf(&b, `<rect class="%s" x="0" y="%.1f" width="%g" height="%.1f"/><text class="lbl" x="4" y="%.1f">%s</text>`,
			cls, ys[i].top, tlWidth, ys[i].h, ys[i].top+ys[i].h/2+3, html.EscapeString(shorten(strings.TrimPrefix(strings.TrimPrefix(l.Label, "http://"), "https://"), 34)))
	}
	if len(t.Jobs) > 0 {
		fmt.Fprintf(&b, `<text class="lbl" x="4" y="%.1f">jobs surely active</text>`, jobsTop+tlLaneP+6)
	}
	// Stretches with more jobs active than the ceiling, under everything.
	for _, s := range t.Above {
		x0, x1 := x(maxT(s.Start, from)), x(minT(s.End, to))
		fmt.Fprintf(&b, `<rect class="above" x="%.1f" y="%g" width="%.1f" height="%.1f"><title>more jobs active than the ceiling, %s</title></rect>`,
			x0, tlTop, math.Max(x1-x0, 1.5), y-tlTop, html.EscapeString(spanText(t.Origin, s.Start, s.End)))
	}
	// Requests.
	timelineBars(&b, t, ys, x)
	for k, row := range jobRows(t.Jobs) {
		for _, s := range row {
			x0, x1 := x(s.Start), x(s.End)
			fmt.Fprintf(&b, `<rect class="job" x="%.1f" y="%.1f" width="%.1f" height="%g"><title>job %s surely active %s</title></rect>`,
				x0, jobsTop+tlLaneP+float64(k)*(tlRowH/2+tlRowGap), math.Max(x1-x0, 1.5), tlRowH/2, html.EscapeString(s.Job), html.EscapeString(spanText(t.Origin, s.Start, s.End)))
		}
	}
	// The axis.
	ax := y + 4
	timelineAxis(&b, t.Origin, from, to, right, ax, x)
	// The state read.
	if !t.StateRead.IsZero() {
		sx := x(t.StateRead)
		if broken {
			fmt.Fprintf(&b, `<path class="brk" d="M%.1f %.1fl6 -8m0 8l6 -8"/>`, right+6, ax+4)
			sx = right + tlBreak/2 + 4
		}
		at := t.StateRead.Sub(t.Origin).Seconds()
		fmt.Fprintf(&b, `<line class="read" x1="%.1f" y1="%g" x2="%.1f" y2="%.1f"><title>the state was read at %.3f s</title></line><text class="rd" x="%.1f" y="%g">state read %.1f s</text>`,
			sx, tlTop, sx, ax, at, sx, tlTop-3, at)
	}
	b.WriteString(`</svg>`)
	return b.String()
}

// jobRows gives each job of a timeline its own row.
func jobRows(spans []Span) [][]Span {
	idx := map[string]int{}
	var rows [][]Span
	for _, s := range spans {
		k, ok := idx[s.Job]
		if !ok {
			k = len(rows)
			idx[s.Job] = k
			rows = append(rows, nil)
		}
		rows[k] = append(rows[k], s)
	}
	return rows
}

func outcomeClass(o string) string {
	switch o {
	case "acknowledged":
		return "ack"
	case "rejected":
		return "rej"
	}
	return "amb"
}

func barText(origin time.Time, b Bar, lane string) string {
	st := "no answer"
	if b.Status != 0 {
		st = fmt.Sprintf("HTTP %d", b.Status)
	}
	s := fmt.Sprintf("#%d %s on %s: %s, %s, %s", b.Seq, b.Op, lane, spanText(origin, b.Start, b.End), st, b.Outcome)
	if b.Holds {
		s += "; the state holds its bytes"
	}
	return s
}

func spanText(origin, s, e time.Time) string {
	return fmt.Sprintf("%.3f s to %.3f s (%.1f ms)", s.Sub(origin).Seconds(), e.Sub(origin).Seconds(), float64(e.Sub(s))/float64(time.Millisecond))
}

// niceStep is 1, 2 or 5 times a power of ten, at least v.
func niceStep(v float64) float64 {
	if v <= 0 {
		return 1
	}
	p := math.Pow(10, math.Floor(math.Log10(v)))
	for _, m := range []float64{1, 2, 5, 10} {
		if m*p >= v {
			return m * p
		}
	}
	return 10 * p
}

func secs(v, step float64) string {
	d := 0
	for d < 4 && step*math.Pow(10, float64(d)) < 1-1e-9 {
		d++
	}
	if math.Abs(v) < step/1000 {
		v = 0
	}
	return fmt.Sprintf("%.*f", d, v)
}

func shorten(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}

func maxT(a, b time.Time) time.Time {
	if a.After(b) {
		return a
	}
	return b
}

func minT(a, b time.Time) time.Time {
	if a.Before(b) {
		return a
	}
	return b
}

// laneY is where one lane of a timeline is drawn.
type laneY struct{ top, h float64 }

// timelineBars draws each lane's requests, at x, in the lanes' rows.
func timelineBars(b *strings.Builder, t *Timeline, ys []laneY, x func(time.Time) float64) {
	for i, l := range t.Lanes {
		for _, bar := range l.Bars {
			x0, x1 := x(bar.Start), x(bar.End)
			w := math.Max(x1-x0, 2)
			by := ys[i].top + tlLaneP + float64(bar.Row)*(tlRowH+tlRowGap)
			cls := outcomeClass(bar.Outcome)
			if bar.Named {
				cls += " named"
			} else {
				cls += " ctx"
			}
			if bar.Holds {
				cls += " holds"
			}
			fmt.Fprintf(b, `<rect class="%s" data-seq="%d" x="%.1f" y="%.1f" width="%.1f" height="%g"><title>%s</title></rect>`,
				cls, bar.Seq, x0, by, w, tlRowH, html.EscapeString(barText(t.Origin, bar, l.Label)))
			if bar.Holds {
				fmt.Fprintf(b, `<path class="holdmark" d="M%.1f %.1fl4 -5h-8z"><title>the state holds the bytes of #%d</title></path>`, x0+w/2, by-0.5, bar.Seq)
			}
		}
	}
}

// timelineAxis draws the time axis at height ax, from..to, in seconds since origin.
func timelineAxis(b *strings.Builder, origin, from, to time.Time, right, ax float64, x func(time.Time) float64) {
	fmt.Fprintf(b, `<line class="axis" x1="%g" y1="%.1f" x2="%.1f" y2="%.1f"/>`, tlLabel, ax, right, ax)
	step := niceStep(to.Sub(from).Seconds() / 7)
	o0, o1 := from.Sub(origin).Seconds(), to.Sub(origin).Seconds()
	for v := math.Ceil(o0/step) * step; v <= o1; v += step {
		tx := x(origin.Add(time.Duration(v * float64(time.Second))))
		fmt.Fprintf(b, `<line class="tick" x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f"/><text class="tk" x="%.1f" y="%.1f">%s</text>`,
			tx, ax, tx, ax+4, tx, ax+15, secs(v, step))
	}
	fmt.Fprintf(b, `<text class="tk0" x="4" y="%.1f">s since the load began</text>`, ax+15)
}
