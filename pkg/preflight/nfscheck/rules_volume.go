package nfscheck

import (
	"fmt"
	"strings"

	corev1 "k8s.io/api/core/v1"
	storagev1 "k8s.io/api/storage/v1"

	"github.com/osctl/osctl/pkg/preflight"
)

// Rule ids of the volume checks (shared by the live check and the manifest rules).
const (
	RuleInline     = "nfs.inline"       // inline nfs: volume, which cannot carry mount options
	RulePVOptions  = "nfs.pv-options"   // the PV's mountOptions carry noac
	RuleSCOptions  = "nfs.storageclass" // the StorageClass's mountOptions, and what changing them does
	RuleCSI        = "nfs.csi"          // vendor advice for the CSI driver behind the volume
	RuleGanesha    = "nfs.ganesha"      // an in-cluster NFS-Ganesha server caches attributes itself
	RuleVolumeKind = "nfs.volume"       // what kind of volume holds the path
)

// MountOptionsAnnotation is the older way to give a PV mount options.
const MountOptionsAnnotation = "volume.beta.kubernetes.io/mount-options"

// VolumeFacts is what is known about the volume a workload mounts at the shared path.
type VolumeFacts struct {
	// Subject names the workload's volume in results, for example "deployment/web".
	Subject string
	Volume  corev1.Volume
	PVC     *corev1.PersistentVolumeClaim
	PV      *corev1.PersistentVolume
	// StorageClass is the class of the PVC (or PV), when known.
	StorageClass *storagev1.StorageClass
	// Ganesha is the in-cluster NFS-Ganesha server behind the volume, if one was recognised.
	Ganesha *Ganesha
	// MultiPod says more than one pod can mount the volume at once; MultiPodWhy says why.
	MultiPod    bool
	MultiPodWhy string
	// Static says the facts come from manifests: PVs are created later by a provisioner, so a
	// missing PV is expected and the StorageClass decides.
	Static bool
}

// Ganesha is an in-cluster NFS-Ganesha server (such as nfs-server-provisioner).
type Ganesha struct {
	// Name is how it was recognised: the provisioner name or the server's workload.
	Name string `json:"name"`
	// AttrExpiration is Attr_Expiration_Time read from its config (nil when unread).
	AttrExpiration *int `json:"attrExpiration,omitempty"`
	// Source says where AttrExpiration was read (a file in the server pod, a ConfigMap).
	Source string `json:"source,omitempty"`
	// ReadErr says why the config could not be read.
	ReadErr string `json:"readErr,omitempty"`
}

// IsGaneshaName reports whether a provisioner, image or workload name looks like NFS-Ganesha
// (the chart's nfs-server-provisioner, kubernetes-incubator's nfs-provisioner, ganesha images).
func IsGaneshaName(s string) bool {
	s = strings.ToLower(s)
	return strings.Contains(s, "nfs-server-provisioner") || strings.Contains(s, "nfs-provisioner") ||
		strings.Contains(s, "ganesha") || strings.Contains(s, "nfs-ganesha")
}

// csiAdvice is the vendor advice per CSI driver.
var csiAdvice = map[string]string{
	"nfs.csi.k8s.io":               "nfs.csi.k8s.io mounts with the PV's spec.mountOptions plus spec.csi.volumeAttributes.mountOptions; put noac in the PV (its StorageClass parameters reject a mountOptions key)",
	"efs.csi.aws.com":              "AWS EFS: recommended options nfsvers=4.1,rsize=1048576,wsize=1048576,hard,timeo=600,retrans=2,noresvport; AWS discourages disabling attribute caching for performance and promises close-to-open consistency only, so noac costs latency: measure it; with TLS the source reads 127.0.0.1:/, identify the file system by the PV's volumeHandle",
	"file.csi.azure.com":           "Azure Files NFS: the examples use actimeo=30, which fails the noac rule: override with noac in the PV/StorageClass mountOptions; vers, minorversion and sec are set by the driver",
	"filestore.csi.storage.gke.io": "GCP Filestore mounts once per node and bind-mounts into pods: new options take effect only after every pod on that node released the volume; NFSv3 on all tiers",
}

// CSIAdvice returns the advice for driver, or "".
func CSIAdvice(driver string) string { return csiAdvice[driver] }

// VolumeOptions returns the mount options a PV gives its mounts: spec.mountOptions, the
// mount-options annotation, and for nfs.csi.k8s.io the volumeAttributes' mountOptions.
func VolumeOptions(pv *corev1.PersistentVolume) []string {
	var out []string
	out = append(out, pv.Spec.MountOptions...)
	if a := pv.Annotations[MountOptionsAnnotation]; a != "" {
		out = append(out, a)
	}
	if pv.Spec.CSI != nil && pv.Spec.CSI.Driver == "nfs.csi.k8s.io" {
		if mo := pv.Spec.CSI.VolumeAttributes["mountOptions"]; mo != "" {
			out = append(out, mo)
		}
	}
	return out
}

