package rollout

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"time"

	autoscalingv2 "k8s.io/api/autoscaling/v2"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// Annotations and names osctl uses in the cluster.
const (
	// AnnotationJournal holds the rollout's Journal as JSON on the HPA.
	AnnotationJournal = "osctl.io/rollout"
	// AnnotationSingleOwner marks a workload that must never run more than one replica.
	AnnotationSingleOwner = "osctl.io/single-owner"
	// FieldManager is the field manager of every change osctl rollout makes.
	FieldManager = "osctl-rollout"
	// EventSource is the component named in the Events osctl rollout creates.
	EventSource = "osctl-rollout"
	// JournalVersion is the version of the journal's JSON shape. Version 2 keeps the gates as
	// names and a digest (GateRecord); version 1 kept their settings, and is still read.
	JournalVersion = 2
	// maxHistory bounds the history kept in the annotation (annotations are limited to 256 KiB).
	maxHistory = 100
)

// Phase is where a rollout stands.
type Phase string

// The phases of a rollout. Running and RollingBack are active: resume continues them, undo ends
// them. The others are terminal.
const (
	PhaseRunning        Phase = "running"
	PhaseRollingBack    Phase = "rolling-back"
	PhaseCompleted      Phase = "completed"
	PhaseRolledBack     Phase = "rolled-back"
	PhaseRollbackFailed Phase = "rollback-failed"
	PhaseStopped        Phase = "stopped"
	PhaseUndone         Phase = "undone"
)

// Active reports whether a rollout in phase p still owns the HPA (resume or undo must end it).
func (p Phase) Active() bool {
	return p == PhaseRunning || p == PhaseRollingBack || p == PhaseRollbackFailed || p == PhaseStopped
}

// Range is an HPA's replica range.
type Range struct {
	Min int32 `json:"min"`
	Max int32 `json:"max"`
}

// Pinned returns the range min = max = k.
func Pinned(k int32) Range { return Range{Min: k, Max: k} }

func (r Range) String() string {
	if r.Min == r.Max {
		return fmt.Sprintf("%d", r.Min)
	}
	return fmt.Sprintf("%d-%d", r.Min, r.Max)
}

// Original is the HPA spec before the rollout: the range to restore, and a digest of the rest of
// the spec (metrics, behavior, target), which the rollout never changes.
type Original struct {
	Range
	SpecDigest string `json:"specDigest"`
}

// Entry is one line of a rollout's history.
type Entry struct {
	Time     time.Time `json:"time"`
	Step     int       `json:"step"` // 1-based; 0 before the first step and for the final range
	Replicas string    `json:"replicas,omitempty"`
	Event    string    `json:"event"`
	Message  string    `json:"message,omitempty"`
}

// Journal is the state of a rollout, kept in the HPA's AnnotationJournal annotation so that
// status, resume and undo work from any terminal, even after the process was killed.
type Journal struct {
	Version    int         `json:"version"`
	ID         string      `json:"id"`
	Phase      Phase       `json:"phase"`
	Reason     string      `json:"reason,omitempty"`
	Deployment string      `json:"deployment"`
	Original   Original    `json:"original"`
	Expected   Range       `json:"expected"` // what the HPA's range must be now; anything else is someone else's change
	Plan       Plan        `json:"plan"`
	Step       int         `json:"step"`               // 1-based index of the current step; 0 before the first
	LastGood   int32       `json:"lastGood,omitempty"` // replicas of the last step whose gates passed
	Holder     string      `json:"holder"`
	StartedAt  time.Time   `json:"startedAt"`
	UpdatedAt  time.Time   `json:"updatedAt"`
	History    []Entry     `json:"history"`
	Rollback   *Range      `json:"rollback,omitempty"` // the range a rollback restores, once one started
	Gates      []GateBrief `json:"gates,omitempty"`    // the latest result of each gate
}

// GateBrief is the latest outcome of one gate, as kept in the journal.
type GateBrief struct {
	Gate    string    `json:"gate"`
	Status  string    `json:"status"`
	Message string    `json:"message,omitempty"`
	Value   string    `json:"value,omitempty"` // what a PromQL gate's query returned
	At      time.Time `json:"at"`
}

// add appends a history entry, keeping at most maxHistory.
func (j *Journal) add(now time.Time, step int, replicas, event, msg string) {
	j.UpdatedAt = now
	j.History = append(j.History, Entry{Time: now.UTC(), Step: step, Replicas: replicas, Event: event, Message: msg})
	if len(j.History) > maxHistory {
		j.History = append([]Entry(nil), j.History[len(j.History)-maxHistory:]...)
	}
}

// Encode returns the journal as the annotation's value.
func (j *Journal) Encode() (string, error) {
	b, err := json.Marshal(j)
	if err != nil {
		return "", err
	}
	return string(b), nil
}

