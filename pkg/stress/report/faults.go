package report

import "fmt"

// FaultLines are the terminal summary's lines for the run's faults (osctl stress --nemesis):
// "fault kill-replica@1s: done (replica 2 (pid 4242))".
func (r *Report) FaultLines() []string {
	var out []string
	for _, f := range r.Faults {
		line := fmt.Sprintf("fault %s: %s", f, f.Outcome)
		if f.Target != "" {
			line += " (" + f.Target + ")"
		}
		out = append(out, line)
	}
	return out
}
