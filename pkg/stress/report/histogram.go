package report

import (
	"math"

	"github.com/HdrHistogram/hdrhistogram-go"
)

// Buckets folds an HDR histogram recorded in microseconds into about perDecade log-spaced bars
// per decade of latency, dropping empty bars at the ends.
func Buckets(h *hdrhistogram.Histogram, perDecade int) []Bucket {
	if h == nil || h.TotalCount() == 0 {
		return nil
	}
	if perDecade <= 0 {
		perDecade = 5
	}
	lo := math.Floor(math.Log10(float64(max(h.Min(), 1))))
	hi := math.Ceil(math.Log10(float64(max(h.Max(), 1)) + 1))
	n := int((hi - lo) * float64(perDecade))
	if n < 1 {
		n = 1
	}
	out := make([]Bucket, n)
	edge := func(i int) float64 { return math.Pow(10, lo+float64(i)/float64(perDecade)) }
	for i := range out {
		out[i] = Bucket{FromMS: edge(i) / 1000, ToMS: edge(i+1) / 1000}
	}
	for _, b := range h.Distribution() {
		if b.Count == 0 {
			continue
		}
		v := float64(max(b.From, 1))
		i := int((math.Log10(v) - lo) * float64(perDecade))
		i = min(max(i, 0), n-1)
		out[i].Count += b.Count
	}
	first, last := 0, len(out)-1
	for first < last && out[first].Count == 0 {
		first++
	}
	for last > first && out[last].Count == 0 {
		last--
	}
	return out[first : last+1]
}
