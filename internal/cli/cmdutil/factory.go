package cmdutil

import (
	"context"
	"fmt"
	"net/url"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/spf13/cobra"

	"github.com/osctl/osctl/internal/kubeconfig"
	"github.com/osctl/osctl/pkg/k8s"
	"github.com/osctl/osctl/pkg/redact"
	"github.com/osctl/osctl/pkg/redisconn"
)

// Factory gives commands lazily built clients from the root's persistent flags. Nothing connects
// until a command asks.
type Factory struct {
	IO      *IOStreams
	Version string
	// Secrets collects secret values read at run time so that errors can be scrubbed of them.
	Secrets *redact.Secrets
	// Now is the clock commands use (a seam for tests).
	Now func() time.Time
	// Interrupts is where a command says what a second Ctrl-C leaves undone, or refuses it.
	Interrupts *Interrupts

	Redis     RedisFlags
	KubeFlags k8s.Config

	kubeOnce sync.Once
	kube     *k8s.Clients
	kubeErr  error
}

// RedisFlags are the Redis connection flags shared by every command.
type RedisFlags struct {
	URLs           []string
	Clusters       []string // --redis-cluster: each a Redis Cluster, one lock instance
	Sentinels      []string // --redis-sentinel: each the sentinels of one master
	SentinelMaster string   // --redis-sentinel-master
	CAFile         string
	PasswordFile   string
	Secret         string // NAMESPACE/NAME:KEY
	Service        string // NAME[:PORT], reached through a port-forward in -n NAMESPACE
}

// New returns a Factory on the process's own streams.
func New(version string) *Factory {
	return &Factory{IO: System(), Version: version, Secrets: &redact.Secrets{}, Now: time.Now, Interrupts: &Interrupts{}}
}

// AddGlobalFlags binds the Redis and Kubernetes flags on the root command.
func (f *Factory) AddGlobalFlags(cmd *cobra.Command) {
	NameSettings(cmd, RedisSettings)
	pf := cmd.PersistentFlags()
	pf.StringArrayVar(&f.Redis.URLs, "redis", nil, "Redis master URL, redis:// or rediss:// (repeatable: one per independent Redlock master; default $OSCTL_REDIS, comma-separated)")
	pf.StringArrayVar(&f.Redis.Clusters, "redis-cluster", nil, "Redis Cluster URL, redis://[user:pass@]host:port?addr=host2:port2&addr=... (rediss:// for TLS): one lock instance whose keys live on the shard owning their slot (repeatable; default $OSCTL_REDIS_CLUSTER)")
	pf.StringArrayVar(&f.Redis.Sentinels, "redis-sentinel", nil, "Sentinel URL, redis://[user:pass@]sentinel:26379?addr=sentinel2:26379 (the userinfo is the sentinels'): one master found, and followed across failovers, through Sentinel (repeatable; default $OSCTL_REDIS_SENTINEL)")
	pf.StringVar(&f.Redis.SentinelMaster, "redis-sentinel-master", "", "the master's name the sentinels monitor, for --redis-sentinel URLs without master_name= (default $OSCTL_REDIS_SENTINEL_MASTER)")
	pf.StringVar(&f.Redis.CAFile, "redis-ca", "", "PEM CA bundle that verifies rediss:// servers (masters, cluster nodes, sentinels)")
	pf.StringVar(&f.Redis.PasswordFile, "redis-password-file", "", "file holding the Redis password (overrides the URL's; for --redis-sentinel, the master's)")
	pf.StringVar(&f.Redis.Secret, "redis-secret", "", "Kubernetes Secret key holding the Redis password, NAMESPACE/NAME:KEY")
	pf.StringVar(&f.Redis.Service, "redis-service", "", "reach an in-cluster Redis Service NAME[:PORT] through a built-in port-forward (namespace from -n; the chart's is queue:6379)")
	pf.StringVar(&f.KubeFlags.Kubeconfig, "kubeconfig", "", "path to the kubeconfig file (default $KUBECONFIG or ~/.kube/config)")
	pf.StringVar(&f.KubeFlags.Context, "context", "", "kubeconfig context to use")
	pf.StringVarP(&f.KubeFlags.Namespace, "namespace", "n", "", "Kubernetes namespace (default the context's)")
}

// Kube returns the Kubernetes clients, loading the kubeconfig once.
func (f *Factory) Kube() (*k8s.Clients, error) {
	f.kubeOnce.Do(func() { f.kube, f.kubeErr = kubeconfig.Load(f.KubeFlags) })
	return f.kube, f.kubeErr
}

// KubeConfigured reports whether the user pointed osctl at a cluster (flag or $KUBECONFIG).
func (f *Factory) KubeConfigured() bool {
	return f.KubeFlags.Kubeconfig != "" || os.Getenv("KUBECONFIG") != "" || f.KubeFlags.Context != ""
}

// RedisURLs returns the --redis URLs, else those of $OSCTL_REDIS.
func (f *Factory) RedisURLs() []string { return flagOrEnv(f.Redis.URLs, "OSCTL_REDIS") }

// RedisClusters returns the --redis-cluster URLs, else those of $OSCTL_REDIS_CLUSTER
// (comma-separated, like $OSCTL_REDIS: a cluster URL separates its addr= with &).
func (f *Factory) RedisClusters() []string {
	return flagOrEnv(f.Redis.Clusters, "OSCTL_REDIS_CLUSTER")
}

// RedisSentinels returns the --redis-sentinel URLs, else those of $OSCTL_REDIS_SENTINEL.
func (f *Factory) RedisSentinels() []string {
	return flagOrEnv(f.Redis.Sentinels, "OSCTL_REDIS_SENTINEL")
}

