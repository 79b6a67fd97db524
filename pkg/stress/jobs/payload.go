package jobs

import (
	"encoding/json"
	"fmt"

	"github.com/osctl/osctl/pkg/stress"
	"github.com/osctl/osctl/pkg/stress/profile"
)

// loadSeen is what following the jobs saw (stress.Load.Payload): Refused is set when the
// service refused the token during the load.
type loadSeen struct {
	Jobs    profile.JobsSummary `json:"jobs"`
	Refused *profile.AuthError  `json:"refused,omitempty"`
}

func (s loadSeen) payload() json.RawMessage {
	b, _ := json.Marshal(s) // plain counts and strings: it always encodes
	return b
}

// seenOf reads what the load saw from l (nothing: the zero loadSeen).
func seenOf(l *stress.Load) (loadSeen, error) {
	var s loadSeen
	if l == nil || len(l.Payload) == 0 {
		return s, nil
	}
	err := json.Unmarshal(l.Payload, &s)
	return s, err
}

// MergeLoad implements stress.LoadMerger: the load workers' counts add up; the first refusal
// stands.
func (Profile) MergeLoad(parts []json.RawMessage) (json.RawMessage, error) {
	var all loadSeen
	for _, b := range parts {
		var s loadSeen
		if err := json.Unmarshal(b, &s); err != nil {
			return nil, fmt.Errorf("the jobs followed: %v", err)
		}
		j := s.Jobs
		all.Jobs.Followed += j.Followed
		all.Jobs.Ended += j.Ended
		all.Jobs.Gone += j.Gone
		all.Jobs.NotFinished += j.NotFinished
		all.Jobs.Requeued += j.Requeued
		all.Jobs.Replayed += j.Replayed
		if all.Refused == nil {
			all.Refused = s.Refused
		}
	}
	return all.payload(), nil
}