// DecodeJournal parses an annotation value. It fails on a journal from a newer osctl.
func DecodeJournal(s string) (*Journal, error) {
	var j Journal
	if err := json.Unmarshal([]byte(s), &j); err != nil {
		return nil, fmt.Errorf("the %s annotation is not a rollout journal: %v", AnnotationJournal, err)
	}
	if j.Version > JournalVersion {
		return nil, fmt.Errorf("the rollout journal has version %d; this osctl reads version %d: use a newer osctl", j.Version, JournalVersion)
	}
	if j.ID == "" || j.Phase == "" {
		return nil, fmt.Errorf("the %s annotation holds an incomplete journal (no id or phase)", AnnotationJournal)
	}
	return &j, nil
}

// JournalOf returns the journal on hpa, or nil when it has none.
func JournalOf(hpa *autoscalingv2.HorizontalPodAutoscaler) (*Journal, error) {
	s, ok := hpa.Annotations[AnnotationJournal]
	if !ok || s == "" {
		return nil, nil
	}
	return DecodeJournal(s)
}

// RangeOf returns the HPA's replica range (minReplicas defaults to 1).
func RangeOf(hpa *autoscalingv2.HorizontalPodAutoscaler) Range {
	r := Range{Min: 1, Max: hpa.Spec.MaxReplicas}
	if hpa.Spec.MinReplicas != nil {
		r.Min = *hpa.Spec.MinReplicas
	}
	return r
}

// SpecDigest is a digest of the HPA spec without its range: the part the rollout never touches.
func SpecDigest(hpa *autoscalingv2.HorizontalPodAutoscaler) string {
	s := hpa.Spec.DeepCopy()
	s.MinReplicas, s.MaxReplicas = nil, 0
	b, _ := json.Marshal(s)
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:12])
}

// OriginalOf captures the HPA's spec before a rollout.
func OriginalOf(hpa *autoscalingv2.HorizontalPodAutoscaler) Original {
	return Original{Range: RangeOf(hpa), SpecDigest: SpecDigest(hpa)}
}

// SpecChange describes how an HPA's spec differs from what the journal expects; it is empty when
// the spec is as expected. The HPA's status is never compared (its controller rewrites it).
func SpecChange(hpa *autoscalingv2.HorizontalPodAutoscaler, expected Range, digest string) string {
	got := RangeOf(hpa)
	if got != expected {
		return fmt.Sprintf("replica range is %s, the rollout set %s", got, expected)
	}
	if d := SpecDigest(hpa); d != digest {
		return "metrics, behavior or scale target changed"
	}
	return ""
}

// lastSpecWriter names the field manager that most recently wrote the HPA's spec other than
// osctl, from managedFields, for example "kubectl-edit (Update at 12:00:01Z)". Managers that own
// the replica range are preferred (changing a field takes it over). It is "" when unknown.
func lastSpecWriter(hpa *autoscalingv2.HorizontalPodAutoscaler) string {
	var best *metav1.ManagedFieldsEntry
	bestRange := false
	for i := range hpa.ManagedFields {
		m := &hpa.ManagedFields[i]
		if m.Manager == FieldManager || m.Subresource != "" || m.FieldsV1 == nil || m.Time == nil {
			continue
		}
		hasSpec, hasRange := specFields(m.FieldsV1.GetRawBytes())
		if !hasSpec {
			continue
		}
		better := best == nil || (hasRange && !bestRange) || (hasRange == bestRange && !m.Time.Before(best.Time))
		if better {
			best, bestRange = m, hasRange
		}
	}
	if best == nil {
		return ""
	}
	return fmt.Sprintf("%s (%s at %s)", best.Manager, best.Operation, best.Time.UTC().Format(time.RFC3339))
}

// specFields reports whether managed fields hold part of the spec, and its replica range.
func specFields(raw []byte) (spec, rng bool) {
	var m map[string]json.RawMessage
	if json.Unmarshal(raw, &m) != nil {
		return false, false
	}
	sp, ok := m["f:spec"]
	if !ok {
		return false, false
	}
	var s map[string]json.RawMessage
	if json.Unmarshal(sp, &s) != nil {
		return true, false
	}
	_, min := s["f:minReplicas"]
	_, max := s["f:maxReplicas"]
	return true, min || max
}

// Position says where the rollout stands for a person: "step 2 of 3 (1,2,4)", or "the final
// range 2-4" once the steps are done (Step 0 after a start, or past the last step).
func (j *Journal) Position() string {
	n := len(j.Plan.Steps)
	if j.Step >= 1 && j.Step <= n {
		steps := make([]string, n)
		for i, k := range j.Plan.Steps {
			steps[i] = strconv.Itoa(int(k))
		}
		return fmt.Sprintf("step %d of %d (%s)", j.Step, n, strings.Join(steps, ","))
	}
	if j.Step == 0 && j.Phase != PhaseCompleted {
		return "before the first step"
	}
	return "the final range " + j.Plan.FinalRange().String()
}
