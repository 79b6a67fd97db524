package ops

import (
	"context"
	"errors"
	"strconv"
	"sync"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/osctl/osctl/pkg/redact"
	"github.com/osctl/osctl/pkg/redisconn"
)

// reader reads keys from every master in pipelines and remembers which masters went down, so
// that a dead master costs one failed attempt, not one per batch.
type reader struct {
	masters []redisconn.Master
	explain func(redisconn.Master, error) string
	down    []string // per master: why it is down, "" when up
	// noScript marks masters that refused EVAL; they are read with MGET + PTTL instead.
	noScript []bool
	rtt      []time.Duration // per master: the slowest round trip of its servers' first PING
	// nodes are every master's servers (resolve): the master itself, a cluster's primaries,
	// Sentinel's current master.
	nodes    [][]node
	resolved bool
	now      func() time.Time
}

func newReader(masters []redisconn.Master, explain func(redisconn.Master, error) string, now func() time.Time) *reader {
	if explain == nil {
		explain = func(m redisconn.Master, err error) string { return m.Name + ": " + redact.Text(err.Error()) }
	}
	if now == nil {
		now = time.Now
	}
	return &reader{masters: masters, explain: explain, down: make([]string, len(masters)), noScript: make([]bool, len(masters)),
		rtt: make([]time.Duration, len(masters)), nodes: make([][]node, len(masters)), now: now}
}

// up counts the masters not marked down.
func (r *reader) up() int {
	n := 0
	for _, d := range r.down {
		if d == "" {
			n++
		}
	}
	return n
}

// fetch reads keys from every master (concurrently when there are several) and returns one
// grouped view per key, in the order of keys.
func (r *reader) fetch(ctx context.Context, keys []string) []View {
	return r.fetchExcept(ctx, keys, -1, nil)
}

// fetchExcept is fetch for keys whose holdings on master known were already read (by
// scanRead); those are taken from views, which it completes and returns.
func (r *reader) fetchExcept(ctx context.Context, keys []string, known int, views []View) []View {
	if views == nil {
		views = make([]View, len(keys))
		for k := range views {
			views[k] = View{Key: keys[k], Holdings: make([]Holding, len(r.masters))}
		}
	}
	one := func(i int) {
		m := r.masters[i]
		if i == known {
			return
		}
		if r.down[i] == "" {
			if err := r.fetchMaster(ctx, i, keys, views); err != nil {
				if ctx.Err() != nil {
					r.setAll(views, i, m.Name, "interrupted")
					return
				}
				r.down[i] = r.explain(m, err)
			}
		}
		if r.down[i] != "" {
			r.setAll(views, i, m.Name, r.down[i])
		}
	}
	if len(r.masters) == 1 {
		one(0)
	} else if len(r.masters) == 2 && known >= 0 {
		one(1 - known)
	} else {
		var wg sync.WaitGroup
		for i := range r.masters {
			wg.Add(1)
			go func() { defer wg.Done(); one(i) }()
		}
		wg.Wait()
	}
	at := r.now()
	for k := range views {
		views[k].ReadAtUnixMs, views[k].readAt = at.UnixMilli(), at
		views[k].group()
	}
	return views
}

func (r *reader) setAll(views []View, i int, name, msg string) {
	for k := range views {
		views[k].Holdings[i] = Holding{Master: name, TTLMillis: Absent, Error: msg}
	}
}

// readScript returns, for every key, its string value (nil when absent, {type} when it is not
// a string) and its PTTL: one command per batch, atomic on the server, so each value is seen
// with its own TTL.
var readScript = redis.NewScript(`
local vals = redis.call('MGET', unpack(KEYS))
local out = {}
for i, k in ipairs(KEYS) do
  local t = redis.call('PTTL', k)
  local v = vals[i]
  if v == false and t ~= -2 then v = {redis.call('TYPE', k)['ok']} end
  out[2*i-1] = v
  out[2*i] = t
end
return out
`)

// fetchMaster reads every key from one master with readScript (or, where scripts are not
// allowed, a MULTI/EXEC pipeline of MGET and PTTLs). It returns an error only when the master
// itself failed.
func (r *reader) fetchMaster(ctx context.Context, i int, keys []string, views []View) error {
	m := r.masters[i]
	switch m.KindOf() {
	case redisconn.Cluster:
		return r.fetchCluster(ctx, i, keys, views)
	case redisconn.Sentinel:
		defer func() {
			node := r.nodeOf(ctx, i, "")
			for k := range views {
				views[k].Holdings[i].Node = node
			}
		}()
	}
	if !r.noScript[i] {
		res, err := readScript.Run(ctx, m.Client, keys).Slice()
		switch {
		case err == nil && len(res) == 2*len(keys):
			decodeHoldings(res, keys, m.Name, views, i)
			return nil
		case err != nil && !isServerError(err):
			return err
		}
		r.noScript[i] = true // EVAL refused (ACL, managed Redis): read with plain commands
	}
	return fetchMasterPipeline(ctx, m, keys, views, i)
}

// decodeHoldings turns the (value, PTTL) pairs of readScript or scanReadScript into
// holdings of master i.
func decodeHoldings(res []any, keys []string, name string, views []View, i int) {
	for k := range keys {
		h := Holding{Master: name, TTLMillis: Absent}
		if ttl, ok := res[2*k+1].(int64); ok {
			h.TTLMillis = ttl
		}
		switch v := res[2*k].(type) {
		case string:
			h.Present, h.Type, h.Value = true, "string", v
		case []any:
			if len(v) == 1 {
				if t, ok := v[0].(string); ok && t != "none" {
					h.Present, h.Type = true, t
				}
			}
		}
		if h.TTLMillis == Absent {
			h = Holding{Master: name, TTLMillis: Absent}
		}
		views[k].Holdings[i] = h
	}
}

