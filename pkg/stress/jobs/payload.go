package jobs

import (
	"encoding/json"

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

// MergeLoad implements stress.LoadMerger: the load workers' counts add up; the first refusal
// stands.
func (Profile) MergeLoad(parts []json.RawMessage) (json.RawMessage, error) {
	return stress.MergePayloads(parts, "the jobs followed", func(all *loadSeen, s loadSeen) {
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
	})
}
