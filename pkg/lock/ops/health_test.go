package ops

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	dto "github.com/prometheus/client_model/go"
	"github.com/redis/go-redis/v9"

	"github.com/osctl/osctl/internal/testenv"
	"github.com/osctl/osctl/pkg/lock"
	"github.com/osctl/osctl/pkg/redisconn"
)

// TestCoalescerSharesAScan: callers during a scan get that scan's result; callers within the
// minimum interval of its end get it too; later ones start a new scan.
func TestCoalescerSharesAScan(t *testing.T) {
	release := make(chan struct{})
	var runs atomic.Int64
	var clock atomic.Int64 // seconds
	c := &coalescer{minInterval: 5 * time.Second, now: func() time.Time { return time.Unix(clock.Load(), 0) }}
	c.run = func() LockHealth {
		n := runs.Add(1)
		<-release
		return LockHealth{Scans: uint64(n)}
	}
	const callers = 20
	got := make(chan uint64, callers)
	var wg sync.WaitGroup
	for range callers {
		wg.Add(1)
		go func() { defer wg.Done(); got <- c.get().Scans }()
	}
	testenv.WaitFor(t, 10*time.Second, "19 callers waiting on one scan", func() (bool, error) {
		c.mu.Lock()
		defer c.mu.Unlock()
		return c.waiting == callers-1 && runs.Load() == 1, nil
	})
	close(release)
	wg.Wait()
	close(got)
	for s := range got {
		if s != 1 {
			t.Fatalf("a caller got scan %d, want the shared scan 1", s)
		}
	}
	clock.Add(4)
	if s := c.get().Scans; s != 1 || runs.Load() != 1 {
		t.Fatalf("within the minimum interval: scan %d after %d runs", s, runs.Load())
	}
	clock.Add(1)
	if s := c.get().Scans; s != 2 {
		t.Fatalf("after the minimum interval: scan %d, want a new one", s)
	}
	c.minInterval = 0
	if s := c.get().Scans; s != 3 {
		t.Fatalf("without a minimum interval: scan %d, want a new one", s)
	}
}

func TestKeyPatternAndTop(t *testing.T) {
	for key, want := range map[string]string{
		"redlock:6f1c2e:analysis_zip": "redlock:*:analysis_zip",
		"analysis:7c0f:init_lock":     "analysis:*:init_lock",
		"redlock:plain":               "redlock:*",
		"redlock:\xff:step":           "redlock:*:step",
		"other:key":                   "other",
	} {
		if got := KeyPattern(key, DefaultPatterns); got != want {
			t.Errorf("KeyPattern(%q) = %q, want %q", key, got, want)
		}
	}
	var top []AgedLock
	for i, age := range []int{3, 9, 1, 9, 5} {
		top = addTop(top, 3, AgedLock{Key: fmt.Sprintf("k%d", i), Age: time.Duration(age) * time.Second})
	}
	var keys []string
	for _, l := range top {
		keys = append(keys, fmt.Sprintf("%s=%v", l.Key, l.Age))
	}
	if s := strings.Join(keys, ","); s != "k1=9s,k3=9s,k4=5s" {
		t.Fatalf("top 3: %s", s)
	}
}

// gathered is the metrics of one scrape of a collector, by series.
type gathered map[string]float64

func gather(t *testing.T, c prometheus.Collector) gathered {
	t.Helper()
	reg := prometheus.NewPedanticRegistry()
	reg.MustRegister(c)
	mfs, err := reg.Gather()
	if err != nil {
		t.Fatalf("gather: %v", err)
	}
	out := gathered{}
	for _, mf := range mfs {
		for _, m := range mf.Metric {
			out[series(mf.GetName(), m)] = value(m)
		}
	}
	return out
}

func series(name string, m *dto.Metric) string {
	var ls []string
	for _, l := range m.Label {
		ls = append(ls, fmt.Sprintf("%s=%q", l.GetName(), l.GetValue()))
	}
	sort.Strings(ls)
	return name + "{" + strings.Join(ls, ",") + "}"
}

func value(m *dto.Metric) float64 {
	switch {
	case m.Gauge != nil:
		return m.Gauge.GetValue()
	case m.Counter != nil:
		return m.Counter.GetValue()
	}
	return -1
}

func (g gathered) want(t *testing.T, s string, v float64) {
	t.Helper()
	got, ok := g[s]
	if !ok {
		t.Errorf("no series %s in:\n%s", s, g)
	} else if got != v {
		t.Errorf("%s = %v, want %v", s, got, v)
	}
}

func (g gathered) String() string {
	var ls []string
	for k, v := range g {
		ls = append(ls, fmt.Sprintf("%s %v", k, v))
	}
	sort.Strings(ls)
	return strings.Join(ls, "\n")
}

