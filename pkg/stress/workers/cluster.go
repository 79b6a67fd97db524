package workers

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/osctl/osctl/pkg/k8s"
	pstress "github.com/osctl/osctl/pkg/stress"
)

// RBACDoc is where the minimal Role for osctl stress --workers is documented.
const RBACDoc = "docs/migration/rbac-stress-workers.yaml"

// Permissions are what osctl stress --workers needs in the workers' namespace (k8s.InNamespace):
// the same rules, and no more, are in RBACDoc.
var Permissions = []k8s.Permission{
	{Verb: "create", Group: "batch", Resource: "jobs"},
	{Verb: "get", Group: "batch", Resource: "jobs"},
	{Verb: "delete", Group: "batch", Resource: "jobs"},
	{Verb: "get", Resource: "pods"},
	{Verb: "list", Resource: "pods"},
	{Verb: "watch", Resource: "pods"},
	{Verb: "create", Resource: "pods", Subresource: "exec"},
}

// PermissionError lists the permissions the caller lacks; nothing was created.
type PermissionError struct {
	Namespace string
	Missing   []k8s.Permission
}

func (e *PermissionError) Error() string {
	var names []string
	for _, p := range e.Missing {
		names = append(names, p.String())
	}
	return fmt.Sprintf("{Workers.Count} needs these Kubernetes permissions in namespace %s, which you lack: %s. Nothing was created; bind the Role in %s",
		e.Namespace, strings.Join(names, ", "), RBACDoc)
}

// Cluster is a run's load workers in the cluster: their Job, their pods, and the Fleet that drives
// them through exec.
type Cluster struct {
	Fleet *Fleet
	// Pods are the workers' pods, by index.
	Pods []string

	clients *k8s.Clients
	ns, job string
	sel     string
	spec    Spec
	log     func(string)
}

// Start makes a run's load workers: it checks the permissions (a missing one creates nothing),
// creates the Indexed Job, waits for its pods to be ready (spec.ReadyTimeout; a pod that will not
// be, a *PodFailedError at once), runs
// `osctl stress worker` in each through exec and says hello (Connect). cfg must have its run id.
// On error whatever was created is deleted again.
func Start(ctx context.Context, c *k8s.Clients, spec Spec, cfg pstress.Config, o ConnectOptions) (*Cluster, error) {
	if o.Log == nil {
		o.Log = func(string) {}
	}
	if len(spec.Command) == 0 {
		return nil, errors.New("the load workers' Spec has no Command: give the osctl command line of an idle worker")
	}
	if spec.ReadyTimeout <= 0 {
		spec.ReadyTimeout = DefaultReadyTimeout
	}
	if spec.TTL <= 0 {
		spec.TTL = DefaultTTL
	}
	if spec.Deadline <= 0 {
		spec.Deadline = DefaultDeadline(cfg)
	}
	ns := c.Namespace
	missing, err := k8s.Missing(ctx, c.Clientset, k8s.InNamespace(ns, Permissions))
	if err != nil {
		return nil, err
	}
	if len(missing) > 0 {
		return nil, &PermissionError{Namespace: ns, Missing: missing}
	}
	cl := &Cluster{clients: c, ns: ns, job: JobName(cfg.Run), sel: Selector(cfg.Run), spec: spec, log: o.Log}
	o.WhyLost = func(pod string) string {
		ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
		defer cancel()
		return cl.PodGone(ctx, pod)
	}
	if _, err := k8s.CreateJob(ctx, c.Clientset, spec.Job(ns, cfg.Run)); err != nil {
		return nil, err
	}
	o.Log(fmt.Sprintf("created Job %s/%s: %d load workers (image %s), deadline %s", ns, cl.job, spec.Count, spec.Image, spec.Deadline))
	fail := func(err error) (*Cluster, error) {
		cl.Close(context.WithoutCancel(ctx))
		return nil, err
	}
	pods, err := k8s.WaitIndexedPods(ctx, c.Clientset, ns, cl.job, cl.sel, spec.Count, spec.ReadyTimeout)
	if err != nil {
		return fail(podFailed(ns, err))
	}
	var procs []Proc
	for _, p := range pods {
		cl.Pods = append(cl.Pods, p.Name)
		// The streams outlive Ctrl-C: the workers are told to stop, then send what they have.
		pr, err := k8s.Exec(context.WithoutCancel(ctx), c, ns, p.Name, container, []string{"osctl", "stress", "worker"})
		if err != nil {
			for _, x := range procs {
				x.Close()
			}
			return fail(err)
		}
		procs = append(procs, pr)
	}
	if cl.Fleet, err = Connect(ctx, procs, cl.Pods, cfg, o); err != nil {
		return fail(err)
	}
	return cl, nil
}

// Close ends the workers and deletes the Job and its pods, waiting a little for the pods to be
// gone. It says what it did.
func (c *Cluster) Close(ctx context.Context) {
	if c.Fleet != nil {
		c.Fleet.Close()
	}
	ctx, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	left, err := k8s.DeleteJob(ctx, c.clients.Clientset, c.ns, c.job, c.sel, 30*time.Second)
	switch {
	case err != nil:
		c.log(fmt.Sprintf("could not delete Job %s/%s: %v; %s", c.ns, c.job, err, c.Undone()))
	case left > 0:
		c.log(fmt.Sprintf("deleted Job %s/%s; %d of its pods are still terminating", c.ns, c.job, left))
	default:
		c.log(fmt.Sprintf("deleted Job %s/%s and its pods", c.ns, c.job))
	}
}

// Undone says what is left when the coordinator exits without Close.
func (c *Cluster) Undone() string {
	return fmt.Sprintf("the Job %s/%s is left: its pods end by its deadline (%s) and the Job is deleted %s after (kubectl delete job %s -n %s deletes it now)",
		c.ns, c.job, c.spec.Deadline, c.spec.TTL, c.job, c.ns)
}

// PodGone says what happened to a worker's pod, when it is gone or ended (for a lost worker).
func (c *Cluster) PodGone(ctx context.Context, pod string) string {
	p, err := c.clients.Clientset.CoreV1().Pods(c.ns).Get(ctx, pod, metav1.GetOptions{})
	switch {
	case err != nil:
		return err.Error()
	case p.DeletionTimestamp != nil:
		return "its pod is being deleted"
	case p.Status.Phase == corev1.PodFailed || p.Status.Phase == corev1.PodSucceeded:
		return k8s.PodProblem(p)
	}
	return ""
}
