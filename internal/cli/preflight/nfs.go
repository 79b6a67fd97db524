package preflight

import (
	"context"
	"fmt"
	"os"
	"time"

	"github.com/spf13/cobra"

	"github.com/osctl/osctl/internal/cli/cmdutil"
	"github.com/osctl/osctl/pkg/k8s"
	"github.com/osctl/osctl/pkg/preflight"
	"github.com/osctl/osctl/pkg/preflight/nfscheck"
)

// DefaultPath is where the web pods mount the shared volume (the chart's).
const DefaultPath = "/mnt/openstudio"

// NFSOptions are the inputs of `osctl preflight nfs`.
type NFSOptions struct {
	IO     *cmdutil.IOStreams
	Kube   func() (*k8s.Clients, error)
	Common *Common

	Path          string
	Mountinfo     string
	Workload      string
	Live          bool // read pods in the cluster (a kubeconfig, context or namespace was given)
	Probe         bool
	ProbeDirs     []string
	ProbeTimeout  time.Duration
	ProbePods     []string // --probe-pods POD_A,POD_B: the probe between two pods by exec
	Container     string   // the container of the probe pods (default: the one mounting --path)
	AppLocksFiles bool
}

// NewCmdNFS builds `osctl preflight nfs`.
func NewCmdNFS(f *cmdutil.Factory, common *Common, runF func(context.Context, *NFSOptions) error) *cobra.Command {
	opts := &NFSOptions{IO: f.IO, Kube: f.Kube, Common: common}
	cmd := &cobra.Command{
		Use:   "nfs [--mountinfo FILE | --probe DIR_A DIR_B | --probe-pods POD_A,POD_B]",
		Short: "Check that the shared NFS volume is mounted with noac (here, from a file, or in every web pod)",
		Long: `Grade the NFS mount holding --path (default /mnt/openstudio) for a multi-replica web tier:
attribute cache off (noac; the kernel's unprinted defaults acregmin=3 acregmax=60 acdirmin=30
acdirmax=60 are filled in and the effective seconds reported), no nocto, hard, lookupcache, and
NFSv3 locking (nolock/local_lock FAIL where the application locks files).

Where it reads the mount:
  --mountinfo FILE     a saved /proc/self/mountinfo ("-" for stdin)
  --kubeconfig/--context/-n (or $KUBECONFIG)
                       every ready pod of Deployment --workload (default web): exec into the
                       container that mounts the volume, read /proc/self/mountinfo (with sh when
                       the image has no cat), grade each pod, FAIL when pods disagree; plus the
                       PVC -> PV mountOptions, the StorageClass, inline nfs volumes, CSI driver
                       advice and an in-cluster NFS-Ganesha server
  otherwise            this machine's /proc/self/mountinfo

--probe DIR_A DIR_B tests for real: the same export directory through two client mounts (two
pods on two nodes, or two mounts from different server addresses). Each side writes while the
other reads: size after append, a new file after a failed lookup, mtime after touch, flock
exclusion. A fresh reader PASSes, a stale one FAILs (STALE, with the time to converge).

--probe-pods POD_A,POD_B is the same probe in the cluster (--kubeconfig/-n): by exec, pod A
writes (sh: printf, touch) and pod B reads (stat -c) in .osctl-probe-<random> under --path,
then the other way round; the directory is removed at the end. The container is --container,
else the one mounting the volume holding --path. Two pods on one node share one NFS client
cache and prove nothing (WARN). flock exclusion is not run across pods (INFO).

Exit 1 on any FAIL, 2 when it could not run (a malformed mountinfo names the file and line).`,
		Example: `  osctl preflight nfs
  osctl preflight nfs --mountinfo examples/mountinfo/noac.txt
  osctl preflight nfs -n openstudio --workload web -o json
  osctl preflight nfs --probe /mnt/a /mnt/b --probe-timeout 5s
  osctl preflight nfs -n openstudio --probe-pods web-7d9f-abcde,web-7d9f-fghij`,
		RunE: cmdutil.RunE(opts, func(cmd *cobra.Command, args []string) error {
			if err := opts.validate(args); err != nil {
				return err
			}
			opts.Live = f.KubeConfigured() || f.KubeFlags.Namespace != ""
			return common.loadConfig()
		}, runF, nfsRun),
	}
	addNFSFlags(cmd, opts)
	cmd.Flags().BoolVar(&opts.Probe, "probe", false, "run the empirical probe between two directories: --probe DIR_A DIR_B")
	cmd.Flags().StringSliceVar(&opts.ProbePods, "probe-pods", nil, "run the empirical probe between two pods (on two nodes) by exec, at --path: --probe-pods POD_A,POD_B")
	cmd.Flags().StringVar(&opts.Container, "container", "", "the container of the --probe-pods pods (default: the one that mounts the volume holding --path)")
	cmd.MarkFlagsMutuallyExclusive("probe", "probe-pods")
	cmd.Flags().DurationVar(&opts.ProbeTimeout, "probe-timeout", 10*time.Second, "how long the probe polls a stale reader for the fresh state")
	cmdutil.NameSettings(cmd, settings)
	return cmd
}

