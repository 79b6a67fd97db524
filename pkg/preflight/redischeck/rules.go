package redischeck

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/osctl/osctl/pkg/preflight"
)

// Rule ids. They are stable: users ignore rules by id.
const (
	RuleReachable   = "redis.reachable"
	RuleMasters     = "redis.masters"
	RuleEviction    = "redis.maxmemory-policy"
	RulePersistence = "redis.persistence"
	RuleReplication = "redis.replication"
	RuleRTT         = "redis.rtt"
	RuleClock       = "redis.clock"
)

// Thresholds of the timing rules.
const (
	// RTTWarnShare and RTTFailShare are the shares of the lock TTL that acquiring on every
	// master may cost before a WARN and a FAIL.
	RTTWarnShare = 0.10
	RTTFailShare = 0.50
	// DriftFail is Redlock's clock drift allowance (redlock-rb's drift factor, 1%).
	DriftFail = 0.01
	// DriftWarn is a tenth of it.
	DriftWarn = 0.001
	// JumpSlack is added to the round trips before a step between two samples counts as a jump.
	JumpSlack = 25 * time.Millisecond
)

// Rules grades the facts of every master. They do no I/O.
func Rules(facts []Facts, o Options) []preflight.Result {
	o.defaults()
	var rs []preflight.Result
	n := instances(facts)
	rs = append(rs, mastersRule(n))
	for _, f := range facts {
		if f.PingErr != nil {
			rs = append(rs, preflight.Result{ID: RuleReachable, Status: preflight.Fail, Subject: f.Name,
				Message: "unreachable: " + f.PingErr.Error(), Fix: "every Redlock master must answer: check the URL, network and password"})
			continue
		}
		ver := f.Info["redis_version"]
		if ver == "" {
			ver = "?"
		}
		rs = append(rs, preflight.Result{ID: RuleReachable, Status: preflight.Pass, Subject: f.Name,
			Message: fmt.Sprintf("answers PING (redis %s)", ver)})
		rs = append(rs, evictionRule(f), persistenceRule(f), replicationRule(f), rttRule(f, n, o.LockTTL), clockRule(f))
	}
	return rs
}

// instances counts the lock instances among the facts: the servers of one cluster are one.
func instances(facts []Facts) int {
	seen := map[string]bool{}
	n := 0
	for _, f := range facts {
		if f.Master == "" || !seen[f.Master] {
			n++
		}
		if f.Master != "" {
			seen[f.Master] = true
		}
	}
	return n
}

func mastersRule(n int) preflight.Result {
	r := preflight.Result{ID: RuleMasters, Subject: "redis"}
	switch {
	case n == 1:
		r.Status, r.Message = preflight.Warn, "one master (a cluster or a Sentinel-managed master counts as one): a single point of failure, and a restart without persistence loses every lock"
		r.Fix = "run 3 or 5 independent masters (Redlock), or accept the single point of failure with AOF persistence"
	case n%2 == 0:
		r.Status = preflight.Warn
		r.Message = fmt.Sprintf("%d masters: an even number (quorum %d) tolerates no more failures than %d would", n, n/2+1, n-1)
		r.Fix = "use an odd number of independent masters (3 or 5)"
	default:
		r.Status = preflight.Pass
		r.Message = fmt.Sprintf("%d independent masters: quorum %d tolerates %d failure(s)", n, n/2+1, n-(n/2+1))
	}
	return r
}

func blocked(err error) string {
	msg := err.Error()
	return "CONFIG is not available (managed Redis often blocks it): " + msg
}

func evictionRule(f Facts) preflight.Result {
	r := preflight.Result{ID: RuleEviction, Subject: f.Name}
	maxmem, policy, src := "", "", "CONFIG"
	if f.Config != nil {
		maxmem, policy = f.Config["maxmemory"], f.Config["maxmemory-policy"]
	} else if f.Info != nil && f.Info["maxmemory_policy"] != "" {
		maxmem, policy, src = f.Info["maxmemory"], f.Info["maxmemory_policy"], "INFO (CONFIG is blocked)"
	} else {
		reason := "neither CONFIG nor INFO memory report maxmemory-policy"
		if f.ConfigErr != nil {
			reason = blocked(f.ConfigErr) + "; INFO memory has no maxmemory_policy"
		}
		r.Status, r.Message = preflight.Unknown, reason
		r.Fix = "ask the provider which maxmemory-policy applies: only noeviction keeps lock keys"
		return r
	}
	switch {
	case maxmem == "0" || maxmem == "":
		r.Status = preflight.Pass
		r.Message = fmt.Sprintf("no maxmemory limit (policy %s, from %s): nothing is evicted", policy, src)
	case policy == "noeviction":
		r.Status = preflight.Pass
		r.Message = fmt.Sprintf("maxmemory %s with noeviction (from %s): writes fail when full, lock keys are never evicted", maxmem, src)
	default:
		r.Status = preflight.Fail
		why := "evicts keys when full"
		if strings.HasPrefix(policy, "volatile-") {
			why = "evicts keys with a TTL when full, and every lock key has one"
		}
		r.Message = fmt.Sprintf("maxmemory %s with policy %s (from %s) %s: a lock can vanish while held", maxmem, policy, src, why)
		r.Fix = "CONFIG SET maxmemory-policy noeviction (and persist it in redis.conf / the provider's parameter group)"
	}
	return r
}

