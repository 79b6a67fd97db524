package rollout

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/osctl/osctl/pkg/setting"

	appsv1 "k8s.io/api/apps/v1"
	autoscalingv2 "k8s.io/api/autoscaling/v2"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// Rollback targets.
const (
	RollbackOriginal = "original"
	RollbackLastGood = "last-good"
)

// MaxStep bounds a step's replica count (a typo guard).
const MaxStep = 1000

// Plan is what a rollout will do: the steps, the final range, the timings and the gates.
type Plan struct {
	Steps        []int32         `json:"steps"`
	Final        *Range          `json:"final,omitempty"` // nil: the HPA stays pinned at the last step
	Hold         metav1.Duration `json:"hold"`
	StepTimeout  metav1.Duration `json:"stepTimeout"`
	GateInterval metav1.Duration `json:"gateInterval"`
	RollbackTo   string          `json:"rollbackTo"`
	// Gates are the gates' settings, in memory only: the journal keeps GateRecord.
	Gates GateConfig `json:"-"`
	// GateRecord is what the journal keeps of the gates: names and a digest (Run sets it).
	GateRecord GateRecord `json:"gates"`
}

// GateConfig is the settings of the gates a rollout runs. It is never stored: the journal keeps
// its Record (names and a digest), and resume is given the settings again (see GateRecord.Check).
type GateConfig struct {
	NFS         bool            `json:"nfs,omitempty"`
	NFSPath     string          `json:"nfsPath,omitempty"`
	Locks       bool            `json:"locks,omitempty"`
	Pods        bool            `json:"pods,omitempty"`
	HTTP        string          `json:"http,omitempty"`
	HTTPLatency metav1.Duration `json:"httpLatency,omitempty"`
	Cmd         string          `json:"cmd,omitempty"`
	Prom        PromGates       `json:"prom,omitzero"` // the PromQL gates
}

// Names lists the gates the config enables, in a stable order.
func (g GateConfig) Names() []string {
	var out []string
	if g.NFS {
		out = append(out, "nfs")
	}
	if g.Locks {
		out = append(out, "locks")
	}
	if g.Pods {
		out = append(out, "pods")
	}
	if g.HTTP != "" {
		out = append(out, "http")
	}
	if g.Cmd != "" {
		out = append(out, "cmd")
	}
	for i := range g.Prom.Queries {
		out = append(out, PromGateName(i))
	}
	return out
}

// ParseSteps parses "1,2,4": absolute replica counts, strictly increasing, each 1..MaxStep.
func ParseSteps(s string) ([]int32, error) {
	if strings.TrimSpace(s) == "" {
		return nil, setting.Errorf("Steps", ": is empty: give absolute replica counts, for example 1,2,4")
	}
	var out []int32
	for _, f := range strings.Split(s, ",") {
		f = strings.TrimSpace(f)
		n, err := strconv.Atoi(f)
		if err != nil || n < 1 || n > MaxStep {
			return nil, setting.Errorf("Steps", "%q: %q is not a replica count between 1 and %d", s, f, MaxStep)
		}
		if len(out) > 0 && int32(n) <= out[len(out)-1] {
			return nil, setting.Errorf("Steps", "%q: steps must increase (%d after %d)", s, n, out[len(out)-1])
		}
		out = append(out, int32(n))
	}
	return out, nil
}

// Validate checks the plan on its own, without the cluster.
func (p Plan) Validate() error {
	if len(p.Steps) == 0 {
		return setting.Errorf("Steps", ": the plan has no steps: give absolute replica counts, for example 1,2,4")
	}
	for i, k := range p.Steps {
		if k < 1 || k > MaxStep || (i > 0 && k <= p.Steps[i-1]) {
			return setting.Errorf("Steps", ": steps must be increasing replica counts between 1 and %d", MaxStep)
		}
	}
	if p.Final != nil {
		if p.Final.Min < 1 || p.Final.Max < p.Final.Min || p.Final.Max > MaxStep {
			return setting.Errorf("Final", "%d-%d is invalid: need 1 <= min <= max <= %d", p.Final.Min, p.Final.Max, MaxStep)
		}
	}
	if p.StepTimeout.Duration <= 0 {
		return setting.Errorf("StepTimeout", "must be positive")
	}
	if p.Hold.Duration < 0 {
		return setting.Errorf("Hold", "must not be negative")
	}
	if p.GateInterval.Duration <= 0 {
		return setting.Errorf("GateInterval", "must be positive")
	}
	if p.RollbackTo != RollbackOriginal && p.RollbackTo != RollbackLastGood {
		return setting.Errorf("RollbackTo", "%q: use %s or %s", p.RollbackTo, RollbackOriginal, RollbackLastGood)
	}
	return nil
}