func addNFSFlags(cmd *cobra.Command, opts *NFSOptions) {
	fl := cmd.Flags()
	fl.StringVar(&opts.Path, "path", DefaultPath, "the shared directory whose mount is checked")
	fl.StringVar(&opts.Mountinfo, "mountinfo", "", `grade a saved mountinfo file ("-" for stdin) instead of this machine's or the pods'`)
	fl.StringVar(&opts.Workload, "workload", "web", "the web Deployment whose pods are checked in the cluster")
	fl.BoolVar(&opts.AppLocksFiles, "app-locks-files", true, "the application locks files on the share (OpenStudio does): NFSv3 nolock/local_lock is a FAIL, else a WARN")
}

// validate checks the flags and arguments; it does no I/O.
func (o *NFSOptions) validate(args []string) error {
	if o.Probe {
		if len(args) != 2 {
			return cmdutil.Usage("--probe takes two directories: --probe DIR_A DIR_B")
		}
		o.ProbeDirs = args
	} else if len(o.ProbePods) > 0 {
		if len(o.ProbePods) != 2 || o.ProbePods[0] == "" || o.ProbePods[1] == "" || o.ProbePods[0] == o.ProbePods[1] {
			return cmdutil.Usage("--probe-pods takes two different pods: --probe-pods POD_A,POD_B")
		}
		if len(args) > 0 {
			return cmdutil.Usage("unexpected argument %q with --probe-pods", args[0])
		}
	} else if len(args) > 0 {
		return cmdutil.Usage("unexpected argument %q (did you mean --probe DIR_A DIR_B?)", args[0])
	}
	if o.ProbeTimeout <= 0 || o.ProbeTimeout > 10*time.Minute {
		return cmdutil.Usage("--probe-timeout must be between 0 and 10m")
	}
	return nil
}

func nfsRun(ctx context.Context, opts *NFSOptions) error {
	rs, err := nfsResults(ctx, opts)
	return runOne(opts.IO, opts.Common, "nfs", rs, err)
}

func nfsResults(ctx context.Context, opts *NFSOptions) ([]preflight.Result, error) {
	rs, err := nfsGrade(ctx, opts)
	if err != nil {
		return nil, err
	}
	return preflight.ApplyIgnores(rs, opts.Common.Config, nil), nil
}

// nfsGrade runs the NFS check opts asks for: the probe, or the grading of the mount.
func nfsGrade(ctx context.Context, opts *NFSOptions) ([]preflight.Result, error) {
	g := nfscheck.GradeOptions{AppLocksFiles: opts.AppLocksFiles}
	switch {
	case opts.Probe:
		if err := cmdutil.NeedsLinux("preflight nfs --probe", "it compares two local mounts of the share as Linux's NFS client sees them; probe two web pods with --probe-pods POD_A,POD_B"); err != nil {
			return nil, err
		}
		return nfscheck.Probe(ctx, opts.ProbeDirs[0], opts.ProbeDirs[1], nfscheck.ProbeOptions{Timeout: opts.ProbeTimeout})
	case len(opts.ProbePods) == 2:
		kc, err := opts.Kube()
		if err != nil {
			return nil, err
		}
		return nfscheck.ProbePods(ctx, kc, kc.Namespace, opts.ProbePods[0], opts.ProbePods[1], opts.Container, opts.Path, nfscheck.ProbeOptions{Timeout: opts.ProbeTimeout})
	case opts.Mountinfo != "":
		return gradeMountinfoFile(opts.IO, opts.Mountinfo, opts.Path, g)
	case opts.Live:
		kc, err := opts.Kube()
		if err != nil {
			return nil, err
		}
		return nfscheck.CheckWorkloadWith(ctx, kc, kc.Namespace, opts.Workload, opts.Path, g)
	default:
		if err := cmdutil.NeedsLinux("preflight nfs", "this machine's mounts are read from /proc/self/mountinfo; grade a saved one with --mountinfo FILE, or the web pods' with --kubeconfig/-n"); err != nil {
			return nil, err
		}
		return gradeMountinfoFile(opts.IO, "/proc/self/mountinfo", opts.Path, g)
	}
}

func gradeMountinfoFile(streams *cmdutil.IOStreams, file, path string, g nfscheck.GradeOptions) ([]preflight.Result, error) {
	var ms []nfscheck.Mount
	var err error
	name := file
	if file == "-" {
		name = "stdin"
		ms, err = nfscheck.ParseMountinfo(streams.In, name)
	} else {
		f, oerr := os.Open(file)
		if oerr != nil {
			return nil, fmt.Errorf("reading mountinfo: %v", oerr)
		}
		defer f.Close()
		ms, err = nfscheck.ParseMountinfo(f, name)
	}
	if err != nil {
		return nil, err
	}
	return nfscheck.GradePath(ms, path, path, g), nil
}

// localNFS reports whether an NFS mount holds p on this machine.
func localNFS(proc, p string) (bool, string) {
	fh, err := os.Open(proc)
	if err != nil {
		return false, "cannot read " + proc + ": " + err.Error()
	}
	defer fh.Close()
	ms, err := nfscheck.ParseMountinfo(fh, proc)
	if err != nil {
		return false, err.Error()
	}
	if m, ok := nfscheck.FindMount(ms, p); ok && m.IsNFS() {
		return true, ""
	}
	return false, "no NFS mount holds " + p + " on this machine"
}
