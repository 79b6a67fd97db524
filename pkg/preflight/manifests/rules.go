package manifests

import (
	"fmt"
	"maps"
	"path"
	"slices"
	"strconv"
	"strings"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/util/intstr"

	"github.com/osctl/osctl/pkg/preflight"
	"github.com/osctl/osctl/pkg/preflight/nfscheck"
	"github.com/osctl/osctl/pkg/preflight/workload"
)

// Rule ids. They are stable: users ignore rules by id (the NFS volume rules use nfs.* ids,
// shared with the live check).
const (
	RuleWeb              = "web.workload"             // which Deployment is the web workload
	RuleHPALocking       = "web.hpa-locking"          // more than one web pod needs distributed locking
	RuleRolloutSurge     = "web.rollout-surge"        // a one-replica web workload must not surge
	RuleWebVolume        = "web.volume"               // the web workload mounts the shared volume
	RulePDB              = "web.pdb"                  // two or more web replicas need a PDB
	RuleSpread           = "web.spread"               // ... and spreading across nodes
	RulePassenger        = "web.passenger"            // Passenger queue:pool ratio and capacity
	RuleReplicasWithHPA  = "deploy.replicas-with-hpa" // spec.replicas set while an HPA manages it
	RuleSingleReplicas   = "single-owner.replicas"
	RuleSingleHPA        = "single-owner.hpa"
	RuleSingleStrategy   = "single-owner.strategy"
	RuleSinglePDB        = "single-owner.pdb"
	SingleOwnerAnno      = "osctl.io/single-owner"
	LockingAnnotation    = "osctl.io/distributed-locking"
	DefaultPassengerPool = workload.DefaultPassengerPool  // the OpenStudio entrypoint's MAX_POOL default
	DefaultPassengerQ    = workload.DefaultPassengerQueue // ... and MAX_REQUESTS default
	// DefaultPassengerMaxRatio is the queue:pool ratio above which web.passenger WARNs.
	DefaultPassengerMaxRatio = 20.0
)

// LockingEnvNames are the env vars of the web container that signal distributed locking.
var LockingEnvNames = []string{"DISTRIBUTED_LOCKING", "DISTRIBUTED_LOCKING_ENABLED", "WEB_DISTRIBUTED_LOCKING", "OS_DISTRIBUTED_LOCKING"}

// Input is everything the rules read.
type Input struct {
	Objects []Object
	Values  *Values
	// Workload names the web Deployment; "" picks "web", else the HPA-scaled Deployments that
	// mount a shared volume at Path.
	Workload string
	// Path is where the web pods mount the shared volume. The default is /mnt/openstudio.
	Path string
	// PassengerMaxRatio is the queue:pool ratio above which a WARN is raised (default 20).
	PassengerMaxRatio float64
	// AppLocksFiles is passed to the NFS option grading.
	AppLocksFiles bool
	// SingleOwners names Deployments that get the single-owner rules as if annotated
	// osctl.io/single-owner: "true". A name that matches no Deployment is an error.
	SingleOwners []string
}

// Evaluate decodes the objects and runs every rule. The error is an *InputError when an
// object has fields of the wrong type.
func Evaluate(in Input) ([]preflight.Result, error) {
	f, err := Decode(in.Objects)
	if err != nil {
		return nil, err
	}
	owners, err := singleOwnerSet(f, in.SingleOwners)
	if err != nil {
		return nil, err
	}
	if in.Path == "" {
		in.Path = "/mnt/openstudio"
	}
	if in.PassengerMaxRatio <= 0 {
		in.PassengerMaxRatio = DefaultPassengerMaxRatio
	}
	var rs []preflight.Result
	webs, why := webWorkloads(f, in)
	switch {
	case len(webs) == 0 && len(f.Deployments) == 0 && in.Values != nil:
		rs = append(rs, valuesOnlyRules(in)...)
	case len(webs) == 0:
		rs = append(rs, preflight.Result{ID: RuleWeb, Status: preflight.Info, Subject: "input", Message: why + ": the web rules are skipped"})
	default:
		for _, d := range webs {
			rs = append(rs, webRules(f, in, d)...)
		}
	}
	rs = append(rs, replicasWithHPARules(f)...)
	rs = append(rs, singleOwnerRules(f, owners)...)
	return rs, nil
}

