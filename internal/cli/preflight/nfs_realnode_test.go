//go:build linux

package preflight_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/osctl/osctl/internal/testenv"
	"github.com/osctl/osctl/internal/testenv/realnode"
	"github.com/osctl/osctl/pkg/preflight"
)

// TestNFSOnRealPodsSaysThePathIsNotNFS: `preflight nfs` across a Deployment's real pods reads
// each container's own /proc/self/mountinfo through a real exec (the container that mounts the
// volume, beside a first one that does not). On a hostPath and on an emptyDir volume it fails
// each pod plainly: no NFS mount holds the path, with the filesystem the pod really has there.
func TestNFSOnRealPodsSaysThePathIsNotNFS(t *testing.T) {
	c := realnode.Shared(t)
	for _, tc := range []struct{ name, volume string }{
		{"hostPath", fmt.Sprintf("hostPath: {path: %q, type: Directory}", t.TempDir())},
		{"emptyDir", "emptyDir: {}"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ns := c.Kube.NewNamespace(t)
			c.Kube.Apply(t, ns, testenv.WebDeployment(2, fmt.Sprintf(`terminationGracePeriodSeconds: 1
containers:
- {name: sidecar, image: %[1]s, imagePullPolicy: Never, command: [sleep, "3600"]}
- name: web
  image: %[1]s
  imagePullPolicy: Never
  command: [sleep, "3600"]
  volumeMounts: [{name: share, mountPath: /mnt/openstudio}]
volumes:
- name: share
  %[2]s
`, realnode.BusyboxImage, tc.volume)))
			pods := c.Kube.ReadyPods(t, ns, "app=web", 2)
			out, errOut, code := run(t, "", "nfs", "--kubeconfig", c.Kube.Kubeconfig, "-n", ns, "-o", "json")
			r := parse(t, out)
			if code != 1 {
				t.Fatalf("exit %d, want 1 (FAIL)\n%s\n%s", code, errOut, out)
			}
			for _, p := range pods {
				found := false
				for _, x := range r.Results {
					if x.Check != "nfs" || x.ID != "nfs.mount" || x.Subject != "pod/"+p {
						continue
					}
					found = true
					if x.Status != preflight.Fail || !strings.HasPrefix(x.Message, "no NFS mount holds /mnt/openstudio: it is on ") ||
						!strings.HasSuffix(x.Message, " mounted at /mnt/openstudio") || strings.Contains(x.Message, " nfs") {
						t.Errorf("pod %s: %s %q, want FAIL: no NFS mount holds /mnt/openstudio: it is on FS SOURCE mounted at /mnt/openstudio", p, x.Status, x.Message)
					}
				}
				if !found {
					t.Errorf("no nfs.mount result for pod/%s:\n%s", p, out)
				}
			}
		})
	}
}
