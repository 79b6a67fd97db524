package stress

import (
	"context"
	"fmt"
	"net/url"

	"github.com/spf13/cobra"

	"github.com/osctl/osctl/internal/cli/cmdutil"
	"github.com/osctl/osctl/pkg/k8s"
	pstress "github.com/osctl/osctl/pkg/stress"
)

// validatePods checks --target-pods and --target-port against the other flags.
func (o *Options) validatePods(cmd *cobra.Command) error {
	o.webSelectorSet = cmd.Flags().Changed("nemesis-web-selector")
	if o.TargetPods == "" {
		if cmd.Flags().Changed("target-port") {
			return cmdutil.Usage("--target-port goes with --target-pods")
		}
		return nil
	}
	switch {
	case len(o.Targets) > 0:
		return cmdutil.Usage("--target and --target-pods both name the targets: give one")
	case !o.Factory.KubeConfigured():
		return cmdutil.Usage("--target-pods needs --kubeconfig (or KUBECONFIG) to find the pods")
	case o.TargetPort < 0 || o.TargetPort > 65535:
		return cmdutil.Usage("--target-port %d: use 1 to 65535, or leave it out for each pod's first container port", o.TargetPort)
	case o.Config.Profile == pstress.ProfileHTTP:
		return cmdutil.Usage("--target-pods works with --profile openstudio and jobs; the http profile's targets are the routes themselves: give each pod's URL with --target")
	case cmd.Flags().Lookup("workers") != nil && cmd.Flags().Changed("workers"):
		return cmdutil.Usage("--target-pods sends the load from this process through a port-forward to each pod; --workers sends it from pods in the cluster: give --target http://SERVICE to the workers instead")
	}
	return nil
}

// checkConfig is Config.Check; with --target-pods the targets are only known once the pods are
// listed.
func (o *Options) checkConfig() error {
	c := o.Config
	if o.TargetPods != "" {
		c.Targets = []*url.URL{{Scheme: "http", Host: "pods.invalid"}}
	}
	return c.Check()
}

// podTargets opens the forwarder of --target-pods (nil without it); the caller closes it.
func (o *Options) podTargets(ctx context.Context) (*k8s.PodForwarder, error) {
	if o.TargetPods == "" {
		return nil, nil
	}
	kc, err := o.Factory.Kube()
	if err != nil {
		return nil, err
	}
	pf, err := k8s.NewPodForwarder(ctx, kc, kc.Namespace, o.TargetPods, o.TargetPort)
	if err != nil {
		return nil, cmdutil.Usage("--target-pods: %v", err)
	}
	// The faults go to the same pods unless told otherwise.
	if o.Nemesis.Spec != "" {
		if o.Nemesis.Namespace == "" {
			o.Nemesis.Namespace = kc.Namespace
		}
		if !o.webSelectorSet {
			o.Nemesis.WebSelector = pf.Selector()
		}
	}
	fmt.Fprintf(o.IO.ErrOut, "targets: the ready pods of %s in namespace %s, each through a port-forward\n", pf.Selector(), kc.Namespace)
	return pf, nil
}
