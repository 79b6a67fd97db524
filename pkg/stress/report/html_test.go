package report_test

import (
	"bytes"
	"strconv"
	"strings"
	"testing"

	"github.com/osctl/osctl/pkg/stress/detect"
	"github.com/osctl/osctl/pkg/stress/history"
	"github.com/osctl/osctl/pkg/stress/report"
	"golang.org/x/net/html"
)

func writePage(t *testing.T, r *report.Report) (string, *html.Node) {
	t.Helper()
	var buf bytes.Buffer
	if err := report.WriteHTML(&buf, r); err != nil {
		t.Fatal(err)
	}
	doc, err := html.Parse(bytes.NewReader(buf.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	return buf.String(), doc
}

func attr(n *html.Node, k string) (string, bool) {
	for _, a := range n.Attr {
		if a.Key == k {
			return a.Val, true
		}
	}
	return "", false
}

// all returns the elements under n that have attribute k.
func all(n *html.Node, k string) []*html.Node {
	var out []*html.Node
	var walk func(*html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.ElementNode {
			if _, ok := attr(n, k); ok {
				out = append(out, n)
			}
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(n)
	return out
}

func TestHTMLHooks(t *testing.T) {
	r := build(synthetic(2000, 20))
	if len(r.Findings) < 30 || r.FindingCounts[detect.Torn] == 0 || r.FindingCounts[detect.Mixed] == 0 {
		t.Fatalf("the synthetic run has %v", r.FindingCounts)
	}
	s, doc := writePage(t, r)
	for _, bad := range []string{"<script", "src=", "href=\"http", "@import", "url("} {
		if strings.Contains(s, bad) {
			t.Fatalf("the page may fetch something: %s", bad)
		}
	}
	if n := all(doc, "data-findings"); len(n) != 1 {
		t.Fatalf("%d findings counters", len(n))
	} else if v, _ := attr(n[0], "data-findings"); v != strconv.Itoa(len(r.Findings)) {
		t.Fatalf("the page counts %s findings, the report %d", v, len(r.Findings))
	}
	plots := map[string]int{}
	for _, n := range all(doc, "data-plot") {
		name, _ := attr(n, "data-plot")
		pts, _ := attr(n, "data-points")
		plots[name], _ = strconv.Atoi(pts)
		if n.Data != "svg" {
			t.Errorf("plot %s is a <%s>", name, n.Data)
		}
	}
	for _, name := range []string{"throughput", "latency", "inflight"} {
		if plots[name] == 0 {
			t.Errorf("plot %s: %d points", name, plots[name])
		}
	}
	drawn := map[int]bool{}
	kinds := map[string]int{}
	for _, svg := range all(doc, "data-finding") {
		v, _ := attr(svg, "data-finding")
		i, err := strconv.Atoi(v)
		if err != nil || i < 0 || i >= len(r.Findings) || svg.Data != "svg" {
			t.Fatalf("timeline data-finding=%q on <%s>", v, svg.Data)
		}
		drawn[i] = true
		kinds[r.Findings[i].Kind]++
		seqs := map[string]bool{}
		for _, b := range all(svg, "data-seq") {
			q, _ := attr(b, "data-seq")
			seqs[q] = true
		}
		for _, q := range r.Findings[i].Requests {
			if !seqs[strconv.FormatInt(q.Seq, 10)] {
				t.Errorf("timeline %d has no bar for request #%d", i, q.Seq)
			}
		}
		if len(seqs) <= len(r.Findings[i].Requests) {
			t.Errorf("timeline %d draws no other request on %s", i, r.Findings[i].Object)
		}
	}
	for _, g := range r.Groups() {
		for k, i := range g.Indexes[:min(len(g.Indexes), report.TimelinesAlways)] {
			if !drawn[i] {
				t.Errorf("the %s finding %d (#%d of its kind) has no timeline", g.Kind, i, k)
			}
		}
		if kinds[g.Kind] > report.TimelinesPerKind {
			t.Errorf("%d %s timelines, at most %d", kinds[g.Kind], g.Kind, report.TimelinesPerKind)
		}
	}
	// A mixed extraction marks the uploads whose entries it holds; the state read is marked.
	if !strings.Contains(s, `class="ack named holds"`) || !strings.Contains(s, `class="read"`) {
		t.Errorf("no request marked as held by the state, or no state read")
	}
}

// TestHTMLSizeAt10000Requests: at 10,000 requests the page stays under 5 MB, over 100 analyses
// and over one analysis that every request touched.
func TestHTMLSizeAt10000Requests(t *testing.T) {
	for _, analyses := range []int{100, 1} {
		r := build(synthetic(10000, analyses))
		s, _ := writePage(t, r)
		t.Logf("10,000 requests over %d analyses: %d findings %v, %d timelines, %d bytes", analyses, len(r.Findings), r.FindingCounts, len(r.Timelines), len(s))
		if len(s) >= 5<<20 {
			t.Errorf("%d analyses: %d bytes", analyses, len(s))
		}
		for _, tl := range r.Timelines {
			if other := tl.Bars() - len(r.Findings[tl.Finding].Requests); other > report.TimelineContext {
				t.Errorf("timeline %d draws %d other requests", tl.Finding, other)
			}
		}
	}
}

func TestHTMLMasksCredentials(t *testing.T) {
	h, st := synthetic(200, 4)
	// Targets with a password, in the header and on every request (the lanes, bar titles and
	// per-target rows name them), and one request to a target the header does not list.
	creds := func(u string) string { return strings.Replace(u, "http://", "http://admin:hunter2secret@", 1) }
	for i := range h.Header.Targets {
		h.Header.Targets[i] = creds(h.Header.Targets[i])
		h.Header.TargetInfo[i].URL = creds(h.Header.TargetInfo[i].URL)
	}
	for i := range h.Records {
		h.Records[i].Target = creds(h.Records[i].Target)
	}
	for i := range h.Records {
		if h.Records[i].Op == history.OpUpload && !h.Records[i].Setup {
			h.Records[i].Target = "http://admin:hunter2secret@127.0.0.1:9999"
			break
		}
	}
	r := build(h, st)
	r.Notices = append(r.Notices, "target http://admin:hunter2secret@127.0.0.1:9001/ answered 401 (Authorization: Bearer abcdef0123456789)")
	r.Reasons = append(r.Reasons, "the first got token=s3cr3tt0ken")
	s, _ := writePage(t, r)
	for _, secret := range []string{"hunter2secret", "abcdef0123456789", "s3cr3tt0ken"} {
		if strings.Contains(s, secret) {
			t.Errorf("the page holds %q", secret)
		}
	}
}

func TestHTMLCleanRun(t *testing.T) {
	h, _ := synthetic(300, 3)
	r := build(h, nil) // the files were not read: no finding, only the records judged
	r.Findings, r.FindingCounts, r.Timelines = []detect.Finding{}, map[string]int{}, nil
	s, doc := writePage(t, r)
	if !strings.Contains(s, "No findings.") || len(all(doc, "data-finding")) != 0 {
		t.Fatalf("a run without findings")
	}
	if len(all(doc, "data-plot")) != 4 {
		t.Fatalf("plots missing")
	}
}

// TestHTMLWorkers: an in-cluster run's workers get a table, one row each, a lost one said so; a
// run without workers has no such table.
func TestHTMLWorkers(t *testing.T) {
	r := build(synthetic(300, 3))
	_, doc := writePage(t, r)
	if hasID(doc, "workers") {
		t.Fatalf("a run without workers has a workers table")
	}
	r.Workers = []report.WorkerSummary{
		{Index: 0, Pod: "osctl-stress-w-0", Sent: 150, Acknowledged: 149, Throughput: 50.5, P99: 12.5, Errors: 1},
		{Index: 1, Pod: "osctl-stress-w-1", Sent: 90, Acknowledged: 90, Throughput: 30, P99: 9, Lost: true},
	}
	s, doc := writePage(t, r)
	if !hasID(doc, "workers") {
		t.Fatalf("no workers table")
	}
	for _, want := range []string{"<td>osctl-stress-w-0</td><td class=\"n\">150</td><td class=\"n\">149</td><td class=\"n\">50.5</td>",
		"<td>osctl-stress-w-1</td>", "no: the worker died"} {
		if !strings.Contains(s, want) {
			t.Errorf("the workers table lacks %q", want)
		}
	}
}

func hasID(doc *html.Node, id string) bool {
	for _, n := range all(doc, "id") {
		if v, _ := attr(n, "id"); v == id {
			return true
		}
	}
	return false
}

// TestHTMLEscapesRunText: text from the run (here a finding's object, which the tables, the
// timeline's caption and its SVG label show) is escaped, never markup.
func TestHTMLEscapesRunText(t *testing.T) {
	r := build(synthetic(200, 4))
	if len(r.Findings) == 0 || len(r.Timelines) == 0 {
		t.Fatal("the synthetic run has no finding with a timeline")
	}
	r.Findings[r.Timelines[0].Finding].Object = `<b id="injected">x</b>`
	s, doc := writePage(t, r)
	if strings.Contains(s, `<b id="injected">`) || hasID(doc, "injected") {
		t.Fatal("a finding's object went into the page as markup")
	}
	if !strings.Contains(s, "&lt;b id=") {
		t.Fatal("a finding's object is not on the page, escaped")
	}
}
