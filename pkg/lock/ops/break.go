package ops

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/osctl/osctl/pkg/lock"
	"github.com/osctl/osctl/pkg/redisconn"
)

// breakScript deletes KEYS[1] only if, atomically on the server, it is still a string holding
// ARGV[1] and the stale condition ARGV[2] still holds:
//
//	no-ttl       PTTL is still -1 (a renewed or re-set lock has a TTL)
//	not-renewed  it has a TTL no longer than ARGV[3] ms: the TTL read minus the time since, plus
//	             RenewTolerance (a renewal pushes the TTL back up)
//	value        nothing more (--force)
//
// It returns 1 when deleted, -2 gone, -3 value changed, -4 condition no longer holds, -5 not a
// string.
//
// ARGV[2] probe only checks that the user may run the script on the key: it returns 0 and
// reads nothing.
var breakScript = redis.NewScript(`
if ARGV[2] == 'probe' then return 0 end
local t = redis.call('TYPE', KEYS[1])['ok']
if t == 'none' then return -2 end
if t ~= 'string' then return -5 end
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return -3 end
local ttl = redis.call('PTTL', KEYS[1])
if ARGV[2] == 'no-ttl' then
  if ttl ~= -1 then return -4 end
elseif ARGV[2] == 'not-renewed' then
  if ttl < 0 or ttl > tonumber(ARGV[3]) then return -4 end
elseif ARGV[2] ~= 'value' then
  return redis.error_reply('unknown break condition ' .. ARGV[2])
end
return redis.call('DEL', KEYS[1])
`)

// Results of a break on one master.
const (
	ResultDeleted     = "deleted"
	ResultWouldDelete = "would-delete" // dry run
	ResultChanged     = "changed"      // the value is no longer the one observed: not deleted
	ResultRenewed     = "renewed"      // the stale condition no longer holds (TTL set or renewed): not deleted
	ResultGone        = "gone"         // the key had already disappeared
	ResultKept        = "kept"         // not a target (for example, it has a TTL on this master)
	ResultUnreachable = "unreachable"
	ResultError       = "error"
	ResultAppended    = "appended" // the audit record was added to the stream
)

// Outcomes of a break of one key.
const (
	OutcomeBroken     = "broken"      // deleted on every targeted master
	OutcomePartial    = "partial"     // deleted on some targeted masters
	OutcomeNotDeleted = "not-deleted" // the server-side check refused on every master
	OutcomeRefused    = "refused"     // not stale and no --force, or not a lock
	OutcomeGone       = "gone"        // nothing to delete
	OutcomeDryRun     = "dry-run"
)

// MasterResult is what happened on one master.
type MasterResult struct {
	Master string `json:"master"`
	// Node is the server the key was on, for a cluster (the shard owning its slot) or a
	// Sentinel-managed master (the master the sentinels named), as host:port.
	Node   string `json:"node,omitempty"`
	Result string `json:"result"`
	Detail string `json:"detail,omitempty"`
}

// AuditRecord says who broke which lock, when, why, and what happened on every master.
type AuditRecord struct {
	Who     string         `json:"who"`
	When    time.Time      `json:"when"`
	Key     string         `json:"key"`
	Value   string         `json:"value"`
	Masters []string       `json:"masters"` // the masters that held the value when re-read
	Rule    Rule           `json:"rule"`
	Reason  string         `json:"reason"`
	Forced  bool           `json:"forced,omitempty"`
	DryRun  bool           `json:"dryRun,omitempty"`
	Outcome string         `json:"outcome"`
	Results []MasterResult `json:"results"`
	// Audit says where the record was appended to the audit stream (empty if disabled).
	Audit []MasterResult `json:"audit,omitempty"`
}

// Deleted counts the masters the key was deleted from.
func (r AuditRecord) Deleted() int {
	n := 0
	for _, m := range r.Results {
		if m.Result == ResultDeleted {
			n++
		}
	}
	return n
}

// BreakOptions configure a Breaker.
type BreakOptions struct {
	// Force breaks locks that are not stale (never keys that are not locks).
	Force bool
	// DryRun re-reads and decides but deletes nothing and writes no audit record.
	DryRun bool
	// Audit appends every break to the AuditStream on every reachable master.
	Audit bool
	// AuditStream is the stream name. The default is AuditStream.
	AuditStream string
	// Who is recorded as the breaker, e.g. user@host.
	Who string
	// MaxTTL is passed to Classify. The default is lock.MaxTTL.
	MaxTTL time.Duration
	// Explain turns a master's error into one redacted line.
	Explain func(redisconn.Master, error) string
	// Now is the clock. The default is time.Now.
	Now func() time.Time
}

