package ops

import (
	"context"
	"sync"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/osctl/osctl/pkg/redisconn"
)

// NodeStatus is one server of a master as an inspection found it: the master itself, a primary
// shard of a cluster, or the master Sentinel named.
type NodeStatus struct {
	Addr  string `json:"addr"` // host:port
	Error string `json:"error,omitempty"`
	// RTT is the round trip of the PING that opened the inspection (0 when it failed).
	RTT time.Duration `json:"-"`
}

// node is one server the reader scans.
type node struct {
	NodeStatus
	client redis.UniversalClient
}

// resolve finds the servers of every master not known to be down, once: a cluster's primaries,
// the master Sentinel names now. A master whose cluster or sentinels cannot be asked is down.
func (r *reader) resolve(ctx context.Context) {
	if r.resolved {
		return
	}
	r.resolved = true
	var wg sync.WaitGroup
	for i, m := range r.masters {
		if m.KindOf() == redisconn.Standalone {
			r.nodes[i] = []node{{NodeStatus: NodeStatus{Addr: addrOf(m)}, client: m.Client}}
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			ns, err := m.Nodes(ctx)
			if err != nil {
				r.down[i] = r.explain(m, err)
				return
			}
			r.nodes[i] = make([]node, len(ns))
			for j, n := range ns {
				r.nodes[i][j] = node{NodeStatus: NodeStatus{Addr: n.Addr}, client: n.Client}
			}
		}()
	}
	wg.Wait()
}

// ping resolves the masters' servers and checks each concurrently: a server that does not
// answer is down, and so is a master none of whose servers answers. The others' round trips
// are timed.
func (r *reader) ping(ctx context.Context) {
	r.resolve(ctx)
	var wg sync.WaitGroup
	for i, m := range r.masters {
		for j := range r.nodes[i] {
			wg.Add(1)
			go func() {
				defer wg.Done()
				n := &r.nodes[i][j]
				start := time.Now()
				if err := n.client.Ping(ctx).Err(); err != nil {
					n.Error = r.nodeError(m, n.Addr, err)
					return
				}
				n.RTT = time.Since(start)
			}()
		}
	}
	wg.Wait()
	for i := range r.masters {
		up := 0
		for _, n := range r.nodes[i] {
			if n.Error == "" {
				up++
				r.rtt[i] = max(r.rtt[i], n.RTT)
			}
		}
		if up == 0 && r.down[i] == "" && len(r.nodes[i]) > 0 {
			r.down[i] = r.nodes[i][0].Error
		}
	}
}

// nodeError explains a server's error; a cluster's shard is named in front.
func (r *reader) nodeError(m redisconn.Master, addr string, err error) string {
	if m.KindOf() == redisconn.Cluster {
		return "shard " + addr + ": " + r.explain(m, err)
	}
	return r.explain(m, err)
}

// nodeOf is the server master i read key on, as Holding.Node reports it ("" for a standalone
// master, which is its own only server).
func (r *reader) nodeOf(ctx context.Context, i int, key string) string {
	m := r.masters[i]
	switch m.KindOf() {
	case redisconn.Cluster:
		return m.NodeForKey(ctx, key)
	case redisconn.Sentinel:
		if len(r.nodes[i]) > 0 {
			return r.nodes[i][0].Addr
		}
	}
	return ""
}

// fetchCluster reads every key from the cluster master i: one script per key (a script may
// only name keys of one slot), sent in one pipeline that go-redis splits by shard and follows
// through MOVED. Where scripts are refused it falls back to GET and PTTL per key. A key whose
// shard does not answer gets that error in its holding; the master is not marked down for it.
func (r *reader) fetchCluster(ctx context.Context, i int, keys []string, views []View) error {
	m := r.masters[i]
	for k, key := range keys {
		views[k].Holdings[i] = Holding{Master: m.Name, Node: m.NodeForKey(ctx, key), TTLMillis: Absent}
	}
	if !r.noScript[i] {
		refused, err := r.fetchClusterScripts(ctx, i, keys, views)
		if err != nil || !refused {
			return err
		}
		r.noScript[i] = true // EVAL refused (ACL, managed Redis): read with plain commands
	}
	return r.fetchClusterPlain(ctx, i, keys, views)
}

func (r *reader) fetchClusterScripts(ctx context.Context, i int, keys []string, views []View) (refused bool, err error) {
	m := r.masters[i]
	cmds := make([]*redis.Cmd, len(keys))
	run := func(idx []int, sha bool) {
		pipe := m.Client.Pipeline()
		for _, k := range idx {
			if sha {
				cmds[k] = readScript.EvalSha(ctx, pipe, keys[k:k+1])
			} else {
				cmds[k] = readScript.Eval(ctx, pipe, keys[k:k+1])
			}
		}
		_, _ = pipe.Exec(ctx)
	}
	all := make([]int, len(keys))
	for k := range all {
		all[k] = k
	}
	run(all, true)
	var noScript []int // shards that never ran the script (new, restarted, failed over)
	for k, c := range cmds {
		if err := c.Err(); err != nil && redis.HasErrorPrefix(err, "NOSCRIPT") {
			noScript = append(noScript, k)
		}
	}
	if len(noScript) > 0 {
		run(noScript, false)
	}
	for k, c := range cmds {
		res, err := c.Slice()
		switch {
		case err == nil && len(res) == 2:
			node := views[k].Holdings[i].Node
			decodeHoldings(res, keys[k:k+1], m.Name, views[k:k+1], i)
			views[k].Holdings[i].Node = node
		case err == nil || isServerError(err):
			return true, nil
		default:
			if ctx.Err() != nil {
				return false, ctx.Err()
			}
			views[k].Holdings[i].Error = r.nodeError(m, views[k].Holdings[i].Node, err)
		}
	}
	return false, nil
}

// fetchClusterPlain reads each key with GET and PTTL (in one pipeline split by shard), then
// TYPE for keys that are not strings. Unlike a standalone master's MULTI/EXEC read, the value
// and the TTL come from two commands: a key re-set between them shows its new TTL.
func (r *reader) fetchClusterPlain(ctx context.Context, i int, keys []string, views []View) error {
	m := r.masters[i]
	pipe := m.Client.Pipeline()
	gets := make([]*redis.StringCmd, len(keys))
	ttls := make([]*redis.DurationCmd, len(keys))
	for k, key := range keys {
		gets[k], ttls[k] = pipe.Get(ctx, key), pipe.PTTL(ctx, key)
	}
	_, _ = pipe.Exec(ctx)
	var typed []int
	for k := range keys {
		h := &views[k].Holdings[i]
		ttl, err := ttls[k].Result()
		if err != nil {
			if isServerError(err) {
				return err
			}
			h.Error = r.nodeError(m, h.Node, err)
			continue
		}
		if h.TTLMillis = ttlMillis(ttl); h.TTLMillis == Absent {
			continue
		}
		v, err := gets[k].Result()
		switch {
		case err == nil:
			h.Present, h.Type, h.Value = true, "string", v
		case redis.HasErrorPrefix(err, "WRONGTYPE"):
			h.Present = true
			typed = append(typed, k)
		case isServerError(err):
			return err
		case err == redis.Nil: //nolint:errorlint // go-redis returns the sentinel itself
			h.TTLMillis = Absent // gone between the two commands
		default:
			h.Error = r.nodeError(m, h.Node, err)
		}
	}
	return fetchTypes(ctx, m, keys, typed, views, i)
}
