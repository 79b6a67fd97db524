package cmdutil

import (
	"context"
	"errors"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/osctl/osctl/internal/testenv"
	"github.com/osctl/osctl/pkg/redact"
	"github.com/osctl/osctl/pkg/redisconn"
)

func TestMain(m *testing.M) { os.Exit(testenv.RunMain(m)) }

func newTestFactory() *Factory {
	io, _, _, _ := Test()
	return &Factory{IO: io, Secrets: &redact.Secrets{}, Now: time.Now}
}

// TestRedisThroughSecretAndServicePortForward reaches a password-protected redis-server that
// stands behind the chart's Service queue:6379, with the password read from a Secret, as an SRE
// outside the cluster would: --redis-service queue --redis-secret NS/redis:password -n NS.
func TestRedisThroughSecretAndServicePortForward(t *testing.T) {
	const pw = "s3cret-from-secret"
	r := testenv.StartRedis(t, testenv.WithPassword(pw))
	k := testenv.SharedKube(t)
	ns := k.NewNamespace(t)
	k.Apply(t, ns, `apiVersion: v1
kind: Secret
metadata: {name: redis}
stringData: {password: `+pw+`}
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: redis}
spec:
  replicas: 1
  selector: {matchLabels: {app: redis}}
  template:
    metadata: {labels: {app: redis}}
    spec:
      containers:
      - {name: redis, image: redis:6.0.9, ports: [{name: redis, containerPort: 6379}]}
---
apiVersion: v1
kind: Service
metadata: {name: queue}
spec:
  selector: {app: redis}
  ports: [{port: 6379, targetPort: redis}]
`)
	ctx := context.Background()
	pod := k.ReadyPods(t, ns, "app=redis", 1)[0]
	k.ForwardPodPort(t, ns, pod, 6379, r.Addr)

	f := newTestFactory()
	f.KubeFlags.Kubeconfig, f.KubeFlags.Namespace = k.Kubeconfig, ns
	f.Redis.Service = "queue"
	f.Redis.Secret = ns + "/redis:password"
	var ms []redisconn.Master
	var closer func()
	testenv.WaitFor(t, 20*time.Second, "PING through the port-forward", func() (bool, error) {
		var err error
		if closer != nil {
			closer()
		}
		ms, closer, err = f.RedisMasters(ctx)
		if err != nil {
			return false, err
		}
		return redisconn.Ping(ctx, ms[0]) == nil, nil
	})
	defer closer()
	if strings.Contains(ms[0].Name, pw) {
		t.Fatalf("master name shows the password: %s", ms[0].Name)
	}
	if err := ms[0].Client.Set(ctx, "k", "v", 0).Err(); err != nil {
		t.Fatalf("SET through the forward: %v", err)
	}
	if v, _ := r.Client().Get(ctx, "k").Result(); v != "v" {
		t.Fatalf("the write did not reach the real server")
	}

	// A Secret key that does not exist: a one-line error naming the keys there, no value.
	f2 := newTestFactory()
	f2.KubeFlags.Kubeconfig, f2.KubeFlags.Namespace = k.Kubeconfig, ns
	f2.Redis.URLs = []string{"redis://" + r.Addr}
	f2.Redis.Secret = ns + "/redis:nope"
	_, c2, err := f2.RedisMasters(ctx)
	c2()
	if err == nil || !strings.Contains(err.Error(), `no key "nope"`) || strings.Contains(err.Error(), pw) {
		t.Fatalf("missing key error = %v", err)
	}

	// A Service with no ready pod.
	f3 := newTestFactory()
	f3.KubeFlags.Kubeconfig, f3.KubeFlags.Namespace = k.Kubeconfig, ns
	f3.Redis.Service = "missing"
	_, c3, err := f3.RedisMasters(ctx)
	c3()
	if err == nil || !strings.Contains(err.Error(), "missing") {
		t.Fatalf("missing Service error = %v", err)
	}
}

