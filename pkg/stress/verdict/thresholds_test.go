package verdict_test

import (
	"bytes"
	"encoding/json"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/osctl/osctl/pkg/setting"
	"github.com/osctl/osctl/pkg/stress/history"
	"github.com/osctl/osctl/pkg/stress/verdict"
)

func TestDefaults(t *testing.T) {
	d := verdict.Defaults()
	want := verdict.Thresholds{MinAcknowledged: 0.5, MinContended: 0.5, Grace: verdict.Duration(time.Second)}
	if d != want {
		t.Fatalf("Defaults() = %+v, want %+v", d, want)
	}
	if err := d.Check(); err != nil {
		t.Fatalf("the defaults do not pass Check: %v", err)
	}
	if g := (verdict.Thresholds{}).StrandGrace(); g != verdict.DefaultGrace {
		t.Errorf("a Grace of 0 is %s, want the default %s", g, verdict.DefaultGrace)
	}
	if g := (verdict.Thresholds{Grace: verdict.Duration(3 * time.Second)}).StrandGrace(); g != 3*time.Second {
		t.Errorf("a Grace of 3s is %s", g)
	}
}

func TestCheck(t *testing.T) {
	for _, c := range []struct {
		field  string
		th     verdict.Thresholds
		reason string
	}{
		{"MinAcknowledged", verdict.Thresholds{MinAcknowledged: 1.5}, "1.5: use a fraction between 0 and 1"},
		{"MinAcknowledged", verdict.Thresholds{MinAcknowledged: -0.1}, "-0.1: use a fraction between 0 and 1"},
		{"MinContended", verdict.Thresholds{MinContended: 2}, "2: use a fraction between 0 and 1"},
		{"Grace", verdict.Thresholds{Grace: verdict.Duration(-time.Second)}, "-1s: must be 0 or more"},
		{"MaxActive", verdict.Thresholds{MaxActive: -1}, "-1: must be 0 (the sandbox's) or more"},
	} {
		err := c.th.Check()
		se, ok := setting.As(err)
		if !ok || se.Name != c.field || se.Reason != c.reason {
			t.Errorf("%+v: Check() = %v, want a setting error naming %s: %s", c.th, err, c.field, c.reason)
			continue
		}
		// One line, the field named as its reader knows it.
		if msg := se.Render(func(n string) string { return "--" + strings.ToLower(n) }); strings.Contains(msg, "\n") || !strings.HasPrefix(msg, "--"+strings.ToLower(c.field)+" ") {
			t.Errorf("rendered: %q", msg)
		}
	}
	for _, ok := range []verdict.Thresholds{{}, {MinAcknowledged: 1, MinContended: 1, MaxActive: 3, Grace: verdict.Duration(time.Minute)}} {
		if err := ok.Check(); err != nil {
			t.Errorf("%+v: %v", ok, err)
		}
	}
}

func TestOverrides(t *testing.T) {
	run := verdict.Thresholds{MinAcknowledged: 0.5, MinContended: 0.25, MaxActive: 4, Grace: verdict.Duration(2 * time.Second)}
	if got := (verdict.Overrides{}).Apply(run); got != run {
		t.Errorf("no override changed the run's thresholds: %+v", got)
	}
	ack, grace, maxActive := 0.9, 5*time.Second, 7
	got := verdict.Overrides{MinAcknowledged: &ack, Grace: &grace, MaxActive: &maxActive}.Apply(run)
	want := verdict.Thresholds{MinAcknowledged: 0.9, MinContended: 0.25, MaxActive: 7, Grace: verdict.Duration(5 * time.Second)}
	if got != want {
		t.Errorf("Apply = %+v, want %+v", got, want)
	}
	bad := 1.5
	if se, ok := setting.As(verdict.Overrides{MinContended: &bad}.Check()); !ok || se.Name != "MinContended" {
		t.Errorf("an override of MinContended 1.5 passed: %v", se)
	}
	if err := (verdict.Overrides{MinAcknowledged: &ack}).Check(); err != nil {
		t.Errorf("a good override: %v", err)
	}
}

// TestHeaderBefore: headers written before Thresholds existed (testdata/headers-before.jsonl,
// from the code of a59607d: a jobs run with every threshold, an openstudio run) read into the
// same values, and are written again byte for byte.
func TestHeaderBefore(t *testing.T) {
	b, err := os.ReadFile("testdata/headers-before.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	lines := bytes.Split(bytes.TrimSpace(b), []byte("\n"))
	want := []verdict.Thresholds{
		{MaxActive: 3, MinAcknowledged: 0.25, MinContended: 0.75, Grace: verdict.Duration(1500 * time.Millisecond)},
		{MinAcknowledged: 0.5},
	}
	if len(lines) != len(want) {
		t.Fatalf("%d headers in the sample, want %d", len(lines), len(want))
	}
	for i, line := range lines {
		var h history.Header
		if err := json.Unmarshal(line, &h); err != nil {
			t.Fatalf("header %d: %v", i, err)
		}
		if h.Thresholds != want[i] {
			t.Errorf("header %d read as %+v, want %+v", i, h.Thresholds, want[i])
		}
		again, err := json.Marshal(h)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(again, line) {
			t.Errorf("header %d written again differs:\n got %s\nwant %s", i, again, line)
		}
	}
	if h := readHeader(t, `{"grace":"1 minute"}`); h != nil {
		t.Errorf("a grace that is no duration read as %s", h.Grace)
	}
}

func readHeader(t *testing.T, s string) *history.Header {
	t.Helper()
	var h history.Header
	if err := json.Unmarshal([]byte(s), &h); err != nil {
		if !strings.Contains(err.Error(), `"1 minute": not a duration`) {
			t.Errorf("the error does not say what was wrong: %v", err)
		}
		return nil
	}
	return &h
}