// webWorkloads picks the web Deployment(s); why explains an empty answer.
func webWorkloads(f *Facts, in Input) ([]*appsv1.Deployment, string) {
	if in.Workload != "" {
		if d := f.Deployment(in.Workload); d != nil {
			return []*appsv1.Deployment{d}, ""
		}
		return nil, fmt.Sprintf("no Deployment named %q in the input", in.Workload)
	}
	if d := f.Deployment("web"); d != nil {
		return []*appsv1.Deployment{d}, ""
	}
	var out []*appsv1.Deployment
	for _, d := range f.Deployments {
		if f.HPAFor("Deployment", d.Name) == nil {
			continue
		}
		if at, ok := workload.FindVolume(&d.Spec.Template.Spec, in.Path); ok && workload.SharedVolume(at.Volume) {
			out = append(out, d)
		}
	}
	if len(out) == 0 {
		return nil, fmt.Sprintf("no web workload in the input (no Deployment named web, none scaled by an HPA with a shared volume at %s; name it)", in.Path)
	}
	return out, ""
}

// locking says whether distributed locking is signalled for d, and where.
func locking(in Input, d *appsv1.Deployment) (bool, string) {
	if d != nil {
		for _, a := range []map[string]string{d.Annotations, d.Spec.Template.Annotations} {
			if v, ok := a[LockingAnnotation]; ok {
				return truthy(v), "annotation " + LockingAnnotation + "=" + v
			}
		}
		for _, c := range d.Spec.Template.Spec.Containers {
			for _, n := range LockingEnvNames {
				if v, ok := workload.Env(c, n); ok {
					return truthy(v), fmt.Sprintf("env %s=%s in container %s", n, v, c.Name)
				}
			}
		}
	}
	if v, set := in.Values.Bool("web_hpa", "distributedLocking", "enabled"); set {
		return v, fmt.Sprintf("web_hpa.distributedLocking.enabled=%t in %s", v, in.Values.File)
	}
	return false, "no web_hpa.distributedLocking.enabled in values, no " + LockingAnnotation + " annotation, no DISTRIBUTED_LOCKING env"
}

func webRules(f *Facts, in Input, d *appsv1.Deployment) []preflight.Result {
	subject := "deployment/" + d.Name
	var rs []preflight.Result
	add := func(id string, st preflight.Status, subj, msg, fix string) {
		rs = append(rs, preflight.Result{ID: id, Status: st, Subject: subj, Message: msg, Fix: fix})
	}
	hpa := f.HPAFor("Deployment", d.Name)
	hpaMax := 0
	if hpa != nil {
		hpaMax = hpa.MaxReplicas
	}
	conc := workload.PodsAtOnce(d, hpaMax)
	lockOn, lockWhy := locking(in, d)
	base := conc.Replicas
	if hpaMax > 0 {
		base = hpaMax
	}
	add(RuleWeb, preflight.Info, subject, fmt.Sprintf("web workload: deployment %s (%s)", d.Name, conc.Why), "")

	// More than one web pod without locking.
	hsubj := subject
	if hpa != nil {
		hsubj = "hpa/" + hpa.Name
	}
	switch {
	case base > 1 && !lockOn:
		what := fmt.Sprintf("%d replicas", base)
		if hpa != nil {
			what = fmt.Sprintf("HPA %s maxReplicas %d", hpa.Name, hpaMax)
		}
		add(RuleHPALocking, preflight.Fail, hsubj, fmt.Sprintf("%s allows more than one web pod while distributed locking is not enabled (%s)", what, lockWhy),
			"keep maxReplicas 1 until the app locks with Redis and a stress run passes; then set web_hpa.distributedLocking.enabled: true")
	case base > 1:
		add(RuleHPALocking, preflight.Info, hsubj, fmt.Sprintf("%d web pods allowed with distributed locking flagged (%s): the flag is only a signal; promote only after a passing stress report (osctl stress) and a gated rollout", base, lockWhy), "")
	default:
		add(RuleHPALocking, preflight.Pass, hsubj, "at most one web replica (HPA/replicas)", "")
	}

	// One replica that surges to two during rollouts.
	if base <= 1 {
		surge := workload.Surge(d, 1)
		switch {
		case surge > 0 && !lockOn:
			add(RuleRolloutSurge, preflight.Fail, subject, fmt.Sprintf("one web replica, but the RollingUpdate allows maxSurge %s: two web pods run on the shared volume during every rollout, without locking", surgeText(d)),
				"set strategy.rollingUpdate maxSurge: 0 and maxUnavailable: 1 (or strategy type Recreate) until distributed locking is enabled")
		case surge > 0:
			add(RuleRolloutSurge, preflight.Info, subject, "one web replica that surges to two during rollouts, with distributed locking flagged ("+lockWhy+")", "")
		default:
			add(RuleRolloutSurge, preflight.Pass, subject, "rollouts never run two web pods (maxSurge 0 or Recreate)", "")
		}
	}

	// The shared volume.
	if at, ok := workload.FindVolume(&d.Spec.Template.Spec, in.Path); !ok {
		add(RuleWebVolume, preflight.Info, subject, fmt.Sprintf("deployment %s mounts nothing at %s: the NFS volume rules are skipped (check the path the app uses)", d.Name, in.Path), "")
	} else {
		rs = append(rs, nfscheck.VolumeRules(webVolumeFacts(f, d, at, conc))...)
	}

	// PDB and spreading for two or more replicas.
	if base >= 2 {
		if pdbs := f.PDBsFor(d.Spec.Template.Labels); len(pdbs) == 0 {
			add(RulePDB, preflight.Warn, subject, fmt.Sprintf("%d web replicas and no PodDisruptionBudget: a node drain can take them all down at once", base),
				"add a PDB with maxUnavailable: 1 selecting the web pods")
		} else {
			add(RulePDB, preflight.Pass, subject, "PodDisruptionBudget "+pdbs[0].Name+" covers the web pods", "")
		}
		if spreads(d) {
			add(RuleSpread, preflight.Pass, subject, "web pods are spread across nodes", "")
		} else {
			add(RuleSpread, preflight.Warn, subject, "web pods are not spread across nodes: pods on one node share one NFS client cache and hide incoherence (and fail together)",
				"add topologySpreadConstraints on kubernetes.io/hostname (or podAntiAffinity)")
		}
	}

	rs = append(rs, passengerRule(f, in, d, base))
	return rs
}

