// Package podflags are the flags of `osctl stress` that name the workload under test: the pods
// to send to (--target-pods, --target-port), the Deployment (--deployment) and the concurrency
// sized to their capacity (--concurrency auto). It turns them into pkg/stress's Deps.
package podflags

import (
	"context"
	"fmt"
	"io"
	"net/url"

	"github.com/spf13/cobra"
	"k8s.io/apimachinery/pkg/labels"

	"github.com/osctl/osctl/internal/cli/cmdutil"
	"github.com/osctl/osctl/internal/cli/stress/nemesisflags"
	"github.com/osctl/osctl/pkg/k8s"
	pstress "github.com/osctl/osctl/pkg/stress"
	"github.com/osctl/osctl/pkg/stress/history"
)

// Flags are --target-pods (a label selector or a Service's name), --target-port and
// --deployment.
type Flags struct {
	Pods       string
	Port       int
	Deployment string
	// webSelectorSet says --nemesis-web-selector was given (else --target-pods' selector is the
	// web pods').
	webSelectorSet bool
}

// Add binds the flags, --concurrency (a number or auto) into c.
func (p *Flags) Add(cmd *cobra.Command, c *pstress.Config, defaultConcurrency int) {
	fl := cmd.Flags()
	fl.StringVar(&p.Pods, "target-pods", "", "target the ready pods this label selector (or this Service's selector, given its name) matches in -n's namespace, each through a port-forward of its own, round-robin; pods are re-listed during the load: one that goes away gets no new request, a new ready one is taken in (openstudio and jobs; instead of --target)")
	fl.IntVar(&p.Port, "target-port", 0, "with --target-pods, the pods' port to forward to (default: the Service's target port when --target-pods names a Service, else each pod's first container port)")
	c.Concurrency = defaultConcurrency
	fl.VarP(concurrencyFlag{c}, "concurrency", "c", "requests in flight at once (closed loop); with --rate, the most in flight; auto: the capacity of the --deployment's (or --target-pods') ready pods, each MAX_POOL + MAX_REQUESTS (beyond that capacity osctl warns before the load)")
}

// AddDeployment binds --deployment (apart, to keep its place in the help).
func (p *Flags) AddDeployment(cmd *cobra.Command) {
	cmd.Flags().StringVar(&p.Deployment, "deployment", "", "Deployment under test (with --kubeconfig): its image and replicas go into the report, and its ready pods' Passenger capacity (MAX_POOL + MAX_REQUESTS each) is checked against --concurrency before the load")
}

// Validate checks the flags against each other and the rest of the command line (targets: the
// --target URLs).
func (p *Flags) Validate(cmd *cobra.Command, f *cmdutil.Factory, c *pstress.Config, targets []string) error {
	p.webSelectorSet = cmd.Flags().Changed("nemesis-web-selector")
	workers := cmd.Flags().Lookup("workers")
	withWorkers := workers != nil && workers.Value.String() != "0"
	if p.Deployment != "" && !f.KubeConfigured() {
		return cmdutil.Usage("--deployment needs --kubeconfig (or KUBECONFIG) to read the workload")
	}
	if c.ConcurrencyAuto && p.Deployment == "" && p.Pods == "" {
		return cmdutil.Usage("--concurrency auto needs the tier to size the load to: add --deployment NAME or --target-pods SELECTOR (with --kubeconfig)")
	}
	if c.ConcurrencyAuto && withWorkers {
		return cmdutil.Usage("--concurrency auto sizes the load of this process only: with --workers give --concurrency N")
	}
	if p.Pods == "" {
		if cmd.Flags().Changed("target-port") {
			return cmdutil.Usage("--target-port goes with --target-pods")
		}
		return nil
	}
	switch {
	case len(targets) > 0:
		return cmdutil.Usage("--target and --target-pods both name the targets: give one")
	case !f.KubeConfigured():
		return cmdutil.Usage("--target-pods needs --kubeconfig (or KUBECONFIG) to find the pods")
	case p.Port < 0 || p.Port > 65535:
		return cmdutil.Usage("--target-port %d: use 1 to 65535, or leave it out for each pod's first container port", p.Port)
	case !c.Kind().Probes:
		return cmdutil.Usage("--target-pods works with --profile openstudio and jobs; the http profile's targets are the routes themselves: give each pod's URL with --target")
	case withWorkers:
		return cmdutil.Usage("--target-pods sends the load from this process through a port-forward to each pod; --workers sends it from pods in the cluster: give --target http://SERVICE to the workers instead")
	}
	return nil
}

// Open opens the forwarder of --target-pods (nil without it; the caller closes it) and points
// the faults of nm at the same pods unless they name others.
func (p *Flags) Open(ctx context.Context, f *cmdutil.Factory, nm *nemesisflags.Flags, errOut io.Writer) (*k8s.PodForwarder, error) {
	if p.Pods == "" {
		return nil, nil
	}
	kc, err := f.Kube()
	if err != nil {
		return nil, err
	}
	pf, err := k8s.NewPodForwarder(ctx, kc, kc.Namespace, p.Pods, p.Port)
	if err != nil {
		return nil, cmdutil.Usage("--target-pods: %v", err)
	}
	if nm.Spec != "" {
		if nm.Namespace == "" {
			nm.Namespace = kc.Namespace
		}
		if !p.webSelectorSet {
			nm.WebSelector = pf.Selector()
		}
	}
	fmt.Fprintf(errOut, "targets: the ready pods of %s in namespace %s, each through a port-forward\n", pf.Selector(), kc.Namespace)
	return pf, nil
}

// Wire sets d's workload reader (--deployment) and tier reader: the Deployment's pods, else the
// pods of --target-pods (pf).
func (p *Flags) Wire(f *cmdutil.Factory, pf *k8s.PodForwarder, d *pstress.Deps) {
	if pf != nil {
		d.Pods = pf
	}
	switch {
	case p.Deployment != "":
		d.Workload = func(ctx context.Context) (*history.Workload, error) {
			kc, err := f.Kube()
			if err != nil {
				return nil, err
			}
			return pstress.Workload(ctx, kc.Clientset, kc.Namespace, p.Deployment)
		}
		d.Tier = func(ctx context.Context) (*pstress.Tier, error) {
			kc, err := f.Kube()
			if err != nil {
				return nil, err
			}
			return pstress.DeploymentTier(ctx, kc.Clientset, kc.Namespace, p.Deployment)
		}
	case pf != nil:
		d.Tier = func(ctx context.Context) (*pstress.Tier, error) {
			kc, err := f.Kube()
			if err != nil {
				return nil, err
			}
			sel, err := labels.Parse(pf.Selector())
			if err != nil {
				return nil, fmt.Errorf("the selector of --target-pods: %w", err)
			}
			return pstress.ReadTier(ctx, kc.Clientset, pf.Namespace(), "the pods of "+pf.Selector(), sel)
		}
	}
}

// Check is c.Check; with --target-pods the targets are only known once the pods are listed.
func (p *Flags) Check(c pstress.Config) error {
	if p.Pods != "" {
		c.Targets = []*url.URL{{Scheme: "http", Host: "pods.invalid"}}
	}
	return c.Check()
}
