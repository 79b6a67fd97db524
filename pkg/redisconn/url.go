package redisconn

import (
	"fmt"
	"net"
	"net/url"
	"strconv"
	"strings"

	"github.com/redis/go-redis/v9"

	"github.com/osctl/osctl/pkg/redact"
)

// ParseURL parses one Redis URL and checks it has the parts osctl needs. The error names the
// URL with its password masked and says what a valid one looks like.
func ParseURL(raw string) (*redis.Options, error) {
	shown := redact.URL(raw)
	u, err := checkScheme(raw, shown, "redis://[user:password@]host:port[/db] or rediss://")
	if err != nil {
		return nil, err
	}
	if u.Query().Has("addr") {
		return nil, fmt.Errorf("bad Redis URL %q: addr= lists more nodes, which one master does not have: use {Redis.Clusters} for a Redis Cluster or {Redis.Sentinels} for Sentinel", shown)
	}
	opt, err := redis.ParseURL(raw)
	if err != nil {
		return nil, fmt.Errorf("bad Redis URL %q: %s", shown, libError(err))
	}
	if _, port, _ := net.SplitHostPort(opt.Addr); port == "" {
		return nil, fmt.Errorf("bad Redis URL %q: no port", shown)
	}
	return opt, nil
}

// ParseClusterURL parses a Redis Cluster URL in go-redis's form,
// redis://[user:password@]host:port?addr=host2:port2&addr=host3:port3 (rediss:// for TLS): the
// seed nodes osctl asks for the cluster's layout. It is redis.ParseClusterURL with errors that
// name the URL with its password masked.
func ParseClusterURL(raw string) (*redis.ClusterOptions, error) {
	shown := redact.URL(raw)
	u, err := checkScheme(raw, shown, "redis://[user:password@]host:port?addr=host2:port2&addr=... or rediss://")
	if err != nil {
		return nil, err
	}
	if p := strings.Trim(u.Path, "/"); p != "" && p != "0" {
		return nil, fmt.Errorf("bad Redis Cluster URL %q: a cluster has only database 0, drop /%s", shown, p)
	}
	u.Path = ""
	opt, err := redis.ParseClusterURL(u.String())
	if err != nil {
		return nil, fmt.Errorf("bad Redis Cluster URL %q: %s", shown, libError(err))
	}
	for _, a := range opt.Addrs {
		if err := checkAddr(a); err != nil {
			return nil, fmt.Errorf("bad Redis Cluster URL %q: %v", shown, err)
		}
	}
	return opt, nil
}

// ParseSentinelURL parses a Sentinel URL in go-redis's failover form,
// redis://[user:password@]host:port?addr=host2:port2&master_name=NAME: the sentinels' addresses,
// their credentials in the userinfo, and optionally the master's ACL user in username=. It is
// redis.ParseFailoverURL; master is the master's name when the URL has no master_name. The
// master's password is not taken from the URL's query (it would show in every listing of the
// command line): it comes from Config.Password, else the sentinels' password is tried.
func ParseSentinelURL(raw, master string) (*redis.FailoverOptions, error) {
	shown := redact.URL(raw)
	u, err := checkScheme(raw, shown, "redis://[user:password@]sentinel1:26379?addr=sentinel2:26379&addr=... or rediss://")
	if err != nil {
		return nil, err
	}
	if u.Port() == "" {
		return nil, fmt.Errorf("bad Sentinel URL %q: no port (Sentinel listens on 26379 by default)", shown)
	}
	if u.Query().Has("password") {
		return nil, fmt.Errorf("bad Sentinel URL %q: the master's password does not go in the URL: use {Redis.Password}", shown)
	}
	opt, err := redis.ParseFailoverURL(raw)
	if err != nil {
		return nil, fmt.Errorf("bad Sentinel URL %q: %s", shown, libError(err))
	}
	if opt.MasterName == "" {
		opt.MasterName = master
	}
	if opt.MasterName == "" {
		return nil, fmt.Errorf("Sentinel URL %q names no master: pass {Redis.SentinelMaster} NAME (the name in 'sentinel monitor NAME ...', often mymaster)", shown)
	}
	if master != "" && opt.MasterName != master {
		return nil, fmt.Errorf("Sentinel URL %q names master %q but {Redis.SentinelMaster} says %q: give one", shown, opt.MasterName, master)
	}
	for _, a := range opt.SentinelAddrs {
		if err := checkAddr(a); err != nil {
			return nil, fmt.Errorf("bad Sentinel URL %q: %v", shown, err)
		}
	}
	return opt, nil
}

// checkScheme parses raw as a URL with a host and a redis:// or rediss:// scheme.
func checkScheme(raw, shown, form string) (*url.URL, error) {
	u, err := url.Parse(raw)
	if err != nil || u.Scheme == "" || u.Host == "" {
		return nil, fmt.Errorf("bad Redis URL %q: use %s", shown, form)
	}
	if u.Scheme != "redis" && u.Scheme != "rediss" {
		return nil, fmt.Errorf("bad Redis URL %q: scheme %q is not redis:// or rediss://", shown, u.Scheme)
	}
	return u, nil
}

// checkAddr checks one host:port of an addr= list.
func checkAddr(a string) error {
	h, p, err := net.SplitHostPort(a)
	if n, perr := strconv.Atoi(p); err != nil || h == "" || perr != nil || n <= 0 || n > 65535 {
		return fmt.Errorf("address %q is not host:port", a)
	}
	return nil
}

// libError is a go-redis parse error without its "redis: " prefix and without secrets.
func libError(err error) string {
	return strings.TrimPrefix(redact.Text(err.Error()), "redis: ")
}
