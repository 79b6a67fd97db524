package stressrun

import (
	"testing"

	"github.com/osctl/osctl/pkg/nemesis"
	"github.com/osctl/osctl/pkg/stress/detect"
)

// stuck and noAnswer are the two reasons of an inconclusive run whose killed replica lost a job,
// as a CI run gave them.
const (
	stuck    = `1 analyses have jobs stuck in "queued" that no failure osctl could read explains (fef918e0-000a-4000-8000-000000000005): their extraction failed or never ran, so they were not judged`
	noAnswer = "38 requests got no answer (transport errors or timeouts); the first: unexpected EOF"
)

func TestKillLostAJob(t *testing.T) {
	// run gives a run in which a kill of a replica was done; with replaces its faults.
	kill := nemesis.Fault{Kind: nemesis.KillReplica, Outcome: nemesis.Done}
	run := func(code int, verdict string, findings int, reasons ...string) Result {
		var r Result
		r.Code, r.Rep.Verdict, r.Rep.Reasons = code, verdict, reasons
		r.Rep.Findings = make([]detect.Finding, findings)
		r.Rep.Faults = []nemesis.Fault{kill}
		return r
	}
	with := func(r Result, faults ...nemesis.Fault) Result {
		r.Rep.Faults = faults
		return r
	}
	lost := run(2, "inconclusive", 0, stuck, noAnswer)
	for _, c := range []struct {
		name string
		r    Result
		want bool
	}{
		{"a job lost, requests cut off", lost, true},
		{"a job lost after a kill-holder", with(lost, nemesis.Fault{Kind: nemesis.KillHolder, Outcome: nemesis.Done}), true},
		{"a job lost without a fault", with(lost), false},
		{"a job lost after a pause", with(lost, nemesis.Fault{Kind: nemesis.PauseReplica, Outcome: nemesis.Done}), false},
		{"a job lost after a Redis restart", with(lost, nemesis.Fault{Kind: nemesis.RestartRedis, Outcome: nemesis.Done}), false},
		{"a job lost, the kill due after the load", with(lost, nemesis.Fault{Kind: nemesis.KillReplica, Outcome: nemesis.NotInjected}), false},
		{"a job lost", run(2, "inconclusive", 0, stuck), true},
		{"requests cut off alone", run(2, "inconclusive", 0, noAnswer), false},
		{"another reason beside", run(2, "inconclusive", 0, stuck, "the load was interrupted"), false},
		{"a finding beside", run(2, "inconclusive", 1, stuck), false},
		{"races", run(1, "races", 3, stuck), false},
		{"clean", run(0, "clean", 0), false},
	} {
		if got := KillLostAJob(c.r); got != c.want {
			t.Errorf("%s: KillLostAJob = %v, want %v", c.name, got, c.want)
		}
	}
}
