package redischeck

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/redis/go-redis/v9"

	"github.com/osctl/osctl/pkg/preflight"
	"github.com/osctl/osctl/pkg/redisconn"
)

// Rule ids of the topology and permission checks.
const (
	RuleTopology    = "redis.topology"
	RulePermissions = "redis.permissions"
)

// Topology is how one lock instance is deployed, as far as it could be told.
type Topology struct {
	Name string         `json:"name"`
	Kind redisconn.Kind `json:"kind"`
	// Shards are a cluster's primaries (host:port); the master itself otherwise.
	Shards []string `json:"shards,omitempty"`
	// Replicas counts the replicas INFO reports on every shard (-1: INFO refused).
	Replicas int `json:"replicas"`
	// Sentinel is what the sentinels say of a Sentinel-managed master.
	Sentinel *redisconn.SentinelState `json:"sentinel,omitempty"`
	// Managed holds why the instance looks managed (CONFIG or INFO refused, a provider's INFO).
	Managed []string `json:"managed,omitempty"`
	Err     error    `json:"-"`
}

// topologyOf puts together what Check learnt of one master.
func topologyOf(ctx context.Context, m redisconn.Master, facts []Facts) Topology {
	t := Topology{Name: m.Name, Kind: m.KindOf()}
	for _, f := range facts {
		t.Shards = append(t.Shards, f.Addr)
		if f.Info == nil || t.Replicas < 0 {
			t.Replicas = -1
		} else {
			n, _ := strconv.Atoi(f.Info["connected_slaves"])
			t.Replicas += n
		}
		t.Managed = append(t.Managed, managedSigns(f)...)
	}
	if st, ok, err := m.Sentinel(ctx); ok {
		if err != nil {
			t.Err = redisconn.Explain(m, err)
		} else {
			t.Sentinel = &st
		}
	}
	return t
}

// managedSigns says why a server looks like a managed Redis: refused CONFIG or INFO, or what
// the providers put in INFO server.
func managedSigns(f Facts) []string {
	var out []string
	if f.ConfigErr != nil {
		out = append(out, "CONFIG GET refused ("+firstLine(f.ConfigErr)+")")
	}
	if f.InfoErr != nil {
		out = append(out, "INFO refused ("+firstLine(f.InfoErr)+")")
	}
	if os := f.Info["os"]; strings.Contains(os, "Amazon ElastiCache") {
		out = append(out, "INFO says "+os)
	}
	return out
}

func firstLine(err error) string {
	s, _, _ := strings.Cut(err.Error(), "\n")
	return s
}

// sentinelMitigations is what the Sentinel warning asks for.
const sentinelMitigations = "a lock over one Sentinel-managed master is not safe across a failover. Mitigate: " +
	"use 3 or 5 independent masters ({Redis.URLs} once per master) for Redlock proper; " +
	"set min-replicas-to-write 1 and min-replicas-max-lag 1 on the master (or send WAIT 1 after taking a lock), so a lock no replica got is refused; " +
	"and check fencing tokens (pkg/lock Lease.Token) where the guarded work writes, so a holder that lost its lock cannot overwrite a newer one"

