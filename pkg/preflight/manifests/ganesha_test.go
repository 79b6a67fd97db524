package manifests_test

import (
	"strings"
	"testing"

	"github.com/osctl/osctl/pkg/preflight"
	"github.com/osctl/osctl/pkg/preflight/manifests"
	"github.com/osctl/osctl/pkg/preflight/nfscheck"
)

// ganeshaChart is a web Deployment on a claim of a class that an in-cluster nfs-provisioner
// serves, whose pod mounts the ConfigMap ganesha-conf (in an init container, as contrib/helm's
// change does). CONF is replaced by the ConfigMap's data lines.
const ganeshaChart = `
apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  replicas: 1
  strategy: {rollingUpdate: {maxSurge: 0, maxUnavailable: 1}}
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers:
        - {name: web, image: app, volumeMounts: [{name: nfs, mountPath: /mnt/openstudio}]}
      volumes:
        - {name: nfs, persistentVolumeClaim: {claimName: nfs-pvc}}
---
apiVersion: v1
kind: PersistentVolumeClaim
metadata: {name: nfs-pvc}
spec: {storageClassName: nfs, accessModes: [ReadWriteMany]}
---
apiVersion: storage.k8s.io/v1
kind: StorageClass
metadata: {name: nfs}
provisioner: cluster.local/rel-nfs-server-provisioner
mountOptions: [vers=4, noac]
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: rel-nfs-server-provisioner}
spec:
  selector: {matchLabels: {app: nfs-server-provisioner}}
  template:
    metadata: {labels: {app: nfs-server-provisioner}}
    spec:
      initContainers:
        - name: conf
          image: quay.io/kubernetes_incubator/nfs-provisioner:v2.3.0
          volumeMounts: [{name: MOUNTED, mountPath: /osctl-ganesha}]
      containers:
        - name: nfs-server-provisioner
          image: quay.io/kubernetes_incubator/nfs-provisioner:v2.3.0
          args: ["-provisioner=cluster.local/rel-nfs-server-provisioner"]
      volumes:
        - {name: conf, configMap: {name: ganesha-conf}}
`

const ganeshaConfigMap = `
---
apiVersion: v1
kind: ConfigMap
metadata: {name: ganesha-conf}
data:
CONF`

func ganeshaResult(t *testing.T, mounted string, withCM bool, conf ...string) preflight.Result {
	t.Helper()
	text := strings.Replace(ganeshaChart, "MOUNTED", mounted, 1)
	if withCM {
		text += strings.Replace(ganeshaConfigMap, "CONF", strings.Join(conf, "\n"), 1)
	}
	objs, err := manifests.ParseDocuments([]byte(text), "chart.yaml")
	if err != nil {
		t.Fatal(err)
	}
	rs := eval(t, manifests.Input{Objects: objs})
	r, ok := get(rs, nfscheck.RuleGanesha, "deployment/web")
	if !ok {
		t.Fatalf("no %s in:\n%s", nfscheck.RuleGanesha, dump(rs))
	}
	return r
}

func TestGaneshaAttrCacheFromMountedConfigMap(t *testing.T) {
	zero := `  attr-cache.conf: "EXPORT_DEFAULTS {\n\tAttr_Expiration_Time = 0;\n}\n"`
	script := `  merge.sh: "echo Attr_Expiration_Time = 60 is what it replaces\n"`
	sixty := `  other.conf: "EXPORT {\n  Attr_Expiration_Time = 60;\n}\n"`
	cases := []struct {
		name    string
		mounted string
		withCM  bool
		conf    []string
		status  preflight.Status
		text    string
	}{
		{"set to 0", "conf", true, []string{zero, script}, preflight.Pass, "configmap/ganesha-conf key attr-cache.conf mounted into deployment/rel-nfs-server-provisioner"},
		{"a longer cache elsewhere wins", "conf", true, []string{zero, sixty}, preflight.Warn, "for 60 s"},
		{"only a mention in a script", "conf", true, []string{script}, preflight.Warn, "no Attr_Expiration_Time in configmap ganesha-conf"},
		{"ConfigMap not in the input", "conf", false, nil, preflight.Warn, "configmap ganesha-conf, which is not in the input"},
		{"declared but not mounted", "other", true, []string{zero}, preflight.Warn, "no ConfigMap mounted into deployment/rel-nfs-server-provisioner"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := ganeshaResult(t, c.mounted, c.withCM, c.conf...)
			if r.Status != c.status || !strings.Contains(r.Message, c.text) {
				t.Fatalf("got %s %q, want %s containing %q", r.Status, r.Message, c.status, c.text)
			}
		})
	}
}
