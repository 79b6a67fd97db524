package testenv

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"crypto/tls"
	"crypto/x509"

	authv1 "k8s.io/api/authentication/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/dynamic"

	"github.com/osctl/osctl/internal/kubeconfig"
	"github.com/osctl/osctl/pkg/k8s"
	"github.com/osctl/osctl/pkg/proc"
)

// Versions of the control plane the harness runs; scripts/k8s-build.sh builds them.
const (
	K8sVersion  = "v1.37.2"
	EtcdVersion = "v3.6.16"
	KwokVersion = "v0.8.0"
)

// KubeBinDir returns the directory holding etcd, kube-apiserver, kube-controller-manager,
// kube-scheduler, kubectl and kwok: $OSCTL_K8S_BIN, else the versioned cache that
// scripts/k8s-build.sh fills. ok is false when the binaries are not there.
func KubeBinDir() (dir string, ok bool) {
	dir = os.Getenv("OSCTL_K8S_BIN")
	if dir == "" {
		cache := os.Getenv("OSCTL_CACHE")
		if cache == "" {
			cache = "/var/cache/osctl"
		}
		dir = filepath.Join(cache, fmt.Sprintf("k8s-%s-etcd-%s-kwok-%s", K8sVersion, EtcdVersion, KwokVersion), "bin")
	}
	for _, b := range []string{"etcd", "kube-apiserver", "kube-controller-manager", "kube-scheduler", "kubectl", "kwok"} {
		if _, err := os.Stat(filepath.Join(dir, b)); err != nil {
			return dir, false
		}
	}
	for _, f := range []string{"kwok-stages.yaml", "kwok-crds"} {
		if _, err := os.Stat(filepath.Join(dir, "..", f)); err != nil {
			return dir, false
		}
	}
	return dir, true
}

// Kube is a real control plane on loopback: etcd, kube-apiserver, kube-controller-manager (with
// the HPA, deployment and PV binder controllers), kube-scheduler, and kwok, which runs two fake
// nodes, makes pods Ready, and maps exec and port-forward into pods to the host.
type Kube struct {
	Dir        string // run directory: pki, logs, kubeconfigs, exec fixtures
	Kubeconfig string // admin kubeconfig
	BinDir     string
	Server     string // https://127.0.0.1:PORT
	Clients    *k8s.Clients

	opts  ControlPlane
	ports kubePorts
	mu    sync.Mutex
	procs []component
}

// component is one process of the control plane: its name (also its log's) and its group.
type component struct {
	name string
	g    *proc.Group
}

// atExit are what RunMain runs after the tests, newest first (AtExit).
var atExit []func() error

// AtExit makes RunMain run f after the tests (for a shared service started on first use, like a
// real-node cluster); an error fails the test binary. Call it from the test's goroutine.
func AtExit(f func() error) { atExit = append(atExit, f) }

var (
	sharedKubeOnce sync.Once
	sharedKube     *Kube
	sharedKubeErr  error
)

// SharedKube returns one control plane shared by every test of this test process, started on
// first use (about 4 s). RunMain stops it. Tests must use their own namespaces (NewNamespace).
func SharedKube(t testing.TB) *Kube {
	t.Helper()
	SkipIfShort(t, "the kube-apiserver harness")
	bin, ok := KubeBinDir()
	Require(t, ok, "Kubernetes control plane binaries in "+bin+" (run scripts/k8s-build.sh)")
	sharedKubeOnce.Do(func() {
		dir, err := os.MkdirTemp("", "osctl-kube-")
		if err != nil {
			sharedKubeErr = err
			return
		}
		sharedKube, sharedKubeErr = startKube(dir, bin, ControlPlane{Kwok: true})
	})
	if sharedKubeErr != nil {
		t.Fatalf("starting the control plane: %v", sharedKubeErr)
	}
	return sharedKube
}

// RunMain runs the tests, then stops the shared services (control plane, osctl binary).
// Use it as: func TestMain(m *testing.M) { os.Exit(testenv.RunMain(m)) }.
func RunMain(m *testing.M) int {
	code := m.Run()
	for i := len(atExit) - 1; i >= 0; i-- {
		if err := atExit[i](); err != nil {
			fmt.Fprintf(os.Stderr, "FAIL: stopping the shared test services: %v\n", err)
			code = 1
		}
	}
	if sharedKube != nil {
		sharedKube.Stop()
		_ = os.RemoveAll(sharedKube.Dir)
	}
	CleanupBinary()
	return code
}

