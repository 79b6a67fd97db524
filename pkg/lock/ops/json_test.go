package ops

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/osctl/osctl/pkg/lock"
)

// TestViewJSONMatchesReflection checks the hand-written encoder against encoding/json's own
// encoding of the same struct (through a type without the MarshalJSON method).
func TestViewJSONMatchesReflection(t *testing.T) {
	h := lock.NewHolder("web-0")
	views := []View{
		{},
		{Key: "redlock:a:b", Type: "string", Value: "v<&>\"\\\x01\xff", Flavour: FlavourOsctl, Holder: &h, AnalysisID: "a", Step: "b",
			Held: 2, Masters: 3, Quorum: true, ReadAtUnixMs: 12,
			Holdings: []Holding{{Master: "redis://:xxxxx@h:1", Present: true, Type: "string", Value: "é", TTLMillis: 5}, {Master: "m", Node: "10.0.0.1:6379", TTLMillis: -2, Error: "down"}},
			Verdict:  Verdict{StatusLive, RuleLive, "ok\n"}},
		{Key: "k\xff", KeyQuoted: `"k\xff"`, ValueQuoted: "q", Holdings: []Holding{}},
	}
	type plain View
	for _, v := range views {
		got, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		want, _ := json.Marshal(plain(v))
		var g, w any
		if err := json.Unmarshal(got, &g); err != nil {
			t.Fatalf("invalid JSON %s: %v", got, err)
		}
		_ = json.Unmarshal(want, &w)
		if !reflect.DeepEqual(g, w) || string(got) != string(want) {
			t.Errorf("got  %s\nwant %s", got, want)
		}
	}
}
