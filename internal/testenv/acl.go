package testenv

import (
	"context"
	"strings"
	"testing"
)

// The ACL rules docs/migration/redis-managed.md gives for the two users a managed Redis needs
// (ElastiCache calls them access strings). The docs test checks the page holds them as written.
const (
	// ACLApp is what pkg/lock and contrib/rails/osctl_lock.rb need: the lock keys and osctl's
	// own (fencing counters, semaphores), the commands of SET NX PX, of the scripts and of the
	// semaphore.
	ACLApp = "~redlock:* ~osctl:* resetchannels -@all +@connection +get +set +del +pexpire +pttl +eval +evalsha +time +zadd +zrem +zscore +zrange +zrangebyscore +zremrangebyscore"
	// ACLOsctl is what osctl locks (inspect, break, serve-metrics), preflight redis and the
	// rollout's lock gate need, on a standalone master, a cluster or Sentinel's master.
	ACLOsctl = "~redlock:* ~analysis:* ~osctl:* resetchannels -@all +@connection +scan +get +mget +pttl +type +eval +evalsha +multi +exec +del +xadd +xlen +xrange +info +config|get +time +cluster|slots +cluster|shards +cluster|info +cluster|nodes"
)

// AddACLUser creates (or resets) an ACL user with a password and rules on every server.
func AddACLUser(t testing.TB, servers []*Redis, name, password, rules string) {
	t.Helper()
	args := []any{"ACL", "SETUSER", name, "reset", "on", ">" + password}
	for _, r := range strings.Fields(rules) {
		args = append(args, r)
	}
	for _, s := range servers {
		c := s.Client()
		if err := c.Do(context.Background(), args...).Err(); err != nil {
			t.Fatalf("ACL SETUSER %s on %s: %v", name, s.Addr, err)
		}
		_ = c.Close()
	}
}

// WithoutCommands returns rules with the given commands denied after them.
func WithoutCommands(rules string, cmds ...string) string {
	for _, c := range cmds {
		rules += " -" + c
	}
	return rules
}
