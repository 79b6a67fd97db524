package leftover

import (
	"context"
	"fmt"
	"sort"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/osctl/osctl/pkg/lock/ops"
	"github.com/osctl/osctl/pkg/redisconn"
	"github.com/osctl/osctl/pkg/stress/history"
)

// Statuses of a LeftoverLock.
const (
	StatusStale = "stale"
	StatusLive  = "live"
)

// redisTimeout bounds each command to a master: a master still paused or down is a warning.
const redisTimeout = 2 * time.Second

// readRedis lists the locks on the redis-servers sb started, as `osctl locks inspect` sees
// them, and calls stale, besides what inspect calls stale, an osctl holder whose pid is not one
// of sb's running replicas (the replicas are the only holders of the sandbox's locks: one that
// names another pid was taken by a replica since killed).
func readRedis(ctx context.Context, sb Sandbox, l *history.Leftovers) {
	addrs, replicas, err := sb.Processes()
	if err != nil {
		l.Warnings = append(l.Warnings, "Redis locks: "+err.Error())
		return
	}
	if len(addrs) == 0 {
		return // a sandbox without locks, or given its masters: none of its own to read
	}
	masters := make([]redisconn.Master, len(addrs))
	for i, addr := range addrs {
		c := redis.NewClient(&redis.Options{Addr: addr, DialTimeout: redisTimeout, ReadTimeout: redisTimeout, WriteTimeout: redisTimeout, MaxRetries: -1})
		masters[i] = redisconn.Master{Name: "redis://" + addr, Addr: addr, Client: c}
	}
	defer redisconn.Close(masters)
	sum, err := ops.Inspect(ctx, masters, ops.Options{RetryWindow: 500 * time.Millisecond}, func(v ops.View) error {
		if v.Verdict.Status != ops.StatusNotALock {
			l.RedisLocks = append(l.RedisLocks, lockOf(v, replicas))
		}
		return nil
	})
	l.Warnings = append(l.Warnings, sum.Warnings...)
	for _, m := range sum.Masters {
		if m.Error != "" {
			l.Warnings = append(l.Warnings, "Redis master "+m.Error)
		}
	}
	if err != nil && len(sum.Masters) == 0 {
		l.Warnings = append(l.Warnings, "Redis locks: "+err.Error())
	}
	sort.Slice(l.RedisLocks, func(i, j int) bool { return l.RedisLocks[i].Key < l.RedisLocks[j].Key })
}

// lockOf is one inspected key as a leftover, judged against the sandbox's running replicas.
func lockOf(v ops.View, replicas map[int]string) history.LeftoverLock {
	k := history.LeftoverLock{Key: v.Key, Analysis: v.AnalysisID, Value: v.Value, Held: v.Held, Masters: v.Masters,
		TTLMillis: ops.Absent, Status: StatusLive, Reason: v.Verdict.Reason}
	for _, h := range v.Holdings {
		if h.Present && h.Value == v.Value && h.TTLMillis > k.TTLMillis {
			k.TTLMillis = h.TTLMillis
		}
	}
	if v.Holder != nil {
		k.HolderPID = v.Holder.PID
	}
	switch {
	case v.Verdict.Status == ops.StatusStale:
		k.Status = StatusStale
	case v.Holder == nil:
		// not osctl's value: no pid to check; inspect's verdict stands
	case replicas[v.Holder.PID] == "":
		k.Status = StatusStale
		k.Reason = fmt.Sprintf("holder pid %d is not a running replica of the sandbox: a dead holder (it blocks the analysis until its TTL ends)", v.Holder.PID)
	default:
		k.Reason = fmt.Sprintf("held by %v; %s", replicas[v.Holder.PID], v.Verdict.Reason)
	}
	return k
}
