// Package redisconn turns osctl's Redis connection settings (URLs, CA file, a password read from a
// file or a Kubernetes Secret) into go-redis clients, one per independent Redlock master, and
// explains connection failures in one line without ever showing a password.
package redisconn

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"net"
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
	// CAFile is a PEM bundle that verifies rediss:// servers (else the system roots).
	CAFile string
	// Password, when set, replaces the password of every URL (read from a file or a Secret).
	Password string
	// DialTimeout bounds connecting to one master. The default is 3s.
	DialTimeout time.Duration
	// ReadTimeout bounds one command. The default is 3s.
	ReadTimeout time.Duration
	// PoolSize is the connection pool size per master. The default is go-redis's.
	PoolSize int
}

// Master is one independent Redis master: a printable name with no password, its address and its
// client. It is the one type for "a Redis master" in osctl: the lock operations (pkg/lock/ops), the
// Redis preflight, the rollout's gates and the sandbox all take []Master.
type Master struct {
	Name   string // the URL with its password masked
	Addr   string // host:port
	Client redis.UniversalClient
}

// Close closes every master's client.
func Close(ms []Master) {
	for _, m := range ms {
		_ = m.Client.Close()
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

// ParseURL parses one Redis URL and checks it has the parts osctl needs. The error names the
// URL with its password masked and says what a valid one looks like.
func ParseURL(raw string) (*redis.Options, error) {
	shown := redact.URL(raw)
	u, err := url.Parse(raw)
	if err != nil || u.Scheme == "" || u.Host == "" {
		return nil, fmt.Errorf("bad Redis URL %q: use redis://[user:password@]host:port[/db] or rediss://", shown)
	}
	if u.Scheme != "redis" && u.Scheme != "rediss" {
		return nil, fmt.Errorf("bad Redis URL %q: scheme %q is not redis:// or rediss://", shown, u.Scheme)
	}
	opt, err := redis.ParseURL(raw)
	if err != nil {
		msg := redact.Text(err.Error())
		return nil, fmt.Errorf("bad Redis URL %q: %s", shown, strings.TrimPrefix(msg, "redis: "))
	}
	if _, port, _ := net.SplitHostPort(opt.Addr); port == "" {
		return nil, fmt.Errorf("bad Redis URL %q: no port", shown)
	}
	return opt, nil
}

// Connect builds one client per URL. It does no I/O beyond reading the CA file; call Ping to
// check the masters answer.
func Connect(cfg Config) ([]Master, error) {
	if len(cfg.URLs) == 0 {
		return nil, errors.New("no Redis master given: pass --redis URL (repeatable) or set OSCTL_REDIS=url1,url2")
	}
	var pool *x509.CertPool
	if cfg.CAFile != "" {
		pem, err := os.ReadFile(cfg.CAFile)
		if err != nil {
			return nil, fmt.Errorf("reading --redis-ca: %w", err)
		}
		pool = x509.NewCertPool()
		if !pool.AppendCertsFromPEM(pem) {
			return nil, fmt.Errorf("--redis-ca %s holds no PEM certificate", cfg.CAFile)
		}
	}
	seen := map[string]bool{}
	var out []Master
	for _, raw := range cfg.URLs {
		opt, err := ParseURL(raw)
		if err != nil {
			return nil, err
		}
		if seen[opt.Addr] {
			return nil, fmt.Errorf("Redis master %s is given twice: each --redis must be an independent master", opt.Addr)
		}
		seen[opt.Addr] = true
		if cfg.Password != "" {
			opt.Password = cfg.Password
		}
		if opt.TLSConfig != nil && pool != nil {
			opt.TLSConfig = &tls.Config{RootCAs: pool, ServerName: opt.TLSConfig.ServerName, MinVersion: tls.VersionTLS12}
		} else if opt.TLSConfig == nil && pool != nil {
			return nil, fmt.Errorf("--redis-ca is set but %s is not rediss://", redact.URL(raw))
		}
		opt.DialTimeout = orDefault(cfg.DialTimeout, 3*time.Second)
		opt.ReadTimeout = orDefault(cfg.ReadTimeout, 3*time.Second)
		opt.WriteTimeout = opt.ReadTimeout
		opt.MaxRetries = 1
		// go-redis dials 5 times per attempt by default: on a master that is down that is 5
		// dial timeouts per command (15 s with the 3 s default), times MaxRetries+1.
		opt.DialerRetries = 1
		// Honour the caller's context deadlines, so a hung master cannot stall a lock operation.
		opt.ContextTimeoutEnabled = true
		if cfg.PoolSize > 0 {
			opt.PoolSize = cfg.PoolSize
		}
		name := redact.URL(raw)
		if cfg.Password != "" {
			name = maskedName(raw)
		}
		out = append(out, Master{Name: name, Addr: opt.Addr, Client: redis.NewClient(opt)})
	}
	return out, nil
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

// Ping checks one master and returns a one-line error that says what is wrong and what to do.
func Ping(ctx context.Context, m Master) error {
	if err := m.Client.Ping(ctx).Err(); err != nil {
		return Explain(m, err)
	}
	return nil
}

// Explain turns a go-redis error into one line naming the master and the likely fix.
func Explain(m Master, err error) error {
	msg := redact.Text(err.Error())
	var ne net.Error
	switch {
	case strings.Contains(msg, "WRONGPASS") || strings.Contains(msg, "invalid password") || strings.Contains(msg, "invalid username-password"):
		return fmt.Errorf("Redis %s: authentication failed (wrong user or password): check the URL's password, --redis-password-file or --redis-secret", m.Name)
	case strings.Contains(msg, "NOAUTH"):
		return fmt.Errorf("Redis %s: a password is required: put it in the URL, --redis-password-file or --redis-secret", m.Name)
	case strings.Contains(msg, "connection refused"):
		return fmt.Errorf("Redis %s: connection refused: is the server running and the port right?", m.Name)
	case errors.As(err, &ne) && ne.Timeout():
		return fmt.Errorf("Redis %s: timed out: check the address, firewall, or use --redis-service for an in-cluster Service", m.Name)
	case strings.Contains(msg, "no such host"):
		return fmt.Errorf("Redis %s: host not found: check the host name (in-cluster names need --redis-service)", m.Name)
	case strings.Contains(msg, "certificate"):
		return fmt.Errorf("Redis %s: TLS verification failed (%s): pass the server's CA with --redis-ca", m.Name, msg)
	}
	return fmt.Errorf("Redis %s: %s", m.Name, msg)
}