// TopologyRule grades one lock instance's deployment. It does no I/O.
func TopologyRule(t Topology) preflight.Result {
	r := preflight.Result{ID: RuleTopology, Subject: t.Name}
	managed := ""
	if len(t.Managed) > 0 {
		managed = "; managed Redis, it seems: " + strings.Join(dedupe(t.Managed), "; ")
	}
	replicas := fmt.Sprintf("%d replica(s)", t.Replicas)
	if t.Replicas < 0 {
		replicas = "replicas unknown (INFO refused)"
	}
	switch t.Kind {
	case redisconn.Sentinel:
		if t.Err != nil {
			r.Status, r.Message = preflight.Unknown, "Sentinel: cannot ask the sentinels: "+t.Err.Error()
			return r
		}
		st := t.Sentinel
		r.Status = preflight.Warn
		r.Message = fmt.Sprintf("Sentinel with %d replica(s): master %s at %s, %d sentinel(s), quorum %d (flags %s); replication is asynchronous, so a lock acquired on the master can vanish at failover%s",
			st.Replicas, st.MasterName, st.Master, st.Sentinels, st.Quorum, st.Flags, managed)
		r.Fix = sentinelMitigations
	case redisconn.Cluster:
		r.Message = fmt.Sprintf("Redis Cluster with %d shard(s) (%s), %s: one lock instance, each key on the shard owning its slot", len(t.Shards), strings.Join(t.Shards, ", "), replicas)
		r.Status = preflight.Info
		if t.Replicas != 0 {
			r.Status = preflight.Warn
			r.Message += "; a shard's failover promotes a replica that may not have a lock the old primary granted" + managed
			r.Fix = "as for Sentinel: " + strings.TrimPrefix(sentinelMitigations, "a lock over one Sentinel-managed master is not safe across a failover. Mitigate: ")
			return r
		}
		r.Message += managed
	default:
		r.Status = preflight.Info
		r.Message = "standalone master, " + replicas + managed
		if t.Replicas > 0 {
			r.Message += "; a promotion of a replica (by hand or by an operator) can lose a lock: see redis.replication"
		}
	}
	return r
}

func dedupe(ss []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, s := range ss {
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	return out
}

// probeKey is a key under redlock: that no lock uses; the probes only read it.
const probeKey = "redlock:osctl-preflight-probe:permissions"

// Permissions is whether the user may run what osctl and pkg/lock need on one master: nil
// when allowed, the refusal, or another error when it could not be told.
type Permissions struct {
	Name string
	Eval error
	Scan error
	Get  error
}

// probePermissions runs EVAL (a script returning 1 on a redlock: key), SCAN over redlock:* and
// GET of a redlock: key, none of which changes anything.
func probePermissions(ctx context.Context, m redisconn.Master, node redis.UniversalClient) Permissions {
	p := Permissions{Name: m.Name}
	p.Eval = m.Client.Eval(ctx, "return 1", []string{probeKey}).Err()
	p.Scan = node.Scan(ctx, 0, "redlock:*", 1).Err()
	if p.Get = m.Client.Get(ctx, probeKey).Err(); p.Get == redis.Nil { //nolint:errorlint // go-redis returns the sentinel itself
		p.Get = nil
	}
	for _, e := range []*error{&p.Eval, &p.Scan, &p.Get} {
		if *e != nil {
			if pe := redisconn.Permission(m, *e); pe != nil {
				*e = pe
			}
		}
	}
	return p
}

// PermissionsRule grades what the user may run. It does no I/O.
func PermissionsRule(p Permissions) preflight.Result {
	r := preflight.Result{ID: RulePermissions, Subject: p.Name}
	var refused, unknown []string
	for _, c := range []struct {
		cmd string
		err error
	}{{"EVAL", p.Eval}, {"SCAN", p.Scan}, {"GET on redlock:*", p.Get}} {
		var pe *redisconn.PermissionError
		switch {
		case c.err == nil:
		case errors.As(c.err, &pe):
			refused = append(refused, c.cmd)
		default:
			unknown = append(unknown, c.cmd+": "+firstLine(c.err))
		}
	}
	switch {
	case len(refused) > 0:
		r.Status = preflight.Fail
		r.Message = "the ACL user may not run " + strings.Join(refused, ", ") + ": pkg/lock and osctl locks break need EVAL, osctl locks inspect SCAN and GET"
		r.Fix = "grant them (ACL SETUSER, or the provider's access string): docs/migration/redis-managed.md lists the rules"
	case len(unknown) > 0:
		r.Status, r.Message = preflight.Unknown, "could not tell: "+strings.Join(unknown, "; ")
	default:
		r.Status, r.Message = preflight.Pass, "the user may run EVAL, SCAN and GET on redlock:*"
	}
	return r
}
