package history

import (
	"encoding/json"
	"os"
	"reflect"
	"sort"
	"testing"
)

// TestRecordLineAsOnMain reads a request line with every field of Record set, as the record was
// written before the profiles' fields moved into Upload and JobFollow (testdata/record_main.json,
// written by main's flat Record), and writes it again: the same keys with the same values.
func TestRecordLineAsOnMain(t *testing.T) {
	line, err := os.ReadFile("testdata/record_main.json")
	if err != nil {
		t.Fatal(err)
	}
	var r Record
	if err := json.Unmarshal(line, &r); err != nil {
		t.Fatal(err)
	}
	if r.Analysis != "a1" || r.Found != true || len(r.Jobs) != 1 || r.Manifest[0].Size != 3 ||
		r.Job != "j1" || r.Runs[0].Polls != 2 || !r.Replay.Existing || r.KeySource != "ks1" || *r.Listed.RunSeconds != 7 {
		t.Fatalf("the profiles' fields did not read back: %+v", r)
	}
	again, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	var want, got map[string]any
	if err := json.Unmarshal(line, &want); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(again, &got); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(keys(got), keys(want)) {
		t.Fatalf("keys differ:\n got %v\nwant %v", keys(got), keys(want))
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("values differ:\n got %s\nwant %s", again, line)
	}
}

// TestRecordZeroOmitsProfiles checks that the embedded profiles' fields keep their omitempty: a
// line of one profile holds none of the other's keys.
func TestRecordZeroOmitsProfiles(t *testing.T) {
	b, err := json.Marshal(Record{Kind: KindRequest})
	if err != nil {
		t.Fatal(err)
	}
	if string(b) != `{"kind":"request"}` {
		t.Fatalf("zero record wrote %s", b)
	}
}

func keys(m map[string]any) []string {
	var ks []string
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}