// webVolumeFacts gathers what the NFS volume rules need of the web Deployment's shared volume:
// its claim, PV and StorageClass, whether more than one pod (or another workload on the same
// claim) mounts it, and an in-cluster NFS-Ganesha behind it.
func webVolumeFacts(f *Facts, d *appsv1.Deployment, at workload.MountAt, conc workload.Concurrency) nfscheck.VolumeFacts {
	subject := "deployment/" + d.Name
	vf := nfscheck.VolumeFacts{Subject: subject, Volume: at.Volume, MultiPod: conc.Max > 1, MultiPodWhy: conc.Why, Static: true}
	if pvc := at.Volume.PersistentVolumeClaim; pvc != nil {
		if others := sharers(f, d.Name, pvc.ClaimName); len(others) > 0 {
			// Another workload on the same claim is another NFS client (another cache).
			vf.MultiPod = true
			if conc.Max > 1 {
				vf.MultiPodWhy += "; the claim is also mounted by " + strings.Join(others, ", ")
			} else {
				vf.MultiPodWhy = "the claim is also mounted by " + strings.Join(others, ", ")
			}
		}
		vf.PVC = f.PVC(pvc.ClaimName)
		vf.PV = f.PVFor(vf.PVC, pvc.ClaimName)
		scName := ""
		if vf.PVC != nil && vf.PVC.Spec.StorageClassName != nil {
			scName = *vf.PVC.Spec.StorageClassName
		} else if vf.PV != nil {
			scName = vf.PV.Spec.StorageClassName
		}
		if vf.PVC != nil || vf.PV != nil {
			vf.StorageClass = f.StorageClass(scName)
		}
	}
	vf.Ganesha = ganesha(f, vf)
	return vf
}

// sharers lists the other Deployments and StatefulSets whose pods mount claim.
func sharers(f *Facts, web, claim string) []string {
	var out []string
	uses := func(spec corev1.PodSpec) bool {
		for _, v := range spec.Volumes {
			if v.PersistentVolumeClaim != nil && v.PersistentVolumeClaim.ClaimName == claim {
				return true
			}
		}
		return false
	}
	for _, d := range f.Deployments {
		if d.Name != web && uses(d.Spec.Template.Spec) {
			out = append(out, "deployment/"+d.Name)
		}
	}
	for _, s := range f.StatefulSets {
		if uses(s.Spec.Template.Spec) {
			out = append(out, "statefulset/"+s.Name)
		}
	}
	return out
}

