package detect

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/osctl/osctl/pkg/redact"
	"github.com/osctl/osctl/pkg/stress/history"
	"github.com/osctl/osctl/pkg/stress/snapshot"
	"github.com/osctl/osctl/pkg/stress/verdict"
)

// Verdicts.
const (
	Clean        = "clean"
	Races        = "races"
	Inconclusive = "inconclusive"
)

// Options are the judgement's parameters.
type Options struct {
	// Ignore lists base-name globs of files the app itself generates. Nil means DefaultIgnore.
	Ignore []string
	// Thresholds are the verdict's (OptionsOf reads a run's own). A MaxActive or Grace of 0
	// takes the history header's, and a Grace of 0 there verdict.DefaultGrace.
	verdict.Thresholds
	// Partial marks a run cut short (Ctrl-C, error rate); nil takes the history footer's.
	Partial *bool
	// Settled reports whether the state was read after the target settled; nil takes the footer's.
	Settled *bool
	// Load, when given, are the attacker's own counts of the load requests (the http profile keeps
	// no records unless a history is written); otherwise the history's records are counted.
	Load *LoadCounts
	// Transport, with Load, counts the load requests that got no answer and the first one's error
	// (otherwise they are read from the records): an inconclusive run says what they got.
	Transport TransportFailures
	// IgnorePower judges a jobs run as if its polls could have seen every breach (JobsPower): the
	// verdict before the power rule, for mutation tests and comparisons. osctl never sets it.
	IgnorePower bool
	// Rules are the run's profile's own part of the verdict (nil: the shared part alone).
	Rules Rules
}

// LoadCounts are load requests by outcome.
type LoadCounts struct {
	Total, Acknowledged, Rejected, Ambiguous int
}

// TransportFailures are the load requests that got no answer (transport errors or timeouts).
type TransportFailures struct {
	Count int64
	First string
}

// OptionsOf returns the thresholds and settings a run used, from its history's header: what
// `osctl stress judge` applies unless a flag of its own overrides one.
func OptionsOf(h *history.History) Options {
	return Options{Ignore: h.Header.Ignore, Thresholds: h.Header.Thresholds}
}

// Pct formats a fraction as a percentage precise enough to tell 99.5% from 99.9% (and 99.95%):
// at most two decimals, trailing zeros dropped.
func Pct(f float64) string {
	s := strconv.FormatFloat(100*f, 'f', 2, 64)
	s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	return s + "%"
}

// Judgement is the verdict of one run.
type Judgement struct {
	Verdict      string         `json:"verdict"` // clean | races | inconclusive
	Conclusive   bool           `json:"conclusive"`
	Partial      bool           `json:"partial"`
	Settled      bool           `json:"settled"`
	Reasons      []string       `json:"reasons,omitempty"`
	Load         int            `json:"load_requests"`
	Acknowledged int            `json:"acknowledged"`
	AckFraction  float64        `json:"acknowledged_fraction"`
	Outcomes     map[string]int `json:"outcomes"`
	Operations   []OpStats      `json:"operations,omitempty"`
	Counts       map[string]int `json:"finding_counts"`
	Findings     []Finding      `json:"findings"`
	// Part is the profile's own part of the verdict, as its Rules measured it (its contention,
	// its extractions, what its polls could see): the report carries it as the profile's part
	// (report.Part), whose JSON fields are the report's own.
	Part any `json:"-"`
	// Active are the stretches during which the run's objects were surely active (its jobs'),
	// which the report's timelines draw.
	Active []Span `json:"-"`
	// Thresholds are the ones this verdict applied.
	Thresholds Thresholds `json:"thresholds"`
}

// Thresholds are what a clean verdict needed (0: no requirement), and the jobs ceiling.
type Thresholds struct {
	MinAcknowledged float64 `json:"min_acknowledged"`
	MinContended    float64 `json:"min_contended,omitempty"`
	MaxActive       int     `json:"max_active,omitempty"`
}

