package attack

import "testing"

func TestParseOutcomeReadsString(t *testing.T) {
	for _, o := range []Outcome{Acknowledged, Rejected, Ambiguous} {
		if got := ParseOutcome(o.String()); got != o {
			t.Errorf("ParseOutcome(%q) = %v, want %v", o.String(), got, o)
		}
	}
	if got := ParseOutcome("something else"); got != Ambiguous {
		t.Errorf("an unknown outcome reads as %v, want ambiguous", got)
	}
}