// MaxReplicas is the most replicas the plan ever allows.
func (p Plan) MaxReplicas() int32 {
	m := p.Steps[len(p.Steps)-1]
	if p.Final != nil && p.Final.Max > m {
		m = p.Final.Max
	}
	return m
}

// FinalRange is the range the HPA has once the rollout completes.
func (p Plan) FinalRange() Range {
	if p.Final != nil {
		return *p.Final
	}
	return Pinned(p.Steps[len(p.Steps)-1])
}

// Target is the HPA a rollout acts on, its scale target, and any rollout state found with it.
type Target struct {
	Namespace  string                                 `json:"namespace"`
	HPA        *autoscalingv2.HorizontalPodAutoscaler `json:"-"`
	Deployment *appsv1.Deployment                     `json:"-"`
	Journal    *Journal                               `json:"-"`
	Lease      *LeaseInfo                             `json:"-"`
}

// Images returns the container images the Deployment runs.
func (t *Target) Images() []string {
	var out []string
	for _, c := range t.Deployment.Spec.Template.Spec.Containers {
		out = append(out, c.Image)
	}
	return out
}

// SingleOwner reports whether the workload is marked never to run more than one replica, and
// where the mark is.
func (t *Target) SingleOwner() (bool, string) {
	for _, o := range []struct {
		where string
		ann   map[string]string
	}{
		{"Deployment " + t.Deployment.Name, t.Deployment.Annotations},
		{"the pod template of Deployment " + t.Deployment.Name, t.Deployment.Spec.Template.Annotations},
		{"HPA " + t.HPA.Name, t.HPA.Annotations},
	} {
		if strings.EqualFold(strings.TrimSpace(o.ann[AnnotationSingleOwner]), "true") {
			return true, o.where
		}
	}
	return false, ""
}

// PlannedStep is one line of a printed plan.
type PlannedStep struct {
	Step     int    `json:"step"` // 1-based; 0 for the final range
	Replicas string `json:"replicas"`
	Patch    string `json:"patch"` // the JSON merge patch sent to the HPA's spec
	Note     string `json:"note,omitempty"`
}

// PlanView is a plan laid out against the cluster's current state, for printing and confirming.
type PlanView struct {
	Namespace  string        `json:"namespace"`
	HPA        string        `json:"hpa"`
	Deployment string        `json:"deployment"`
	Images     []string      `json:"images"`
	Current    Range         `json:"current"`
	Replicas   int32         `json:"replicas"` // the Deployment's replicas now
	Steps      []PlannedStep `json:"steps"`
	Rollback   string        `json:"rollback"`
	Gates      []string      `json:"gates"`
	Prom       *PromView     `json:"prom,omitempty"` // the PromQL gates, when there are some
	Plan       Plan          `json:"plan"`
	Warnings   []string      `json:"warnings,omitempty"`
	Managers   []Manager     `json:"managers,omitempty"`
	ScalesDown bool          `json:"scalesDown"` // the first step lowers the HPA's range
}

// PromView is what a plan shows of its PromQL gates: the queries, and the server by its scheme
// and host only (no user, password, path or query string).
type PromView struct {
	Server       string   `json:"server"`
	Queries      []string `json:"queries"`
	NoDataPasses bool     `json:"noDataPasses,omitempty"`
}

// SpecPatch returns the JSON merge patch that sets an HPA's range.
func SpecPatch(r Range) string {
	b, _ := json.Marshal(map[string]any{"spec": map[string]int32{"minReplicas": r.Min, "maxReplicas": r.Max}})
	return string(b)
}

