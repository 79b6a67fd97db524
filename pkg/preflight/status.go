package preflight

import "sort"

// rank orders statuses from best to worst.
var rank = map[Status]int{Pass: 0, Info: 1, Unknown: 2, Warn: 3, Fail: 4}

// Worse reports whether s is a worse grade than o.
func (s Status) Worse(o Status) bool { return rank[s] > rank[o] }

// Valid reports whether s is one of the five statuses.
func (s Status) Valid() bool { _, ok := rank[s]; return ok }

// Worst returns the worst status among rs, Pass for none.
func Worst(rs []Result) Status {
	w := Pass
	for _, r := range rs {
		if r.Status.Worse(w) {
			w = r.Status
		}
	}
	return w
}

// SortStable orders results worst first, keeping the order of equal grades (each check's own
// order stays readable).
func SortStable(rs []Result) {
	sort.SliceStable(rs, func(i, j int) bool { return rs[i].Status.Worse(rs[j].Status) })
}

// Summary is how a set of results adds up: counts per status and whether anything failed.
type Summary struct {
	Pass    int  `json:"pass"`
	Info    int  `json:"info"`
	Unknown int  `json:"unknown"`
	Warn    int  `json:"warn"`
	Fail    int  `json:"fail"`
	Failed  bool `json:"failed"`
}

// Summarize counts rs.
func Summarize(rs []Result) Summary {
	c := Count(rs)
	return Summary{Pass: c[Pass], Info: c[Info], Unknown: c[Unknown], Warn: c[Warn], Fail: c[Fail], Failed: c[Fail] > 0}
}
