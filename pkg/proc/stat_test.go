package proc

import "testing"

func TestParseStatReadsAfterTheLastParen(t *testing.T) {
	for _, tc := range []struct {
		line  string
		state string
		ppid  int
	}{
		{"4242 (sleep) S 17 4242 17 0 -1", "S", 17},
		{"99 (a (b) c) T 1 99 99 0", "T", 1},
		{"7 (we ird) Z 3", "Z", 3},
	} {
		st, err := parseStat(tc.line)
		if err != nil || st.State != tc.state || st.PPid != tc.ppid {
			t.Errorf("parseStat(%q) = %+v, %v; want state %s, ppid %d", tc.line, st, err, tc.state, tc.ppid)
		}
	}
	for _, bad := range []string{"", "12 (x", "12 (x) S", "12 (x) S p"} {
		if st, err := parseStat(bad); err == nil {
			t.Errorf("parseStat(%q) = %+v, want an error", bad, st)
		}
	}
}
