package report_test

import (
	"strings"
	"testing"
	"time"

	"github.com/osctl/osctl/pkg/nemesis"
)

// TestHTMLFaults: a run with faults gets a faults table, one row each, and a dashed mark on the
// in-flight plot per injection and pause end; a run without faults has neither.
func TestHTMLFaults(t *testing.T) {
	r := build(synthetic(300, 3))
	s, doc := writePage(t, r)
	if hasID(doc, "faults") {
		t.Fatal("a run without faults has a faults table")
	}
	plain := strings.Count(s, "stroke-dasharray")
	at := r.OverTime.Began.Add(time.Second)
	r.Faults = []nemesis.Fault{
		{Kind: nemesis.KillReplica, At: nemesis.Duration(time.Second), Target: "replica 1 (pid 42)", Outcome: nemesis.Done, Injected: at},
		{Kind: nemesis.PauseReplica, At: nemesis.Duration(2 * time.Second), For: nemesis.Duration(time.Second), Target: "replica 0 (pid 41)", Outcome: nemesis.Done, Injected: at.Add(time.Second), Ended: at.Add(2 * time.Second)},
		{Kind: nemesis.KillReplica, At: nemesis.Duration(time.Hour), Outcome: nemesis.NotInjected},
	}
	s, doc = writePage(t, r)
	if !hasID(doc, "faults") || len(all(doc, "data-kind")) < 3 {
		t.Fatalf("no faults table with a row per fault")
	}
	for _, want := range []string{"kill-replica@1s", "pause-replica@2s&#43;1s", "replica 1 (pid 42)", nemesis.NotInjected} {
		if !strings.Contains(s, want) {
			t.Errorf("the page lacks %q", want)
		}
	}
	if got := strings.Count(s, "stroke-dasharray") - plain; got != 3 {
		t.Errorf("%d dashed fault marks on the page, want 3 (a kill, and a pause's start and end)", got)
	}
}
