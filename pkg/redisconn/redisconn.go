// Package redisconn turns osctl's Redis connection settings (standalone master URLs, Redis
// Cluster and Sentinel URLs, a CA file, a password read from a file or a Kubernetes Secret) into
// go-redis clients, one per independent lock instance, and explains connection failures in one
// line without ever showing a password.
package redisconn

import (
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"net/url"
	"os"
	"strings"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/osctl/osctl/pkg/redact"
)

// Config says how to reach the Redis masters.
type Config struct {
	// URLs are redis:// or rediss:// URLs, one per independent master.
	URLs []string
	// Clusters are Redis Cluster URLs (ParseClusterURL): each cluster is one lock instance.
	Clusters []string
	// Sentinels are Sentinel URLs (ParseSentinelURL): each names the sentinels of one
	// Sentinel-managed master, which is one lock instance.
	Sentinels []string
	// SentinelMaster is the master's name for Sentinel URLs without master_name=.
	SentinelMaster string
	// CAFile is a PEM bundle that verifies rediss:// servers (else the system roots).
	CAFile string
	// Password, when set, replaces the password of every URL (read from a file or a Secret):
	// of each standalone master, each cluster, and each Sentinel-managed master (not of the
	// sentinels, whose credentials are the Sentinel URL's userinfo).
	Password string
	// DialTimeout bounds connecting to one server. The default is 3s.
	DialTimeout time.Duration
	// ReadTimeout bounds one command. The default is 3s.
	ReadTimeout time.Duration
	// PoolSize is the connection pool size per server. The default is go-redis's.
	PoolSize int
}

// Kind is how a lock instance is deployed.
type Kind string

// The kinds of Master.
const (
	Standalone Kind = "standalone" // one master (maybe with replicas osctl does not use)
	Cluster    Kind = "cluster"    // a Redis Cluster: every key on the shard owning its slot
	Sentinel   Kind = "sentinel"   // a master found, and followed across failovers, through Sentinel
)

// Master is one independent lock instance: a standalone master, a Redis Cluster, or a
// Sentinel-managed master. It is the one type for "a Redis master" in osctl: the lock operations
// (pkg/lock/ops), the Redis preflight, the rollout's gates and the sandbox all take []Master, and
// pkg/lock takes their clients (Clients), each one master of a Redlock quorum.
type Master struct {
	// Name is the URL with its password masked (for Sentinel, with master_name= in it).
	Name string
	// Addr is the master's host:port; for a cluster its first seed node, for Sentinel the
	// master's name (its address changes at failover: see Nodes).
	Addr string
	// Client talks to the instance: a *redis.Client, a *redis.ClusterClient that routes each
	// key to its shard, or a failover *redis.Client that follows Sentinel's master.
	Client redis.UniversalClient
	// Kind is Standalone when empty.
	Kind Kind

	sentinel *sentinelSet // the sentinels of a Sentinel-managed master
}

// KindOf returns the master's kind, Standalone when it was not set.
func (m Master) KindOf() Kind {
	if m.Kind == "" {
		return Standalone
	}
	return m.Kind
}

// Close closes every master's client (and the connections to its sentinels).
func Close(ms []Master) {
	for _, m := range ms {
		_ = m.Client.Close()
		if m.sentinel != nil {
			m.sentinel.close()
		}
	}
}

// Clients returns the masters' clients as pkg/lock (and redsync) take them.
func Clients(ms []Master) []redis.UniversalClient {
	out := make([]redis.UniversalClient, len(ms))
	for i, m := range ms {
		out[i] = m.Client
	}
	return out
}

// Connect builds one client per lock instance: per URL, per cluster, per Sentinel URL. It does no
// I/O beyond reading the CA file; call Ping to check the masters answer.
func Connect(cfg Config) ([]Master, error) {
	if len(cfg.URLs)+len(cfg.Clusters)+len(cfg.Sentinels) == 0 {
		return nil, errors.New("no Redis master given: pass {Redis.URLs} URL (repeatable), {Redis.Clusters} URL or {Redis.Sentinels} URL, or set OSCTL_REDIS=url1,url2")
	}
	pool, err := caPool(cfg.CAFile)
	if err != nil {
		return nil, err
	}
	c := connector{cfg: cfg, pool: pool, seen: map[string]bool{}}
	var out []Master
	for _, kind := range []struct {
		urls  []string
		build func(string) (Master, error)
	}{{cfg.URLs, c.standalone}, {cfg.Clusters, c.cluster}, {cfg.Sentinels, c.failover}} {
		for _, raw := range kind.urls {
			m, err := kind.build(raw)
			if err != nil {
				Close(out)
				return nil, err
			}
			out = append(out, m)
		}
	}
	return out, nil
}

func caPool(file string) (*x509.CertPool, error) {
	if file == "" {
		return nil, nil
	}
	pem, err := os.ReadFile(file)
	if err != nil {
		return nil, fmt.Errorf("reading {Redis.CAFile}: %w", err)
	}
	pool := x509.NewCertPool()
	if !pool.AppendCertsFromPEM(pem) {
		return nil, fmt.Errorf("{Redis.CAFile} %s holds no PEM certificate", file)
	}
	return pool, nil
}

// connector builds the masters of one Config and refuses a server given twice.
type connector struct {
	cfg  Config
	pool *x509.CertPool
	seen map[string]bool // addresses given so far
}

func (c *connector) claim(raw string, addrs ...string) error {
	for _, a := range addrs {
		if c.seen[a] {
			return fmt.Errorf("Redis server %s is given twice (in %s): each {Redis.URLs}, {Redis.Clusters} and {Redis.Sentinels} must be an independent lock instance", a, redact.URL(raw))
		}
		c.seen[a] = true
	}
	return nil
}

