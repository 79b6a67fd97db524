package rollout

import (
	"context"
)

// StatusView is a rollout's state as `osctl rollout status` shows it.
type StatusView struct {
	Namespace  string          `json:"namespace"`
	HPA        string          `json:"hpa"`
	Deployment string          `json:"deployment"`
	Range      Range           `json:"range"` // the HPA's range now
	State      DeploymentState `json:"deployment_state"`
	Journal    *Journal        `json:"journal,omitempty"`
	Lease      *LeaseInfo      `json:"lease,omitempty"`
	// Drift is set when the HPA's spec differs from what an active journal expects.
	Drift string `json:"drift,omitempty"`
}

// Status reads the HPA, the Deployment, the journal and the Lease. It changes nothing.
func (r *Runner) Status(ctx context.Context) (*StatusView, error) {
	t, err := r.Inspect(ctx)
	if err != nil {
		return nil, err
	}
	v := &StatusView{Namespace: r.Namespace, HPA: r.HPA, Deployment: t.Deployment.Name, Range: RangeOf(t.HPA),
		State: StateOf(t.Deployment), Journal: t.Journal, Lease: t.Lease}
	if t.Journal != nil && t.Journal.Phase.Active() {
		if ch := SpecChange(t.HPA, t.Journal.Expected, t.Journal.Original.SpecDigest); ch != "" {
			v.Drift = ch + byOf(lastSpecWriter(t.HPA))
		}
	}
	return v, nil
}
