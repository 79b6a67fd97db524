package preflight

import (
	"context"
	"time"

	"github.com/spf13/cobra"

	"github.com/osctl/osctl/internal/cli/cmdutil"
	"github.com/osctl/osctl/pkg/lock"
	"github.com/osctl/osctl/pkg/preflight"
	"github.com/osctl/osctl/pkg/preflight/redischeck"
	"github.com/osctl/osctl/pkg/redisconn"
)

// RedisOptions are the inputs of `osctl preflight redis`.
type RedisOptions struct {
	IO      *cmdutil.IOStreams
	Masters func(context.Context) ([]redisconn.Master, func(), error)
	Common  *Common

	LockTTL       time.Duration
	ClockInterval time.Duration
}

// NewCmdRedis builds `osctl preflight redis`.
func NewCmdRedis(f *cmdutil.Factory, common *Common, runF func(context.Context, *RedisOptions) error) *cobra.Command {
	opts := &RedisOptions{IO: f.IO, Masters: f.RedisMasters, Common: common}
	cmd := &cobra.Command{
		Use:   "redis",
		Short: "Check the Redis masters Redlock depends on: eviction, persistence, failover, latency, clocks",
		Long: `Check every Redis master given with --redis (repeatable), $OSCTL_REDIS or --redis-service, every
primary shard of a --redis-cluster, and the master the sentinels of a --redis-sentinel name now:
  redis.reachable          every master answers (an unreachable one is a FAIL)
  redis.topology           standalone, Sentinel with N replicas, cluster with N shards, managed (CONFIG or
                           INFO refused); Sentinel WARNs that a lock can be lost at failover, with the mitigations
  redis.permissions        the ACL user may run EVAL, SCAN and GET on redlock:* (FAIL naming what it may not)
  redis.maxmemory-policy   with maxmemory set only noeviction is safe (volatile-* evicts lock keys: FAIL)
  redis.persistence        appendonly/appendfsync, for Redlock restarts and fencing counters (WARN when missing)
  redis.masters            one master (a single point of failure) or an even number: WARN
  redis.replication        replicated masters, Redis Cluster or Sentinel (failover can lose a lock): WARN
  redis.rtt                round-trip time against the lock TTL (--lock-ttl)
  redis.clock              the server clock's rate and jumps over --clock-interval, against the local monotonic clock
Managed Redis that blocks CONFIG or INFO gives unknown for what only they can tell, with the
reason (maxmemory-policy is then read from INFO). docs/migration/redis-cluster.md,
redis-sentinel.md and redis-managed.md walk through each topology.`,
		Example: `  osctl preflight redis --redis redis://127.0.0.1:6379
  osctl preflight redis --redis redis://a:6379 --redis redis://b:6379 --redis redis://c:6379 --lock-ttl 10s
  osctl preflight redis -n openstudio --redis-service queue -o json
  osctl preflight redis --redis-cluster 'rediss://osctl:PASS@clustercfg.example.cache.amazonaws.com:6379'
  osctl preflight redis --redis-sentinel 'redis://:PASS@redis-node-0.redis-headless:26379?addr=redis-node-1.redis-headless:26379' --redis-sentinel-master mymaster`,
		Args: cobra.NoArgs,
		RunE: cmdutil.RunE(opts, common.prepare(opts.validate), runF, redisRun),
	}
	addRedisFlags(cmd, opts)
	return cmd
}

func addRedisFlags(cmd *cobra.Command, opts *RedisOptions) {
	cmd.Flags().DurationVar(&opts.LockTTL, "lock-ttl", lock.DefaultTTL, "the lock TTL the application uses (round trips are judged against it)")
	cmd.Flags().DurationVar(&opts.ClockInterval, "clock-interval", time.Second, "how long the server clock is watched")
}

// validate checks the flags and arguments; it does no I/O.
func (o *RedisOptions) validate() error {
	if o.LockTTL <= 0 {
		return cmdutil.Usage("--lock-ttl must be positive")
	}
	if o.ClockInterval < 100*time.Millisecond || o.ClockInterval > time.Minute {
		return cmdutil.Usage("--clock-interval must be between 100ms and 1m")
	}
	return nil
}

func redisRun(ctx context.Context, opts *RedisOptions) error {
	rs, err := redisResults(ctx, opts)
	return runOne(opts.IO, opts.Common, "redis", rs, err)
}

func redisResults(ctx context.Context, opts *RedisOptions) ([]preflight.Result, error) {
	ms, closeAll, err := opts.Masters(ctx)
	if err != nil {
		return nil, err
	}
	defer closeAll()
	rs := redischeck.Check(ctx, ms, redischeck.Options{LockTTL: opts.LockTTL, ClockInterval: opts.ClockInterval})
	for i := range rs { // the checks name the Redis settings as {Redis.URLs}: as the flags here
		rs[i].Message, rs[i].Fix = cmdutil.RedisSettings.Text(rs[i].Message), cmdutil.RedisSettings.Text(rs[i].Fix)
	}
	return preflight.ApplyIgnores(rs, opts.Common.Config, nil), nil
}
