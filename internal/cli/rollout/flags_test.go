package rollout_test

import (
	"context"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/osctl/osctl/internal/cli/cmdutil"
	rolloutcmd "github.com/osctl/osctl/internal/cli/rollout"
	"github.com/osctl/osctl/pkg/rollout"
)

func parseRun(t *testing.T, args ...string) (*rolloutcmd.RunOptions, error) {
	t.Helper()
	f := cmdutil.New("test")
	f.IO, _, _, _ = cmdutil.Test()
	var got *rolloutcmd.RunOptions
	cmd := rolloutcmd.NewCmdRun(f, func(_ context.Context, o *rolloutcmd.RunOptions) error { got = o; return nil })
	cmd.SetArgs(args)
	cmd.SilenceUsage, cmd.SilenceErrors = true, true
	err := cmd.Execute()
	return got, err
}

func TestRunFlags(t *testing.T) {
	o, err := parseRun(t, "--hpa", "web", "--steps", "1,2,4", "--final-min", "2", "--final-max", "4", "--hold", "10s",
		"--gates", "nfs,pods", "--gate-http", "http://127.0.0.1:1/health", "--max-report-age", "7d", "--dry-run")
	if err != nil {
		t.Fatal(err)
	}
	if o.Plan.Hold != 10*time.Second || o.Plan.Steps != "1,2,4" || o.HPA != "web" || o.Validation.MaxReportAge.String() != "168h0m0s" {
		t.Fatalf("%+v", o)
	}
	if len(o.Built.Gates.Prom.Queries) != 0 {
		t.Errorf("PromQL gates without --gate-prom: %+v", o.Built.Gates.Prom)
	}
	if o.DryRun != "server" {
		t.Errorf("--dry-run alone means server, got %q", o.DryRun)
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--hpa", "web"}, `"steps" not set`},
		{[]string{"--steps", "1,2"}, `"hpa" not set`},
		{[]string{"--hpa", "web", "--steps", "2,1"}, "must increase"},
		{[]string{"--hpa", "web", "--steps", "1,2", "--gates", "nfs,bogus"}, `"bogus": unknown gate`},
		{[]string{"--hpa", "web", "--steps", "1,4", "--final-min", "5"}, "--final-min/--final-max 5-4 is invalid: need 1 <= min <= max"},
		{[]string{"--hpa", "web", "--steps", "1,2", "--dry-run=client"}, "use --dry-run=server"},
		{[]string{"--hpa", "web", "--steps", "1,2", "--rollback-to", "previous"}, "last-good"},
		{[]string{"--hpa", "web", "--steps", "1,2", "--max-report-age", "-1d"}, "24h or 7d"},
		{[]string{"--hpa", "web", "--steps", "1,2", "--lease-duration", "1s"}, "at least 2s"},
		{[]string{"--hpa", "web", "--steps", "1", "--gate-prom", "up == bool 1"}, "--prometheus: a PromQL gate needs the Prometheus URL"},
		{[]string{"--hpa", "web", "--steps", "1", "--prometheus", "http://p:9090"}, "--gate-prom: --prometheus, --prometheus-ca, --prometheus-bearer-file and --gate-prom-no-data are for PromQL gates: add a query"},
		{[]string{"--hpa", "web", "--steps", "1", "--gate-prom", "up", "--prometheus", "http://p:9090", "--gate-prom-no-data", "skip"}, `--gate-prom-no-data "skip"`},
		{[]string{"--hpa", "web", "--steps", "1", "--gate-prom-no-data", "skip"}, `--gate-prom-no-data "skip"`},
		{[]string{"--hpa", "web", "--steps", "1", "--gate-prom-no-data", "pass"}, "are for PromQL gates: add a query"},
		{[]string{"--hpa", "web", "--steps", "1", "--gate-prom", "up", "--prometheus", "http://u:pw@p:9090", "--prometheus-ca", "ca.pem"}, `--prometheus "http://u:xxxxx@p:9090" is not https://`},
	} {
		_, err := parseRun(t, tc.args...)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%v: err %v, want %q", tc.args, err, tc.want)
		}
	}
}

