package openstudio

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/osctl/osctl/pkg/stress/history"
)

// TestMergeLoadOrdersTheWaitsByStart: the load workers' held-back parts come out in the order
// they began, and parts that began at the same moment keep the workers' order (a stable sort).
func TestMergeLoadOrdersTheWaitsByStart(t *testing.T) {
	part := func(waits ...history.BackgroundWait) json.RawMessage {
		return encode(t, loadSeen{BackgroundWaits: waits})
	}
	w := func(at float64, jobs int) history.BackgroundWait {
		return history.BackgroundWait{AtS: at, JobsRan: jobs}
	}
	b, err := Profile{}.MergeLoad([]json.RawMessage{part(w(2, 1), w(5, 1)), part(w(1, 2), w(2, 2)), part(w(2, 3))})
	if err != nil {
		t.Fatal(err)
	}
	var got loadSeen
	if err := json.Unmarshal(b, &got); err != nil {
		t.Fatal(err)
	}
	want := []history.BackgroundWait{w(1, 2), w(2, 1), w(2, 2), w(2, 3), w(5, 1)}
	if !reflect.DeepEqual(got.BackgroundWaits, want) {
		t.Errorf("merged %+v, want %+v", got.BackgroundWaits, want)
	}
}

// encode is a load worker's part as its Loader.Finish writes it.
func encode(t *testing.T, s loadSeen) json.RawMessage {
	t.Helper()
	b, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
