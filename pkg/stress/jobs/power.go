package jobs

import (
	"fmt"
	"time"
)

// Power is what a jobs run was able to see (docs/architecture.md, the stress contract, 7). A
// run without findings is conclusive only when its observations could have shown the breaches it
// looks for:
//
//   - A ceiling breach is seen as more than the ceiling C of jobs surely active at once, and a job
//     is surely active only between two observations that both saw it active. The polls place a
//     job's start and end no more finely than one poll cycle: the time from the start of the last
//     observation before a change of state to the end of the first one after it, which grows with
//     the poll interval and with how slowly the service answers. A job shorter than that can pass
//     unseen, and so can a breach made of such jobs. The run shows that its polls resolve the
//     concurrency that matters when they saw C jobs surely active at once for at least one poll
//     cycle: a job more, running alongside them and observed as they were, would have been seen
//     too. A run that never saw the ceiling's worth of jobs active at once for that long cannot
//     tell a service that holds its ceiling from one that runs twice as many jobs.
//   - A stranded job is seen as a job observed queued at two moments further apart than the
//     strand limit, with free capacity seen in between. When one poll cycle is longer than the
//     limit, a job can wait past the limit between two polls without ever being seen queued twice:
//     the run cannot see a stranded job.
type Power struct {
	// CycleS is the run's poll cycle, in seconds: the median over every change of state its job
	// lines show. SlowestReadS is the longest single observation (a status read or a submit).
	CycleS       float64 `json:"poll_cycle_s"`
	SlowestReadS float64 `json:"slowest_read_s"`
	// ReadS is the median time one observation took; PollS the run's --poll.
	ReadS float64 `json:"median_read_s"`
	PollS float64 `json:"poll_s"`
	// Changes is how many changes of state the cycle was measured on.
	Changes int `json:"changes"`
	// MostSeen is the most jobs surely active at once; FullForS the longest stretch, in seconds,
	// during which at least the ceiling's worth were (0 when never).
	MostSeen int     `json:"most_seen_active"`
	FullForS float64 `json:"ceiling_seen_for_s"`
	// SeenActive counts the jobs seen surely active at all (by two observations), of Jobs.
	SeenActive int `json:"jobs_seen_active"`
	Jobs       int `json:"jobs"`
	// StrandLimitS is how long a queued job may wait with capacity free (StrandLimit).
	StrandLimitS float64 `json:"strand_limit_s"`
	// Ceiling and Stranded say whether the run could have seen a breach of the ceiling and a
	// stranded job.
	Ceiling  bool `json:"ceiling"`
	Stranded bool `json:"stranded"`
	// Service is the most jobs of the run the service's own job list shows active at once (0
	// when it was not read), and ServiceAt when.
	Service   int       `json:"service_peak,omitempty"`
	ServiceAt time.Time `json:"service_peak_at,omitzero"`
}

// Reasons says why a run without findings is not conclusive, and what to change: one sentence
// for the ceiling and one for stranded jobs, each only when that rule lacked the power.
func (p Power) Reasons(maxActive int) []string {
	var out []string
	cycle := secs(p.CycleS)
	if !p.Ceiling {
		s := fmt.Sprintf("the polls could not have seen a breach of the ceiling %d: one poll cycle took %s (the slowest status read %s), and they never saw %s surely active at once for that long (at most %d at once; %d of the %d jobs seen active by two polls)",
			maxActive, cycle, secs(p.SlowestReadS), plural(maxActive, "job"), p.MostSeen, p.SeenActive, p.Jobs)
		if p.FullForS > 0 {
			s = fmt.Sprintf("the polls could not have seen a breach of the ceiling %d: one poll cycle took %s (the slowest status read %s), and they saw %s surely active at once for only %s",
				maxActive, cycle, secs(p.SlowestReadS), plural(maxActive, "job"), secs(p.FullForS))
		}
		if p.Service > maxActive {
			s += fmt.Sprintf("; the service's own job list shows %d jobs of the run active at once at %s", p.Service, p.ServiceAt.Format(time.RFC3339Nano))
		}
		out = append(out, s+": "+p.CeilingRemedy())
	}
	if !p.Stranded {
		if p.Changes == 0 {
			out = append(out, "no job was seen changing state: the run cannot say whether a job was left queued")
		} else {
			out = append(out, fmt.Sprintf("one poll cycle (%s) is longer than the strand limit (%s: {Grace}, {DispatchInterval} and {Poll}), so a job could wait past the limit between two polls unseen: poll less often or send fewer requests so that the service answers faster, or raise {Grace}",
				cycle, secs(p.StrandLimitS)))
		}
	}
	return out
}

// CeilingRemedy says how to give a run the power to see a breach of the ceiling. When the cycle is
// mostly the poll interval (reads are quick), polling more often shortens it; when it is mostly
// the reads (the service answers slowly under the polls), polling less often does.
func (p Power) CeilingRemedy() string {
	poll := "poll less often ({Poll}) so that the service answers faster"
	if p.PollS > 0 && p.ReadS*2 < p.PollS {
		poll = fmt.Sprintf("poll more often ({Poll} %s: status reads take %s here)", secs(p.PollS/4), secs(p.ReadS))
	}
	return fmt.Sprintf("make each job run longer than two poll cycles (%s here), send more requests, or %s", secs(2*p.CycleS), poll)
}

func secs(s float64) string {
	return (time.Duration(s * float64(time.Second))).Round(10 * time.Millisecond).String()
}

// Line is the power in one line, for a summary table.
func (p Power) Line(maxActive int) string {
	s := fmt.Sprintf("at most %s surely active at once (ceiling %d)", plural(p.MostSeen, "job"), maxActive)
	if p.FullForS > 0 {
		s += fmt.Sprintf(", %d or more for %s", maxActive, secs(p.FullForS))
	}
	s += fmt.Sprintf("; %d of %d jobs seen active by two polls; poll cycle %s, slowest read %s", p.SeenActive, p.Jobs, secs(p.CycleS), secs(p.SlowestReadS))
	if p.Service > 0 {
		s += fmt.Sprintf("; the service's job list: %d at once", p.Service)
	}
	return s
}