func surgeText(d *appsv1.Deployment) string {
	if ru := d.Spec.Strategy.RollingUpdate; ru != nil && ru.MaxSurge != nil {
		return ru.MaxSurge.String()
	}
	return "25% (the default, rounded up to 1)"
}

func spreads(d *appsv1.Deployment) bool {
	s := d.Spec.Template.Spec
	for _, c := range s.TopologySpreadConstraints {
		if c.TopologyKey == "kubernetes.io/hostname" {
			return true
		}
	}
	if a := s.Affinity; a != nil && a.PodAntiAffinity != nil {
		for _, t := range a.PodAntiAffinity.RequiredDuringSchedulingIgnoredDuringExecution {
			if t.TopologyKey == "kubernetes.io/hostname" {
				return true
			}
		}
		for _, t := range a.PodAntiAffinity.PreferredDuringSchedulingIgnoredDuringExecution {
			if t.PodAffinityTerm.TopologyKey == "kubernetes.io/hostname" {
				return true
			}
		}
	}
	return false
}

// passengerRule reports Passenger capacity (pool + queue per pod, times pods) against the
// workers that post results back, and WARNs when the queue:pool ratio passes the limit.
func passengerRule(f *Facts, in Input, d *appsv1.Deployment, pods int) preflight.Result {
	subject := "deployment/" + d.Name
	pool, queue := 0, 0
	src := ""
	if p, ok := workload.PassengerEnv(d.Spec.Template.Spec.Containers); ok {
		pool, queue, src = p.Pool, p.Queue, p.Source
	}
	if src == "" {
		q, okQ := in.Values.Int("web", "passenger_max_request_queue_size")
		p, okP := in.Values.Int("web", "passenger_max_pool_size")
		if okQ || okP {
			queue, pool, src = q, p, "values web.passenger_max_request_queue_size/passenger_max_pool_size"
		}
	}
	if src == "" {
		queue, pool, src = DefaultPassengerQ, DefaultPassengerPool, workload.PassengerDefaultsSource
	}
	if queue <= 0 {
		queue = DefaultPassengerQ
	}
	if pool <= 0 {
		pool = DefaultPassengerPool
	}
	return passengerResult(subject, pool, queue, pods, src, workers(f, d.Name), in.PassengerMaxRatio)
}

func passengerResult(subject string, pool, queue, pods int, src string, w workerCount, maxRatio float64) preflight.Result {
	if pods < 1 {
		pods = 1
	}
	ratio := float64(queue) / float64(pool)
	capacity := pods * (pool + queue)
	msg := fmt.Sprintf("Passenger pool %d, queue %d per pod (%s): queue:pool %.1f:1; capacity %d concurrent requests on %d pod(s) (%d served, %d queued)",
		pool, queue, src, ratio, capacity, pods, pods*pool, pods*queue)
	if w.n > 0 {
		msg += fmt.Sprintf("; up to %d workers post results back (%s)", w.n, w.why)
	}
	r := preflight.Result{ID: RulePassenger, Status: preflight.Pass, Subject: subject, Message: msg}
	var warn []string
	if ratio > maxRatio {
		warn = append(warn, fmt.Sprintf("the queue is more than %.0f times the pool: requests wait long behind few processes", maxRatio))
	}
	if w.n > capacity {
		warn = append(warn, fmt.Sprintf("%d workers can post at once but only %d requests fit: the rest get 503 Request queue full", w.n, capacity))
	}
	if len(warn) > 0 {
		r.Status = preflight.Warn
		r.Message += ": " + strings.Join(warn, "; ")
		r.Fix = "raise MAX_POOL (memory permitting) or web replicas rather than MAX_REQUESTS; have workers retry 503 with backoff"
	}
	return r
}

type workerCount struct {
	n   int
	why string
}