func persistenceRule(f Facts) preflight.Result {
	r := preflight.Result{ID: RulePersistence, Subject: f.Name}
	const advice = "a master that restarts empty forgets locks it granted: enable appendonly yes with appendfsync always (or everysec and restart a crashed master only after the longest lock TTL); fencing counters must survive restarts too"
	if f.Config == nil {
		reason := "CONFIG unavailable"
		if f.ConfigErr != nil {
			reason = blocked(f.ConfigErr)
		}
		aof := ""
		if v := f.Info["aof_enabled"]; v != "" {
			aof = "; INFO says aof_enabled=" + v + ", appendfsync unknown"
		}
		r.Status, r.Message, r.Fix = preflight.Unknown, reason+aof, "ask the provider about AOF and fsync: "+advice
		return r
	}
	aof, fsync, save := f.Config["appendonly"], f.Config["appendfsync"], f.Config["save"]
	switch {
	case aof == "yes" && fsync == "always":
		r.Status, r.Message = preflight.Pass, "appendonly yes, appendfsync always: locks and fencing counters survive a restart"
	case aof == "yes" && fsync == "everysec":
		r.Status = preflight.Pass
		r.Message = "appendonly yes, appendfsync everysec: a crash can lose the last second; restart a crashed master only after the longest lock TTL"
	case aof == "yes":
		r.Status, r.Message, r.Fix = preflight.Warn, "appendonly yes but appendfsync "+fsync+": the OS decides when writes reach disk, a crash can lose locks and fencing counters", advice
	default:
		snap := "no snapshots"
		if strings.TrimSpace(save) != "" {
			snap = "RDB snapshots only (save " + save + ")"
		}
		r.Status, r.Message, r.Fix = preflight.Warn, "appendonly no, "+snap+": a restart loses recent locks and fencing counters", advice
	}
	return r
}

func replicationRule(f Facts) preflight.Result {
	r := preflight.Result{ID: RuleReplication, Subject: f.Name}
	if f.Info == nil {
		r.Status, r.Message = preflight.Unknown, "INFO unavailable"
		if f.InfoErr != nil {
			r.Message += ": " + f.InfoErr.Error()
		}
		return r
	}
	var notes []string
	if f.Info["redis_mode"] == "sentinel" {
		notes = append(notes, "this is a Sentinel, not a master: give the masters themselves")
	}
	cluster := f.Info["cluster_enabled"] == "1" || f.Info["redis_mode"] == "cluster"
	switch role := f.Info["role"]; role {
	case "slave", "replica":
		notes = append(notes, "this is a replica of "+f.Info["master_host"]+":"+f.Info["master_port"]+": lock writes fail (READONLY) and a promotion can lose locks")
	case "master":
		n, _ := strconv.Atoi(f.Info["connected_slaves"])
		switch {
		case n > 0 && cluster:
			notes = append(notes, fmt.Sprintf("Redis Cluster shard with %d replica(s): a shard's failover can promote a replica that never saw a lock", n))
		case n > 0:
			notes = append(notes, fmt.Sprintf("replicated master (%d replica(s)): replication is asynchronous, so a failover can lose a lock", n))
		}
	}
	if len(notes) == 0 {
		r.Status, r.Message = preflight.Pass, "standalone master without replicas"
		if cluster {
			r.Message = "Redis Cluster shard without replicas: no failover can lose a lock (a restart without persistence can)"
		}
		return r
	}
	r.Status, r.Message = preflight.Warn, strings.Join(notes, "; ")
	r.Fix = "Redlock wants independent masters without failover; with failover, delay promotion beyond the longest lock TTL"
	return r
}

