package testenv

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/osctl/osctl/pkg/redisproc"
)

// TopologyOptions configure a test cluster or Sentinel setup.
type TopologyOptions struct {
	// Password is every server's requirepass (and the sentinels').
	Password string
	// TLS, when set, makes every server also listen with TLS (on TLSPort), speak TLS to the
	// others, and announce its TLS port to TLS clients.
	TLS *TLSFiles
}

// RedisNode is one server of a topology: its plain port (the harness's own control channel)
// and, with TLS, its TLS port.
type RedisNode struct {
	*Redis
	TLSPort int
}

// TLSAddr is the node's TLS address (its plain one without TLS).
func (n RedisNode) TLSAddr() string {
	if n.TLSPort == 0 {
		return n.Addr
	}
	return "127.0.0.1:" + strconv.Itoa(n.TLSPort)
}

// RedisCluster is a Redis Cluster of primaries without replicas on loopback ports, created with
// redis-cli --cluster create as an operator would.
type RedisCluster struct {
	Nodes []RedisNode
	o     TopologyOptions
}

// redisCLI returns redis-cli's path, failing in CI (skipping elsewhere) when it is missing.
func redisCLI(t testing.TB) string {
	t.Helper()
	p, err := exec.LookPath("redis-cli")
	Require(t, err == nil, "redis-cli (apt-get install -y redis-tools)")
	return p
}

// startNode starts one data server of a topology with args; with a password it also
// authenticates to its master with it.
func startNode(t testing.TB, o TopologyOptions, args ...string) RedisNode {
	t.Helper()
	if o.Password != "" {
		args = append(args, "--masterauth", o.Password)
	}
	return startServer(t, o, WithArgs(args...))
}

// startServer starts one server of a topology (a data node or a sentinel) with opts: on a free TLS
// port too when o.TLS is set, and requiring o.Password when there is one.
func startServer(t testing.TB, o TopologyOptions, opts ...func(*redisproc.Options)) RedisNode {
	t.Helper()
	var n RedisNode
	if o.TLS != nil {
		p, err := redisproc.FreePort()
		if err != nil {
			t.Fatal(err)
		}
		n.TLSPort = p
		opts = append(opts, WithArgs(o.TLS.ServerArgs(p)...))
	}
	if o.Password != "" {
		opts = append(opts, WithPassword(o.Password))
	}
	n.Redis = StartRedis(t, opts...)
	return n
}

// StartRedisCluster starts n primaries with cluster-enabled yes, joins them with
// `redis-cli --cluster create` and waits until every node reports cluster_state:ok (at most 30 s).
// Every process is killed when the test ends.
func StartRedisCluster(t testing.TB, n int, o TopologyOptions) *RedisCluster {
	t.Helper()
	cli := redisCLI(t)
	c := &RedisCluster{o: o}
	// Each node has a directory of its own, so its nodes.conf is its own.
	args := []string{"--cluster-enabled", "yes", "--cluster-node-timeout", "3000", "--cluster-config-file", "nodes.conf"}
	if o.TLS != nil {
		args = append(args, "--tls-cluster", "yes")
	}
	for i := 0; i < n; i++ {
		c.Nodes = append(c.Nodes, startNode(t, o, args...))
	}
	create := []string{"--cluster", "create"}
	for _, nd := range c.Nodes {
		create = append(create, nd.TLSAddr())
	}
	create = append(create, "--cluster-replicas", "0", "--cluster-yes")
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, cli, append(c.cliArgs(), create...)...)
	if o.Password != "" {
		cmd.Env = append(os.Environ(), "REDISCLI_AUTH="+o.Password)
	}
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("redis-cli --cluster create: %v\n%s", err, out)
	}
	var clients []*redis.Client
	for _, nd := range c.Nodes {
		clients = append(clients, nd.Client())
	}
	WaitFor(t, 30*time.Second, "the cluster to be ok on every node", func() (bool, error) {
		for _, nc := range clients {
			info, err := nc.ClusterInfo(ctx).Result()
			if err != nil || !strings.Contains(info, "cluster_state:ok") {
				return false, nil
			}
		}
		return true, nil
	})
	return c
}

// cliArgs are redis-cli's TLS arguments.
func (c *RedisCluster) cliArgs() []string {
	if c.o.TLS == nil {
		return nil
	}
	return []string{"--tls", "--cacert", c.o.TLS.CA}
}

// URL is the cluster's URL in go-redis's form: the first node, then addr= for the others
// (rediss:// with TLS), with the password when there is one.
func (c *RedisCluster) URL() string { return topologyURL(c.o, c.Nodes) }

// topologyURL is go-redis's URL for several servers: the first node, then addr= for the others
// (their TLS addresses and rediss:// with TLS), with the password when there is one.
func topologyURL(o TopologyOptions, nodes []RedisNode) string {
	scheme := "redis://"
	if o.TLS != nil {
		scheme = "rediss://"
	}
	auth := ""
	if o.Password != "" {
		auth = ":" + o.Password + "@"
	}
	u := scheme + auth + nodes[0].TLSAddr()
	for i, nd := range nodes[1:] {
		sep := "&"
		if i == 0 {
			sep = "?"
		}
		u += sep + "addr=" + nd.TLSAddr()
	}
	return u
}

// Client returns a cluster client of the harness (plain ports), closed when the test ends.
func (c *RedisCluster) Client(t testing.TB) *redis.ClusterClient {
	t.Helper()
	var addrs []string
	for _, nd := range c.Nodes {
		addrs = append(addrs, nd.Addr)
	}
	cc := redis.NewClusterClient(&redis.ClusterOptions{Addrs: addrs, Password: c.o.Password})
	t.Cleanup(func() { _ = cc.Close() })
	return cc
}

// NodeFor returns the node that owns key's slot.
func (c *RedisCluster) NodeFor(t testing.TB, key string) RedisNode {
	t.Helper()
	ctx := context.Background()
	nc := c.Nodes[0].Client()
	slot, err := nc.ClusterKeySlot(ctx, key).Result()
	if err != nil {
		t.Fatal(err)
	}
	shards, err := nc.ClusterShards(ctx).Result()
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range shards {
		for _, r := range s.Slots {
			if r.Start > slot || slot > r.End {
				continue
			}
			for _, sn := range s.Nodes {
				if sn.Role != "master" {
					continue
				}
				for _, nd := range c.Nodes {
					if int64(nd.Port) == sn.Port || nd.TLSPort != 0 && int64(nd.TLSPort) == sn.TLSPort {
						return nd
					}
				}
			}
		}
	}
	t.Fatalf("no node owns slot %d of %q", slot, key)
	return RedisNode{}
}

// TLSConfig returns a client TLS configuration that trusts the test CA.
func (f TLSFiles) TLSConfig(t testing.TB) *tls.Config {
	t.Helper()
	pem, err := os.ReadFile(f.CA)
	if err != nil {
		t.Fatal(err)
	}
	pool := x509.NewCertPool()
	pool.AppendCertsFromPEM(pem)
	return &tls.Config{RootCAs: pool, MinVersion: tls.VersionTLS12}
}