// workers counts the worker pods (Deployments that run the simulations queue, or named
// worker) at their HPA maximum, times their COUNT env.
func workers(f *Facts, web string) workerCount {
	var w workerCount
	var parts []string
	for _, d := range f.Deployments {
		if d.Name == web {
			continue
		}
		isWorker := strings.Contains(d.Name, "worker")
		per := 1
		for _, c := range d.Spec.Template.Spec.Containers {
			if q, ok := workload.Env(c, "QUEUES"); ok && strings.Contains(q, "simulations") {
				isWorker = true
			}
			if n, ok := workload.Env(c, "COUNT"); ok {
				if v, err := strconv.Atoi(n); err == nil && v > 0 {
					per = v
				}
			}
		}
		if !isWorker {
			continue
		}
		pods := workload.Replicas(d)
		src := "replicas"
		if h := f.HPAFor("Deployment", d.Name); h != nil {
			pods, src = h.MaxReplicas, "HPA max"
		}
		w.n += pods * per
		parts = append(parts, fmt.Sprintf("%s: %s %d x %d", d.Name, src, pods, per))
	}
	w.why = strings.Join(parts, ", ")
	return w
}

func replicasWithHPARules(f *Facts) []preflight.Result {
	var rs []preflight.Result
	for _, d := range f.Deployments {
		h := f.HPAFor("Deployment", d.Name)
		if h == nil || d.Spec.Replicas == nil {
			continue
		}
		rs = append(rs, preflight.Result{ID: RuleReplicasWithHPA, Status: preflight.Warn, Subject: "deployment/" + d.Name,
			Message: fmt.Sprintf("sets spec.replicas %d while HPA %s manages it (min %d, max %d): every apply resets the count", *d.Spec.Replicas, h.Name, h.MinReplicas, h.MaxReplicas),
			Fix:     "remove spec.replicas from the Deployment template and let the HPA own it"})
	}
	return rs
}

// NoWorkloadError is a workload named (by --single-owner) that the input does not hold.
type NoWorkloadError struct {
	Name  string   // as given: the Deployment's name
	Known []string // the Deployments the input holds
}

func (e *NoWorkloadError) Error() string {
	if len(e.Known) == 0 {
		return fmt.Sprintf("no Deployment named %q in the input (it holds no Deployment)", e.Name)
	}
	return fmt.Sprintf("no Deployment named %q in the input (it holds %s)", e.Name, strings.Join(e.Known, ", "))
}

// singleOwnerSet checks that every named single owner is a Deployment of the input.
func singleOwnerSet(f *Facts, names []string) (map[string]bool, error) {
	set := map[string]bool{}
	for _, n := range names {
		if f.Deployment(n) == nil {
			var known []string
			for _, d := range f.Deployments {
				known = append(known, d.Name)
			}
			return nil, &NoWorkloadError{Name: n, Known: known}
		}
		set[n] = true
	}
	return set, nil
}

func singleOwner(d *appsv1.Deployment) bool {
	return truthy(d.Annotations[SingleOwnerAnno]) || truthy(d.Spec.Template.Annotations[SingleOwnerAnno])
}

