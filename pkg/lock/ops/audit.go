package ops

import (
	"context"
	"encoding/json"
	"strconv"
	"sync"
	"time"

	"github.com/redis/go-redis/v9"
)

// audit appends rec to the audit stream on every reachable master (XADD MAXLEN ~ auditMaxLen)
// and returns the result per master.
func (b *Breaker) audit(ctx context.Context, rec AuditRecord) []MasterResult {
	results, _ := json.Marshal(rec.Results)
	masters, _ := json.Marshal(rec.Masters)
	fields := []any{
		"who", rec.Who, "when", rec.When.Format(time.RFC3339Nano), "key", rec.Key, "value", rec.Value,
		"masters", string(masters), "rule", string(rec.Rule), "reason", rec.Reason,
		"forced", strconv.FormatBool(rec.Forced), "outcome", rec.Outcome, "results", string(results),
	}
	out := make([]MasterResult, len(b.r.masters))
	var wg sync.WaitGroup
	for i, m := range b.r.masters {
		out[i].Master, out[i].Node = m.Name, b.r.nodeOf(ctx, i, b.o.AuditStream)
		if b.r.down[i] != "" {
			out[i].Result, out[i].Detail = ResultUnreachable, b.r.down[i]
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			id, err := m.Client.XAdd(ctx, &redis.XAddArgs{Stream: b.o.AuditStream, MaxLen: auditMaxLen, Approx: true, Values: fields}).Result()
			if err != nil {
				out[i].Result, out[i].Detail = ResultError, b.r.explain(m, err)
				return
			}
			out[i].Result, out[i].Detail = ResultAppended, id
		}()
	}
	wg.Wait()
	return out
}

// ReadAudit returns the last n records of the audit stream on one master, newest first.
func ReadAudit(ctx context.Context, c redis.UniversalClient, stream string, n int64) ([]map[string]any, error) {
	if stream == "" {
		stream = AuditStream
	}
	msgs, err := c.XRevRangeN(ctx, stream, "+", "-", n).Result()
	if err != nil {
		return nil, err
	}
	out := make([]map[string]any, len(msgs))
	for i, m := range msgs {
		m.Values["id"] = m.ID
		out[i] = m.Values
	}
	return out, nil
}
