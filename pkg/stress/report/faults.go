package report

import (
	"fmt"
	"time"
)

// FaultLines are the terminal summary's lines for the run's faults (osctl stress --nemesis):
// "fault kill-replica@1s: done (replica 2 (pid 4242))", then the seed of the choice of targets,
// the settings they name as NameSettings asked.
func (r *Report) FaultLines() []string {
	var out []string
	for _, f := range r.Faults {
		line := fmt.Sprintf("fault %s: %s", f, f.Outcome)
		if f.Target != "" {
			line += " (" + f.Target + ")"
		}
		if l := f.Lock; l != nil {
			line += fmt.Sprintf(", holder of %s (%s, held %v)", l.Key, l.Holder, time.Duration(l.HeldFor).Round(time.Millisecond))
		}
		if in := f.InFlight; in != nil {
			line += fmt.Sprintf("; caught %d request(s) in flight on %s: %d ambiguous, %d acknowledged, %d rejected", in.Requests, in.Scope, in.Ambiguous, in.Acknowledged, in.Rejected)
		}
		out = append(out, line)
	}
	if len(out) > 0 && r.NemesisSeed != 0 {
		out = append(out, fmt.Sprintf("faults' targets chosen with seed %d ({Nemesis.Seed} repeats them)", r.NemesisSeed))
	}
	out = append(out, r.Leftovers.Lines(leftoversShown)...)
	for i := range out {
		out[i] = r.named(out[i])
	}
	return out
}

// leftoversShown is how many leftovers of each kind the summary names.
const leftoversShown = 5
