//go:build linux

// Package realnode runs real Kubernetes nodes for the tests and `make cluster`: the control plane
// of internal/testenv (etcd, kube-apiserver, controller manager, scheduler on this machine's
// loopback) and one or more nodes with containerd 2.x, runc, the CNI bridge, a kubelet and
// kube-proxy, all of them in a network namespace of their own (each node with its own mount
// namespace too), so that nothing the nodes do listens, routes or sets a sysctl outside them.
// The apiserver reaches the nodes through an egress proxy that dials inside that namespace; the
// nodes and pods reach the apiserver through a relay that listens inside it. Close stops
// everything it started, by pid, and leaves no process, namespace, mount or cgroup behind.
package realnode

import (
	"context"
	"crypto/x509/pkix"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync/atomic"
	"syscall"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/osctl/osctl/internal/testenv"
	"github.com/osctl/osctl/pkg/proc"
)

// Options say what Start runs.
type Options struct {
	Nodes int    // real nodes (default 1)
	Dir   string // run directory (default: a new one under $TMPDIR, removed by Close)
	Osctl string // static osctl binary of OsctlImage, osctl's release image ("": no osctl image)
	Redis bool   // import RedisImage (Debian's redis-server)
}

// Cluster is a running control plane with real nodes.
type Cluster struct {
	Kube  *testenv.Kube
	Dir   string
	Nodes []*Node

	id         int64
	ownDir     bool
	bin        string
	images     []string
	imageNames []string
	netHolder  *proc.Group
	netNS      string
	netIno     uint64
	egress     *egressProxy
	fwd        *apiForward
	kubeProxy  *proc.Group
}

var clusterSeq atomic.Int64

// Start starts the control plane and the nodes and returns once every node is Ready and pods
// can be created. On error it has stopped whatever it had started, and returns no cluster.
func Start(ctx context.Context, o Options) (c *Cluster, err error) {
	if m := Missing(); len(m) > 0 {
		return nil, fmt.Errorf("a real node needs: %s", strings.Join(m, "; "))
	}
	if o.Nodes <= 0 {
		o.Nodes = 1
	}
	c = &Cluster{Dir: o.Dir, bin: BinDir(), id: clusterSeq.Add(1)}
	if c.Dir == "" {
		if c.Dir, err = os.MkdirTemp("", "osctl-realnode-"); err != nil {
			return nil, err
		}
		c.ownDir = true
	}
	defer func() {
		if err != nil {
			if cerr := c.Close(); cerr != nil {
				err = fmt.Errorf("%w (and stopping: %v)", err, cerr)
			}
			if _, serr := os.Stat(c.Dir); serr == nil {
				err = fmt.Errorf("%w (logs in %s)", err, filepath.Join(c.Dir, "logs"))
			}
			c = nil
		}
	}()
	for _, d := range []string{"logs", "images", "nodes"} {
		if err := os.MkdirAll(filepath.Join(c.Dir, d), 0o755); err != nil {
			return c, err
		}
	}
	if err := c.writeImages(o); err != nil {
		return c, err
	}
	if err := c.startNetns(o.Nodes); err != nil {
		return c, err
	}
	if err := c.startControlPlane(); err != nil {
		return c, err
	}
	for i := 1; i <= o.Nodes; i++ {
		n := newNode(c, i)
		c.Nodes = append(c.Nodes, n)
		if err := testenv.IssueCert(c.Kube.PKI(), n.Name, pkix.Name{CommonName: "system:node:" + n.Name, Organization: []string{"system:nodes"}}, nil, nil); err != nil {
			return c, err
		}
		if err := n.start(); err != nil {
			return c, err
		}
	}
	if err := c.startKubeProxy(); err != nil {
		return c, err
	}
	return c, c.waitUsable(ctx)
}

// writeImages writes the image tarballs the nodes import.
func (c *Cluster) writeImages(o Options) error {
	bb, err := busyboxPath()
	if err != nil {
		return err
	}
	box, err := busyboxImage(bb)
	if err != nil {
		return err
	}
	ims := []Image{pauseImage(bb), box}
	if o.Redis {
		server, err := exec.LookPath("redis-server")
		if err != nil {
			return fmt.Errorf("RedisImage needs redis-server (scripts/test-deps.sh installs it)")
		}
		r, err := redisImage(server)
		if err != nil {
			return err
		}
		ims = append(ims, r)
	}
	for i, im := range ims {
		p := filepath.Join(c.Dir, "images", fmt.Sprintf("%d.tar", i))
		if err := im.WriteFile(p); err != nil {
			return err
		}
		c.images = append(c.images, p)
		c.imageNames = append(c.imageNames, im.Name)
	}
	if o.Osctl != "" {
		p, err := ReleaseImage(o.Osctl, OsctlImage)
		if err != nil {
			return fmt.Errorf("%s: %w", OsctlImage, err)
		}
		c.images = append(c.images, p)
		c.imageNames = append(c.imageNames, OsctlImage)
	}
	return nil
}