// TestMonitorMetrics: the collector over three real masters: locks by verdict and flavour,
// minority debris, ages that grow while a lock keeps its value, the audit stream's length,
// and masters going down without the collection failing.
func TestMonitorMetrics(t *testing.T) {
	t.Parallel()
	rs, ms := startMasters(t, 3)
	for i := range ms {
		ms[i].Addr = rs[i].Addr
	}
	ctx := context.Background()
	stale := lock.Key("a1", "analysis_zip")
	if err := ms[0].Client.Set(ctx, stale, "osctl:v1:web-0:7:abc", 0).Err(); err != nil { // no TTL
		t.Fatal(err)
	}
	debris := lock.Key("b2", "analysis_zip")
	if err := ms[2].Client.Set(ctx, debris, "8d6f4f0c-2f7a-4a59-9c43-5a3bd1c7e0aa", time.Minute).Err(); err != nil { // 1 of 3
		t.Fatal(err)
	}
	redlockRbLock(t, ms, "analysis:c3:init_lock", 20000)
	for range 3 {
		if err := ms[1].Client.XAdd(ctx, &redis.XAddArgs{Stream: AuditStream, Values: []string{"who", "test"}}).Err(); err != nil {
			t.Fatal(err)
		}
	}
	var clock atomic.Int64
	clock.Store(time.Now().Unix())
	mon := NewMonitor(ctx, ms, HealthOptions{Top: 2, Inspect: Options{RetryWindow: 50 * time.Millisecond,
		Now: func() time.Time { return time.Unix(clock.Load(), 0) }}})
	col := NewCollector(mon)

	g := gather(t, col)
	g.want(t, `osctl_locks{flavour="osctl",verdict="stale"}`, 1)
	g.want(t, `osctl_locks{flavour="redlock-rb",verdict="stale"}`, 1) // the debris
	g.want(t, `osctl_locks{flavour="redlock-rb",verdict="long-ttl"}`, 0)
	g.want(t, `osctl_locks{flavour="redlock-rb",verdict="live"}`, 1)
	g.want(t, `osctl_locks{flavour="none",verdict="not-a-lock"}`, 0)
	g.want(t, `osctl_lock_minority_debris{}`, 1)
	g.want(t, `osctl_lock_oldest_age_seconds{}`, 0)
	g.want(t, `osctl_lock_stale_age_seconds{pattern="redlock:*:analysis_zip"}`, 0)
	g.want(t, `osctl_lock_scan_success{}`, 1)
	g.want(t, `osctl_lock_scans_total{}`, 1)
	for i, r := range rs {
		g.want(t, fmt.Sprintf(`osctl_redis_up{master=%q,node=%q}`, r.Addr, r.Addr), 1)
		audit := 0.0
		if i == 1 {
			audit = 3
		}
		g.want(t, fmt.Sprintf(`osctl_audit_stream_length{master=%q}`, r.Addr), audit)
		if _, ok := g[fmt.Sprintf(`osctl_redis_rtt_seconds{master=%q,node=%q}`, r.Addr, r.Addr)]; !ok {
			t.Errorf("no RTT of %s", r.Addr)
		}
	}
	// 20 verdict x flavour counts, 3 per master, 4 of the scan, debris, oldest, one stale key
	// pattern and the top 2: nothing per key beyond --top.
	if n := len(g); n != 20+3*3+4+2+1+2 {
		t.Errorf("%d series, want 38:\n%s", n, g)
	}

	// Ten minutes later the same values are ten minutes old; a lock re-taken with a new value
	// is new. The live lock is re-taken by redlock-rb (a new UUID).
	clock.Add(600)
	for _, m := range ms {
		if err := m.Client.Del(ctx, "analysis:c3:init_lock").Err(); err != nil {
			t.Fatal(err)
		}
	}
	redlockRbLock(t, ms, "analysis:c3:init_lock", 20000)
	g = gather(t, col)
	g.want(t, `osctl_lock_oldest_age_seconds{}`, 600)
	g.want(t, `osctl_lock_stale_age_seconds{pattern="redlock:*:analysis_zip"}`, 600)
	g.want(t, `osctl_lock_top_age_seconds{flavour="osctl",key="`+stale+`",rank="1",verdict="stale"}`, 600)
	g.want(t, `osctl_lock_top_age_seconds{flavour="redlock-rb",key="`+debris+`",rank="2",verdict="stale"}`, 600)
	g.want(t, `osctl_lock_scans_total{}`, 2)

	// A master that stops: up 0, the others still read, the collection still answers.
	rs[2].Kill()
	g = gather(t, col)
	g.want(t, fmt.Sprintf(`osctl_redis_up{master=%q,node=%q}`, rs[2].Addr, rs[2].Addr), 0)
	g.want(t, fmt.Sprintf(`osctl_redis_up{master=%q,node=%q}`, rs[0].Addr, rs[0].Addr), 1)
	g.want(t, `osctl_lock_scan_success{}`, 1)
	g.want(t, `osctl_locks{flavour="osctl",verdict="stale"}`, 1)
	if _, ok := g[fmt.Sprintf(`osctl_redis_rtt_seconds{master=%q,node=%q}`, rs[2].Addr, rs[2].Addr)]; ok {
		t.Errorf("an RTT for a master that is down")
	}
	// Every master down: up 0 everywhere, the lock metrics left out (unknown, not zero).
	rs[0].Kill()
	rs[1].Kill()
	g = gather(t, col)
	for _, r := range rs {
		g.want(t, fmt.Sprintf(`osctl_redis_up{master=%q,node=%q}`, r.Addr, r.Addr), 0)
	}
	g.want(t, `osctl_lock_scan_success{}`, 0)
	for s := range g {
		if strings.HasPrefix(s, "osctl_locks{") {
			t.Fatalf("lock counts without a scan: %s", s)
		}
	}
}

// The master label is host:port, never the URL that may carry a user.
func TestAddrOf(t *testing.T) {
	if a := addrOf(redisconn.Master{Name: "redis://ops:xxxxx@queue:6379/0"}); a != "queue:6379" {
		t.Fatalf("addrOf = %q", a)
	}
	if a := addrOf(redisconn.Master{Name: "redis://ops:xxxxx@queue:6379/0", Addr: "10.0.0.5:6379"}); a != "10.0.0.5:6379" {
		t.Fatalf("addrOf = %q", a)
	}
}
