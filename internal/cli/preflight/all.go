package preflight

import (
	"context"
	"fmt"
	"time"

	"github.com/spf13/cobra"

	"github.com/osctl/osctl/internal/cli/cmdutil"
	"github.com/osctl/osctl/pkg/lock"
	"github.com/osctl/osctl/pkg/preflight"
)

// AllOptions are the inputs of the bare `osctl preflight`, which runs every check it has
// input for.
type AllOptions struct {
	IO     *cmdutil.IOStreams
	F      *cmdutil.Factory
	Common *Common

	KubeConfigured bool
	Manifests      ManifestsOptions
	NFS            NFSOptions
	Redis          RedisOptions
	// ProcMountinfo is the local mountinfo file (a seam for tests). The default is
	// /proc/self/mountinfo.
	ProcMountinfo string
}

func addAllFlags(cmd *cobra.Command, o *AllOptions) {
	fl := cmd.Flags()
	fl.StringArrayVarP(&o.Manifests.Files, "filename", "f", nil, `rendered manifests for the manifest checks: a file, a directory, or "-" (repeatable)`)
	fl.StringVar(&o.Manifests.Values, "values", "", "Helm values for the manifest checks")
	fl.StringVar(&o.NFS.Mountinfo, "mountinfo", "", "grade a saved mountinfo file for the NFS checks")
	fl.StringVar(&o.NFS.Path, "path", DefaultPath, "the shared directory (NFS mount point in the web pods)")
	fl.StringVar(&o.NFS.Workload, "workload", "", "the web Deployment (live NFS check default: web; manifests: auto)")
	fl.DurationVar(&o.Redis.LockTTL, "lock-ttl", lock.DefaultTTL, "the lock TTL the application uses (Redis checks)")
	fl.DurationVar(&o.Redis.ClockInterval, "clock-interval", time.Second, "how long the Redis server clock is watched")
}

func allRun(ctx context.Context, o *AllOptions) error {
	f := o.F
	r := &Report{}
	var firstErr error
	check := func(name string, rs []preflight.Result, err error) {
		if err := r.check(name, rs, err); err != nil && firstErr == nil {
			firstErr = err
		}
	}
	skip := func(check, why string) { r.Skipped = append(r.Skipped, Skip{Check: check, Reason: why}) }

	// Manifests.
	m := o.Manifests
	m.IO, m.Common, m.Workload, m.Path, m.AppLocksFiles = o.IO, o.Common, o.NFS.Workload, o.NFS.Path, true
	if len(m.Files) > 0 || m.Values != "" {
		rs, err := manifestsResults(o.IO.In, &m)
		check("manifests", rs, err)
	} else {
		skip("manifests", "no -f manifests or --values given")
	}

	// NFS: a saved mountinfo, else the cluster's web pods, else a local NFS mount.
	n := o.NFS
	n.IO, n.Common, n.Kube, n.AppLocksFiles, n.ProbeTimeout = o.IO, o.Common, f.Kube, true, 10*time.Second
	if n.Workload == "" {
		n.Workload = "web"
	}
	proc := o.ProcMountinfo
	if proc == "" {
		proc = "/proc/self/mountinfo"
	}
	nfs := func() {
		rs, err := nfsResults(ctx, &n)
		check("nfs", rs, err)
	}
	switch {
	case n.Mountinfo != "":
		nfs()
	case o.KubeConfigured:
		n.Live = true
		nfs()
	default:
		if ok, why := localNFS(proc, n.Path); ok {
			n.Mountinfo = proc
			nfs()
		} else {
			skip("nfs", why+"; pass --mountinfo FILE, or --kubeconfig/-n for the web pods")
		}
	}

	// Redis.
	if f.RedisGiven() {
		rd := o.Redis
		rd.IO, rd.Common, rd.Masters = o.IO, o.Common, f.RedisMasters
		rs, err := redisResults(ctx, &rd)
		check("redis", rs, err)
	} else {
		skip("redis", "no --redis, --redis-cluster or --redis-sentinel URL, $OSCTL_REDIS or --redis-service given")
	}
	if len(r.Results) == 0 && len(r.Errors) == 0 {
		fmt.Fprintln(o.IO.ErrOut, "no check had input: pass -f/--values, --mountinfo, --redis, or a kubeconfig")
	}
	return finish(o.IO, o.Common, r, firstErr)
}
