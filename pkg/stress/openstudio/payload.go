package openstudio

import (
	"encoding/json"
	"sort"

	"github.com/osctl/osctl/pkg/stress"
	"github.com/osctl/osctl/pkg/stress/history"
)

// loadSeen is what the openstudio load saw (stress.Load.Payload): how its held-back parts waited
// for the target's background workers.
type loadSeen struct {
	BackgroundWaits []history.BackgroundWait `json:"background_waits,omitempty"`
}

// MergeLoad implements stress.LoadMerger: the load workers' held-back parts, in the order they
// began (a stable sort of each worker's parts added to the sorted ones before).
func (Profile) MergeLoad(parts []json.RawMessage) (json.RawMessage, error) {
	return stress.MergePayloads(parts, "the background waits", func(all *loadSeen, s loadSeen) {
		w := append(all.BackgroundWaits, s.BackgroundWaits...)
		sort.SliceStable(w, func(a, b int) bool { return w[a].AtS < w[b].AtS })
		all.BackgroundWaits = w
	})
}
