package nfscheck

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/osctl/osctl/pkg/setting"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	storagev1 "k8s.io/api/storage/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/osctl/osctl/pkg/k8s"
	"github.com/osctl/osctl/pkg/preflight"
	"github.com/osctl/osctl/pkg/preflight/workload"
)

// execTimeout bounds one exec into a pod.
const execTimeout = 20 * time.Second

// maxParallelExec bounds concurrent execs.
const maxParallelExec = 4

// CheckWorkload checks the NFS mount at path in every ready pod of Deployment workload: it
// execs into the container that mounts the volume holding path, reads /proc/self/mountinfo
// (cat, else sh for images without cat), grades each pod, and FAILs when the pods disagree.
// It also checks the volume behind the mount (PVC -> PV mountOptions and annotation, the
// StorageClass, inline nfs volumes, CSI drivers, an in-cluster NFS-Ganesha server). An error
// means the check could not run (the workload does not exist, the API refused); what it found
// is in the results.
func CheckWorkload(ctx context.Context, c *k8s.Clients, namespace, workloadName, path string) ([]preflight.Result, error) {
	return CheckWorkloadWith(ctx, c, namespace, workloadName, path, GradeOptions{AppLocksFiles: true})
}

// CheckWorkloadWith is CheckWorkload with grading options.
func CheckWorkloadWith(ctx context.Context, c *k8s.Clients, namespace, workloadName, path string, g GradeOptions) ([]preflight.Result, error) {
	if namespace == "" {
		namespace = c.Namespace
	}
	if namespace == "" {
		namespace = "default"
	}
	cs := c.Clientset
	subject := "deployment/" + workloadName
	d, err := cs.AppsV1().Deployments(namespace).Get(ctx, workloadName, metav1.GetOptions{})
	if err != nil {
		if apierrors.IsNotFound(err) {
			return nil, setting.Errorf("Workload", "%s: deployment %s/%s not found: name the web workload", workloadName, namespace, workloadName)
		}
		return nil, fmt.Errorf("reading deployment %s/%s: %v", namespace, workloadName, explainAPI(err))
	}
	at, ok := workload.FindVolume(&d.Spec.Template.Spec, path)
	if !ok {
		return []preflight.Result{{ID: RuleMount, Status: preflight.Fail, Subject: subject,
			Message: fmt.Sprintf("no container of deployment %s mounts a volume at or above %s", workloadName, path),
			Fix:     "mount the shared NFS volume at " + path + " (or check the path the app uses)"}}, nil
	}
	var rs []preflight.Result

	// Pods: every ready pod the Deployment owns (old and new ReplicaSets).
	pods, err := workloadPods(ctx, c, namespace, d)
	if err != nil {
		return nil, err
	}
	var ready []corev1.Pod
	for _, p := range pods {
		if podReady(p) {
			ready = append(ready, p)
		}
	}
	if len(ready) == 0 {
		rs = append(rs, preflight.Result{ID: RuleMount, Status: preflight.Unknown, Subject: subject,
			Message: fmt.Sprintf("deployment %s has no ready pod (%d pod(s) in all): no mount to read", workloadName, len(pods))})
	}
	podResults := make([][]preflight.Result, len(ready))
	sigs := make([]string, len(ready))
	var wg sync.WaitGroup
	sem := make(chan struct{}, maxParallelExec)
	for i, p := range ready {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			podResults[i], sigs[i] = gradePod(ctx, c, namespace, p, at.Container, path, g)
		}()
	}
	wg.Wait()
	agree := map[string]string{}
	for i, p := range ready {
		rs = append(rs, podResults[i]...)
		if sigs[i] != "" {
			agree["pod/"+p.Name] = sigs[i]
		}
	}
	if len(agree) > 0 {
		rs = append(rs, Disagreement(subject, agree))
	}

	// The volume behind the mount.
	hpaMax := hpaMaxFor(ctx, c, namespace, workloadName)
	conc := workload.PodsAtOnce(d, hpaMax)
	vf := VolumeFacts{Subject: subject, Volume: at.Volume, MultiPod: conc.Max > 1 || len(ready) > 1, MultiPodWhy: conc.Why}
	if len(ready) > 1 && conc.Max <= 1 {
		vf.MultiPodWhy = fmt.Sprintf("%d pods run now", len(ready))
	}
	var unknown []preflight.Result
	if pvc := at.Volume.PersistentVolumeClaim; pvc != nil {
		vf.PVC, vf.PV, vf.StorageClass, unknown = collectClaim(ctx, c, namespace, pvc.ClaimName)
		rs = append(rs, unknown...)
	}
	vf.Ganesha = findGanesha(ctx, c, namespace, vf)
	rs = append(rs, VolumeRules(vf)...)
	return rs, nil
}