// RedisGiven reports whether any Redis connection was asked for (a flag or its variable).
func (f *Factory) RedisGiven() bool {
	return len(f.RedisURLs())+len(f.RedisClusters())+len(f.RedisSentinels()) > 0 || f.Redis.Service != ""
}

// flagOrEnv returns the flag's values, else the comma-separated values of the variable.
func flagOrEnv(flag []string, env string) []string {
	if len(flag) > 0 {
		return flag
	}
	var out []string
	for _, u := range strings.Split(os.Getenv(env), ",") {
		if u = strings.TrimSpace(u); u != "" {
			out = append(out, u)
		}
	}
	return out
}

// RedisMasters connects to every Redis master (without pinging). The returned closer closes the
// clients and any port-forward; call it when done.
func (f *Factory) RedisMasters(ctx context.Context) ([]redisconn.Master, func(), error) {
	cfg := redisconn.Config{URLs: f.RedisURLs(), Clusters: f.RedisClusters(), Sentinels: f.RedisSentinels(),
		SentinelMaster: f.Redis.SentinelMaster, CAFile: f.Redis.CAFile}
	if cfg.SentinelMaster == "" {
		cfg.SentinelMaster = os.Getenv("OSCTL_REDIS_SENTINEL_MASTER")
	}
	var closers []func()
	closeAll := func() {
		for i := len(closers) - 1; i >= 0; i-- {
			closers[i]()
		}
	}
	if f.Redis.SentinelMaster != "" && len(cfg.Sentinels) == 0 {
		return nil, closeAll, Usage("--redis-sentinel-master names the master of a --redis-sentinel URL: give the sentinels with --redis-sentinel")
	}
	for _, u := range append(append(append([]string{}, cfg.URLs...), cfg.Clusters...), cfg.Sentinels...) {
		if p, err := url.Parse(u); err == nil && p.User != nil {
			if pw, ok := p.User.Password(); ok {
				f.Secrets.Add(pw)
			}
		}
	}
	if f.Redis.PasswordFile != "" && f.Redis.Secret != "" {
		return nil, closeAll, Usage("--redis-password-file and --redis-secret both give a password: pass one")
	}
	if f.Redis.PasswordFile != "" {
		b, err := os.ReadFile(f.Redis.PasswordFile)
		if err != nil {
			return nil, closeAll, fmt.Errorf("reading --redis-password-file: %v", err)
		}
		cfg.Password = strings.TrimRight(string(b), "\r\n")
		f.Secrets.Add(cfg.Password)
	}
	if f.Redis.Secret != "" {
		ref, err := k8s.ParseSecretRef(f.Redis.Secret)
		if err != nil {
			return nil, closeAll, Usage("--redis-secret: %v", err)
		}
		kc, err := f.Kube()
		if err != nil {
			return nil, closeAll, err
		}
		pw, err := k8s.SecretValue(ctx, kc.Clientset, ref)
		if err != nil {
			return nil, closeAll, err
		}
		cfg.Password = pw
		f.Secrets.Add(pw)
	}
	if f.Redis.Service != "" && len(cfg.Clusters)+len(cfg.Sentinels) > 0 {
		return nil, closeAll, Usage("--redis-service reaches one standalone master through a port-forward; a cluster's nodes and Sentinel's master are reached at the addresses they announce: run osctl where those resolve (a pod in the cluster)")
	}
	if f.Redis.Service != "" {
		name, portS, _ := strings.Cut(f.Redis.Service, ":")
		port := 6379
		if portS != "" {
			p, err := strconv.Atoi(portS)
			if err != nil || p <= 0 || p > 65535 {
				return nil, closeAll, Usage("--redis-service %q: port must be a number", f.Redis.Service)
			}
			port = p
		}
		kc, err := f.Kube()
		if err != nil {
			return nil, closeAll, err
		}
		fw, err := k8s.ForwardService(ctx, kc, kc.Namespace, name, port)
		if err != nil {
			return nil, closeAll, err
		}
		closers = append(closers, fw.Close)
		fmt.Fprintf(f.IO.ErrOut, "forwarding %s to Service %s/%s (pod %s)\n", fw.LocalAddr, kc.Namespace, name, fw.Pod)
		if len(cfg.URLs) == 0 {
			cfg.URLs = []string{"redis://" + fw.LocalAddr}
		} else if len(cfg.URLs) == 1 {
			u, err := url.Parse(cfg.URLs[0])
			if err != nil {
				return nil, closeAll, Usage("bad Redis URL %q", redact.URL(cfg.URLs[0]))
			}
			u.Host = fw.LocalAddr
			cfg.URLs = []string{u.String()}
		} else {
			return nil, closeAll, Usage("--redis-service reaches one master: give at most one --redis URL with it (for its user, password, db)")
		}
	}
	if len(cfg.URLs)+len(cfg.Clusters)+len(cfg.Sentinels) == 0 {
		return nil, closeAll, Usage("no Redis master given: pass --redis URL (repeatable), --redis-cluster URL, --redis-sentinel URL with --redis-sentinel-master NAME, set OSCTL_REDIS=url1,url2, or use --redis-service queue -n NAMESPACE")
	}
	ms, err := redisconn.Connect(cfg)
	if err != nil {
		closeAll()
		return nil, func() {}, &UsageError{Err: err}
	}
	closers = append(closers, func() { redisconn.Close(ms) })
	return ms, closeAll, nil
}
