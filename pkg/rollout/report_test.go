package rollout_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/osctl/osctl/pkg/preflight"
	"github.com/osctl/osctl/pkg/rollout"
)

func TestCheckStressReport(t *testing.T) {
	now := time.Date(2026, 11, 30, 6, 0, 0, 0, time.UTC)
	good := func() *rollout.StressReport {
		r := &rollout.StressReport{Verdict: "clean", Conclusive: true, FinishedAt: now.Add(-time.Hour), MaxReplicasValidated: 4}
		r.Workload.Image, r.Workload.Namespace, r.Workload.Deployment = "img:2", "ns", "web"
		return r
	}
	pol := rollout.ReportPolicy{Now: now, MaxAge: 24 * time.Hour, Images: []string{"img:2"}, Namespace: "ns", Workload: "web",
		Plan: rollout.Plan{Steps: []int32{1, 2, 4}}}
	status := func(rs []preflight.Result, id string) preflight.Status {
		for _, r := range rs {
			if r.ID == id {
				return r.Status
			}
		}
		return ""
	}
	if rs := rollout.CheckStressReport(good(), pol); preflight.Failed(rs) || status(rs, rollout.RuleReportReplicas) != "" {
		t.Fatalf("good report: %+v", rs)
	}
	cases := []struct {
		name   string
		mutate func(*rollout.StressReport, *rollout.ReportPolicy)
		id     string
		want   preflight.Status
	}{
		{"races", func(r *rollout.StressReport, _ *rollout.ReportPolicy) { r.Verdict = "races" }, rollout.RuleReportVerdict, preflight.Fail},
		{"inconclusive", func(r *rollout.StressReport, _ *rollout.ReportPolicy) { r.Conclusive = false }, rollout.RuleReportVerdict, preflight.Fail},
		{"partial", func(r *rollout.StressReport, _ *rollout.ReportPolicy) { r.Partial = true }, rollout.RuleReportVerdict, preflight.Fail},
		{"old", func(r *rollout.StressReport, _ *rollout.ReportPolicy) { r.FinishedAt = now.Add(-48 * time.Hour) }, rollout.RuleReportAge, preflight.Fail},
		{"future", func(r *rollout.StressReport, _ *rollout.ReportPolicy) { r.FinishedAt = now.Add(time.Hour) }, rollout.RuleReportAge, preflight.Fail},
		{"other image", func(r *rollout.StressReport, _ *rollout.ReportPolicy) { r.Workload.Image = "img:1" }, rollout.RuleReportImage, preflight.Fail},
		{"other workload", func(r *rollout.StressReport, _ *rollout.ReportPolicy) { r.Workload.Deployment = "staging-web" }, rollout.RuleReportWorkload, preflight.Warn},
		{"above validated", func(r *rollout.StressReport, _ *rollout.ReportPolicy) { r.MaxReplicasValidated = 2 }, rollout.RuleReportReplicas, preflight.Warn},
		{"above validated strict", func(r *rollout.StressReport, p *rollout.ReportPolicy) { r.MaxReplicasValidated = 2; p.Strict = true }, rollout.RuleReportReplicas, preflight.Fail},
	}
	for _, tc := range cases {
		r, p := good(), pol
		tc.mutate(r, &p)
		if got := status(rollout.CheckStressReport(r, p), tc.id); got != tc.want {
			t.Errorf("%s: %s is %q, want %q", tc.name, tc.id, got, tc.want)
		}
	}
}

func TestLoadStressReport(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "r.json")
	os.WriteFile(p, []byte(`{"verdict":"clean","conclusive":true,"finished_at":"2026-11-30T05:00:00Z","workload":{"image":"i"},"max_replicas_validated":3,"extra":1}`), 0o644)
	r, err := rollout.LoadStressReport(p)
	if err != nil || r.MaxReplicasValidated != 3 || r.Workload.Image != "i" || r.FinishedAt.Hour() != 5 {
		t.Fatalf("%+v %v", r, err)
	}
	os.WriteFile(p, []byte(`{"other":1}`), 0o644)
	if _, err := rollout.LoadStressReport(p); err == nil || !strings.Contains(err.Error(), "no verdict") {
		t.Fatalf("no verdict: %v", err)
	}
	if _, err := rollout.LoadStressReport(filepath.Join(dir, "missing.json")); err == nil {
		t.Fatal("missing file")
	}
}
