package manifests

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	corev1 "k8s.io/api/core/v1"

	"github.com/osctl/osctl/pkg/preflight/nfscheck"
)

// ganesha recognises an in-cluster NFS-Ganesha server behind the volume: a workload of the input
// with a Ganesha image that provisions the StorageClass (by the provisioner name in its args), or
// a provisioner (or the PV's provisioned-by) with a Ganesha name. For a workload of the input it
// also reads Attr_Expiration_Time from the ConfigMaps mounted into its pod, where a chart change
// (contrib/helm) sets it.
func ganesha(f *Facts, v nfscheck.VolumeFacts) *nfscheck.Ganesha {
	prov := ""
	if v.StorageClass != nil {
		prov = v.StorageClass.Provisioner
	}
	if v.PV != nil && prov == "" {
		prov = v.PV.Annotations["pv.kubernetes.io/provisioned-by"]
	}
	if prov == "" {
		return nil
	}
	type server struct {
		kind, name, ns string
		spec           *corev1.PodSpec
	}
	var servers []server
	for _, d := range f.Deployments {
		servers = append(servers, server{"deployment", d.Name, d.Namespace, &d.Spec.Template.Spec})
	}
	for _, s := range f.StatefulSets {
		servers = append(servers, server{"statefulset", s.Name, s.Namespace, &s.Spec.Template.Spec})
	}
	for _, s := range servers {
		for _, c := range s.spec.Containers {
			if nfscheck.IsGaneshaName(c.Image) && argsName(c, prov) {
				g := &nfscheck.Ganesha{Name: s.kind + "/" + s.name + " (" + c.Image + ")"}
				readAttrCache(f, g, s.kind+"/"+s.name, s.ns, s.spec)
				return g
			}
		}
	}
	if nfscheck.IsGaneshaName(prov) {
		return &nfscheck.Ganesha{Name: prov, ReadErr: "its server is not in the input"}
	}
	return nil
}

func argsName(c corev1.Container, prov string) bool {
	for _, a := range append(append([]string{}, c.Args...), c.Command...) {
		if strings.Contains(a, prov) {
			return true
		}
	}
	return false
}

// readAttrCache sets g.AttrExpiration from the ConfigMaps that the server's containers (init
// containers included) mount: every Attr_Expiration_Time found in their data counts, and the
// longest cache wins (-1, no expiry, above all). Without one, g.ReadErr says what was looked at.
func readAttrCache(f *Facts, g *nfscheck.Ganesha, server, ns string, spec *corev1.PodSpec) {
	mounted := map[string]bool{}
	for _, c := range append(slices.Clone(spec.InitContainers), spec.Containers...) {
		for _, m := range c.VolumeMounts {
			mounted[m.Name] = true
		}
	}
	var names, missing, found []string
	worst, any := 0, false
	for _, vol := range spec.Volumes {
		if !mounted[vol.Name] {
			continue
		}
		for _, name := range configMapNames(vol) {
			names = append(names, name)
			cm := f.configMap(name, ns)
			if cm == nil {
				missing = append(missing, name)
				continue
			}
			keys := make([]string, 0, len(cm.Data))
			for k := range cm.Data {
				keys = append(keys, k)
			}
			sort.Strings(keys)
			for _, k := range keys {
				n, ok := nfscheck.ParseAttrExpiration(cm.Data[k])
				if !ok {
					continue
				}
				found = append(found, fmt.Sprintf("configmap/%s key %s", name, k))
				if !any || n < 0 || (worst >= 0 && n > worst) {
					worst = n
				}
				any = true
			}
		}
	}
	switch {
	case any:
		g.AttrExpiration = &worst
		g.Source = strings.Join(found, ", ") + " mounted into " + server
	case len(missing) > 0:
		g.ReadErr = fmt.Sprintf("%s mounts configmap %s, which is not in the input", server, strings.Join(missing, ", "))
	case len(names) > 0:
		g.ReadErr = fmt.Sprintf("no Attr_Expiration_Time in configmap %s mounted into %s (Ganesha's default caches attributes for 60 s)", strings.Join(names, ", "), server)
	default:
		g.ReadErr = "no ConfigMap mounted into " + server + " sets Attr_Expiration_Time (Ganesha's default caches attributes for 60 s)"
	}
}

// configMapNames lists the ConfigMaps a volume mounts (directly or projected).
func configMapNames(v corev1.Volume) []string {
	var out []string
	if v.ConfigMap != nil {
		out = append(out, v.ConfigMap.Name)
	}
	if v.Projected != nil {
		for _, s := range v.Projected.Sources {
			if s.ConfigMap != nil {
				out = append(out, s.ConfigMap.Name)
			}
		}
	}
	return out
}

// configMap returns the ConfigMap named name in namespace ns ("" matches any: helm template
// output often names none).
func (f *Facts) configMap(name, ns string) *corev1.ConfigMap {
	for _, cm := range f.ConfigMaps {
		if cm.Name == name && (ns == "" || cm.Namespace == "" || cm.Namespace == ns) {
			return cm
		}
	}
	return nil
}
