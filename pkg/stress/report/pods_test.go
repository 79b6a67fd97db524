package report

import (
	"strings"
	"testing"
)

func TestPodLinesWarnOfAStarvedPod(t *testing.T) {
	n := func(v int) *int { return &v }
	r := &Report{Targets: []Target{
		{URL: "http://127.0.0.1:1", Pod: "web-a", Requests: n(500)},
		{URL: "http://127.0.0.1:2", Pod: "web-b", Requests: n(450)},
		{URL: "http://127.0.0.1:3", Pod: "web-c", Requests: n(100)},
		{URL: "http://127.0.0.1:4", Pod: "web-d", Requests: n(20), Gone: true},
		{URL: "http://127.0.0.1:5", Pod: "web-e", Requests: n(30), Added: true},
	}}
	lines := strings.Join(r.PodLines(), "\n")
	for _, want := range []string{"pod web-a: 500 requests", "pod web-d: 20 requests (let go", "pod web-e: 30 requests (taken in", "WARN pod web-c got 100 requests, under half of its even share (350)"} {
		if !strings.Contains(lines, want) {
			t.Errorf("PodLines lack %q:\n%s", want, lines)
		}
	}
	if strings.Count(lines, "WARN") != 1 {
		t.Errorf("want one WARN (web-c; the pods gone or taken in mid-run are not judged):\n%s", lines)
	}
	if livePods(r) != 4 {
		t.Errorf("livePods %d, want 4 (web-d was let go)", livePods(r))
	}
}
