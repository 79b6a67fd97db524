package testenv

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/osctl/osctl/pkg/redisproc"
)

// SentinelMaster is the name the harness's sentinels monitor the master under.
const SentinelMaster = "mymaster"

// RedisSentinel is one master, its replica and three sentinels that watch them (quorum 2), as
// Bitnami's chart and many Helm setups run Redis.
type RedisSentinel struct {
	Master, Replica RedisNode
	Sentinels       []RedisNode
	o               TopologyOptions
	sc              []*redis.SentinelClient // one per sentinel, on its plain port
}

// StartRedisSentinel starts the master, a replica of it and three sentinels, and waits (at most
// 30 s) until the replica is in sync and every sentinel knows the replica and the two other
// sentinels, so that a failover can run. Every process is killed when the test ends.
func StartRedisSentinel(t testing.TB, o TopologyOptions) *RedisSentinel {
	t.Helper()
	s := &RedisSentinel{o: o}
	s.Master = startNode(t, o)
	replArgs := []string{"--replicaof", "127.0.0.1", strconv.Itoa(s.Master.Port)}
	if o.TLS != nil {
		replArgs = []string{"--replicaof", "127.0.0.1", strconv.Itoa(s.Master.TLSPort)}
	}
	s.Replica = startNode(t, o, replArgs...)
	if o.TLS != nil {
		// The sentinels learn the replica's address from the master's INFO: make it the TLS one.
		_ = s.Replica.Client().ConfigSet(context.Background(), "replica-announce-port", strconv.Itoa(s.Replica.TLSPort)).Err()
	}
	for i := 0; i < 3; i++ {
		sn := s.startSentinel(t)
		s.Sentinels = append(s.Sentinels, sn)
		c := redis.NewSentinelClient(&redis.Options{Addr: sn.Addr, Password: o.Password, DialTimeout: time.Second, ReadTimeout: time.Second})
		t.Cleanup(func() { _ = c.Close() })
		s.sc = append(s.sc, c)
	}
	ctx := context.Background()
	rc := s.Replica.Client()
	WaitFor(t, 30*time.Second, "the replica to sync and the sentinels to find each other", func() (bool, error) {
		info, err := rc.Info(ctx, "replication").Result()
		if err != nil || !strings.Contains(info, "master_link_status:up") {
			return false, nil
		}
		for _, sc := range s.sc {
			m, err := sc.Master(ctx, SentinelMaster).Result()
			if err != nil || m["num-slaves"] != "1" || m["num-other-sentinels"] != "2" {
				return false, nil
			}
		}
		return true, nil
	})
	return s
}

func (s *RedisSentinel) startSentinel(t testing.TB) RedisNode {
	t.Helper()
	dir := t.TempDir()
	conf := filepath.Join(dir, "sentinel.conf")
	mport := s.Master.Port
	var b strings.Builder
	if s.o.TLS != nil {
		mport = s.Master.TLSPort
	}
	fmt.Fprintf(&b, "sentinel monitor %s 127.0.0.1 %d 2\n", SentinelMaster, mport)
	fmt.Fprintf(&b, "sentinel down-after-milliseconds %s 3000\nsentinel failover-timeout %s 20000\n", SentinelMaster, SentinelMaster)
	if s.o.Password != "" {
		fmt.Fprintf(&b, "sentinel auth-pass %s %s\nsentinel sentinel-pass %s\n", SentinelMaster, s.o.Password, s.o.Password)
	}
	if err := os.WriteFile(conf, []byte(b.String()), 0o600); err != nil {
		t.Fatal(err)
	}
	return startServer(t, s.o, func(o *redisproc.Options) { o.Dir, o.ConfigFile, o.Sentinel = dir, conf, true })
}

// URL is the Sentinel URL in go-redis's failover form: the first sentinel, addr= for the others
// (rediss:// with TLS), the sentinels' password in the userinfo. It names no master (pass
// SentinelMaster with --redis-sentinel-master).
func (s *RedisSentinel) URL() string { return topologyURL(s.o, s.Sentinels) }

// Nodes returns the master and the replica, in that order as started.
func (s *RedisSentinel) Nodes() []RedisNode { return []RedisNode{s.Master, s.Replica} }

// CurrentMaster returns the node the sentinels name as master now.
func (s *RedisSentinel) CurrentMaster(t testing.TB) RedisNode {
	t.Helper()
	hp, err := s.sc[0].GetMasterAddrByName(context.Background(), SentinelMaster).Result()
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range s.Nodes() {
		if strconv.Itoa(n.Port) == hp[1] || strconv.Itoa(n.TLSPort) == hp[1] {
			return n
		}
	}
	t.Fatalf("the sentinels name %v, neither the master nor the replica", hp)
	return RedisNode{}
}

// Failover runs SENTINEL FAILOVER and waits (at most 60 s) until every sentinel names the other
// node, that node says it is a master and the old master says it is a replica. It returns the
// new master.
func (s *RedisSentinel) Failover(t testing.TB) RedisNode {
	t.Helper()
	ctx := context.Background()
	old := s.CurrentMaster(t)
	next := s.Replica
	if next.Port == old.Port {
		next = s.Master
	}
	WaitFor(t, 30*time.Second, "SENTINEL FAILOVER to be accepted", func() (bool, error) {
		err := s.sc[0].Failover(ctx, SentinelMaster).Err()
		if err != nil && (strings.Contains(err.Error(), "NOGOODSLAVE") || strings.Contains(err.Error(), "INPROG")) {
			return false, nil
		}
		return err == nil, err
	})
	nc, oc := next.Client(), old.Client()
	WaitFor(t, 60*time.Second, "the failover to finish", func() (bool, error) {
		for _, sc := range s.sc {
			hp, err := sc.GetMasterAddrByName(ctx, SentinelMaster).Result()
			if err != nil || (hp[1] != strconv.Itoa(next.Port) && hp[1] != strconv.Itoa(next.TLSPort)) {
				return false, nil
			}
		}
		nr, err1 := nc.Do(ctx, "ROLE").Slice()
		or, err2 := oc.Do(ctx, "ROLE").Slice()
		return err1 == nil && err2 == nil && len(nr) > 0 && len(or) > 0 && nr[0] == "master" && or[0] == "slave", nil
	})
	return next
}