// Judge gives the verdict of a run from its history and the state it left (for a profile whose
// objects are files; nil: not read, and o.Rules say what that leaves unjudged).
func Judge(h *history.History, st *snapshot.State, o Options) Judgement {
	o = o.withRunDefaults(h)
	j := Judgement{Outcomes: map[string]int{}, Counts: map[string]int{}, Findings: []Finding{},
		Thresholds: Thresholds{MinAcknowledged: o.MinAcknowledged, MinContended: o.MinContended, MaxActive: o.MaxActive}}
	j.Partial, j.Settled = runEnded(h, o)
	tr := o.Transport
	if o.Load != nil {
		j.Load, j.Acknowledged = o.Load.Total, o.Load.Acknowledged
		j.Outcomes = map[string]int{history.Acknowledged: o.Load.Acknowledged, history.Rejected: o.Load.Rejected, history.Ambiguous: o.Load.Ambiguous}
	} else {
		tr = countLoad(h, &j)
	}
	if j.Load > 0 {
		j.AckFraction = float64(j.Acknowledged) / float64(j.Load)
	}
	k := h.Header.Kind()
	if o.Rules != nil {
		j.Findings = append(j.Findings, o.Rules.Findings(h, st, o, &j)...)
	}
	for _, f := range j.Findings {
		j.Counts[f.Kind]++
	}
	if k.Records {
		j.Operations = Operations(h)
	}
	unsafe := excludedReasons(h, o.Rules)
	if len(j.Findings) > 0 {
		j.Verdict, j.Conclusive = Races, true
		if u := unstoppedWorkers(h); len(u) > 0 {
			j.Verdict, j.Conclusive = Inconclusive, false
			j.Reasons = append(j.Reasons, u...)
		}
		j.Reasons = append(j.Reasons, unsafe...)
		if !j.Settled && k.Files {
			j.Reasons = append(j.Reasons, "the state was read before it settled: some findings may be work still in progress")
		}
	} else {
		j.Verdict, j.Conclusive = Clean, true
		if j.Reasons = append(unsafe, unearned(h, st, o, &j)...); len(j.Reasons) > 0 {
			j.Verdict, j.Conclusive = Inconclusive, false
			if tr.Count > 0 && tr.First != "" {
				j.Reasons = append(j.Reasons, fmt.Sprintf("%d requests got no answer (transport errors or timeouts); the first: %s", tr.Count, redact.Text(tr.First)))
			}
		}
	}
	sort.SliceStable(j.Findings, func(a, b int) bool { return j.Findings[a].Kind < j.Findings[b].Kind })
	return j
}

// unstoppedWorkers says which load workers were lost with their process possibly still sending
// requests that no history holds: such requests can explain any finding, so none is proof.
func unstoppedWorkers(h *history.History) []string {
	if h.Footer == nil {
		return nil
	}
	var out []string
	for _, w := range h.Footer.LoadWorkers {
		if w.Unstopped {
			out = append(out, fmt.Sprintf("load worker %d (pod %s) was lost with no exit status while its pod was still there: its process may have sent requests that no history holds, which could explain the findings; run again", w.Index, w.Pod))
		}
	}
	return out
}

// excludedReasons say which requests the rules left out of the verdict (Excluder).
func excludedReasons(h *history.History, r Rules) []string {
	x, ok := r.(Excluder)
	if !ok {
		return nil
	}
	var out []string
	for _, u := range x.Excluded(h) {
		out = append(out, "left out of the verdict, its files not read: "+u)
	}
	return out
}

// withRunDefaults fills what o leaves unset from the run's own header: its ignore list, grace
// and ceiling.
func (o Options) withRunDefaults(h *history.History) Options {
	if o.Ignore == nil {
		o.Ignore = h.Header.Ignore
		if o.Ignore == nil {
			o.Ignore = DefaultIgnore
		}
	}
	if o.Grace == 0 {
		o.Grace = h.Header.Grace
	}
	if o.MaxActive == 0 {
		o.MaxActive = h.Header.MaxActive
	}
	return o
}

// runEnded says whether the run was partial and settled: as o says, else as its footer does (a
// history without one was cut, so partial).
func runEnded(h *history.History, o Options) (partial, settled bool) {
	switch {
	case o.Partial != nil:
		partial = *o.Partial
	case h.Footer != nil:
		partial = h.Footer.Partial
	default:
		partial = true // the history was cut: the run did not end
	}
	switch {
	case o.Settled != nil:
		settled = *o.Settled
	case h.Footer != nil:
		settled = h.Footer.Settled
	}
	return partial, settled
}

// unearned says why a run without findings has not earned a clean verdict (none: it has).
func unearned(h *history.History, st *snapshot.State, o Options, j *Judgement) []string {
	var out []string
	if j.Partial {
		out = append(out, "the run was cut short (partial)")
	}
	if j.Load == 0 {
		out = append(out, "no load request was sent")
	} else if j.AckFraction < o.MinAcknowledged {
		out = append(out, fmt.Sprintf("only %s of requests were acknowledged (at least %s needed)", Pct(j.AckFraction), Pct(o.MinAcknowledged)))
	}
	if o.Rules != nil {
		out = append(out, o.Rules.Unearned(h, st, o, j)...)
	}
	return out
}

// countLoad counts the history's load requests by outcome into j, and returns those that got no
// answer.
func countLoad(h *history.History, j *Judgement) TransportFailures {
	var tr TransportFailures
	for i := range h.Records {
		r := &h.Records[i]
		if r.Kind != history.KindRequest || r.Setup {
			continue
		}
		j.Load++
		j.Outcomes[r.Outcome]++
		if r.Applied() {
			j.Acknowledged++
		}
		if r.Error != "" && r.Status == 0 {
			tr.Count++
			if tr.First == "" {
				tr.First = r.Error
			}
		}
	}
	return tr
}
