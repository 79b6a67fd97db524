package history

import "time"

// The states of an elb-openapi job (jobs profile) that a status poll reads.
var (
	ActiveStates   = map[string]bool{"dispatching": true, "submitting": true, "running": true}
	TerminalStates = map[string]bool{"completed": true, "failed": true, "cancelled": true}
)

// KnownState says whether s is one of elb-openapi's job states: queued, active or terminal.
func KnownState(s string) bool { return ActiveStates[s] || TerminalStates[s] || s == "queued" }

// AddPoll records one status poll of the job r follows, sent at s and answered at e, that saw
// state and phase: it extends the last run of polls when that saw the same, else starts one.
func (r *Record) AddPoll(state, phase string, s, e time.Time) {
	if n := len(r.Runs); n > 0 && r.Runs[n-1].State == state && r.Runs[n-1].Phase == phase {
		last := &r.Runs[n-1]
		last.Polls++
		last.LastStart, last.LastEnd = s, e
		return
	}
	r.Runs = append(r.Runs, StateRun{State: state, Phase: phase, Polls: 1, FirstStart: s, FirstEnd: e, LastStart: s, LastEnd: e})
}
