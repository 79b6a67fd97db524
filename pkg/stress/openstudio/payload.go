package openstudio

import (
	"encoding/json"
	"fmt"
	"sort"

	"github.com/osctl/osctl/pkg/stress"
	"github.com/osctl/osctl/pkg/stress/history"
)

// loadSeen is what the openstudio load saw (stress.Load.Payload): how its held-back parts waited
// for the target's background workers.
type loadSeen struct {
	BackgroundWaits []history.BackgroundWait `json:"background_waits,omitempty"`
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

// MergeLoad implements stress.LoadMerger: the load workers' held-back parts, in the order they
// began.
func (Profile) MergeLoad(parts []json.RawMessage) (json.RawMessage, error) {
	var all loadSeen
	for _, b := range parts {
		var s loadSeen
		if err := json.Unmarshal(b, &s); err != nil {
			return nil, fmt.Errorf("the background waits: %v", err)
		}
		all.BackgroundWaits = append(all.BackgroundWaits, s.BackgroundWaits...)
	}
	sort.SliceStable(all.BackgroundWaits, func(a, b int) bool { return all.BackgroundWaits[a].AtS < all.BackgroundWaits[b].AtS })
	return json.Marshal(all)
}
