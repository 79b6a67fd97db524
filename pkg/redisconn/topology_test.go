package redisconn

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/redis/go-redis/v9"

	"github.com/osctl/osctl/internal/testenv"
)

func TestParseClusterURL(t *testing.T) {
	opt, err := ParseClusterURL("rediss://osctl:" + pw + "@10.0.0.1:6379?addr=10.0.0.2:6379&addr=10.0.0.3:6380")
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(opt.Addrs, ",") != "10.0.0.1:6379,10.0.0.2:6379,10.0.0.3:6380" || opt.Username != "osctl" || opt.Password != pw || opt.TLSConfig == nil {
		t.Errorf("parsed %+v", opt)
	}
	if _, err := ParseClusterURL("redis://h:1/0"); err != nil {
		t.Errorf("/0: %v", err)
	}
	bad := map[string]string{
		"http://:" + pw + "@h:1":                  `scheme "http"`,
		"redis://:" + pw + "@h:1?addr=nope":       "unable to parse addr param",
		"redis://:" + pw + "@h:1?addr=h:99999":    `"h:99999" is not host:port`,
		"redis://:" + pw + "@h:1/2":               "only database 0",
		"redis://:" + pw + "@h:1?master_name=m":   "unexpected option",
		"h:1,h:2":                                 "use redis://",
		"redis://:" + pw + "@h:1?dial_timeout=xx": "bad Redis Cluster URL",
	}
	for u, want := range bad {
		_, err := ParseClusterURL(u)
		checkBad(t, "ParseClusterURL", u, err, want)
	}
}

func TestParseSentinelURL(t *testing.T) {
	opt, err := ParseSentinelURL("redis://:"+pw+"@s1:26379?addr=s2:26379&addr=s3:26379&username=app", "mymaster")
	if err != nil {
		t.Fatal(err)
	}
	if opt.MasterName != "mymaster" || strings.Join(opt.SentinelAddrs, ",") != "s1:26379,s2:26379,s3:26379" ||
		opt.SentinelPassword != pw || opt.Username != "app" {
		t.Errorf("parsed %+v", opt)
	}
	if opt, err := ParseSentinelURL("rediss://s1:26379?master_name=queue", ""); err != nil || opt.MasterName != "queue" || opt.TLSConfig == nil {
		t.Errorf("master_name in the URL: %+v %v", opt, err)
	}
	bad := map[string][2]string{
		"redis://:" + pw + "@s1:26379":                            {"", "{Redis.SentinelMaster}"},
		"redis://:" + pw + "@s1:26379?master_name=a":              {"b", `names master "a" but {Redis.SentinelMaster} says "b"`},
		"redis://s1:26379?password=" + pw:                         {"m", "does not go in the URL"},
		"redis://:" + pw + "@s1":                                  {"m", "no port"},
		"redis://:" + pw + "@s1:26379?addr=s2":                    {"m", "unable to parse addr"},
		"redis://:" + pw + "@s1:26379?cluster=yes":                {"m", "unexpected option"},
		"unix://:" + pw + "@s1:26379":                             {"m", "not redis://"},
		"redis://:" + pw + "@s1:26379?master_name=m&addr=s2:1/3x": {"m", "bad Sentinel URL"},
	}
	for u, c := range bad {
		_, err := ParseSentinelURL(u, c[0])
		checkBad(t, "ParseSentinelURL", u, err, c[1])
	}
}

func TestParseURLRefusesAnAddrList(t *testing.T) {
	_, err := ParseURL("redis://:" + pw + "@h:1?addr=h:2")
	checkBad(t, "ParseURL", "addr list", err, "{Redis.Clusters}")
}

func checkBad(t *testing.T, fn, u string, err error, want string) {
	t.Helper()
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("%s(%q) = %v, want an error with %q", fn, u, err, want)
		return
	}
	if strings.Contains(err.Error(), pw) || strings.Contains(err.Error(), "\n") {
		t.Errorf("%s(%q) error leaks the password or spans lines: %v", fn, u, err)
	}
}

// fuzzURL adds the seeds (scheme, user, password, host, query) and fuzzes the parser with URLs
// built from such parts: it must neither panic nor print the password in an error, and what it
// accepts must be a usable set of addresses.
func fuzzURL(f *testing.F, seeds [][5]string, parse func(t *testing.T, raw string) ([]string, error)) {
	for _, s := range seeds {
		f.Add(s[0], s[1], s[2], s[3], s[4])
	}
	f.Fuzz(func(t *testing.T, scheme, user, pass, host, query string) {
		raw := scheme + "://" + user + ":" + pass + "@" + host + "?" + query
		addrs, err := parse(t, raw)
		if err != nil {
			msg := err.Error()
			if strings.Contains(msg, "\n") {
				t.Fatalf("error spans lines: %q", msg)
			}
			if len(pass) >= 6 && !strings.ContainsAny(pass, "@/?#%:&= \t\r\n") && !strings.Contains(user+host+query+"redis://xxxxx", pass) && strings.Contains(msg, pass) {
				t.Fatalf("error for %q shows the password: %s", raw, msg)
			}
			return
		}
		if len(addrs) == 0 {
			t.Fatalf("%q parsed without an address", raw)
		}
		for _, a := range addrs {
			if err := checkAddr(a); err != nil {
				t.Fatalf("%q parsed to address %q: %v", raw, a, err)
			}
		}
	})
}

