// Package rollout steps a HorizontalPodAutoscaler's replica range 1 -> 2 -> N with gates and an
// automatic rollback, keeping its state in the cluster so that another process can report on it,
// resume it or undo it.
//
// The pipeline (docs/architecture.md): a Plan (steps, final range, gates) that can be printed before anything
// changes; a coordination.k8s.io Lease per HPA so one rollout runs at a time; a Journal in an
// annotation on the HPA (original spec, plan, current step, history); each step pins the HPA
// (minReplicas = maxReplicas = k), watches the Deployment until k replicas are updated, ready and
// available, then holds while the gates run; a failed gate, a step timeout or a cancelled context
// rolls back to the original range (or the last good step) on a context of its own.
//
// The package takes a k8s.Interface, reports progress through an Observer, and never
// prints, prompts or exits.
package rollout