// AuditStream is the stream every break is appended to, under osctl's own namespace.
const AuditStream = lock.NamespacePrefix + "audit"

// auditMaxLen bounds the audit stream (approximately, as XADD MAXLEN ~ does).
const auditMaxLen = 10000

// Breaker breaks locks observed by Inspect, re-checking on every master before deleting.
type Breaker struct {
	o BreakOptions
	r *reader
}

// NewBreaker returns a Breaker over masters.
func NewBreaker(masters []redisconn.Master, o BreakOptions) *Breaker {
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.AuditStream == "" {
		o.AuditStream = AuditStream
	}
	return &Breaker{o: o, r: newReader(masters, o.Explain, o.Now)}
}

// Break re-reads the key of observed on every master and deletes, on each master, only the
// value observed there, and only while the stale condition still holds on the server. A key
// that is no longer stale is refused unless Force is set; a key that is not a lock is always
// refused. observed must come from Inspect (its verdict carries what a single read cannot
// know: a minority confirmed by a second read, a holder pod that is gone).
func (b *Breaker) Break(ctx context.Context, observed View) (AuditRecord, error) {
	rec := AuditRecord{Who: b.o.Who, When: b.o.Now().UTC(), Key: observed.Key, Value: observed.Value, Forced: b.o.Force, DryRun: b.o.DryRun}
	b.r.resolve(ctx)
	now := b.r.fetch(ctx, []string{observed.Key})[0]
	if err := ctx.Err(); err != nil {
		return rec, err
	}
	if !now.present() {
		rec.Outcome, rec.Rule, rec.Reason = OutcomeGone, observed.Verdict.Rule, "no master holds the key any more"
		rec.Results = b.results(now, func(int) MasterResult { return MasterResult{Result: ResultGone} })
		return rec, nil
	}
	rec.Value = now.Value
	for _, h := range now.Holdings {
		if h.Present && h.Type == "string" && h.Value == now.Value {
			rec.Masters = append(rec.Masters, h.Master)
		}
	}
	c := Conditions{MaxTTL: b.o.MaxTTL}
	if observed.Verdict.Status == StatusStale && now.Value == observed.Value {
		switch observed.Verdict.Rule {
		case RuleMinority:
			c.SecondRead, c.MinorityConfirmed = true, Minority(now)
		case RuleHolderGone:
			c.HolderGone = holderGoneName(observed.Verdict.Reason)
		}
	}
	v := Classify(now, c)
	rec.Rule, rec.Reason = v.Rule, v.Reason
	mode := ""
	switch {
	case v.Status == StatusNotALock && b.o.Force && Forceable(v):
		mode = "no-ttl"
		rec.Reason = "forced: " + v.Reason
	case v.Status == StatusNotALock:
		rec.Outcome = OutcomeRefused
	case v.Status == StatusStale && v.Rule == RuleNoTTL:
		mode = "no-ttl"
	case v.Status == StatusStale:
		mode = "not-renewed"
	case b.o.Force:
		mode = "value"
		rec.Reason = "forced: " + v.Reason
	default:
		rec.Outcome = OutcomeRefused
		rec.Reason = "not stale (" + string(v.Status) + "): " + v.Reason + "; use {Force} to break it anyway"
	}
	if mode == "" {
		rec.Results = b.results(now, func(int) MasterResult { return MasterResult{Result: ResultKept} })
		return rec, nil
	}
	rec.Results = b.execute(ctx, observed, now, mode)
	rec.Outcome = outcome(rec)
	if b.o.Audit && !b.o.DryRun {
		rec.Audit = b.audit(ctx, rec)
	}
	return rec, nil
}

// holderGoneName recovers the pod part of a holder-gone reason; only its non-emptiness matters.
func holderGoneName(reason string) string {
	s, _ := strings.CutPrefix(reason, "holder pod ")
	s, _ = strings.CutSuffix(s, " no longer exists")
	if s == "" {
		return "(as observed)"
	}
	return s
}

func (b *Breaker) results(v View, f func(i int) MasterResult) []MasterResult {
	out := make([]MasterResult, len(v.Holdings))
	for i, h := range v.Holdings {
		out[i] = f(i)
		out[i].Master, out[i].Node = h.Master, h.Node
		if !h.Reachable() {
			out[i].Result, out[i].Detail = ResultUnreachable, h.Error
		}
	}
	return out
}