// startNetns starts the holder of the nodes' network namespace and sets up its loopback and one
// bridge per node (the node's IP on it; this kernel has no dummy links, and the kubelet refuses a
// loopback node IP), with a default route for Service IPs (DNAT happens after routing).
func (c *Cluster) startNetns(nodes int) error {
	g, err := proc.Start(exec.Command("unshare", "--net", "--", "sleep", "infinity"), syscall.SIGKILL)
	if err != nil {
		return fmt.Errorf("network namespace: %w", err)
	}
	c.netHolder = g
	host := nsInode(os.Getpid(), "net")
	if err := testenv.Poll(10*time.Second, "the network namespace's holder", func() bool {
		ino := nsInode(g.Pid(), "net")
		return g.Exited() || (ino != 0 && ino != host)
	}); err != nil || g.Exited() {
		return fmt.Errorf("the network namespace's holder did not start")
	}
	c.netIno = nsInode(g.Pid(), "net")
	c.netNS = fmt.Sprintf("/proc/%d/ns/net", g.Pid())
	s := "set -e\nip link set lo up\n"
	for i := 1; i <= nodes; i++ {
		n := newNode(c, i)
		s += fmt.Sprintf("ip link add %[1]s type bridge\nip addr add %[2]s/16 dev %[1]s\nip link set %[1]s up\n", n.Bridge, n.IP)
	}
	s += "ip route add default dev cni0\n"
	if out, err := c.InNetns("sh", "-c", s).CombinedOutput(); err != nil {
		return fmt.Errorf("network namespace: %v: %s", err, out)
	}
	c.egress, err = startEgressProxy(c.netNS, filepath.Join(c.Dir, "egress.sock"))
	return err
}

// ImageNames are the images every node has.
func (c *Cluster) ImageNames() []string { return c.imageNames }

// InNetns is cmd run in the nodes' network namespace (this machine's mount namespace).
func (c *Cluster) InNetns(name string, args ...string) *exec.Cmd {
	return exec.Command("nsenter", append([]string{"--target", fmt.Sprint(c.netHolder.Pid()), "--net", "--", name}, args...)...)
}

func (c *Cluster) startControlPlane() error {
	egress := filepath.Join(c.Dir, "egress.yaml")
	if err := os.WriteFile(egress, []byte(egressConfig(filepath.Join(c.Dir, "egress.sock"))), 0o644); err != nil {
		return err
	}
	cp := filepath.Join(c.Dir, "control-plane")
	if err := os.MkdirAll(cp, 0o755); err != nil {
		return err
	}
	var err error
	c.Kube, err = testenv.StartControlPlane(cp, testenv.ControlPlane{
		AdvertiseAddress: newNode(c, 1).IP,
		APIServerFlags: []string{"--egress-selector-config-file=" + egress,
			"--kubelet-client-certificate=" + cp + "/pki/admin.crt", "--kubelet-client-key=" + cp + "/pki/admin.key"},
		Controllers:            "*",
		ControllerManagerFlags: []string{"--flex-volume-plugin-dir=" + filepath.Join(c.Dir, "volume-plugins")},
	})
	if err != nil {
		return fmt.Errorf("control plane: %w", err)
	}
	// The nodes and pods (through the kubernetes Service) reach the apiserver at the same port in
	// their namespace, on loopback and on the node's address.
	c.fwd, err = startAPIForward(c.netNS, "0.0.0.0:"+c.Kube.Port(), "127.0.0.1:"+c.Kube.Port())
	return err
}

// writeKubeconfig writes a kubeconfig for user with the client certificate pki/cert, for use
// inside the nodes' namespace.
func (c *Cluster) writeKubeconfig(user, cert string) (string, error) {
	p := filepath.Join(c.Dir, user+".kubeconfig")
	return p, os.WriteFile(p, []byte(kubeconfigText(c.Kube.Server, c.Kube.PKI(), user, cert)), 0o600)
}

func (c *Cluster) startKubeProxy() error {
	if err := testenv.IssueCert(c.Kube.PKI(), "kube-proxy", pkix.Name{CommonName: "system:kube-proxy"}, nil, nil); err != nil {
		return err
	}
	kc, err := c.writeKubeconfig("kube-proxy", "kube-proxy")
	if err != nil {
		return err
	}
	cfg := filepath.Join(c.Dir, "kube-proxy.yaml")
	if err := os.WriteFile(cfg, []byte(kubeProxyConfig(kc, c.Nodes[0].Name)), 0o644); err != nil {
		return err
	}
	// In node 1's mount namespace, so that its lock files land in that node's /run.
	c.kubeProxy, err = c.Nodes[0].daemon("kube-proxy", nil, filepath.Join(c.bin, "kube-proxy"), "--config="+cfg, "--v=1")
	return err
}

// waitUsable waits until every node is Ready and the default ServiceAccount exists.
func (c *Cluster) waitUsable(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(ctx, 3*time.Minute)
	defer cancel()
	for _, n := range c.Nodes {
		if err := n.waitReady(ctx); err != nil {
			return err
		}
	}
	for {
		_, err := c.Kube.Clients.Clientset.CoreV1().ServiceAccounts("default").Get(ctx, "default", metav1.GetOptions{})
		if err == nil {
			return nil
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("no default ServiceAccount: %v", err)
		case <-time.After(200 * time.Millisecond):
		}
	}
}

func (c *Cluster) kubectl(args ...string) (string, error) {
	out, err := exec.Command(filepath.Join(c.Kube.BinDir, "kubectl"), append([]string{"--kubeconfig=" + c.Kube.Kubeconfig}, args...)...).CombinedOutput()
	return string(out), err
}

func (c *Cluster) logTail(name string) string {
	b, _ := os.ReadFile(filepath.Join(c.Dir, "logs", name+".log"))
	if len(b) > 3000 {
		b = b[len(b)-3000:]
	}
	return string(b)
}