func startKube(dir, bin string, o ControlPlane) (*Kube, error) {
	k := &Kube{Dir: dir, BinDir: bin, Kubeconfig: filepath.Join(dir, "kubeconfig"), opts: o}
	ok := false
	defer func() {
		if !ok {
			k.Stop()
		}
	}()
	pki := filepath.Join(dir, "pki")
	if err := writePKI(pki); err != nil {
		return nil, fmt.Errorf("pki: %w", err)
	}
	for _, d := range []string{"logs", "home", "exec", "shim"} {
		if err := os.MkdirAll(filepath.Join(dir, d), 0o755); err != nil {
			return nil, err
		}
	}
	if err := writeExecShims(filepath.Join(dir, "shim")); err != nil {
		return nil, err
	}
	var p kubePorts
	// The components that start later (controller manager, scheduler, kwok) get theirs as they
	// start (startListening).
	for i, port := range []*int{&p.etcd, &p.peer, &p.api} {
		var err error
		if *port, err = k.freePort([]string{"etcd", "etcd-peer", "kube-apiserver"}[i]); err != nil {
			return nil, err
		}
	}
	k.Server = fmt.Sprintf("https://127.0.0.1:%d", p.api)
	cfgs, err := k.writeKubeconfigs(pki)
	if err != nil {
		return nil, err
	}
	k.ports = p
	if err := k.startControlPlane(pki, cfgs); err != nil {
		return nil, err
	}
	if o.Kwok {
		if err := k.startKwok(pki, cfgs.admin); err != nil {
			return nil, err
		}
	}
	if k.Clients, err = kubeconfig.Load(k8s.Config{Kubeconfig: k.Kubeconfig}); err != nil {
		return nil, err
	}
	if o.Kwok {
		if err := k.waitNodes(90 * time.Second); err != nil {
			return nil, err
		}
	}
	ok = true
	return k, nil
}

// kubePorts are the loopback ports of one control plane's components (0 until it started).
type kubePorts struct{ etcd, peer, api, kcm, sched, kwok int }

// kubeconfigs are the files the components and the tests authenticate with.
type kubeconfigs struct{ admin, kcm, sched string }

// writeKubeconfigs writes the admin (also k.Kubeconfig), controller-manager and scheduler
// kubeconfigs, each with its client certificate from pki.
func (k *Kube) writeKubeconfigs(pki string) (kubeconfigs, error) {
	kcfg := func(name, user, cert string) (string, error) {
		p := filepath.Join(k.Dir, name+".kubeconfig")
		s := kubeconfigText(k.Server, pki, user, fmt.Sprintf(`{client-certificate: "%s/%s.crt", client-key: "%s/%s.key"}`, pki, cert, pki, cert), "")
		return p, os.WriteFile(p, []byte(s), 0o600)
	}
	var c kubeconfigs
	var err error
	if c.admin, err = kcfg("admin", "admin", "admin"); err != nil {
		return c, err
	}
	if err := copyFile(c.admin, k.Kubeconfig); err != nil {
		return c, err
	}
	if c.kcm, err = kcfg("kcm", "system:kube-controller-manager", "kube-controller-manager"); err != nil {
		return c, err
	}
	c.sched, err = kcfg("sched", "system:kube-scheduler", "kube-scheduler")
	return c, err
}

// kubeconfigText is a kubeconfig for server, whose CA is in the directory pki, with the one user
// and its credentials (a YAML flow mapping), in namespace ns unless it is "".
func kubeconfigText(server, pki, user, credentials, ns string) string {
	use := "cluster: local, user: " + user
	if ns != "" {
		use += ", namespace: " + ns
	}
	return fmt.Sprintf(`apiVersion: v1
kind: Config
clusters:
- name: local
  cluster: {server: "%s", certificate-authority: "%s/ca.crt"}
users:
- name: %s
  user: %s
contexts:
- name: local
  context: {%s}
current-context: local
`, server, pki, user, credentials, use)
}