// singleOwnerRules judges the Deployments annotated single-owner and those named in named.
func singleOwnerRules(f *Facts, named map[string]bool) []preflight.Result {
	var rs []preflight.Result
	for _, d := range f.Deployments {
		if !singleOwner(d) && !named[d.Name] {
			continue
		}
		subject := "deployment/" + d.Name
		add := func(id string, st preflight.Status, msg, fix string) {
			rs = append(rs, preflight.Result{ID: id, Status: st, Subject: subject, Message: msg, Fix: fix})
		}
		if n := workload.Replicas(d); n != 1 {
			add(RuleSingleReplicas, preflight.Fail, fmt.Sprintf("single-owner workload runs %d replicas: each holds its own in-memory state (queue), so limits multiply and work strands", n), "set replicas: 1")
		} else {
			add(RuleSingleReplicas, preflight.Pass, "one replica", "")
		}
		if h := f.HPAFor("Deployment", d.Name); h != nil && h.MaxReplicas > 1 {
			add(RuleSingleHPA, preflight.Fail, fmt.Sprintf("HPA %s can scale the single owner to %d", h.Name, h.MaxReplicas), "set the HPA's maxReplicas to 1 or remove the HPA")
		} else {
			add(RuleSingleHPA, preflight.Pass, "no HPA scales it beyond one", "")
		}
		surge, unav := workload.Surge(d, 1), workload.Unavailable(d, 1)
		switch {
		case d.Spec.Strategy.Type == appsv1.RecreateDeploymentStrategyType:
			add(RuleSingleStrategy, preflight.Pass, "strategy Recreate: the old pod stops before the new one starts", "")
		case surge == 0 && unav >= 1:
			add(RuleSingleStrategy, preflight.Pass, "RollingUpdate maxSurge 0, maxUnavailable 1: two owners never coexist", "")
		default:
			add(RuleSingleStrategy, preflight.Fail, fmt.Sprintf("RollingUpdate maxSurge %d / maxUnavailable %d: a rollout runs two owners at once (or cannot progress)", surge, unav),
				"set strategy.rollingUpdate maxSurge: 0 and maxUnavailable: 1 (or type Recreate)")
		}
		pdbs := f.PDBsFor(d.Spec.Template.Labels)
		if len(pdbs) == 0 {
			add(RuleSinglePDB, preflight.Fail, "no PodDisruptionBudget: voluntary disruptions are not bounded", "add a PDB with maxUnavailable: 1 (never minAvailable: 1 on one replica)")
		}
		for _, p := range pdbs {
			replicas := 1 // judged for the one replica a single owner must run
			switch {
			case p.Spec.MinAvailable != nil && blocks(p.Spec.MinAvailable, replicas, true):
				add(RuleSinglePDB, preflight.Fail, fmt.Sprintf("PDB %s minAvailable %s on %d replica: it blocks every node drain and cluster upgrade", p.Name, p.Spec.MinAvailable.String(), replicas),
					"use maxUnavailable: 1 instead of minAvailable")
			case p.Spec.MaxUnavailable != nil && blocks(p.Spec.MaxUnavailable, replicas, false):
				add(RuleSinglePDB, preflight.Fail, fmt.Sprintf("PDB %s maxUnavailable %s on %d replica: it blocks every node drain", p.Name, p.Spec.MaxUnavailable.String(), replicas), "use maxUnavailable: 1")
			case p.Spec.MaxUnavailable != nil:
				add(RuleSinglePDB, preflight.Pass, fmt.Sprintf("PDB %s maxUnavailable %s: drains can proceed", p.Name, p.Spec.MaxUnavailable.String()), "")
			case p.Spec.MinAvailable != nil:
				add(RuleSinglePDB, preflight.Fail, fmt.Sprintf("PDB %s uses minAvailable %s: on a single owner use maxUnavailable: 1", p.Name, p.Spec.MinAvailable.String()), "use maxUnavailable: 1")
			default:
				add(RuleSinglePDB, preflight.Fail, fmt.Sprintf("PDB %s sets neither minAvailable nor maxUnavailable", p.Name), "use maxUnavailable: 1")
			}
		}
	}
	return rs
}

// blocks reports whether a PDB bound blocks every eviction of a workload with n replicas.
func blocks(v *intstr.IntOrString, n int, minAvailable bool) bool {
	x, err := intstr.GetScaledValueFromIntOrPercent(v, n, minAvailable)
	if err != nil {
		return true
	}
	if minAvailable {
		return x >= n
	}
	return x < 1
}