func FuzzParseClusterURL(f *testing.F) {
	fuzzURL(f, [][5]string{
		{"redis", "osctl", "s3cret-pw", "10.0.0.1:6379", "addr=10.0.0.2:6379&addr=10.0.0.3:6379"},
		{"rediss", "", "p%40ss", "[::1]:7000", "addr=[::1]:7001&dial_timeout=3"},
		{"redis", "u", "pw-pw-pw", "h", "addr=&addr=:1"},
	}, func(_ *testing.T, raw string) ([]string, error) {
		o, err := ParseClusterURL(raw)
		if err != nil {
			return nil, err
		}
		return o.Addrs, nil
	})
}

func FuzzParseSentinelURL(f *testing.F) {
	fuzzURL(f, [][5]string{
		{"redis", "", "s3cret-pw", "s1:26379", "addr=s2:26379&master_name=mymaster"},
		{"rediss", "sentinel", "pw-pw-pw", "s1:26379", "password=pw-pw-pw&master_name=x"},
		{"redis", "u", "pw-pw-pw", "s1", "addr=s2:1&username=app&db=2"},
	}, func(t *testing.T, raw string) ([]string, error) {
		o, err := ParseSentinelURL(raw, "mymaster")
		if err != nil {
			return nil, err
		}
		if o.MasterName == "" {
			t.Fatalf("%q parsed without a master name", raw)
		}
		return o.SentinelAddrs, nil
	})
}

// TestClusterMaster connects to a real 3-primary cluster through its URL: three nodes by
// address, every key placed on the shard the cluster says owns it, the password from the
// password flags replacing the URL's, and the one-line explanations when the URL is the wrong
// kind.
func TestClusterMaster(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	c := testenv.StartRedisCluster(t, 3, testenv.TopologyOptions{Password: pw})
	wrongPW := strings.Replace(c.URL(), pw, "wrong-pw", 1)
	ms, err := Connect(Config{Clusters: []string{wrongPW}, Password: pw})
	if err != nil {
		t.Fatal(err)
	}
	defer Close(ms)
	m := ms[0]
	if m.KindOf() != Cluster || m.Addr != c.Nodes[0].Addr || strings.Contains(m.Name, pw) || strings.Contains(m.Name, "wrong-pw") {
		t.Errorf("master %+v", m)
	}
	if err := Ping(ctx, m); err != nil {
		t.Fatal(err)
	}
	nodes, err := m.Nodes(ctx)
	if err != nil || len(nodes) != 3 {
		t.Fatalf("nodes %v %v", nodes, err)
	}
	for _, k := range []string{"redlock:a:x", "osctl:fence:redlock:a:x", "redlock:b:y", "redlock:c:z"} {
		if got, want := m.NodeForKey(ctx, k), c.NodeFor(t, k).Addr; got != want {
			t.Errorf("NodeForKey(%s) = %s, the cluster says %s", k, got, want)
		}
	}
	// The wrong kind of URL for the server: one clear line each.
	plain := testenv.StartRedis(t)
	for _, tc := range []struct {
		cfg  Config
		want string
	}{
		{Config{Clusters: []string{plain.URL()}}, "not a Redis Cluster"},
		{Config{URLs: []string{"redis://:" + pw + "@" + c.Nodes[0].Addr}}, "{Redis.Clusters}"},
	} {
		ms, err := Connect(tc.cfg)
		if err != nil {
			t.Fatal(err)
		}
		for _, k := range []string{"redlock:a:x", "redlock:b:y", "redlock:c:z", "redlock:d:w", "redlock:e:v"} {
			if err = ms[0].Client.Set(ctx, k, "v", 0).Err(); err != nil {
				break
			}
		}
		if err == nil {
			err = Ping(ctx, ms[0])
		}
		Close(ms)
		if err == nil {
			t.Errorf("%+v: no error", tc.cfg)
			continue
		}
		if got := Explain(ms[0], err).Error(); !strings.Contains(got, tc.want) || strings.Contains(got, pw) {
			t.Errorf("%+v: %q, want %q", tc.cfg, got, tc.want)
		}
	}
}