// startControlPlane starts etcd, kube-apiserver, the controllers the tests need, and the
// scheduler, and waits until each answers ready.
func (k *Kube) startControlPlane(pki string, cfgs kubeconfigs) error {
	bin, p := k.BinDir, k.ports
	if _, err := k.start("etcd", nil, filepath.Join(bin, "etcd"), "--name=e0", "--data-dir="+filepath.Join(k.Dir, "etcd-data"),
		fmt.Sprintf("--listen-client-urls=http://127.0.0.1:%d", p.etcd), fmt.Sprintf("--advertise-client-urls=http://127.0.0.1:%d", p.etcd),
		fmt.Sprintf("--listen-peer-urls=http://127.0.0.1:%d", p.peer), fmt.Sprintf("--initial-advertise-peer-urls=http://127.0.0.1:%d", p.peer),
		fmt.Sprintf("--initial-cluster=e0=http://127.0.0.1:%d", p.peer), "--unsafe-no-fsync=true", "--log-level=warn"); err != nil {
		return err
	}
	api, err := k.start("kube-apiserver", nil, filepath.Join(bin, "kube-apiserver"), append([]string{
		fmt.Sprintf("--etcd-servers=http://127.0.0.1:%d", p.etcd),
		"--bind-address=127.0.0.1", fmt.Sprintf("--secure-port=%d", p.api),
		"--tls-cert-file=" + pki + "/apiserver.crt", "--tls-private-key-file=" + pki + "/apiserver.key",
		"--client-ca-file=" + pki + "/ca.crt",
		"--service-account-issuer=https://kubernetes.default.svc.cluster.local",
		"--service-account-key-file=" + pki + "/sa.pub", "--service-account-signing-key-file=" + pki + "/sa.key",
		"--service-cluster-ip-range=10.0.0.0/24", "--authorization-mode=Node,RBAC",
		"--kubelet-preferred-address-types=InternalIP",
		"--cert-dir=" + filepath.Join(k.Dir, "apiserver-certs"), "--profiling=false", "--v=1"}, k.opts.apiserverFlags()...)...)
	if err != nil {
		return err
	}
	if err := k.waitReady(api, k.Server+"/readyz", 60*time.Second); err != nil {
		return fmt.Errorf("kube-apiserver: %w (log: %s)", err, logTail(filepath.Join(k.Dir, "logs", "kube-apiserver.log")))
	}
	controllers := "deployment-controller,replicaset-controller,horizontal-pod-autoscaler-controller,serviceaccount-controller," +
		"namespace-controller,garbage-collector-controller,root-ca-certificate-publisher-controller,pod-garbage-collector-controller," +
		"node-lifecycle-controller,persistentvolume-binder-controller,disruption-controller,job-controller,ttl-after-finished-controller"
	if k.opts.Controllers != "" {
		controllers = k.opts.Controllers
	}
	serving := []string{"--bind-address=127.0.0.1", "--tls-cert-file=" + pki + "/apiserver.crt", "--tls-private-key-file=" + pki + "/apiserver.key"}
	k.ports.kcm, err = k.startListening("kube-controller-manager", nil, filepath.Join(bin, "kube-controller-manager"), "/healthz", func(port int) []string {
		return append(append([]string{
			"--kubeconfig=" + cfgs.kcm, "--authentication-kubeconfig=" + cfgs.kcm, "--authorization-kubeconfig=" + cfgs.kcm,
			fmt.Sprintf("--secure-port=%d", port), "--leader-elect=false", "--use-service-account-credentials=true",
			"--service-account-private-key-file=" + pki + "/sa.key", "--root-ca-file=" + pki + "/ca.crt",
			"--horizontal-pod-autoscaler-sync-period=2s", "--controllers=" + controllers,
			"--pvclaimbinder-sync-period=2s", "--profiling=false", "--v=1"}, serving...), k.opts.ControllerManagerFlags...)
	})
	if err != nil {
		return err
	}
	// /readyz: the scheduler has its informers' caches synced, so it places pods from now on.
	k.ports.sched, err = k.startListening("kube-scheduler", nil, filepath.Join(bin, "kube-scheduler"), "/readyz", func(port int) []string {
		return append([]string{
			"--kubeconfig=" + cfgs.sched, "--authentication-kubeconfig=" + cfgs.sched, "--authorization-kubeconfig=" + cfgs.sched,
			fmt.Sprintf("--secure-port=%d", port), "--leader-elect=false", "--profiling=false", "--v=1"}, serving...)
	})
	return err
}