// gradePod reads and grades one pod's mount; the signature is "" when the pod could not be
// graded.
func gradePod(ctx context.Context, c *k8s.Clients, ns string, p corev1.Pod, container, path string, g GradeOptions) ([]preflight.Result, string) {
	subject := "pod/" + p.Name
	ectx, cancel := context.WithTimeout(ctx, execTimeout)
	defer cancel()
	text, via, err := readPodMountinfo(ectx, c, ns, p.Name, container)
	if err != nil {
		return []preflight.Result{{ID: RuleMount, Status: preflight.Unknown, Subject: subject, Message: err.Error(),
			Fix: "grant pods/exec (docs/migration/rbac-preflight.yaml), or check the pod is running"}}, ""
	}
	ms, err := ParseMountinfo(strings.NewReader(text), subject+":/proc/self/mountinfo")
	if err != nil {
		return []preflight.Result{{ID: RuleMount, Status: preflight.Unknown, Subject: subject, Message: err.Error()}}, ""
	}
	m, ok := FindMount(ms, path)
	if !ok || !m.IsNFS() {
		r := NoMountResult(subject, path, m, ok)
		return []preflight.Result{r}, "no NFS mount"
	}
	rs := GradeMount(m, subject, g)
	if via != "cat" {
		rs[0].Message += " (read with " + via + ": the image has no cat)"
	}
	rs[0].Message += " on node " + p.Spec.NodeName
	return rs, MountOptions(m).Signature()
}

func workloadPods(ctx context.Context, c *k8s.Clients, ns string, d *appsv1.Deployment) ([]corev1.Pod, error) {
	sel, err := metav1.LabelSelectorAsSelector(d.Spec.Selector)
	if err != nil {
		return nil, fmt.Errorf("deployment %s: bad selector: %v", d.Name, err)
	}
	rsList, err := c.Clientset.AppsV1().ReplicaSets(ns).List(ctx, metav1.ListOptions{LabelSelector: sel.String()})
	if err != nil {
		return nil, fmt.Errorf("listing replicasets of deployment %s/%s: %v", ns, d.Name, explainAPI(err))
	}
	owned := map[string]bool{}
	for _, r := range rsList.Items {
		if ref := metav1.GetControllerOf(&r); ref != nil && ref.UID == d.UID {
			owned[string(r.UID)] = true
		}
	}
	podList, err := c.Clientset.CoreV1().Pods(ns).List(ctx, metav1.ListOptions{LabelSelector: sel.String()})
	if err != nil {
		return nil, fmt.Errorf("listing pods of deployment %s/%s: %v", ns, d.Name, explainAPI(err))
	}
	var out []corev1.Pod
	for _, p := range podList.Items {
		if ref := metav1.GetControllerOf(&p); ref != nil && owned[string(ref.UID)] {
			out = append(out, p)
		}
	}
	return out, nil
}

func podReady(p corev1.Pod) bool {
	if p.Status.Phase != corev1.PodRunning {
		return false
	}
	for _, c := range p.Status.Conditions {
		if c.Type == corev1.PodReady {
			return c.Status == corev1.ConditionTrue
		}
	}
	return false
}

// hpaMaxFor returns the maxReplicas of the HPA scaling the Deployment, 0 when none (or when
// HPAs cannot be read).
func hpaMaxFor(ctx context.Context, c *k8s.Clients, ns, name string) int {
	l, err := c.Clientset.AutoscalingV2().HorizontalPodAutoscalers(ns).List(ctx, metav1.ListOptions{})
	if err != nil {
		return 0
	}
	for _, h := range l.Items {
		if h.Spec.ScaleTargetRef.Kind == "Deployment" && h.Spec.ScaleTargetRef.Name == name {
			return int(h.Spec.MaxReplicas)
		}
	}
	return 0
}

// collectClaim reads PVC, PV and StorageClass; what it cannot read becomes an UNKNOWN.
func collectClaim(ctx context.Context, c *k8s.Clients, ns, claim string) (*corev1.PersistentVolumeClaim, *corev1.PersistentVolume, *storagev1.StorageClass, []preflight.Result) {
	var unknown []preflight.Result
	cs := c.Clientset
	note := func(subject string, err error) {
		unknown = append(unknown, preflight.Result{ID: RulePVOptions, Status: preflight.Unknown, Subject: subject,
			Message: "cannot read " + subject + ": " + explainAPI(err).Error(), Fix: "grant the ClusterRole in docs/migration/rbac-preflight.yaml"})
	}
	pvc, err := cs.CoreV1().PersistentVolumeClaims(ns).Get(ctx, claim, metav1.GetOptions{})
	if err != nil {
		if !apierrors.IsNotFound(err) {
			note("pvc/"+claim, err)
		}
		return nil, nil, nil, unknown
	}
	var pv *corev1.PersistentVolume
	if pvc.Spec.VolumeName != "" {
		pv, err = cs.CoreV1().PersistentVolumes().Get(ctx, pvc.Spec.VolumeName, metav1.GetOptions{})
		if err != nil {
			if !apierrors.IsNotFound(err) {
				note("pv/"+pvc.Spec.VolumeName, err)
			}
			pv = nil
		}
	}
	scName := ""
	if pvc.Spec.StorageClassName != nil {
		scName = *pvc.Spec.StorageClassName
	}
	if scName == "" && pv != nil {
		scName = pv.Spec.StorageClassName
	}
	var sc *storagev1.StorageClass
	if scName != "" {
		sc, err = cs.StorageV1().StorageClasses().Get(ctx, scName, metav1.GetOptions{})
		if err != nil {
			if !apierrors.IsNotFound(err) {
				note("storageclass/"+scName, err)
			}
			sc = nil
		}
	}
	return pvc, pv, sc, unknown
}

