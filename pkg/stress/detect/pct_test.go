package detect

import "testing"

func TestPct(t *testing.T) {
	for f, want := range map[float64]string{0.995: "99.5%", 0.999: "99.9%", 0.9995: "99.95%", 0.5: "50%", 1: "100%", 0: "0%", 0.12345: "12.35%"} {
		if got := Pct(f); got != want {
			t.Errorf("Pct(%v) = %s, want %s", f, got, want)
		}
	}
}
