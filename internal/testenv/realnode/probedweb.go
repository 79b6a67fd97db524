//go:build linux

package realnode

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// ProbedWebPodSpec is the pod spec (for testenv.WebDeployment) of a container web running
// busybox httpd on 8080 with a real readiness probe, GET /healthz every second. A pod serves
// /healthz only when the hostPath directory share holds no file "broken" as it starts
// (BreakProbes): a pod started after that runs, but its probe never passes (404). env is the
// container's env list in flow form ("" for none).
func ProbedWebPodSpec(share, env string) string {
	if env != "" {
		env = "\n  env: " + env
	}
	return fmt.Sprintf(`terminationGracePeriodSeconds: 1
containers:
- name: web
  image: %s
  imagePullPolicy: Never
  command: [sh, -c, 'mkdir -p /www; [ -e /share/broken ] || echo ok > /www/healthz; exec httpd -f -p 8080 -h /www']
  ports: [{containerPort: 8080}]%s
  readinessProbe:
    httpGet: {path: /healthz, port: 8080}
    periodSeconds: 1
    failureThreshold: 1
  volumeMounts: [{name: share, mountPath: /share}]
volumes:
- name: share
  hostPath: {path: %q, type: Directory}
`, BusyboxImage, env, share)
}

// BreakProbes makes the pods of ProbedWebPodSpec started from now on fail their probe.
func BreakProbes(t testing.TB, share string) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(share, "broken"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
}
