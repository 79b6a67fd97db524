// Package redischeck checks the Redis masters a Redlock deployment depends on: reachable,
// no eviction of lock keys, persistence, the number of masters, replication and Cluster or
// Sentinel, round-trip time against the lock TTL, and the server clock's rate and jumps.
// Collect does the I/O; Rules are pure functions of the collected facts.
package redischeck

import (
	"context"
	"strings"
	"sync"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/osctl/osctl/pkg/lock"
	"github.com/osctl/osctl/pkg/preflight"
	"github.com/osctl/osctl/pkg/redisconn"
)

// Options tune the checks.
type Options struct {
	// LockTTL is the lock TTL the application uses. The default is lock.DefaultTTL (10s).
	LockTTL time.Duration
	// ClockInterval is how long the server clock is watched. The default is 1s.
	ClockInterval time.Duration
	// ClockSamples is how many TIME samples are taken over ClockInterval. The default is 6.
	ClockSamples int
	// RTTSamples is how many PINGs measure the round-trip time. The default is 5.
	RTTSamples int
	// Now is the local clock (a seam for tests); its readings must carry a monotonic reading.
	// The default is time.Now.
	Now func() time.Time
}

func (o *Options) defaults() {
	if o.LockTTL <= 0 {
		o.LockTTL = lock.DefaultTTL
	}
	if o.ClockInterval <= 0 {
		o.ClockInterval = time.Second
	}
	if o.ClockSamples < 2 {
		o.ClockSamples = 6
	}
	if o.RTTSamples <= 0 {
		o.RTTSamples = 5
	}
	if o.Now == nil {
		o.Now = time.Now
	}
}

// ClockSample is one TIME reading: when it was taken on the local monotonic clock (the
// midpoint of the round trip, since the first sample), the round trip, and the server time.
type ClockSample struct {
	Local  time.Duration `json:"local"`
	RTT    time.Duration `json:"rtt"`
	Server time.Time     `json:"server"`
}

// Facts is what was read from one server: a standalone master, one primary shard of a cluster,
// or the master Sentinel named.
type Facts struct {
	Name string `json:"name"` // the subject of its results
	Addr string `json:"addr"`
	// Master is the lock instance the server belongs to (its name); servers of one cluster
	// share it. Empty: the server is an instance of its own.
	Master    string            `json:"master,omitempty"`
	PingErr   error             `json:"-"`
	RTTs      []time.Duration   `json:"rtts,omitempty"`
	Info      map[string]string `json:"info,omitempty"`
	InfoErr   error             `json:"-"`
	Config    map[string]string `json:"config,omitempty"`
	ConfigErr error             `json:"-"`
	Clock     []ClockSample     `json:"clock,omitempty"`
	ClockErr  error             `json:"-"`
}

// configKeys are the settings the rules read.
var configKeys = []string{"maxmemory", "maxmemory-policy", "appendonly", "appendfsync", "save"}

// Collect reads one master: PING (reachability and round trips), INFO, CONFIG GET, TIME.
func Collect(ctx context.Context, name, addr string, c redis.Cmdable, o Options) Facts {
	o.defaults()
	f := Facts{Name: name, Addr: addr}
	for i := 0; i < o.RTTSamples; i++ {
		t0 := o.Now()
		err := c.Ping(ctx).Err()
		if err != nil {
			if i == 0 {
				f.PingErr = err
				return f
			}
			break
		}
		f.RTTs = append(f.RTTs, o.Now().Sub(t0))
	}
	info, err := c.Info(ctx, "server", "replication", "persistence", "memory", "cluster").Result()
	if err != nil {
		f.InfoErr = err
	} else {
		f.Info = ParseInfo(info)
	}
	f.Config = map[string]string{}
	for _, k := range configKeys {
		m, err := c.ConfigGet(ctx, k).Result()
		if err != nil {
			f.ConfigErr = err
			f.Config = nil
			break
		}
		if v, ok := m[k]; ok {
			f.Config[k] = v
		}
	}
	f.Clock, f.ClockErr = sampleClock(ctx, c, o)
	return f
}

func sampleClock(ctx context.Context, c redis.Cmdable, o Options) ([]ClockSample, error) {
	var out []ClockSample
	gap := o.ClockInterval / time.Duration(o.ClockSamples-1)
	var base time.Time
	for i := 0; i < o.ClockSamples; i++ {
		if i > 0 {
			t := time.NewTimer(gap)
			select {
			case <-ctx.Done():
				t.Stop()
				return out, ctx.Err()
			case <-t.C:
			}
		}
		t0 := o.Now()
		st, err := c.Time(ctx).Result()
		t1 := o.Now()
		if err != nil {
			return out, err
		}
		if i == 0 {
			base = t0
		}
		rtt := t1.Sub(t0)
		out = append(out, ClockSample{Local: t0.Sub(base) + rtt/2, RTT: rtt, Server: st})
	}
	return out, nil
}

// ParseInfo turns INFO text into key -> value (all sections merged).
func ParseInfo(s string) map[string]string {
	m := map[string]string{}
	for _, line := range strings.Split(s, "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		if k, v, ok := strings.Cut(line, ":"); ok {
			m[k] = v
		}
	}
	return m
}

// Check collects every master in parallel and grades them: every primary shard of a cluster,
// the master Sentinel names now; then each master's topology and what its user may run.
func Check(ctx context.Context, masters []redisconn.Master, opts Options) []preflight.Result {
	opts.defaults()
	facts := make([][]Facts, len(masters))
	tops := make([]Topology, len(masters))
	perms := make([]*Permissions, len(masters))
	var wg sync.WaitGroup
	for i, m := range masters {
		wg.Add(1)
		go func() {
			defer wg.Done()
			facts[i], tops[i], perms[i] = checkMaster(ctx, m, opts)
		}()
	}
	wg.Wait()
	var all []Facts
	for _, fs := range facts {
		all = append(all, fs...)
	}
	rs := Rules(all, opts)
	for i := range masters {
		if perms[i] == nil {
			continue // not reachable: redis.reachable says why
		}
		rs = append(rs, TopologyRule(tops[i]), PermissionsRule(*perms[i]))
	}
	return rs
}

// checkMaster collects the facts of every server of one master, its topology and its user's
// permissions (nil when no server answered).
func checkMaster(ctx context.Context, m redisconn.Master, opts Options) ([]Facts, Topology, *Permissions) {
	nodes, err := m.Nodes(ctx)
	if err != nil {
		return []Facts{{Name: m.Name, Addr: m.Addr, PingErr: redisconn.Explain(m, err)}}, Topology{}, nil
	}
	fs := make([]Facts, len(nodes))
	var wg sync.WaitGroup
	for j, n := range nodes {
		wg.Add(1)
		go func() {
			defer wg.Done()
			name := m.Name
			switch m.KindOf() {
			case redisconn.Cluster:
				name += " shard " + n.Addr
			case redisconn.Sentinel:
				name += " master " + n.Addr
			}
			fs[j] = Collect(ctx, name, n.Addr, n.Client, opts)
			fs[j].Master = m.Name
			if fs[j].PingErr != nil {
				fs[j].PingErr = redisconn.Explain(m, fs[j].PingErr)
			}
		}()
	}
	wg.Wait()
	for _, f := range fs {
		if f.PingErr == nil {
			p := probePermissions(ctx, m, nodes[0].Client)
			return fs, topologyOf(ctx, m, fs), &p
		}
	}
	return fs, Topology{}, nil
}
