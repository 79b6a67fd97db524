package report

import (
	"fmt"
	"slices"
	"sort"
	"strings"
)

// Group is the findings of one kind: their indexes in Report.Findings, in order.
type Group struct {
	Kind    string
	Indexes []int
}

// Groups are the findings grouped by kind: the profile's kinds in their order (KindsOf), then any
// other kind by name.
func (r *Report) Groups() []Group {
	by := map[string][]int{}
	for i, f := range r.Findings {
		by[f.Kind] = append(by[f.Kind], i)
	}
	var kinds []string
	for _, k := range KindsOf(r.Profile) {
		if by[k] != nil {
			kinds = append(kinds, k)
		}
	}
	var rest []string
	for k := range by {
		if !slices.Contains(kinds, k) {
			rest = append(rest, k)
		}
	}
	sort.Strings(rest)
	out := make([]Group, 0, len(by))
	for _, k := range append(kinds, rest...) {
		out = append(out, Group{Kind: k, Indexes: by[k]})
	}
	return out
}

// CountsLine is the findings by kind, in the groups' order: "20 mixed, 12 torn, 1 lost".
func (r *Report) CountsLine() string {
	var parts []string
	for _, g := range r.Groups() {
		parts = append(parts, fmt.Sprintf("%d %s", len(g.Indexes), g.Kind))
	}
	return strings.Join(parts, ", ")
}

// Shown picks at most limit findings for a short view, shared among the kinds (each kind in turn
// takes its next finding), and returns them grouped by kind.
func (r *Report) Shown(limit int) []Group {
	gs := r.Groups()
	out := make([]Group, len(gs))
	for i, g := range gs {
		out[i].Kind = g.Kind
	}
	for n, round := 0, 0; n < limit; round++ {
		took := false
		for i, g := range gs {
			if n < limit && round < len(g.Indexes) {
				out[i].Indexes = append(out[i].Indexes, g.Indexes[round])
				n, took = n+1, true
			}
		}
		if !took {
			break
		}
	}
	return out
}

// FindingColumns are the columns of FindingRows.
var FindingColumns = []string{"KIND", "OBJECT", "PATH", "EXPECTED", "GOT", "REQUESTS"}

// FindingRows are the rows of the findings table of a short view: the findings Shown picks,
// grouped by kind; the first row of a kind gives the kind's count ("torn (12)"). A row names the
// finding's first path (and how many more) and the requests it names.
func (r *Report) FindingRows(limit int) [][]string {
	var out [][]string
	counts := map[string]int{}
	for _, f := range r.Findings {
		counts[f.Kind]++
	}
	for _, g := range r.Shown(limit) {
		for k, i := range g.Indexes {
			kind := g.Kind
			if k == 0 {
				kind = fmt.Sprintf("%s (%d)", g.Kind, counts[g.Kind])
			}
			f := r.Findings[i]
			out = append(out, []string{kind, f.Object, pathCell(f.Paths), f.Expected, f.Got, requestsCell(f)})
		}
	}
	return out
}

func pathCell(paths []string) string {
	if len(paths) == 0 {
		return ""
	}
	if len(paths) > 1 {
		return fmt.Sprintf("%s (+%d)", paths[0], len(paths)-1)
	}
	return paths[0]
}
