package report

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sync"

	"github.com/osctl/osctl/pkg/stress/detect"
)

// A Part is a run's profile's own part of the report: what its verdict's rules measured (the
// profile's package defines it; detect.Judgement.Part carries it here). Its JSON fields are the
// report's own, at the top level, as if Report had them; the summary shows its rows, and the next
// step asks it first what its measures say.
type Part interface {
	// Rows are its rows of the summary table (the HTML page's too).
	Rows(r *Report) []Row
	// Next is the next step its measures point to for a run whose verdict is not a conclusive
	// clean one ("" none), given the thresholds the verdict applied.
	Next(r *Report, th detect.Thresholds) string
}

// parts make an empty Part of each profile that has one, to decode a report into (RegisterPart).
var (
	partsMu sync.RWMutex
	parts   = map[string]func() Part{}
)

// RegisterPart makes newPart what a report of the profile of that name decodes its part into
// (stress.Register calls it for a profile that has a part). newPart returns a pointer.
func RegisterPart(profile string, newPart func() Part) {
	partsMu.Lock()
	defer partsMu.Unlock()
	parts[profile] = newPart
}

func partOf(profile string) func() Part {
	partsMu.RLock()
	defer partsMu.RUnlock()
	return parts[profile]
}

// plainReport is Report without its JSON methods.
type plainReport Report

// MarshalJSON writes the report with its part's fields spliced in at the top level: the JSON a
// report had when each profile's fields were Report's own.
func (r Report) MarshalJSON() ([]byte, error) {
	b, err := json.Marshal(plainReport(r))
	if err != nil || r.Part == nil {
		return b, err
	}
	pb, err := json.Marshal(r.Part)
	if err != nil {
		return nil, err
	}
	pb = bytes.TrimSpace(pb)
	if len(pb) < 2 || pb[0] != '{' || pb[len(pb)-1] != '}' {
		return nil, fmt.Errorf("the report's part (%T) is not a JSON object", r.Part)
	}
	if len(bytes.TrimSpace(pb[1:len(pb)-1])) == 0 {
		return b, nil // no field of the part is set
	}
	out := make([]byte, 0, len(b)+len(pb))
	out = append(out, b[:len(b)-1]...)
	out = append(out, ',')
	return append(out, pb[1:]...), nil
}

// UnmarshalJSON reads a report, and its part's fields into the part of its profile
// (RegisterPart); a report of a profile without one has none.
func (r *Report) UnmarshalJSON(b []byte) error {
	if err := json.Unmarshal(b, (*plainReport)(r)); err != nil {
		return err
	}
	newPart := partOf(r.Profile)
	if newPart == nil {
		return nil
	}
	p := newPart()
	if err := json.Unmarshal(b, p); err != nil {
		return fmt.Errorf("the report's %s part: %v", r.Profile, err)
	}
	r.Part = p
	return nil
}