// HasNoac reports whether options (entries may be comma-joined) turn the attribute cache off:
// noac, or actimeo=0 with sync.
func HasNoac(opts []string) bool {
	o := ParseOptions(opts, "")
	return o.Noac || (o.ActimeoZero() && o.Sync)
}

// VolumeRules grades the volume behind the shared path. They are pure: the caller collected
// the objects (from the API server or from manifests).
func VolumeRules(v VolumeFacts) []preflight.Result {
	r := &volumeRules{v: v, bad: preflight.Warn, multi: "one pod at a time"}
	if v.MultiPod {
		r.bad, r.multi = preflight.Fail, v.MultiPodWhy
	}
	switch {
	case v.Volume.NFS != nil:
		r.add(RuleInline, preflight.Fail, v.Subject,
			fmt.Sprintf("inline nfs volume %q (%s:%s) cannot carry mount options: kernel defaults apply (attributes cached for up to %d s)", v.Volume.Name, v.Volume.NFS.Server, v.Volume.NFS.Path, DefaultACDirMax),
			"replace the inline nfs: volume with a PersistentVolume (spec.nfs, spec.mountOptions: [noac]) and a PVC bound to it")
		return r.rs
	case v.Volume.PersistentVolumeClaim != nil:
	case v.Volume.CSI != nil:
		d := v.Volume.CSI.Driver
		r.add(RuleVolumeKind, preflight.Warn, v.Subject, fmt.Sprintf("inline CSI volume %q (driver %s): mount options come from the driver", v.Volume.Name, d), "use a PV with spec.mountOptions: [noac]")
		if a := CSIAdvice(d); a != "" {
			r.add(RuleCSI, preflight.Info, v.Subject, a, "")
		}
		return r.rs
	default:
		r.add(RuleVolumeKind, preflight.Info, v.Subject, fmt.Sprintf("volume %q is not NFS or a PVC: the NFS volume rules do not apply", v.Volume.Name), "")
		return r.rs
	}
	switch {
	case v.PV != nil:
		r.pv()
	case v.StorageClass != nil:
		r.storageClass()
	default:
		r.unknownClaim()
	}
	if v.Ganesha != nil {
		r.ganesha()
	}
	return r.rs
}

// volumeRules gathers the results of VolumeRules for one PVC volume.
type volumeRules struct {
	v     VolumeFacts
	rs    []preflight.Result
	bad   preflight.Status // what a mount without noac is: a failure when more than one pod mounts it
	multi string           // why more than one pod mounts it ("one pod at a time" when not)
}

func (r *volumeRules) add(id string, st preflight.Status, subject, msg, fix string) {
	r.rs = append(r.rs, preflight.Result{ID: id, Status: st, Subject: subject, Message: msg, Fix: fix})
}

func (r *volumeRules) claim() string { return r.v.Volume.PersistentVolumeClaim.ClaimName }

func (r *volumeRules) scNoac() bool {
	return r.v.StorageClass != nil && HasNoac(r.v.StorageClass.MountOptions)
}

// pv grades the bound PV's mount options, and what its StorageClass would give a new PV.
func (r *volumeRules) pv() {
	v, claim := r.v, r.claim()
	opts := VolumeOptions(v.PV)
	subj := "pv/" + v.PV.Name
	if HasNoac(opts) {
		r.add(RulePVOptions, preflight.Pass, subj, fmt.Sprintf("PV %s (claim %s) mounts with noac: %s", v.PV.Name, claim, strings.Join(opts, ",")), "")
	} else {
		shown := strings.Join(opts, ",")
		if shown == "" {
			shown = "none (kernel defaults: attributes cached up to 60 s)"
		}
		r.add(RulePVOptions, r.bad, subj, fmt.Sprintf("PV %s (claim %s) mounts without noac (options: %s) and %s", v.PV.Name, claim, shown, r.multi),
			fmt.Sprintf(`kubectl patch pv %s --type=json -p '[{"op":"add","path":"/spec/mountOptions","value":[%s]}]' then restart the pods (a PV change applies at the next mount)`, v.PV.Name, quoteJoin(append(dropACOpts(v.PV.Spec.MountOptions), "noac"))))
	}
	if v.StorageClass != nil {
		switch {
		case r.scNoac() && !HasNoac(opts):
			r.add(RuleSCOptions, preflight.Info, "storageclass/"+v.StorageClass.Name,
				fmt.Sprintf("StorageClass %s has noac but PV %s does not: mountOptions are copied into a PV only when it is created, so changing the StorageClass changed nothing here", v.StorageClass.Name, v.PV.Name),
				"patch the PV's spec.mountOptions and restart the pods")
		case !r.scNoac() && HasNoac(opts):
			r.add(RuleSCOptions, preflight.Info, "storageclass/"+v.StorageClass.Name,
				fmt.Sprintf("StorageClass %s lacks noac: PVs it creates later (a reinstall, a new claim) will mount without it", v.StorageClass.Name),
				"add noac to the StorageClass mountOptions too (a StorageClass is immutable: recreate it)")
		}
	}
	if v.PV.Spec.CSI != nil {
		if a := CSIAdvice(v.PV.Spec.CSI.Driver); a != "" {
			r.add(RuleCSI, preflight.Info, subj, a, "")
		}
	}
}