// TestSentinelMaster connects through real sentinels: the master they name, the state they
// report, and a master name they do not know.
func TestSentinelMaster(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := testenv.StartRedisSentinel(t, testenv.TopologyOptions{Password: pw})
	ms, err := Connect(Config{Sentinels: []string{s.URL()}, SentinelMaster: testenv.SentinelMaster})
	if err != nil {
		t.Fatal(err)
	}
	defer Close(ms)
	m := ms[0]
	if m.KindOf() != Sentinel || m.Addr != testenv.SentinelMaster || !strings.Contains(m.Name, "master_name=mymaster") || strings.Contains(m.Name, pw) {
		t.Errorf("master %+v", m)
	}
	if err := Ping(ctx, m); err != nil {
		t.Fatal(err)
	}
	nodes, err := m.Nodes(ctx)
	if err != nil || len(nodes) != 1 || nodes[0].Addr != s.Master.Addr {
		t.Fatalf("nodes %v %v, want the master %s", nodes, err, s.Master.Addr)
	}
	st, ok, err := m.Sentinel(ctx)
	if err != nil || !ok || st.Master != s.Master.Addr || st.Replicas != 1 || st.Sentinels != 3 || st.Quorum != 2 {
		t.Errorf("sentinel state %+v %v %v", st, ok, err)
	}
	if err := m.Client.Set(ctx, "redlock:s:x", "v", 0).Err(); err != nil {
		t.Errorf("SET through the failover client: %v", err)
	}
	if v, _ := s.Master.Client().Get(ctx, "redlock:s:x").Result(); v != "v" {
		t.Errorf("the key is not on the master: %q", v)
	}

	ms2, err := Connect(Config{Sentinels: []string{s.URL()}, SentinelMaster: "nosuch"})
	if err != nil {
		t.Fatal(err)
	}
	defer Close(ms2)
	err = Ping(ctx, ms2[0])
	if err == nil || !strings.Contains(err.Error(), `monitor no master "nosuch"`) || strings.Contains(err.Error(), pw) {
		t.Errorf("unknown master: %v", err)
	}
	_, err = ms2[0].Nodes(ctx)
	if !errors.Is(err, ErrNoSuchMaster) {
		t.Errorf("Nodes of an unknown master: %v", err)
	}
	if _, ok := ms2[0].Client.(*redis.Client); !ok {
		t.Errorf("a failover client is a *redis.Client, got %T", ms2[0].Client)
	}
}

// TestTLSClusterAndSentinel reaches a cluster and a Sentinel setup that speak only TLS to
// clients that ask for it, with --redis-ca: every shard, and the master the sentinels name.
func TestTLSClusterAndSentinel(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	tlsf := testenv.NewTLS(t)
	c := testenv.StartRedisCluster(t, 3, testenv.TopologyOptions{Password: pw, TLS: &tlsf})
	s := testenv.StartRedisSentinel(t, testenv.TopologyOptions{Password: pw, TLS: &tlsf})
	ms, err := Connect(Config{Clusters: []string{c.URL()}, Sentinels: []string{s.URL()}, SentinelMaster: testenv.SentinelMaster, CAFile: tlsf.CA})
	if err != nil {
		t.Fatal(err)
	}
	defer Close(ms)
	for _, m := range ms {
		if err := Ping(ctx, m); err != nil {
			t.Fatalf("%s over TLS: %v", m.Name, err)
		}
		if err := m.Client.Set(ctx, "redlock:tls:x", "v", 0).Err(); err != nil {
			t.Fatalf("%s: SET over TLS: %v", m.Name, err)
		}
	}
	nodes, err := ms[0].Nodes(ctx)
	tlsAddrs := map[string]bool{}
	for _, n := range c.Nodes {
		tlsAddrs[n.TLSAddr()] = true
	}
	if err != nil || len(nodes) != 3 {
		t.Fatalf("cluster nodes over TLS: %v %v", nodes, err)
	}
	for _, n := range nodes {
		if !tlsAddrs[n.Addr] {
			t.Errorf("cluster node %s is not one of the TLS ports %v", n.Addr, tlsAddrs)
		}
	}
	if nodes, err := ms[1].Nodes(ctx); err != nil || nodes[0].Addr != s.Master.TLSAddr() {
		t.Errorf("Sentinel's master over TLS: %v %v, want %s", nodes, err, s.Master.TLSAddr())
	}
	// Without the CA: one line that says to pass it.
	plain, err := Connect(Config{Clusters: []string{c.URL()}})
	if err != nil {
		t.Fatal(err)
	}
	defer Close(plain)
	if err := Ping(ctx, plain[0]); err == nil || !strings.Contains(err.Error(), "{Redis.CAFile}") {
		t.Errorf("without --redis-ca: %v", err)
	}
}