// valuesOnlyRules grade Helm values alone (no rendered manifests): the web HPA against the
// locking flag, the in-cluster NFS server's StorageClass options, and Passenger capacity.
func valuesOnlyRules(in Input) []preflight.Result {
	v := in.Values
	subject := "values/" + path.Base(v.File)
	var rs []preflight.Result
	maxR, ok := v.Int("web_hpa", "maxReplicas")
	if !ok {
		maxR = 1
	}
	lockOn, lockWhy := locking(in, nil)
	switch {
	case maxR > 1 && !lockOn:
		rs = append(rs, preflight.Result{ID: RuleHPALocking, Status: preflight.Fail, Subject: subject,
			Message: fmt.Sprintf("web_hpa.maxReplicas %d while distributed locking is not enabled (%s)", maxR, lockWhy),
			Fix:     "keep web_hpa.maxReplicas 1 until the app locks with Redis and a stress run passes"})
	case maxR > 1:
		rs = append(rs, preflight.Result{ID: RuleHPALocking, Status: preflight.Info, Subject: subject,
			Message: fmt.Sprintf("web_hpa.maxReplicas %d with distributed locking flagged: the flag is only a signal; promote only after a passing stress report", maxR)})
	default:
		rs = append(rs, preflight.Result{ID: RuleHPALocking, Status: preflight.Pass, Subject: subject, Message: "web_hpa.maxReplicas 1"})
	}
	if _, ok := v.Get("nfs-server-provisioner"); ok {
		opts, _ := v.Strings("nfs-server-provisioner", "storageClass", "mountOptions")
		st, msg := preflight.Pass, "nfs-server-provisioner.storageClass.mountOptions has noac: "+strings.Join(opts, ",")
		fix := ""
		if !nfscheck.HasNoac(opts) {
			st = preflight.Warn
			if maxR > 1 {
				st = preflight.Fail
			}
			msg = fmt.Sprintf("nfs-server-provisioner.storageClass.mountOptions lacks noac (%s)", strings.Join(opts, ","))
			fix = "add noac to nfs-server-provisioner.storageClass.mountOptions (existing PVs keep their options: patch them)"
		}
		rs = append(rs, preflight.Result{ID: nfscheck.RuleSCOptions, Status: st, Subject: subject, Message: msg, Fix: fix})
		rs = append(rs, preflight.Result{ID: nfscheck.RuleGanesha, Status: preflight.Warn, Subject: subject,
			Message: "the chart's in-cluster nfs-server-provisioner (NFS-Ganesha) serves the volume: its own attribute cache (Attr_Expiration_Time) can defeat client noac",
			Fix:     "set Attr_Expiration_Time = 0 on the server, or use an external NFS server; confirm with the empirical probe of osctl preflight nfs"})
	}
	q, okQ := v.Int("web", "passenger_max_request_queue_size")
	p, okP := v.Int("web", "passenger_max_pool_size")
	if okQ || okP {
		if q <= 0 {
			q = DefaultPassengerQ
		}
		if p <= 0 {
			p = DefaultPassengerPool
		}
		var w workerCount
		if n, ok := v.Int("worker_hpa", "maxReplicas"); ok {
			w = workerCount{n: n, why: "worker_hpa.maxReplicas " + strconv.Itoa(n)}
		}
		rs = append(rs, passengerResult(subject, p, q, maxR, "values web.passenger_*", w, in.PassengerMaxRatio))
	}
	return rs
}

// IgnoreAnnotations maps each result subject to the osctl.io/ignore value that applies to it:
// an object's own annotation, plus the web Deployment's for the objects behind it.
func IgnoreAnnotations(objs []Object) map[string]string {
	out := map[string]string{}
	for _, o := range objs {
		if v := o.Annotations[preflight.IgnoreAnnotation]; v != "" {
			s := Subject(o.Kind, o.Name)
			out[s] = joinIDs(out[s], v)
		}
	}
	return out
}

// ApplyIgnores applies the ignore annotations (and cfg) to rs. A rule ignored on a Deployment
// is also ignored for the HPA, claim, PV and StorageClass results about that Deployment's
// volume, since those results name the object at fault rather than the Deployment.
func ApplyIgnores(rs []preflight.Result, objs []Object, cfg *preflight.Config) []preflight.Result {
	ann := IgnoreAnnotations(objs)
	f, err := Decode(objs)
	if err == nil {
		for _, d := range f.Deployments {
			v := ann["deployment/"+d.Name]
			if v == "" {
				continue
			}
			if h := f.HPAFor("Deployment", d.Name); h != nil {
				ann["hpa/"+h.Name] = joinIDs(ann["hpa/"+h.Name], v)
			}
			for _, vol := range d.Spec.Template.Spec.Volumes {
				if vol.PersistentVolumeClaim == nil {
					continue
				}
				claim := vol.PersistentVolumeClaim.ClaimName
				ann["pvc/"+claim] = joinIDs(ann["pvc/"+claim], v)
				pvc := f.PVC(claim)
				if pv := f.PVFor(pvc, claim); pv != nil {
					ann["pv/"+pv.Name] = joinIDs(ann["pv/"+pv.Name], v)
				}
				if pvc != nil && pvc.Spec.StorageClassName != nil {
					s := "storageclass/" + *pvc.Spec.StorageClassName
					ann[s] = joinIDs(ann[s], v)
				}
			}
		}
	}
	return preflight.ApplyIgnores(rs, cfg, ann)
}

func joinIDs(a, b string) string {
	ids := map[string]bool{}
	for _, s := range append(preflight.ParseIgnoreAnnotation(a), preflight.ParseIgnoreAnnotation(b)...) {
		ids[s] = true
	}
	out := slices.Sorted(maps.Keys(ids))
	return strings.Join(out, ",")
}