// startKwok applies kwok's CRDs and the fake nodes, and starts kwok with its pod and node stages.
func (k *Kube) startKwok(pki, admin string) error {
	bin := k.BinDir
	if out, err := k.kubectl(nil, "apply", "-f", filepath.Join(bin, "..", "kwok-crds")); err != nil {
		return fmt.Errorf("applying kwok CRDs: %v: %s", err, out)
	}
	if out, err := k.kubectl([]byte(clusterObjects), "apply", "-f", "-"); err != nil {
		return fmt.Errorf("applying nodes and ClusterExec: %v: %s", err, out)
	}
	stages, err := writeStages(filepath.Join(bin, "..", "kwok-stages.yaml"), filepath.Join(k.Dir, "kwok-stages.yaml"))
	if err != nil {
		return err
	}
	env := []string{"PATH=" + filepath.Join(k.Dir, "shim") + ":" + os.Getenv("PATH")}
	k.ports.kwok, err = k.startListening("kwok", env, filepath.Join(bin, "kwok"), "/healthz", func(port int) []string {
		return []string{"--kubeconfig=" + admin, "--config=" + stages,
			"--enable-crds=Exec,ClusterExec,PortForward,ClusterPortForward",
			"--manage-all-nodes=false", "--manage-nodes-with-annotation-selector=kwok.x-k8s.io/node=fake",
			"--node-ip=127.0.0.1", fmt.Sprintf("--node-port=%d", port), fmt.Sprintf("--server-address=127.0.0.1:%d", port),
			"--tls-cert-file=" + pki + "/apiserver.crt", "--tls-private-key-file=" + pki + "/apiserver.key",
			"--cidr=10.244.0.1/24", "--node-lease-duration-seconds=40"}
	})
	return err
}