func TestRedisFlagsValidation(t *testing.T) {
	ctx := context.Background()
	t.Setenv("OSCTL_REDIS", "")
	f := newTestFactory()
	if _, c, err := f.RedisMasters(ctx); err == nil || ExitCode(err) != ExitError {
		t.Fatalf("no master: err=%v", err)
	} else {
		c()
	}
	t.Setenv("OSCTL_REDIS", "redis://127.0.0.1:1, redis://127.0.0.1:2")
	if got := f.RedisURLs(); len(got) != 2 || got[1] != "redis://127.0.0.1:2" {
		t.Fatalf("OSCTL_REDIS parsed as %q", got)
	}
	f.Redis.URLs = []string{"redis://:pw@127.0.0.1:1"}
	f.Redis.PasswordFile = "/nonexistent/osctl-password"
	_, c, err := f.RedisMasters(ctx)
	c()
	if err == nil || !strings.Contains(err.Error(), "--redis-password-file") {
		t.Fatalf("password file error = %v", err)
	}
	f.Redis.PasswordFile = ""
	f.Redis.URLs = []string{"redis://127.0.0.1:1", "redis://127.0.0.1:1"}
	_, c, err = f.RedisMasters(ctx)
	c()
	if err == nil || !strings.Contains(err.Error(), "given twice") {
		t.Fatalf("duplicate master error = %v", err)
	}
}

// TestClusterAndSentinelFlags: the topology flags and their variables reach redisconn (no I/O
// yet), the password flags override the cluster's and the Sentinel master's, and combinations
// that cannot work are usage errors.
func TestClusterAndSentinelFlags(t *testing.T) {
	ctx := context.Background()
	for _, v := range []string{"OSCTL_REDIS", "OSCTL_REDIS_CLUSTER", "OSCTL_REDIS_SENTINEL", "OSCTL_REDIS_SENTINEL_MASTER"} {
		t.Setenv(v, "")
	}
	pwFile := t.TempDir() + "/pw"
	if err := os.WriteFile(pwFile, []byte("from-the-file\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Setenv("OSCTL_REDIS_CLUSTER", "redis://:url-pw@10.0.0.1:6379?addr=10.0.0.2:6379")
	t.Setenv("OSCTL_REDIS_SENTINEL", "redis://:sentinel-pw@10.0.1.1:26379?addr=10.0.1.2:26379")
	t.Setenv("OSCTL_REDIS_SENTINEL_MASTER", "mymaster")
	f := newTestFactory()
	f.Redis.PasswordFile = pwFile
	if !f.RedisGiven() {
		t.Fatal("RedisGiven is false with a cluster and Sentinel in the environment")
	}
	ms, closer, err := f.RedisMasters(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer closer()
	if len(ms) != 2 || ms[0].KindOf() != redisconn.Cluster || ms[1].KindOf() != redisconn.Sentinel || ms[1].Addr != "mymaster" {
		t.Fatalf("masters %+v", ms)
	}
	if got := f.Secrets.String("url-pw sentinel-pw from-the-file"); strings.Count(got, "xxxxx") != 3 {
		t.Errorf("secrets not all known: %q", got)
	}
	for _, m := range ms {
		if strings.Contains(m.Name, "pw") {
			t.Errorf("name %q shows a password", m.Name)
		}
	}

	for _, c := range []struct {
		set  func(*Factory)
		want string
	}{
		{func(f *Factory) {
			f.Redis.Sentinels = nil
			f.Redis.SentinelMaster = "m"
			t.Setenv("OSCTL_REDIS_SENTINEL", "")
		}, "give the sentinels"},
		{func(f *Factory) { f.Redis.Service = "queue" }, "--redis-service reaches one standalone master"},
		{func(f *Factory) { f.Redis.Clusters = []string{"redis://h:1?master_name=x"} }, "unexpected option"},
	} {
		t.Setenv("OSCTL_REDIS_SENTINEL", "redis://10.0.1.1:26379")
		f := newTestFactory()
		c.set(f)
		_, closer, err := f.RedisMasters(ctx)
		closer()
		var ue *UsageError
		if err == nil || !strings.Contains(err.Error(), c.want) || !errors.As(err, &ue) {
			t.Errorf("want a usage error with %q, got %v", c.want, err)
		}
	}
}