// TestPromFlags: --gate-prom is repeatable and takes commas; the default no-data policy is
// recorded as nothing.
func TestPromFlags(t *testing.T) {
	q1, q2 := `sum(rate(http_requests_total{code=~"5.."}[1m])) / sum(rate(http_requests_total[1m])) < bool 0.01`, "max(passenger_queue) < bool 10"
	o, err := parseRun(t, "--hpa", "web", "--steps", "1", "--gate-prom", q1, "--gate-prom", q2, "--prometheus", "https://prom:9090",
		"--prometheus-ca", "ca.pem", "--prometheus-bearer-file", "token")
	if err != nil {
		t.Fatal(err)
	}
	ca, _ := filepath.Abs("ca.pem")
	token, _ := filepath.Abs("token")
	want := rollout.PromGates{Queries: []string{q1, q2}, URL: "https://prom:9090", CAFile: ca, BearerFile: token} // absolute: resume may run elsewhere
	if got := o.Built.Gates.Prom; !reflect.DeepEqual(got, want) {
		t.Fatalf("prom gates %+v, want %+v", got, want)
	}
	o, err = parseRun(t, "--hpa", "web", "--steps", "1", "--gate-prom", q2, "--prometheus", "http://prom:9090", "--gate-prom-no-data", "pass")
	if err != nil || o.Built.Gates.Prom.NoData != rollout.NoDataPass {
		t.Fatalf("--gate-prom-no-data pass: %+v %v", o.Built.Gates.Prom, err)
	}
}

func TestFinalRangeDefaults(t *testing.T) {
	// --final-max alone keeps minReplicas at the last step; neither keeps the HPA pinned there.
	o, err := parseRun(t, "--hpa", "web", "--steps", "1,3", "--final-max", "6")
	if err != nil {
		t.Fatal(err)
	}
	if got := o.Built.FinalRange(); got != (rollout.Range{Min: 3, Max: 6}) {
		t.Fatalf("final range %v, want 3-6", got)
	}
	f := cmdutil.New("test")
	f.IO, _, _, _ = cmdutil.Test()
	var got rollout.Range
	cmd := rolloutcmd.NewCmdPlan(f, func(_ context.Context, o *rolloutcmd.PlanOptions) error {
		got = o.Built.FinalRange()
		return nil
	})
	cmd.SetArgs([]string{"--hpa", "web", "--steps", "1,3"})
	if err := cmd.Execute(); err != nil {
		t.Fatal(err)
	}
	if got != rollout.Pinned(3) {
		t.Fatalf("final range %v, want pinned at 3", got)
	}
}

// TestResumeGateFlags: resume takes the run's gate flags, with the run's defaults, so that the
// same command line gives the same digest; bad gate flags are usage errors.
func TestResumeGateFlags(t *testing.T) {
	parse := func(args ...string) (*rolloutcmd.ResumeOptions, error) {
		f := cmdutil.New("test")
		f.IO, _, _, _ = cmdutil.Test()
		var got *rolloutcmd.ResumeOptions
		cmd := rolloutcmd.NewCmdResume(f, func(_ context.Context, o *rolloutcmd.ResumeOptions) error { got = o; return nil })
		cmd.SetArgs(args)
		cmd.SilenceUsage, cmd.SilenceErrors = true, true
		return got, cmd.Execute()
	}
	run, err := parseRun(t, "--hpa", "web", "--steps", "1,2", "--gate-cmd", "check --token=x", "--gate-http", "https://web/h",
		"--gate-prom", "up == bool 1", "--prometheus", "http://p:9090", "--prometheus-bearer-file", "token")
	if err != nil {
		t.Fatal(err)
	}
	o, err := parse("--hpa", "web", "--gate-cmd", "check --token=x", "--gate-http", "https://web/h",
		"--gate-prom", "up == bool 1", "--prometheus", "http://p:9090", "--prometheus-bearer-file", "token", "--accept-gates")
	if err != nil {
		t.Fatal(err)
	}
	if o.Given.Digest() != run.Built.Gates.Digest() || !o.AcceptGates {
		t.Fatalf("resume's gates %+v differ from run's %+v", o.Given, run.Built.Gates)
	}
	if err := run.Built.Gates.Record().Check(o.Given, false); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--hpa", "web", "--gates", "nfs,bogus"}, `"bogus": unknown gate`},
		{[]string{"--hpa", "web", "--gate-prom", "up"}, "--prometheus: a PromQL gate needs the Prometheus URL"},
	} {
		if _, err := parse(tc.args...); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%v: err %v, want %q", tc.args, err, tc.want)
		}
	}
}