// waitNodes waits until both fake nodes are Ready and untainted and the default ServiceAccount
// exists.
func (k *Kube) waitNodes(limit time.Duration) error {
	ctx, cancel := context.WithTimeout(context.Background(), limit)
	defer cancel()
	for {
		ready := 0
		nodes, err := k.Clients.Clientset.CoreV1().Nodes().List(ctx, metav1.ListOptions{})
		if err == nil {
			for _, n := range nodes.Items {
				untainted := len(n.Spec.Taints) == 0
				for _, c := range n.Status.Conditions {
					if c.Type == "Ready" && c.Status == "True" && untainted {
						ready++
					}
				}
			}
		}
		_, saErr := k.Clients.Clientset.CoreV1().ServiceAccounts("default").Get(ctx, "default", metav1.GetOptions{})
		if ready == 2 && saErr == nil {
			return nil
		}
		if gone := k.exited(); gone != "" {
			return fmt.Errorf("waiting for the nodes: %s", gone)
		}
		if ctx.Err() != nil {
			return fmt.Errorf("nodes not ready and untainted within %v (kwok log: %s)", limit, tail(filepath.Join(k.Dir, "logs", "kwok.log")))
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// start launches one component in its own process group; it dies with the test process.
func (k *Kube) start(name string, env []string, bin string, args ...string) (*proc.Group, error) {
	logf, err := os.Create(filepath.Join(k.Dir, "logs", name+".log"))
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(bin, args...)
	cmd.Stdout, cmd.Stderr = logf, logf
	cmd.Env = append(append(os.Environ(), "HOME="+filepath.Join(k.Dir, "home")), env...)
	g, err := startFromSpawner(cmd)
	if err != nil {
		logf.Close()
		return nil, fmt.Errorf("starting %s: %w", name, err)
	}
	go func() { <-g.Done(); logf.Close() }()
	k.mu.Lock()
	k.procs = append(k.procs, component{name, g})
	k.mu.Unlock()
	return g, nil
}

// Stop ends every component the harness started, by pid, newest first.
func (k *Kube) Stop() {
	k.mu.Lock()
	procs := k.procs
	k.procs = nil
	k.mu.Unlock()
	for i := len(procs) - 1; i >= 0; i-- {
		_ = procs[i].g.Cmd.Process.Signal(syscall.SIGKILL)
	}
	for _, p := range procs {
		select {
		case <-p.g.Done():
		case <-time.After(10 * time.Second):
		}
	}
}

func (k *Kube) kubectl(stdin []byte, args ...string) (string, error) {
	cmd := exec.Command(filepath.Join(k.BinDir, "kubectl"), append([]string{"--kubeconfig=" + k.Kubeconfig}, args...)...)
	if stdin != nil {
		cmd.Stdin = bytes.NewReader(stdin)
	}
	out, err := cmd.CombinedOutput()
	return string(out), err
}

// Kubectl runs kubectl as the cluster admin and fails the test on error.
func (k *Kube) Kubectl(t testing.TB, args ...string) string {
	t.Helper()
	out, err := k.kubectl(nil, args...)
	if err != nil {
		t.Fatalf("kubectl %s: %v: %s", strings.Join(args, " "), err, out)
	}
	return out
}

// Apply applies YAML in namespace ns ("" for cluster-scoped or namespaced-in-YAML objects).
func (k *Kube) Apply(t testing.TB, ns, yaml string) {
	t.Helper()
	args := []string{"apply", "-f", "-"}
	if ns != "" {
		args = append(args, "-n", ns)
	}
	if out, err := k.kubectl([]byte(yaml), args...); err != nil {
		t.Fatalf("kubectl apply: %v: %s", err, out)
	}
}

// NewNamespace creates a fresh namespace for one test and deletes it when the test ends.
func (k *Kube) NewNamespace(t testing.TB) string {
	t.Helper()
	name := fmt.Sprintf("t-%s-%d", sanitize(t.Name()), time.Now().UnixNano()%1_000_000)
	k.Kubectl(t, "create", "namespace", name)
	t.Cleanup(func() { _, _ = k.kubectl(nil, "delete", "namespace", name, "--wait=false") })
	// Pods are admitted only once the namespace's default ServiceAccount exists. The controller
	// manager makes it a moment after the namespace; a ReplicaSet whose pods are refused until then
	// backs off, which can outlast ReadyPods' minute on a loaded machine.
	WaitFor(t, 60*time.Second, "the default ServiceAccount of namespace "+name, func() (bool, error) {
		_, err := k.Clients.Clientset.CoreV1().ServiceAccounts(name).Get(context.Background(), "default", metav1.GetOptions{})
		return err == nil, nil
	})
	return name
}

func sanitize(s string) string {
	s = strings.ToLower(s)
	var b strings.Builder
	for _, r := range s {
		if (r >= 'a' && r <= 'z') || (r >= '0' && r <= '9') {
			b.WriteRune(r)
		} else {
			b.WriteByte('-')
		}
	}
	out := strings.Trim(b.String(), "-")
	if len(out) > 40 {
		out = strings.Trim(out[:40], "-")
	}
	return out
}

// SetPodMountinfo makes `cat /proc/self/mountinfo` (and `sh -c ... </proc/self/mountinfo`) run
// through exec in pod ns/pod return mountinfo, as if the pod's container saw those mounts.
func (k *Kube) SetPodMountinfo(t testing.TB, ns, pod, mountinfo string) {
	t.Helper()
	f := filepath.Join(k.Dir, "exec", ns+"_"+pod+".mountinfo")
	if err := os.WriteFile(f, []byte(mountinfo), 0o644); err != nil {
		t.Fatal(err)
	}
	k.setPodExecEnv(t, ns, pod, map[string]string{"OSCTL_FAKE_MOUNTINFO": f})
}

// PutPodMountinfo makes exec in pod ns/pod show mountinfo, without waiting for kwok to pick
// the Exec object up (for pods that are still starting, from a watch). Calling it again for the
// same pod replaces the text. SetPodMountinfo is the blocking form for tests.
func (k *Kube) PutPodMountinfo(ctx context.Context, ns, pod, mountinfo string) error {
	f := filepath.Join(k.Dir, "exec", ns+"_"+pod+".mountinfo")
	if err := os.WriteFile(f, []byte(mountinfo), 0o644); err != nil {
		return err
	}
	dc, err := dynamic.NewForConfig(k.Clients.REST)
	if err != nil {
		return err
	}
	obj := &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "kwok.x-k8s.io/v1alpha1", "kind": "Exec",
		"metadata": map[string]any{"name": pod, "namespace": ns},
		"spec": map[string]any{"execs": []any{map[string]any{"local": map[string]any{"envs": []any{
			map[string]any{"name": "KWOK_FAKE_EXEC", "value": "1"},
			map[string]any{"name": "OSCTL_FAKE_MOUNTINFO", "value": f},
		}}}}},
	}}
	_, err = dc.Resource(execGVR).Namespace(ns).Create(ctx, obj, metav1.CreateOptions{})
	if err != nil && !apierrors.IsAlreadyExists(err) {
		return err
	}
	return nil
}

var execGVR = schema.GroupVersionResource{Group: "kwok.x-k8s.io", Version: "v1alpha1", Resource: "execs"}

// SetPodNoCat makes `cat` missing in the pod (a distroless image), with mountinfo still
// readable through `sh`.
func (k *Kube) SetPodNoCat(t testing.TB, ns, pod, mountinfo string) {
	t.Helper()
	f := filepath.Join(k.Dir, "exec", ns+"_"+pod+".mountinfo")
	if err := os.WriteFile(f, []byte(mountinfo), 0o644); err != nil {
		t.Fatal(err)
	}
	k.setPodExecEnv(t, ns, pod, map[string]string{"OSCTL_FAKE_MOUNTINFO": f, "OSCTL_FAKE_NO_CAT": "1"})
}

func (k *Kube) setPodExecEnv(t testing.TB, ns, pod string, env map[string]string) {
	t.Helper()
	var envs strings.Builder
	for name, v := range env {
		fmt.Fprintf(&envs, "      - name: %s\n        value: %q\n", name, v)
	}
	k.Apply(t, ns, kwokExec("Exec", pod, envs.String()))
	// kwok picks the object up from a watch: wait until an exec sees it.
	deadline := time.Now().Add(20 * time.Second)
	for time.Now().Before(deadline) {
		out, _ := k.kubectl(nil, "-n", ns, "exec", pod, "--", "sh", "-c", "echo $OSCTL_FAKE_MOUNTINFO")
		if strings.Contains(out, env["OSCTL_FAKE_MOUNTINFO"]) && env["OSCTL_FAKE_MOUNTINFO"] != "" {
			return
		}
		time.Sleep(200 * time.Millisecond)
	}
	t.Fatalf("kwok did not apply the Exec for pod %s/%s within 20s", ns, pod)
}

// ForwardPodPort makes port-forwards to port of pod ns/pod reach target (host:port on loopback),
// for example a real redis-server standing in for the pod's container.
func (k *Kube) ForwardPodPort(t testing.TB, ns, pod string, port int, target string) {
	t.Helper()
	host, portS, _ := strings.Cut(target, ":")
	tp, _ := strconv.Atoi(portS)
	k.Apply(t, ns, fmt.Sprintf(`apiVersion: kwok.x-k8s.io/v1alpha1
kind: PortForward
metadata:
  name: %s
spec:
  forwards:
  - ports: [%d]
    target:
      port: %d
      address: %s
`, pod, port, tp, host))
}

// ServiceAccountKubeconfig writes a kubeconfig that authenticates as ServiceAccount ns/sa with
// a fresh token (for RBAC tests) and returns its path.
func (k *Kube) ServiceAccountKubeconfig(t testing.TB, ns, sa string) string {
	t.Helper()
	ctx := context.Background()
	exp := int64(3600)
	tok, err := k.Clients.Clientset.CoreV1().ServiceAccounts(ns).CreateToken(ctx, sa,
		&authv1.TokenRequest{Spec: authv1.TokenRequestSpec{ExpirationSeconds: &exp}}, metav1.CreateOptions{})
	if err != nil {
		t.Fatalf("token for %s/%s: %v", ns, sa, err)
	}
	p := filepath.Join(t.TempDir(), "sa.kubeconfig")
	s := kubeconfigText(k.Server, k.Dir+"/pki", sa, fmt.Sprintf(`{token: "%s"}`, tok.Status.Token), ns)
	if err := os.WriteFile(p, []byte(s), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

// WaitFor polls cond every 100 ms until it returns true, an error, or timeout passes.
func WaitFor(t testing.TB, timeout time.Duration, what string, cond func() (bool, error)) {
	t.Helper()
	deadline := time.Now().Add(timeout)
	for {
		ok, err := cond()
		if err != nil {
			t.Fatalf("waiting for %s: %v", what, err)
		}
		if ok {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("timed out after %v waiting for %s", timeout, what)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// waitReady polls url (an endpoint of component g, with this control plane's certificate) until
// it answers 200; it gives up at once when g has exited.
func (k *Kube) waitReady(g *proc.Group, url string, timeout time.Duration) error {
	c, err := k.adminHTTP()
	if err != nil {
		return err
	}
	deadline := time.Now().Add(timeout)
	for time.Now().Before(deadline) {
		if g.Exited() {
			return fmt.Errorf("exited (%v) before %s answered", g.Err(), url)
		}
		resp, err := c.Get(url)
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == 200 {
				return nil
			}
		}
		time.Sleep(200 * time.Millisecond)
	}
	return fmt.Errorf("%s not ready within %v", url, timeout)
}

// adminHTTP is an HTTPS client that trusts the control plane's CA and presents the admin's
// certificate, for the components' own endpoints.
func (k *Kube) adminHTTP() (*http.Client, error) { return adminClient(k.PKI()) }

func adminClient(pki string) (*http.Client, error) {
	caPEM, err := os.ReadFile(filepath.Join(pki, "ca.crt"))
	if err != nil {
		return nil, err
	}
	pool := x509.NewCertPool()
	pool.AppendCertsFromPEM(caPEM)
	cert, err := tls.LoadX509KeyPair(filepath.Join(pki, "admin.crt"), filepath.Join(pki, "admin.key"))
	if err != nil {
		return nil, err
	}
	return &http.Client{Timeout: 2 * time.Second, Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool, Certificates: []tls.Certificate{cert}}}}, nil
}

func tail(path string) string {
	b, _ := os.ReadFile(path)
	if len(b) > 2000 {
		b = b[len(b)-2000:]
	}
	return string(b)
}

func copyFile(src, dst string) error {
	b, err := os.ReadFile(src)
	if err != nil {
		return err
	}
	return os.WriteFile(dst, b, 0o600)
}

// writeStages copies kwok's lifecycle stages without pod-complete, which would mark every Running
// pod that a Job owns Succeeded at once: Job pods here run until they are deleted, as real ones do.
func writeStages(src, dst string) (string, error) {
	b, err := os.ReadFile(src)
	if err != nil {
		return "", err
	}
	var keep []string
	for _, doc := range strings.Split(string(b), "\n---") {
		if strings.Contains(doc, "\n  name: pod-complete\n") {
			continue
		}
		keep = append(keep, doc)
	}
	return dst, os.WriteFile(dst, []byte(strings.Join(keep, "\n---")), 0o644)
}

// OsctlInPods makes `osctl` in every pod's exec run bin (kwok runs exec on this host, with the
// shim directory first on PATH).
func (k *Kube) OsctlInPods(t testing.TB, bin string) {
	t.Helper()
	link := filepath.Join(k.Dir, "osctl-in-pods")
	tmp := fmt.Sprintf("%s.%d", link, time.Now().UnixNano())
	if err := os.Symlink(bin, tmp); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(tmp, link); err != nil {
		t.Fatal(err)
	}
}

func writeExecShims(dir string) error {
	cat := `#!/bin/sh
# osctl test shim: pods "see" the mountinfo file the test chose (kwok runs exec on the host).
if [ -n "$OSCTL_FAKE_NO_CAT" ]; then echo 'exec: "cat": executable file not found in $PATH' >&2; exit 127; fi
if [ -n "$OSCTL_FAKE_MOUNTINFO" ]; then
  for a in "$@"; do case "$a" in /proc/self/mountinfo|/proc/[0-9]*/mountinfo) exec /bin/cat "$OSCTL_FAKE_MOUNTINFO";; esac; done
fi
exec /bin/cat "$@"
`
	sh := `#!/bin/bash
# osctl test shim: sh -c '... </proc/self/mountinfo' reads the mountinfo file the test chose.
if [ -n "$OSCTL_FAKE_MOUNTINFO" ]; then
  args=(); for a in "$@"; do args+=("${a//\/proc\/self\/mountinfo/$OSCTL_FAKE_MOUNTINFO}"); done
  exec /bin/sh "${args[@]}"
fi
exec /bin/sh "$@"
`
	if err := os.WriteFile(filepath.Join(dir, "cat"), []byte(cat), 0o755); err != nil {
		return err
	}
	osctl := `#!/bin/sh
# osctl test shim: osctl in a pod is the binary the test chose (Kube.OsctlInPods).
bin="$(dirname "$0")/../osctl-in-pods"
[ -e "$bin" ] || { echo 'exec: "osctl": executable file not found in $PATH' >&2; exit 127; }
exec "$bin" "$@"
`
	if err := os.WriteFile(filepath.Join(dir, "osctl"), []byte(osctl), 0o755); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, "sh"), []byte(sh), 0o755)
}

// clusterObjects are kwok's exec configuration and two nodes in two zones.
var clusterObjects = kwokExec("ClusterExec", "cluster-exec-local", "") + kwokNode("kwok-node-0", "zone-a") + kwokNode("kwok-node-1", "zone-b")

// kwokExec is a kwok exec object of kind (ClusterExec, or Exec for the pod name) that runs exec
// on this host with KWOK_FAKE_EXEC=1 and the further env entries envs.
func kwokExec(kind, name, envs string) string {
	return fmt.Sprintf(`apiVersion: kwok.x-k8s.io/v1alpha1
kind: %s
metadata:
  name: %s
spec:
  execs:
  - local:
      envs:
      - name: KWOK_FAKE_EXEC
        value: "1"
%s`, kind, name, envs)
}

// kwokNode is the manifest of a kwok node called name in zone, after a document separator.
func kwokNode(name, zone string) string {
	return fmt.Sprintf(`---
apiVersion: v1
kind: Node
metadata:
  name: %[1]s
  annotations: {kwok.x-k8s.io/node: fake, node.alpha.kubernetes.io/ttl: "0"}
  labels: {kubernetes.io/hostname: %[1]s, kubernetes.io/os: linux, kubernetes.io/arch: amd64, type: kwok, topology.kubernetes.io/zone: %[2]s}
spec: {}
`, name, zone)
}

// ReadyPods waits up to a minute until n pods matching selector in ns are Ready and returns
// their names. A failed List is tried again (the API server answers slowly on a loaded
// machine); when the minute is over, or at once when a component of the control plane has
// exited, the test fails with the namespace's pods and events and Diagnose.
func (k *Kube) ReadyPods(t testing.TB, ns, selector string, n int) []string {
	t.Helper()
	const limit = 60 * time.Second
	deadline := time.Now().Add(limit)
	for {
		names, err := k.readyPods(ns, selector)
		if err == nil && len(names) >= n {
			return names
		}
		gone := k.exited()
		if gone != "" || time.Now().After(deadline) {
			why := fmt.Sprintf("timed out after %v", limit)
			if gone != "" {
				why = "the control plane is broken: " + gone + ";"
			}
			state, _ := k.kubectl(nil, "get", "pods,events", "-n", ns, "-o", "wide")
			t.Fatalf("%s waiting for %d ready pods %s in %s (%d ready, last error %v):\n%s\n%s", why, n, selector, ns, len(names), err, state, k.Diagnose())
		}
		time.Sleep(100 * time.Millisecond)
	}
}

func (k *Kube) readyPods(ns, selector string) ([]string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	pods, err := k.Clients.Clientset.CoreV1().Pods(ns).List(ctx, metav1.ListOptions{LabelSelector: selector})
	if err != nil {
		return nil, err
	}
	var names []string
	for _, p := range pods.Items {
		for _, c := range p.Status.Conditions {
			if c.Type == "Ready" && c.Status == "True" && p.DeletionTimestamp == nil {
				names = append(names, p.Name)
			}
		}
	}
	return names, nil
}
