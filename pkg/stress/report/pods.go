package report

import "fmt"

// countTargets sets each target's Requests from the per-target breakdown.
func countTargets(r *Report) {
	sent := map[string]int{}
	for _, b := range r.PerTarget {
		sent[b.Name] = b.Sent
	}
	for i := range r.Targets {
		n := sent[TargetLabel(r.Targets[i])]
		r.Targets[i].Requests = &n
	}
}

// livePods counts the distinct pods among the targets that were not let go (osctl stress
// --target-pods); 0 when the targets are no pods.
func livePods(r *Report) int {
	seen := map[string]bool{}
	for _, t := range r.Targets {
		if t.Pod != "" && !t.Gone {
			seen[t.Pod] = true
		}
	}
	return len(seen)
}

// PodLines are the terminal's lines about the pods the load went to (osctl stress
// --target-pods): one per pod with its requests, then a WARN line for each pod that took part
// in the whole load and got under half of its even share of what those pods got (its
// port-forward was slow, or it answered slowly). None when the targets are no pods.
func (r *Report) PodLines() []string {
	var lines []string
	steady, total := 0, 0
	for _, t := range r.Targets {
		if t.Pod == "" {
			continue
		}
		n := count(t.Requests)
		line := fmt.Sprintf("pod %s: %d requests", t.Pod, n)
		switch {
		case t.Gone:
			line += " (let go during the run: no longer ready, or deleted)"
		case t.Added:
			line += " (taken in during the run)"
		default:
			steady++
			total += n
		}
		lines = append(lines, line)
	}
	if steady < 2 {
		return lines
	}
	share := float64(total) / float64(steady)
	for _, t := range r.Targets {
		if t.Pod != "" && !t.Gone && !t.Added && float64(count(t.Requests)) < share/2 {
			lines = append(lines, fmt.Sprintf("WARN pod %s got %d requests, under half of its even share (%.0f): the load did not reach every pod alike", t.Pod, count(t.Requests), share))
		}
	}
	return lines
}

func count(n *int) int {
	if n == nil {
		return 0
	}
	return *n
}