// findGanesha recognises an in-cluster NFS-Ganesha server behind the volume (by the
// StorageClass provisioner or the PV's provisioned-by annotation) and tries to read its
// Attr_Expiration_Time from a server pod.
func findGanesha(ctx context.Context, c *k8s.Clients, ns string, v VolumeFacts) *Ganesha {
	name := ""
	if v.StorageClass != nil && IsGaneshaName(v.StorageClass.Provisioner) {
		name = v.StorageClass.Provisioner
	}
	if v.PV != nil {
		if p := v.PV.Annotations["pv.kubernetes.io/provisioned-by"]; name == "" && IsGaneshaName(p) {
			name = p
		}
	}
	if name == "" {
		return nil
	}
	g := &Ganesha{Name: name}
	pod, container, err := ganeshaPod(ctx, c, ns)
	if err != nil {
		g.ReadErr = err.Error()
		return g
	}
	ectx, cancel := context.WithTimeout(ctx, execTimeout)
	defer cancel()
	var errs []string
	for _, p := range ganeshaConfigPaths {
		out, err := execInPod(ectx, c, pod.Namespace, pod.Name, container, []string{"cat", p})
		if err != nil {
			errs = append(errs, p+": "+oneLine(err.Error()))
			continue
		}
		if n, ok := ParseAttrExpiration(out); ok {
			g.AttrExpiration, g.Source = &n, p+" in pod "+pod.Namespace+"/"+pod.Name
			return g
		}
		// contrib/helm's change puts the setting in a file that the config %includes.
		for _, inc := range GaneshaIncludes(out) {
			incOut, err := execInPod(ectx, c, pod.Namespace, pod.Name, container, []string{"cat", inc})
			if err != nil {
				errs = append(errs, inc+" (included by "+p+"): "+oneLine(err.Error()))
				continue
			}
			if n, ok := ParseAttrExpiration(incOut); ok {
				g.AttrExpiration, g.Source = &n, inc+" (included by "+p+") in pod "+pod.Namespace+"/"+pod.Name
				return g
			}
		}
		errs = append(errs, p+": no Attr_Expiration_Time (Ganesha's default caches attributes)")
	}
	g.ReadErr = fmt.Sprintf("pod %s/%s: %s", pod.Namespace, pod.Name, strings.Join(errs, "; "))
	return g
}

// ganeshaConfigPaths are where nfs-provisioner and stock Ganesha keep their config.
var ganeshaConfigPaths = []string{"/export/vfs.conf", "/etc/ganesha/ganesha.conf"}

func ganeshaPod(ctx context.Context, c *k8s.Clients, ns string) (*corev1.Pod, string, error) {
	for _, where := range []string{ns, ""} {
		l, err := c.Clientset.CoreV1().Pods(where).List(ctx, metav1.ListOptions{})
		if err != nil {
			continue
		}
		for i := range l.Items {
			p := &l.Items[i]
			if !podReady(*p) {
				continue
			}
			for _, ct := range p.Spec.Containers {
				if IsGaneshaName(ct.Image) {
					return p, ct.Name, nil
				}
			}
		}
	}
	return nil, "", errors.New("no running NFS-Ganesha server pod found")
}

var includeRe = regexp.MustCompile(`(?m)^\s*%include\s+"?([^"\s]+)"?\s*$`)

// GaneshaIncludes lists the files a Ganesha config pulls in with %include lines, in order.
func GaneshaIncludes(conf string) []string {
	var out []string
	for _, m := range includeRe.FindAllStringSubmatch(conf, -1) {
		out = append(out, m[1])
	}
	return out
}

var attrExpRe = regexp.MustCompile(`(?mi)^\s*Attr_Expiration_Time\s*=\s*(-?\d+)\s*;`)

// ParseAttrExpiration finds Attr_Expiration_Time in a Ganesha config.
func ParseAttrExpiration(conf string) (int, bool) {
	m := attrExpRe.FindStringSubmatch(conf)
	if m == nil {
		return 0, false
	}
	n, err := strconv.Atoi(m[1])
	return n, err == nil
}

// explainAPI turns API errors into one line, with the RBAC hint for Forbidden.
func explainAPI(err error) error {
	if apierrors.IsForbidden(err) {
		return fmt.Errorf("forbidden: %v (grant the ClusterRole in docs/migration/rbac-preflight.yaml)", err)
	}
	return err
}
