package sandbox

import (
	"sort"
	"sync"
	"time"
)

// Request log bounds: 100 ms buckets over the last 10 minutes.
const (
	requestBucket = 100 * time.Millisecond
	requestWindow = 10 * time.Minute
)

// requestLog counts the job API's requests in time buckets, so that a test can tell how hard a
// client polls (the real service stalls when it is polled too often).
type requestLog struct {
	mu      sync.Mutex
	total   int64
	buckets map[int64]int64 // bucket start, unix ms -> requests
}

func (l *requestLog) add(t time.Time) {
	b := t.Truncate(requestBucket).UnixMilli()
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.buckets == nil {
		l.buckets = map[int64]int64{}
	}
	l.total++
	l.buckets[b]++
	if len(l.buckets) > int(requestWindow/requestBucket) {
		cut := t.Add(-requestWindow).UnixMilli()
		for k := range l.buckets {
			if k < cut {
				delete(l.buckets, k)
			}
		}
	}
}

// RequestCounts is the answer of GET /status/requests (sandbox only): how many job API requests
// this replica got, in all and per bucket of BucketMS milliseconds (the last 10 minutes).
type RequestCounts struct {
	Total    int64      `json:"total"`
	BucketMS int64      `json:"bucket_ms"`
	Buckets  [][2]int64 `json:"buckets"` // [start unix ms, requests], oldest first
}

func (l *requestLog) counts() RequestCounts {
	l.mu.Lock()
	defer l.mu.Unlock()
	out := RequestCounts{Total: l.total, BucketMS: requestBucket.Milliseconds(), Buckets: [][2]int64{}}
	for k, n := range l.buckets {
		out.Buckets = append(out.Buckets, [2]int64{k, n})
	}
	sort.Slice(out.Buckets, func(i, j int) bool { return out.Buckets[i][0] < out.Buckets[j][0] })
	return out
}