// execute runs the break script on every targeted master concurrently. A master is a target
// when it still holds the value observed there (and, for no-ttl, has no TTL).
func (b *Breaker) execute(ctx context.Context, observed, now View, mode string) []MasterResult {
	out := make([]MasterResult, len(now.Holdings))
	var wg sync.WaitGroup
	for i, h := range now.Holdings {
		out[i].Master, out[i].Node = h.Master, h.Node
		var seen Holding
		if i < len(observed.Holdings) {
			seen = observed.Holdings[i]
		}
		switch {
		case !h.Reachable():
			out[i].Result, out[i].Detail = ResultUnreachable, h.Error
			continue
		case !h.Present:
			out[i].Result = ResultGone
			continue
		case !seen.Present || seen.Value != h.Value:
			out[i].Result, out[i].Detail = ResultChanged, "holds a value other than the one observed"
			continue
		case mode == "no-ttl" && h.TTLMillis != NoTTL:
			out[i].Result, out[i].Detail = ResultKept, "has a TTL here"
			continue
		case mode == "not-renewed" && h.Value != now.Value:
			out[i].Result, out[i].Detail = ResultKept, "holds another value"
			continue
		case mode == "not-renewed" && (h.TTLMillis < 0 || seen.TTLMillis >= 0 && h.TTLMillis > ttlLimit(seen.TTLMillis, observed.readAt, now.readAt)):
			// A TTL only goes down, by the time that passed; one higher was renewed since.
			out[i].Result, out[i].Detail = ResultRenewed, "TTL renewed since it was observed"
			continue
		}
		if b.o.DryRun {
			out[i].Result = ResultWouldDelete
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			m := b.r.masters[i]
			limit := ttlLimit(h.TTLMillis, now.readAt, b.o.Now())
			n, err := breakScript.Run(ctx, m.Client, []string{now.Key}, h.Value, mode, strconv.FormatInt(limit, 10)).Int()
			out[i].Result, out[i].Detail = scriptResult(n, err, m, b.r.explain)
		}()
	}
	wg.Wait()
	return out
}

// RenewTolerance is what the break's re-check allows a TTL above the one read minus the time
// since (PTTL's rounding to the millisecond, the server's clock): a TTL higher than that was
// renewed, and the lock is not broken.
const RenewTolerance = 25 * time.Millisecond

// ttlLimit is the highest TTL (ms) a key read with ttl ms at readAt may have at now if nothing
// renewed it: ttl minus the time since, plus RenewTolerance. The time since is taken from when
// the read returned to now (before the next command is sent): never more than the server saw
// pass, so a lock that was not renewed is never taken for renewed. Without a read time the
// limit is the TTL read itself.
func ttlLimit(ttl int64, readAt, now time.Time) int64 {
	if readAt.IsZero() || now.Before(readAt) {
		return ttl
	}
	return ttl - now.Sub(readAt).Milliseconds() + RenewTolerance.Milliseconds()
}

// Check makes sure every reachable master lets this user run the break script on key (EVAL
// and the key's pattern), without changing anything: a user without EVAL gets one error naming
// it before anything is deleted. Only ACL refusals are returned; a master that does not answer
// is reported by Break.
func (b *Breaker) Check(ctx context.Context, key string) error {
	b.r.resolve(ctx)
	errs := make([]error, len(b.r.masters))
	var wg sync.WaitGroup
	for i, m := range b.r.masters {
		if b.r.down[i] != "" {
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			err := breakScript.Run(ctx, m.Client, []string{key}, "", "probe", "0").Err()
			if pe := redisconn.Permission(m, err); pe != nil {
				errs[i] = pe
			}
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return err // one line: the first master that refuses says what to grant
		}
	}
	return nil
}

func scriptResult(n int, err error, m redisconn.Master, explain func(redisconn.Master, error) string) (string, string) {
	if err != nil {
		return ResultError, explain(m, err)
	}
	switch n {
	case 1:
		return ResultDeleted, ""
	case 0, -2:
		return ResultGone, "disappeared before the delete"
	case -3:
		return ResultChanged, "value changed before the delete (re-acquired)"
	case -4:
		return ResultRenewed, "the stale condition no longer held at the delete (TTL set or renewed)"
	case -5:
		return ResultChanged, "no longer a string"
	}
	return ResultError, fmt.Sprintf("unexpected script result %d", n)
}

func outcome(r AuditRecord) string {
	if r.DryRun {
		return OutcomeDryRun
	}
	targeted, deleted := 0, 0
	for _, m := range r.Results {
		switch m.Result {
		case ResultDeleted:
			deleted++
			targeted++
		case ResultChanged, ResultRenewed, ResultError:
			targeted++
		}
	}
	switch {
	case targeted == 0:
		return OutcomeGone
	case deleted == targeted:
		return OutcomeBroken
	case deleted > 0:
		return OutcomePartial
	}
	return OutcomeNotDeleted
}
