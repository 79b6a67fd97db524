package stress_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/osctl/osctl/pkg/stress"
)

// counts is a load payload for these tests.
type counts struct {
	N     int      `json:"n"`
	Names []string `json:"names,omitempty"`
}

// TestPayloadOf: no load or no payload is the zero T; a payload reads back; one that does not
// read is an error.
func TestPayloadOf(t *testing.T) {
	for _, l := range []*stress.Load{nil, {}} {
		if c, err := stress.PayloadOf[counts](l); err != nil || c.N != 0 || c.Names != nil {
			t.Errorf("PayloadOf(%+v) = %+v, %v: want the zero value", l, c, err)
		}
	}
	c, err := stress.PayloadOf[counts](&stress.Load{Payload: json.RawMessage(`{"n":3,"names":["a"]}`)})
	if err != nil || c.N != 3 || len(c.Names) != 1 || c.Names[0] != "a" {
		t.Errorf("PayloadOf = %+v, %v", c, err)
	}
	if _, err := stress.PayloadOf[counts](&stress.Load{Payload: json.RawMessage(`{"n":"x"}`)}); err == nil {
		t.Error("a payload that does not read gave no error")
	}
}

// TestMergePayloads: the workers' parts fold in their order; a part that does not read is an
// error naming the payload, and nothing is merged.
func TestMergePayloads(t *testing.T) {
	add := func(all *counts, p counts) {
		all.N += p.N
		all.Names = append(all.Names, p.Names...)
	}
	b, err := stress.MergePayloads([]json.RawMessage{[]byte(`{"n":1,"names":["w1"]}`), []byte(`{"n":2,"names":["w2","w2b"]}`)}, "the counts", add)
	if err != nil {
		t.Fatal(err)
	}
	if string(b) != `{"n":3,"names":["w1","w2","w2b"]}` {
		t.Errorf("merged %s", b)
	}
	b, err = stress.MergePayloads([]json.RawMessage{[]byte(`{"n":1}`), []byte(`[]`)}, "the counts", add)
	if err == nil || !strings.HasPrefix(err.Error(), "the counts: ") || b != nil {
		t.Errorf("a part that does not read: %s, %v; want nothing and an error naming the counts", b, err)
	}
}
