package preflight

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/osctl/osctl/internal/cli/cmdutil"
	"github.com/osctl/osctl/pkg/preflight"
	"github.com/osctl/osctl/pkg/preflight/manifests"
)

// ManifestsOptions are the inputs of `osctl preflight manifests`.
type ManifestsOptions struct {
	IO     *cmdutil.IOStreams
	Common *Common

	Files         []string
	Values        string
	Workload      string
	Path          string
	AppLocksFiles bool
	// SingleOwners are the --single-owner KIND/NAME values; owners their Deployment names.
	SingleOwners []string
	owners       []string
}

// NewCmdManifests builds `osctl preflight manifests`.
func NewCmdManifests(f *cmdutil.Factory, common *Common, runF func(context.Context, *ManifestsOptions) error) *cobra.Command {
	opts := &ManifestsOptions{IO: f.IO, Common: common}
	cmd := &cobra.Command{
		Use:   "manifests -f FILE|DIR|- [--values values.yaml]",
		Short: "Check rendered manifests and Helm values before more than one web pod runs",
		Long: `Static rules over rendered manifests (helm template output, kubectl get -o yaml) and Helm values:
  web.hpa-locking           HPA maxReplicas > 1 for the web workload while distributed locking is not
                            enabled (web_hpa.distributedLocking.enabled, annotation
                            osctl.io/distributed-locking, env DISTRIBUTED_LOCKING): FAIL; enabled: INFO
  nfs.storageclass, nfs.pv-options, nfs.inline
                            the web volume without noac: FAIL when more than one pod is possible, else WARN
  web.rollout-surge         one web replica whose RollingUpdate allows maxSurge > 0: FAIL without locking
  nfs.ganesha               an in-cluster NFS-Ganesha server behind the volume: WARN
  single-owner.*            workloads annotated osctl.io/single-owner: "true", or named with
                            --single-owner deployment/NAME: replicas 1, HPA max 1,
                            maxSurge 0 + maxUnavailable 1 (or Recreate), a PDB maxUnavailable 1
  deploy.replicas-with-hpa  spec.replicas set while an HPA manages the Deployment: WARN
  web.pdb, web.spread       two or more web replicas without a PDB or without node spreading: WARN
  web.passenger             Passenger queue:pool ratio and capacity against the posting workers
The web workload is --workload, else the Deployment named web, else every HPA-scaled Deployment
with a shared volume at --path; without one the web rules are skipped (INFO). In a directory,
values*.yaml files that hold no Kubernetes object are read as Helm values.`,
		Example: `  helm template osrel ./openstudio-server | osctl preflight manifests -f - --values values.yaml
  osctl preflight manifests -f examples/chart-today/
  osctl preflight manifests -f examples/elb-openapi/before.yaml --single-owner deployment/elb-openapi
  osctl preflight manifests -f rendered.yaml --junit preflight.xml --config preflight.yaml`,
		Args: cobra.NoArgs,
		RunE: cmdutil.RunE(opts, common.prepare(opts.validate), runF, manifestsRun),
	}
	addManifestsFlags(cmd, opts)
	cmd.Flags().StringVar(&opts.Workload, "workload", "", "the web Deployment (default: the one named web, else every HPA-scaled Deployment with a shared volume at --path)")
	cmd.Flags().StringVar(&opts.Path, "path", DefaultPath, "where the web pods mount the shared volume")
	cmd.Flags().BoolVar(&opts.AppLocksFiles, "app-locks-files", true, "the application locks files on the share")
	cmd.Flags().StringArrayVar(&opts.SingleOwners, "single-owner", nil, `apply the single-owner rules to this workload, as the annotation osctl.io/single-owner: "true" does: deployment/NAME (repeatable)`)
	return cmd
}

func addManifestsFlags(cmd *cobra.Command, opts *ManifestsOptions) {
	cmd.Flags().StringArrayVarP(&opts.Files, "filename", "f", nil, `rendered manifests: a file, a directory, or "-" for stdin (repeatable)`)
	cmd.Flags().StringVar(&opts.Values, "values", "", "the Helm values the manifests were rendered with")
}

// validate checks the flags and arguments; it does no I/O.
func (o *ManifestsOptions) validate() error {
	if len(o.Files) == 0 && o.Values == "" {
		return cmdutil.Usage("give the manifests with -f FILE|DIR|- (and/or Helm values with --values)")
	}
	o.owners = nil
	for _, v := range o.SingleOwners {
		name, err := singleOwnerName(v)
		if err != nil {
			return err
		}
		o.owners = append(o.owners, name)
	}
	return nil
}

// singleOwnerName returns the Deployment name of a --single-owner KIND/NAME value.
func singleOwnerName(v string) (string, error) {
	kind, name, ok := strings.Cut(v, "/")
	if !ok || name == "" || strings.Contains(name, "/") {
		return "", cmdutil.Usage("--single-owner %q: give KIND/NAME, as deployment/elb-openapi", v)
	}
	switch strings.ToLower(kind) {
	case "deployment", "deployments", "deploy", "deployment.apps", "deployments.apps":
		return name, nil
	}
	return "", cmdutil.Usage("--single-owner %q: the single-owner rules judge Deployments (replicas, rollout surge, PDB); give deployment/%s", v, name)
}

func manifestsRun(ctx context.Context, opts *ManifestsOptions) error {
	rs, err := manifestsResults(opts.IO.In, opts)
	return runOne(opts.IO, opts.Common, "manifests", rs, err)
}

func manifestsResults(stdin io.Reader, opts *ManifestsOptions) ([]preflight.Result, error) {
	in := &manifests.Inputs{}
	if len(opts.Files) > 0 {
		var err error
		if in, err = manifests.Load(opts.Files, stdin); err != nil {
			return nil, err
		}
	}
	valuesFile := opts.Values
	if valuesFile == "" && len(in.ValuesFiles) == 1 {
		valuesFile = in.ValuesFiles[0]
	} else if valuesFile == "" && len(in.ValuesFiles) > 1 {
		return nil, cmdutil.Usage("%d values files found (%v): choose one with --values", len(in.ValuesFiles), in.ValuesFiles)
	}
	var vals *manifests.Values
	if valuesFile != "" {
		var err error
		if vals, err = manifests.LoadValues(valuesFile); err != nil {
			return nil, err
		}
	}
	if len(in.Objects) == 0 && vals == nil {
		return nil, fmt.Errorf("no Kubernetes objects in %v", opts.Files)
	}
	maxRatio := 0.0
	if opts.Common.Config != nil {
		maxRatio = opts.Common.Config.PassengerMaxRatio
	}
	rs, err := manifests.Evaluate(manifests.Input{Objects: in.Objects, Values: vals, Workload: opts.Workload, Path: opts.Path,
		PassengerMaxRatio: maxRatio, AppLocksFiles: opts.AppLocksFiles, SingleOwners: opts.owners})
	var nw *manifests.NoWorkloadError
	if errors.As(err, &nw) {
		return nil, fmt.Errorf("--single-owner deployment/%s: %v; name a Deployment of the input", nw.Name, nw)
	}
	if err != nil {
		return nil, err
	}
	return manifests.ApplyIgnores(rs, in.Objects, opts.Common.Config), nil
}
