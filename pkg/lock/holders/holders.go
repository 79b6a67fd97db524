// Package holders reads who holds the osctl locks on Redis masters, for the holder faults
// (pause-holder, kill-holder) of pkg/nemesis.
package holders

import (
	"context"

	"github.com/redis/go-redis/v9"

	"github.com/osctl/osctl/pkg/lock"
	"github.com/osctl/osctl/pkg/nemesis"
)

// Read reads every osctl lock on the masters: its value's holder and its TTL left. A master
// that does not answer is passed over (a paused or restarting Redis holds no one to hit).
func Read(ctx context.Context, clients []redis.UniversalClient) []nemesis.Held {
	var out []nemesis.Held
	for _, c := range clients {
		var cursor uint64
		for ctx.Err() == nil {
			keys, next, err := c.Scan(ctx, cursor, lock.KeyPrefix+"*", 1000).Result()
			if err != nil {
				break
			}
			out = append(out, readValues(ctx, c, keys)...)
			if cursor = next; cursor == 0 {
				break
			}
		}
	}
	return out
}

func readValues(ctx context.Context, c redis.UniversalClient, keys []string) []nemesis.Held {
	if len(keys) == 0 {
		return nil
	}
	pipe := c.Pipeline()
	gets := make([]*redis.StringCmd, len(keys))
	ttls := make([]*redis.DurationCmd, len(keys))
	for i, k := range keys {
		gets[i], ttls[i] = pipe.Get(ctx, k), pipe.PTTL(ctx, k)
	}
	_, _ = pipe.Exec(ctx)
	var out []nemesis.Held
	for i, k := range keys {
		v, err := gets[i].Result()
		if err != nil {
			continue
		}
		h, ok := lock.ParseHolder(v)
		if !ok {
			continue
		}
		out = append(out, nemesis.Held{Key: k, Value: v, Host: h.Host, Namespace: h.Namespace, PID: h.PID, TTL: ttls[i].Val()})
	}
	return out
}