// storageClass grades the StorageClass of a claim with no PV in the facts.
func (r *volumeRules) storageClass() {
	v, claim := r.v, r.claim()
	subj := "storageclass/" + v.StorageClass.Name
	opts := strings.Join(v.StorageClass.MountOptions, ",")
	if r.scNoac() {
		r.add(RuleSCOptions, preflight.Pass, subj, fmt.Sprintf("StorageClass %s (claim %s) gives new PVs noac: %s", v.StorageClass.Name, claim, opts), "")
	} else {
		if opts == "" {
			opts = "none (kernel defaults: attributes cached up to 60 s)"
		}
		r.add(RuleSCOptions, r.bad, subj, fmt.Sprintf("StorageClass %s (claim %s) mounts without noac (mountOptions: %s) and %s", v.StorageClass.Name, claim, opts, r.multi),
			"add noac to the StorageClass mountOptions (for the chart: nfs-server-provisioner.storageClass.mountOptions); existing PVs keep their options: patch them too")
	}
	if !v.Static {
		r.add(RulePVOptions, preflight.Unknown, "pvc/"+claim, fmt.Sprintf("claim %s is not bound to a PV yet: its mount options are not known", claim), "")
	}
	if a := CSIAdvice(v.StorageClass.Provisioner); a != "" {
		r.add(RuleCSI, preflight.Info, subj, a, "")
	}
}

// unknownClaim reports a claim whose PV and StorageClass are both missing from the facts.
func (r *volumeRules) unknownClaim() {
	v, claim := r.v, r.claim()
	scName := ""
	if v.PVC != nil && v.PVC.Spec.StorageClassName != nil {
		scName = *v.PVC.Spec.StorageClassName
	}
	where := "the input"
	if !v.Static {
		where = "the cluster"
	}
	msg := fmt.Sprintf("claim %s: neither its PV nor its StorageClass %q is in %s, so its mount options are unknown", claim, scName, where)
	if v.PVC == nil {
		msg = fmt.Sprintf("claim %s is not in %s, so its mount options are unknown", claim, where)
	}
	r.add(RulePVOptions, preflight.Unknown, "pvc/"+claim, msg, "include the PV or StorageClass (or check live with osctl preflight nfs)")
}

// ganesha grades an in-cluster NFS-Ganesha server's own attribute cache.
func (r *volumeRules) ganesha() {
	v, g := r.v, r.v.Ganesha
	from := ""
	if g.Source != "" {
		from = ", from " + g.Source
	}
	switch {
	case g.AttrExpiration != nil && *g.AttrExpiration == 0:
		r.add(RuleGanesha, preflight.Pass, v.Subject, fmt.Sprintf("in-cluster NFS-Ganesha %s: Attr_Expiration_Time = 0 (no server-side attribute cache%s)", g.Name, from), "")
	case g.AttrExpiration != nil:
		how := fmt.Sprintf("for %d s", *g.AttrExpiration)
		if *g.AttrExpiration < 0 {
			how = "without expiry"
		}
		r.add(RuleGanesha, preflight.Warn, v.Subject, fmt.Sprintf("in-cluster NFS-Ganesha %s caches attributes itself %s (Attr_Expiration_Time%s): that defeats client noac", g.Name, how, from),
			"set Attr_Expiration_Time = 0 in its EXPORT/CACHEINODE config, or move the share to an NFS server without its own attribute cache")
	default:
		why := ""
		if g.ReadErr != "" {
			why = " (its config could not be read: " + g.ReadErr + ")"
		}
		r.add(RuleGanesha, preflight.Warn, v.Subject, fmt.Sprintf("in-cluster NFS-Ganesha server %s behind the volume: its own attribute cache (Attr_Expiration_Time) can defeat client noac%s", g.Name, why),
			"set Attr_Expiration_Time = 0 in its config (the chart's nfs-server-provisioner: contrib/helm's post-renderer, docs/migration/chart.md), or use an NFS server without its own attribute cache; confirm with the empirical probe of osctl preflight nfs")
	}
}

func dropACOpts(opts []string) []string {
	var out []string
	for _, item := range opts {
		for _, o := range strings.Split(item, ",") {
			k, _, _ := strings.Cut(strings.TrimSpace(o), "=")
			switch k {
			case "", "ac", "actimeo", "acregmin", "acregmax", "acdirmin", "acdirmax", "noac":
				continue
			}
			out = append(out, strings.TrimSpace(o))
		}
	}
	return out
}

func quoteJoin(ss []string) string {
	q := make([]string, len(ss))
	for i, s := range ss {
		q[i] = `"` + s + `"`
	}
	return strings.Join(q, ",")
}
