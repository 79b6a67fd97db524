//go:build linux

package realnode

import (
	"fmt"
	"path/filepath"
)

// containerdConfig is containerd 2.x's configuration for node n, all its state under dir.
// restrict_oom_score_adj: without CAP_SYS_RESOURCE here, runc fails on the sandbox's negative
// oom_score_adj ("can't get final child's PID from pipe: EOF").
func containerdConfig(dir string, n *Node) string {
	return fmt.Sprintf(`version = 3
root = "%[1]s/root"
state = "%[1]s/state"
[grpc]
  address = "%[1]s/containerd.sock"
[plugins.'io.containerd.internal.v1.opt']
  path = "%[1]s/opt"
[plugins.'io.containerd.cri.v1.images']
  snapshotter = "overlayfs"
  [plugins.'io.containerd.cri.v1.images'.pinned_images]
    sandbox = "%[2]s"
[plugins.'io.containerd.cri.v1.runtime']
  restrict_oom_score_adj = true
  [plugins.'io.containerd.cri.v1.runtime'.containerd]
    default_runtime_name = "runc"
    [plugins.'io.containerd.cri.v1.runtime'.containerd.runtimes.runc]
      runtime_type = "io.containerd.runc.v2"
      [plugins.'io.containerd.cri.v1.runtime'.containerd.runtimes.runc.options]
        SystemdCgroup = false
        BinaryName = "%[3]s"
  [plugins.'io.containerd.cri.v1.runtime'.cni]
    bin_dirs = ["%[4]s"]
    conf_dir = "%[5]s"
`, dir, PauseImage, runcPath(), CNIDir, filepath.Join(n.Dir, "cni", "net.d"))
}

// cniConfig puts node n's pods on its bridge, addresses from its CIDR, the node's IP their gateway.
func cniConfig(n *Node) string {
	return fmt.Sprintf(`{ "cniVersion": "0.4.0", "name": "osctl-realnode",
  "plugins": [ { "type": "bridge", "bridge": "%s", "isGateway": true, "ipMasq": false, "hairpinMode": true,
      "ipam": { "type": "host-local", "dataDir": "%s",
                "ranges": [[{ "subnet": "%s", "gateway": "%s" }]], "routes": [{ "dst": "0.0.0.0/0" }] } } ] }
`, n.Bridge, filepath.Join(n.Dir, "cni", "ipam"), n.CIDR, n.IP)
}

// kubeletConfig: cgroup v1 here (failCgroupV1: false, cgroupfs), pods' cgroups under the node's
// own root, the kubelet's API on the node's IP (the apiserver reaches it through its egress
// proxy), authenticated by the cluster's CA and authorized by the apiserver.
func kubeletConfig(n *Node) string {
	pki := n.c.Kube.PKI()
	return fmt.Sprintf(`apiVersion: kubelet.config.k8s.io/v1beta1
kind: KubeletConfiguration
failCgroupV1: false
cgroupDriver: cgroupfs
cgroupRoot: /%s
containerRuntimeEndpoint: unix://%s
address: %s
port: 10250
readOnlyPort: 0
healthzBindAddress: 127.0.0.1
healthzPort: %d
authentication:
  anonymous: {enabled: false}
  webhook: {enabled: true}
  x509: {clientCAFile: %s/ca.crt}
authorization: {mode: Webhook}
clusterDomain: cluster.local
failSwapOn: false
podLogsDir: %s
volumePluginDir: %s
evictionHard: {memory.available: 100Mi, nodefs.available: 2%%, imagefs.available: 2%%}
imageGCHighThresholdPercent: 100
maxPods: 50
syncFrequency: 10s
fileCheckFrequency: 5s
nodeStatusUpdateFrequency: 4s
`, n.Cgroup, n.Socket(), n.IP, 10247+n.index, pki, filepath.Join(n.Dir, "pod-logs"), filepath.Join(n.Dir, "volume-plugins"))
}

// kubeProxyConfig: iptables rules in the nodes' network namespace only; conntrack's global
// sysctls left alone (maxPerCore 0).
func kubeProxyConfig(kubeconfig, hostname string) string {
	return fmt.Sprintf(`apiVersion: kubeproxy.config.k8s.io/v1alpha1
kind: KubeProxyConfiguration
clientConnection: {kubeconfig: %s}
mode: iptables
clusterCIDR: 10.88.0.0/13
hostnameOverride: %s
healthzBindAddress: 127.0.0.1:10256
metricsBindAddress: 127.0.0.1:10249
conntrack: {maxPerCore: 0, min: 0, tcpEstablishedTimeout: 0s, tcpCloseWaitTimeout: 0s}
iptables: {masqueradeAll: true}
`, kubeconfig, hostname)
}

// egressConfig sends the apiserver's traffic to nodes and pods through the CONNECT proxy on socket.
func egressConfig(socket string) string {
	return fmt.Sprintf(`apiVersion: apiserver.k8s.io/v1beta1
kind: EgressSelectorConfiguration
egressSelections:
- name: cluster
  connection:
    proxyProtocol: HTTPConnect
    transport:
      uds:
        udsName: %s
`, socket)
}

// kubeconfigText authenticates user with the client certificate pki/cert.{crt,key} at server.
func kubeconfigText(server, pki, user, cert string) string {
	return fmt.Sprintf(`apiVersion: v1
kind: Config
clusters:
- name: local
  cluster: {server: "%s", certificate-authority: "%s/ca.crt"}
users:
- name: %s
  user: {client-certificate: "%s/%s.crt", client-key: "%s/%s.key"}
contexts:
- name: local
  context: {cluster: local, user: %s}
current-context: local
`, server, pki, user, pki, cert, pki, cert, user)
}