// scanReadScript runs one SCAN step and reads what it found, in one round trip: it returns the
// next cursor, the keys, then a (value, PTTL) pair per key as readScript does. (The keys are
// not declared in KEYS: standalone Redis allows that; Redis Cluster is not a Redlock master.)
var scanReadScript = redis.NewScript(`
local r = redis.call('SCAN', ARGV[1], 'MATCH', ARGV[2], 'COUNT', ARGV[3])
local keys = r[2]
local out = {r[1], keys}
if #keys > 0 then
  local vals = redis.call('MGET', unpack(keys))
  for i, k in ipairs(keys) do
    local t = redis.call('PTTL', k)
    local v = vals[i]
    if v == false and t ~= -2 then v = {redis.call('TYPE', k)['ok']} end
    out[2*i+1] = v
    out[2*i+2] = t
  end
end
return out
`)

// scanRead runs one SCAN step on master i and, where scripts are allowed, reads the keys it
// found on that master in the same round trip (views then holds master i's holdings; it is nil
// when only the keys were returned).
func (r *reader) scanRead(ctx context.Context, i int, cursor uint64, pattern string, count int) (keys []string, next uint64, views []View, err error) {
	m := r.masters[i]
	if !r.noScript[i] {
		res, err := scanReadScript.Run(ctx, m.Client, nil, strconv.FormatUint(cursor, 10), pattern, count).Slice()
		if err == nil && len(res) >= 2 {
			cur, _ := res[0].(string)
			ks, _ := res[1].([]any)
			next, perr := strconv.ParseUint(cur, 10, 64)
			if perr == nil && len(res) == 2+2*len(ks) {
				keys = make([]string, len(ks))
				for k, v := range ks {
					keys[k], _ = v.(string)
				}
				views = make([]View, len(keys))
				for k := range views {
					views[k] = View{Key: keys[k], Holdings: make([]Holding, len(r.masters))}
				}
				decodeHoldings(res[2:], keys, m.Name, views, i)
				if node := r.nodeOf(ctx, i, ""); node != "" {
					for k := range views {
						views[k].Holdings[i].Node = node
					}
				}
				return keys, next, views, nil
			}
		}
		if err != nil && !isServerError(err) {
			return nil, 0, nil, err
		}
		r.noScript[i] = true // EVAL refused or unexpected: scan with plain commands
	}
	keys, next, err = m.Client.Scan(ctx, cursor, pattern, int64(count)).Result()
	return keys, next, nil, err
}

// fetchMasterPipeline reads every key from one master in one MULTI/EXEC pipeline (MGET of all
// the keys and PTTL of each), then TYPE for the keys that exist but are not strings (MGET
// returns nil for them).
func fetchMasterPipeline(ctx context.Context, m redisconn.Master, keys []string, views []View, i int) error {
	pipe := m.Client.TxPipeline()
	mget := pipe.MGet(ctx, keys...)
	ttls := make([]*redis.DurationCmd, len(keys))
	for k, key := range keys {
		ttls[k] = pipe.PTTL(ctx, key)
	}
	if _, err := pipe.Exec(ctx); err != nil && !isServerError(err) {
		return err
	}
	vals, err := mget.Result()
	if err != nil {
		return err
	}
	var typed []int
	for k := range keys {
		h := Holding{Master: m.Name, TTLMillis: Absent}
		ttl, err := ttls[k].Result()
		if err != nil {
			return err
		}
		h.TTLMillis = ttlMillis(ttl)
		if h.TTLMillis != Absent {
			h.Present = true
			if s, ok := vals[k].(string); ok {
				h.Type, h.Value = "string", s
			} else {
				typed = append(typed, k)
			}
		}
		views[k].Holdings[i] = h
	}
	return fetchTypes(ctx, m, keys, typed, views, i)
}

// fetchTypes asks one master, in one pipeline, the TYPE of the keys at the indexes typed (keys
// that hold something other than a string) and sets it in their holdings; a key gone since then
// is absent (on the same node).
func fetchTypes(ctx context.Context, m redisconn.Master, keys []string, typed []int, views []View, i int) error {
	if len(typed) == 0 {
		return nil
	}
	pipe := m.Client.Pipeline()
	types := make([]*redis.StatusCmd, len(typed))
	for j, k := range typed {
		types[j] = pipe.Type(ctx, keys[k])
	}
	_, _ = pipe.Exec(ctx)
	for j, k := range typed {
		t, err := types[j].Result()
		if err != nil {
			return err
		}
		if t == "none" {
			views[k].Holdings[i] = Holding{Master: m.Name, Node: views[k].Holdings[i].Node, TTLMillis: Absent}
			continue
		}
		views[k].Holdings[i].Type = t
	}
	return nil
}

func ttlMillis(d time.Duration) int64 {
	if d == -1 || d == -2 {
		return int64(d)
	}
	return d.Milliseconds()
}

// isServerError reports whether err is a reply from Redis (WRONGTYPE, NOSCRIPT, ...) rather than
// a failure to talk to it.
func isServerError(err error) bool {
	var re redis.Error
	return errors.As(err, &re) && !errors.Is(err, redis.Nil)
}
