package rollout

import (
	"path/filepath"
	"time"

	"github.com/spf13/cobra"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/osctl/osctl/internal/cli/cmdutil"
	"github.com/osctl/osctl/pkg/rollout"
)

// GateFlags choose the gates (plan, run).
type GateFlags struct {
	Builtin     []string // nfs, locks, pods
	HTTP        string
	HTTPLatency time.Duration
	Cmd         string
	NFSPath     string
	Prom        PromFlags
}

// PromFlags are the PromQL gates' flags.
type PromFlags struct {
	Queries    []string
	URL        string
	CAFile     string
	BearerFile string
	NoData     string
}

func addGateFlags(cmd *cobra.Command, g *GateFlags) {
	fl := cmd.Flags()
	fl.StringSliceVar(&g.Builtin, "gates", []string{"nfs", "locks", "pods"}, "built-in gates: nfs (the NFS preflight in every pod, new ones included), locks (Redis reachable, no stale locks), pods (no restarts or crash loops); --gates '' for none")
	fl.StringVar(&g.HTTP, "gate-http", "", "gate: GET this URL; it must answer 2xx within --gate-http-latency")
	fl.DurationVar(&g.HTTPLatency, "gate-http-latency", 2*time.Second, "latency bound of --gate-http")
	fl.StringVar(&g.Cmd, "gate-cmd", "", "gate: run this shell command; exit 0 passes (for example an osctl stress run)")
	fl.StringVar(&g.NFSPath, "nfs-path", rollout.DefaultNFSPath, "the shared directory whose NFS mount the nfs gate and precondition check")
	fl.StringArrayVar(&g.Prom.Queries, "gate-prom", nil, "gate (repeatable): a PromQL condition written with bool; it passes when it returns at least one sample and none is 0 or NaN, e.g. 'sum(rate(http_requests_total{code=~\"5..\"}[1m])) / sum(rate(http_requests_total[1m])) < bool 0.01'")
	fl.StringVar(&g.Prom.NoData, "gate-prom-no-data", rollout.NoDataFail, "what an empty --gate-prom result does: fail (a gate that sees no data does not pass a step) or pass")
	addPrometheusFlag(cmd, &g.Prom.URL, "the Prometheus (or compatible) query API the --gate-prom gates ask, e.g. http://prometheus.monitoring:9090; basic auth may go in the URL (masked in the journal)")
	fl.StringVar(&g.Prom.CAFile, "prometheus-ca", "", "PEM bundle that verifies an https:// --prometheus (a private CA)")
	fl.StringVar(&g.Prom.BearerFile, "prometheus-bearer-file", "", "file holding a bearer token for --prometheus (read on every query; the token is never stored)")
}

func addPrometheusFlag(cmd *cobra.Command, url *string, help string) {
	cmd.Flags().StringVar(url, "prometheus", "", help)
}

// gateConfig validates the gate flags into the journal's record of them.
func (g GateFlags) gateConfig() (rollout.GateConfig, error) {
	c := rollout.GateConfig{HTTP: g.HTTP, Cmd: g.Cmd, NFSPath: g.NFSPath}
	for _, b := range g.Builtin {
		switch b {
		case "nfs":
			c.NFS = true
		case "locks":
			c.Locks = true
		case "pods":
			c.Pods = true
		case "":
		default:
			return c, cmdutil.Usage("--gates %q: unknown gate; use nfs, locks, pods (or --gate-http, --gate-cmd, --gate-prom)", b)
		}
	}
	if g.HTTP != "" {
		if g.HTTPLatency <= 0 {
			return c, cmdutil.Usage("--gate-http-latency must be positive")
		}
		c.HTTPLatency = metav1.Duration{Duration: g.HTTPLatency}
	}
	p := g.Prom
	// The journal keeps the files' absolute paths: resume may run in another directory.
	c.Prom = rollout.PromGates{Queries: p.Queries, URL: p.URL, CAFile: absPath(p.CAFile), BearerFile: absPath(p.BearerFile), NoData: p.NoData}
	if err := c.Prom.Validate(); err != nil {
		return c, &cmdutil.UsageError{Err: err}
	}
	if len(p.Queries) == 0 || p.NoData == rollout.NoDataFail {
		c.Prom.NoData = "" // the default, recorded as nothing
	}
	return c, nil
}

// absPath is p made absolute ("" stays ""; a path that cannot be made absolute stays as given).
func absPath(p string) string {
	if p == "" {
		return ""
	}
	if a, err := filepath.Abs(p); err == nil {
		return a
	}
	return p
}
