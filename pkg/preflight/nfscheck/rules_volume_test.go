package nfscheck_test

import (
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	storagev1 "k8s.io/api/storage/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/osctl/osctl/pkg/preflight"
	"github.com/osctl/osctl/pkg/preflight/nfscheck"
)

func claimVolume() corev1.Volume {
	return corev1.Volume{Name: "nfs", VolumeSource: corev1.VolumeSource{PersistentVolumeClaim: &corev1.PersistentVolumeClaimVolumeSource{ClaimName: "nfs-pvc"}}}
}

func TestVolumeRulesStorageClassOnly(t *testing.T) {
	sc := &storagev1.StorageClass{ObjectMeta: metav1.ObjectMeta{Name: "nfs"}, Provisioner: "cluster.local/osrel-nfs-server-provisioner", MountOptions: []string{"vers=4", "sync"}}
	v := nfscheck.VolumeFacts{Subject: "deployment/web", Volume: claimVolume(), StorageClass: sc, Static: true}
	rs := nfscheck.VolumeRules(v)
	must(t, rs, nfscheck.RuleSCOptions, "storageclass/nfs", preflight.Warn) // one pod: WARN
	v.MultiPod, v.MultiPodWhy = true, "2 pods during rollouts"
	rs = nfscheck.VolumeRules(v)
	r := must(t, rs, nfscheck.RuleSCOptions, "storageclass/nfs", preflight.Fail)
	if !strings.Contains(r.Message, "2 pods during rollouts") {
		t.Error(r.Message)
	}
	sc.MountOptions = []string{"vers=4", "noac"}
	must(t, nfscheck.VolumeRules(v), nfscheck.RuleSCOptions, "storageclass/nfs", preflight.Pass)
}

func TestVolumeRulesPVAnnotationAndCSI(t *testing.T) {
	pv := &corev1.PersistentVolume{ObjectMeta: metav1.ObjectMeta{Name: "pv1", Annotations: map[string]string{nfscheck.MountOptionsAnnotation: "vers=3,noac"}}}
	v := nfscheck.VolumeFacts{Subject: "deployment/web", Volume: claimVolume(), PV: pv, MultiPod: true}
	must(t, nfscheck.VolumeRules(v), nfscheck.RulePVOptions, "pv/pv1", preflight.Pass)

	pv = &corev1.PersistentVolume{ObjectMeta: metav1.ObjectMeta{Name: "pv2"}, Spec: corev1.PersistentVolumeSpec{
		MountOptions:           []string{"nfsvers=4.1,rsize=1048576"},
		PersistentVolumeSource: corev1.PersistentVolumeSource{CSI: &corev1.CSIPersistentVolumeSource{Driver: "efs.csi.aws.com", VolumeHandle: "fs-1"}}}}
	v.PV = pv
	rs := nfscheck.VolumeRules(v)
	must(t, rs, nfscheck.RulePVOptions, "pv/pv2", preflight.Fail)
	r := must(t, rs, nfscheck.RuleCSI, "pv/pv2", preflight.Info)
	if !strings.Contains(r.Message, "close-to-open") {
		t.Error(r.Message)
	}

	pv.Spec.CSI.Driver = "nfs.csi.k8s.io"
	pv.Spec.CSI.VolumeAttributes = map[string]string{"mountOptions": "noac"}
	must(t, nfscheck.VolumeRules(v), nfscheck.RulePVOptions, "pv/pv2", preflight.Pass)
}

func TestVolumeRulesInlineAndUnknown(t *testing.T) {
	inline := corev1.Volume{Name: "nfs", VolumeSource: corev1.VolumeSource{NFS: &corev1.NFSVolumeSource{Server: "10.0.0.1", Path: "/x"}}}
	must(t, nfscheck.VolumeRules(nfscheck.VolumeFacts{Subject: "deployment/web", Volume: inline}), nfscheck.RuleInline, "deployment/web", preflight.Fail)
	must(t, nfscheck.VolumeRules(nfscheck.VolumeFacts{Subject: "deployment/web", Volume: claimVolume(), Static: true}), nfscheck.RulePVOptions, "pvc/nfs-pvc", preflight.Unknown)
	empty := corev1.Volume{Name: "tmp", VolumeSource: corev1.VolumeSource{EmptyDir: &corev1.EmptyDirVolumeSource{}}}
	must(t, nfscheck.VolumeRules(nfscheck.VolumeFacts{Subject: "deployment/web", Volume: empty}), nfscheck.RuleVolumeKind, "deployment/web", preflight.Info)
}

func TestVolumeRulesGanesha(t *testing.T) {
	zero, sixty := 0, 60
	v := nfscheck.VolumeFacts{Subject: "deployment/web", Volume: claimVolume(), Static: true,
		StorageClass: &storagev1.StorageClass{ObjectMeta: metav1.ObjectMeta{Name: "nfs"}, MountOptions: []string{"noac"}}}
	v.Ganesha = &nfscheck.Ganesha{Name: "g"}
	must(t, nfscheck.VolumeRules(v), nfscheck.RuleGanesha, "deployment/web", preflight.Warn)
	v.Ganesha = &nfscheck.Ganesha{Name: "g", AttrExpiration: &sixty}
	must(t, nfscheck.VolumeRules(v), nfscheck.RuleGanesha, "deployment/web", preflight.Warn)
	v.Ganesha = &nfscheck.Ganesha{Name: "g", AttrExpiration: &zero}
	must(t, nfscheck.VolumeRules(v), nfscheck.RuleGanesha, "deployment/web", preflight.Pass)
}