// Layout lays the plan out against the target: the patches, what the first step lowers, and
// the warnings about managers (Helm, Argo CD, Flux) and single-owner workloads.
func Layout(t *Target, p Plan) *PlanView {
	cur := RangeOf(t.HPA)
	replicas := int32(1)
	if t.Deployment.Spec.Replicas != nil {
		replicas = *t.Deployment.Spec.Replicas
	}
	v := &PlanView{
		Namespace: t.Namespace, HPA: t.HPA.Name, Deployment: t.Deployment.Name, Images: t.Images(),
		Current: cur, Replicas: replicas, Plan: p, Gates: p.Gates.Names(),
	}
	v.Plan.Gates, v.Plan.GateRecord = GateConfig{}, p.Gates.Record() // the view is printed: no setting's value in it
	if pg := p.Gates.Prom; len(pg.Queries) > 0 {
		v.Prom = &PromView{Server: ServerOf(pg.URL), Queries: pg.Queries, NoDataPasses: pg.NoData == NoDataPass}
	}
	for i, k := range p.Steps {
		s := PlannedStep{Step: i + 1, Replicas: Pinned(k).String(), Patch: SpecPatch(Pinned(k))}
		if i == 0 && (cur.Max > k || replicas > k) {
			s.Note = fmt.Sprintf("lowers the HPA from %s to %d: the Deployment scales down from %d to %d replicas", cur, k, replicas, k)
			v.ScalesDown = true
		}
		v.Steps = append(v.Steps, s)
	}
	final := p.FinalRange()
	fs := PlannedStep{Step: 0, Replicas: final.String(), Patch: SpecPatch(final)}
	if p.Final == nil {
		fs.Note = "no final range: the HPA stays pinned at the last step"
	}
	v.Steps = append(v.Steps, fs)
	if p.RollbackTo == RollbackLastGood {
		v.Rollback = fmt.Sprintf("on failure: back to the last step whose gates passed (else the original %s)", cur)
	} else {
		v.Rollback = fmt.Sprintf("on failure: back to the original range %s", cur)
	}
	v.Managers = Managers(t.HPA, final)
	for _, m := range v.Managers {
		v.Warnings = append(v.Warnings, m.Message)
	}
	if len(v.Gates) == 0 {
		v.Warnings = append(v.Warnings, "no gates: each step only waits for ready replicas and holds")
	}
	return v
}

// Manager is a tool that owns the HPA's spec and would undo the rollout's changes.
type Manager struct {
	Kind    string            `json:"kind"` // helm, argocd, flux
	Name    string            `json:"name,omitempty"`
	Message string            `json:"message"`
	Values  map[string]string `json:"values,omitempty"` // Helm values to persist the final range
}

// Managers detects Helm, Argo CD and Flux ownership of the HPA from its labels and annotations.
func Managers(hpa *autoscalingv2.HorizontalPodAutoscaler, final Range) []Manager {
	var out []Manager
	l, a := hpa.Labels, hpa.Annotations
	if rel := a["meta.helm.sh/release-name"]; rel != "" || l["app.kubernetes.io/managed-by"] == "Helm" {
		key := strings.ReplaceAll(hpa.Name, "-", "_") + "_hpa"
		vals := map[string]string{key + ".minReplicas": strconv.Itoa(int(final.Min)), key + ".maxReplicas": strconv.Itoa(int(final.Max))}
		keys := slices.Sorted(maps.Keys(vals))
		var set []string
		for _, k := range keys {
			set = append(set, k+"="+vals[k])
		}
		name := rel
		if name == "" {
			name = l["app.kubernetes.io/instance"]
		}
		out = append(out, Manager{Kind: "helm", Name: name, Values: vals,
			Message: fmt.Sprintf("HPA %s is managed by Helm (release %q): the next helm upgrade resets its range to the chart's values; persist the final range in the release values (%s)", hpa.Name, name, strings.Join(set, ", "))})
	}
	argo := ""
	for k := range a {
		if strings.HasPrefix(k, "argocd.argoproj.io/") {
			argo = k
		}
	}
	for k := range l {
		if strings.HasPrefix(k, "argocd.argoproj.io/") {
			argo = k
		}
	}
	if argo != "" {
		out = append(out, Manager{Kind: "argocd", Name: a["argocd.argoproj.io/tracking-id"],
			Message: fmt.Sprintf("HPA %s is tracked by Argo CD (%s): self-heal reverts each step unless you disable auto-sync/self-heal for the Application first", hpa.Name, argo)})
	}
	flux := ""
	for _, m := range []map[string]string{l, a} {
		for k := range m {
			if strings.HasPrefix(k, "kustomize.toolkit.fluxcd.io/") || strings.HasPrefix(k, "helm.toolkit.fluxcd.io/") {
				flux = k
			}
		}
	}
	if flux != "" {
		out = append(out, Manager{Kind: "flux", Name: l["kustomize.toolkit.fluxcd.io/name"] + l["helm.toolkit.fluxcd.io/name"],
			Message: fmt.Sprintf("HPA %s is reconciled by Flux (%s): the next reconciliation reverts each step unless you suspend it first (flux suspend)", hpa.Name, flux)})
	}
	return out
}