func rttRule(f Facts, n int, ttl time.Duration) preflight.Result {
	r := preflight.Result{ID: RuleRTT, Subject: f.Name}
	if len(f.RTTs) == 0 {
		r.Status, r.Message = preflight.Unknown, "no round trip measured"
		return r
	}
	s := slices.Clone(f.RTTs)
	slices.Sort(s)
	med, worst := s[len(s)/2], s[len(s)-1]
	cost := worst * time.Duration(n)
	share := float64(cost) / float64(ttl)
	r.Message = fmt.Sprintf("round trip median %s, max %s; acquiring on %d master(s) one after another costs up to %s, %.1f%% of the %s lock TTL",
		round(med), round(worst), n, round(cost), share*100, ttl)
	switch {
	case share >= RTTFailShare:
		r.Status, r.Fix = preflight.Fail, "raise the lock TTL or move Redis closer: a lock would be near expiry when granted"
	case share >= RTTWarnShare:
		r.Status, r.Fix = preflight.Warn, "raise the lock TTL or move Redis closer"
	default:
		r.Status = preflight.Pass
	}
	return r
}

func clockRule(f Facts) preflight.Result {
	r := preflight.Result{ID: RuleClock, Subject: f.Name}
	if f.ClockErr != nil && len(f.Clock) < 2 {
		r.Status, r.Message = preflight.Unknown, "cannot sample TIME: "+f.ClockErr.Error()
		return r
	}
	c := AnalyzeClock(f.Clock)
	if !c.OK {
		r.Status, r.Message = preflight.Unknown, "too few TIME samples"
		return r
	}
	r.Message = fmt.Sprintf("server clock rate %.5f over %s against the local monotonic clock (±%.3f%%)", c.Rate, round(c.Elapsed), c.Uncertainty*100)
	drift := math.Abs(c.Rate-1) - c.Uncertainty
	switch {
	case len(c.Jumps) > 0:
		r.Status = preflight.Warn
		r.Message += "; the clock jumped: " + strings.Join(c.Jumps, ", ")
		r.Fix = "run the Redis host's clock with slewing NTP (no steps): a step expires or prolongs every lock at once"
	case drift > DriftFail:
		r.Status = preflight.Fail
		r.Message += fmt.Sprintf(": off by more than Redlock's %.0f%% drift allowance", DriftFail*100)
		r.Fix = "fix the Redis host's clock (NTP); Redlock's validity assumes clocks that run at nearly the same rate"
	case drift > DriftWarn:
		r.Status = preflight.Warn
		r.Message += fmt.Sprintf(": off by more than %.1f%%", DriftWarn*100)
		r.Fix = "check the Redis host's NTP"
	default:
		r.Status = preflight.Pass
	}
	return r
}

// ClockAnalysis is the server clock's rate against the local monotonic clock and its jumps.
type ClockAnalysis struct {
	OK          bool
	Rate        float64 // server seconds per local second
	Uncertainty float64 // from the round trips of the first and last samples
	Elapsed     time.Duration
	Jumps       []string
}

// AnalyzeClock computes the rate between the first and last sample and finds steps between
// consecutive samples larger than their round trips allow.
func AnalyzeClock(s []ClockSample) ClockAnalysis {
	var a ClockAnalysis
	if len(s) < 2 {
		return a
	}
	first, last := s[0], s[len(s)-1]
	a.Elapsed = last.Local - first.Local
	if a.Elapsed <= 0 {
		return a
	}
	a.OK = true
	a.Rate = float64(last.Server.Sub(first.Server)) / float64(a.Elapsed)
	a.Uncertainty = float64(first.RTT/2+last.RTT/2+time.Microsecond) / float64(a.Elapsed)
	for i := 1; i < len(s); i++ {
		dl := s[i].Local - s[i-1].Local
		ds := s[i].Server.Sub(s[i-1].Server)
		slack := s[i].RTT/2 + s[i-1].RTT/2 + JumpSlack
		if diff := ds - dl; diff > slack || diff < -slack {
			a.Jumps = append(a.Jumps, fmt.Sprintf("%+v between samples %d and %d", round(diff), i, i+1))
		}
	}
	return a
}

func round(d time.Duration) time.Duration {
	switch {
	case d >= time.Second:
		return d.Round(time.Millisecond)
	case d >= time.Millisecond:
		return d.Round(10 * time.Microsecond)
	default:
		return d.Round(time.Microsecond)
	}
}