// tlsConfig returns the TLS settings for a URL: nil for redis://, the system roots or the CA
// for rediss://. serverName "" verifies each server against the host it is dialled as (a
// cluster's nodes, Sentinel's master).
func (c *connector) tlsConfig(raw string, parsed *tls.Config, serverName string) (*tls.Config, error) {
	if parsed == nil {
		if c.pool != nil {
			return nil, fmt.Errorf("{Redis.CAFile} is set but %s is not rediss://", redact.URL(raw))
		}
		return nil, nil
	}
	return &tls.Config{RootCAs: c.pool, ServerName: serverName, MinVersion: tls.VersionTLS12}, nil
}

// knobs points at the fields that every kind of go-redis client (standalone, cluster, failover)
// takes from the Config alike.
type knobs struct {
	password             *string
	tls                  **tls.Config
	dial, read, write    *time.Duration
	retries, dialRetries *int
	contextTimeout       *bool
	poolSize             *int
}

// tune sets the knobs: the password flags' password, the TLS settings (tlsConfig), the dial and
// read timeouts, one retry, the callers' deadlines and the pool size.
func (c *connector) tune(raw, serverName string, k knobs) error {
	if c.cfg.Password != "" {
		*k.password = c.cfg.Password
	}
	t, err := c.tlsConfig(raw, *k.tls, serverName)
	if err != nil {
		return err
	}
	*k.tls = t
	*k.dial, *k.read = orDefault(c.cfg.DialTimeout, 3*time.Second), orDefault(c.cfg.ReadTimeout, 3*time.Second)
	*k.write = *k.read
	*k.retries = 1
	// go-redis dials 5 times per attempt by default: on a master that is down that is 5
	// dial timeouts per command (15 s with the 3 s default), times MaxRetries+1.
	*k.dialRetries = 1
	// Honour the caller's context deadlines, so a hung master cannot stall a lock operation.
	*k.contextTimeout = true
	if c.cfg.PoolSize > 0 {
		*k.poolSize = c.cfg.PoolSize
	}
	return nil
}

func (c *connector) standalone(raw string) (Master, error) {
	opt, err := ParseURL(raw)
	if err != nil {
		return Master{}, err
	}
	if err := c.claim(raw, opt.Addr); err != nil {
		return Master{}, err
	}
	serverName := ""
	if opt.TLSConfig != nil {
		serverName = opt.TLSConfig.ServerName
	}
	if err := c.tune(raw, serverName, knobs{&opt.Password, &opt.TLSConfig, &opt.DialTimeout, &opt.ReadTimeout,
		&opt.WriteTimeout, &opt.MaxRetries, &opt.DialerRetries, &opt.ContextTimeoutEnabled, &opt.PoolSize}); err != nil {
		return Master{}, err
	}
	return Master{Name: c.name(raw), Addr: opt.Addr, Client: redis.NewClient(opt), Kind: Standalone}, nil
}

func (c *connector) cluster(raw string) (Master, error) {
	opt, err := ParseClusterURL(raw)
	if err != nil {
		return Master{}, err
	}
	if err := c.claim(raw, opt.Addrs...); err != nil {
		return Master{}, err
	}
	if err := c.tune(raw, "", knobs{&opt.Password, &opt.TLSConfig, &opt.DialTimeout, &opt.ReadTimeout,
		&opt.WriteTimeout, &opt.MaxRetries, &opt.DialerRetries, &opt.ContextTimeoutEnabled, &opt.PoolSize}); err != nil {
		return Master{}, err
	}
	return Master{Name: c.name(raw), Addr: opt.Addrs[0], Client: redis.NewClusterClient(opt), Kind: Cluster}, nil
}

func (c *connector) failover(raw string) (Master, error) {
	opt, err := ParseSentinelURL(raw, c.cfg.SentinelMaster)
	if err != nil {
		return Master{}, err
	}
	if err := c.claim(raw, opt.SentinelAddrs...); err != nil {
		return Master{}, err
	}
	// The master's credentials: its password from the password flags, else the sentinels'
	// (Bitnami's chart gives both one password); its ACL user from username=, else theirs.
	if opt.Username == "" {
		opt.Username = opt.SentinelUsername
	}
	opt.Password = opt.SentinelPassword
	if err := c.tune(raw, "", knobs{&opt.Password, &opt.TLSConfig, &opt.DialTimeout, &opt.ReadTimeout,
		&opt.WriteTimeout, &opt.MaxRetries, &opt.DialerRetries, &opt.ContextTimeoutEnabled, &opt.PoolSize}); err != nil {
		return Master{}, err
	}
	name := redact.URL(raw)
	if !strings.Contains(name, "master_name=") {
		sep := "?"
		if strings.Contains(name, "?") {
			sep = "&"
		}
		name += sep + "master_name=" + url.QueryEscape(opt.MasterName)
	}
	return Master{Name: name, Addr: opt.MasterName, Client: redis.NewFailoverClient(opt), Kind: Sentinel,
		sentinel: newSentinelSet(opt)}, nil
}

// name is the URL as printed: its password masked, also when the password flags replace it.
func (c *connector) name(raw string) string {
	if c.cfg.Password != "" {
		return maskedName(raw)
	}
	return redact.URL(raw)
}

func maskedName(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return redact.URL(raw)
	}
	user := ""
	if u.User != nil {
		user = u.User.Username()
	}
	u.User = url.UserPassword(user, redact.Mask)
	return redact.URL(u.String())
}

func orDefault(d, def time.Duration) time.Duration {
	if d > 0 {
		return d
	}
	return def
}
