package rollout

import (
	"context"
	"errors"
	"fmt"
	"math"
	"sort"
	"strings"
	"time"

	"github.com/osctl/osctl/pkg/setting"

	v1 "github.com/prometheus/client_golang/api/prometheus/v1"
	"github.com/prometheus/common/model"

	"github.com/osctl/osctl/pkg/preflight"
	"github.com/osctl/osctl/pkg/redact"
)

// maxShownSamples bounds the samples a PromQL gate's message lists.
const maxShownSamples = 5

// PromGate passes when its PromQL query returns at least one sample and no sample is 0 or NaN.
// Conditions are written with bool (`x < bool 0.01`), so that a false condition returns 0
// rather than nothing. An empty result fails with "no data", unless NoDataPasses.
type PromGate struct {
	GateName     string // prom-1, prom-2, ... (PromGateName)
	Query        string
	API          v1.API
	NoDataPasses bool   // --gate-prom-no-data pass
	Server       string // the Prometheus server as shown (ServerOf: scheme and host), for messages
}

// PromGateName is the name of the i-th (0-based) PromQL gate.
func PromGateName(i int) string { return fmt.Sprintf("prom-%d", i+1) }

// Name implements Gate.
func (g *PromGate) Name() string { return g.GateName }

// Check implements Gate: one instant query at the server's time.
func (g *PromGate) Check(ctx context.Context) GateResult {
	var opts []v1.Option
	if dl, ok := ctx.Deadline(); ok {
		// Prometheus stops the query itself once the gate's time is up. It reads whole units
		// ("9s"), not Go's "9.99s".
		if left := time.Until(dl).Truncate(time.Second); left > 0 {
			opts = append(opts, v1.WithTimeout(left))
		}
	}
	val, warns, _, err := g.API.Query(ctx, g.Query, time.Time{}, opts...)
	if err != nil {
		return GateResult{Status: preflight.Fail, Message: fmt.Sprintf("%q: %s", g.Query, g.explain(err))}
	}
	res := JudgeProm(val, g.NoDataPasses)
	res.Message = fmt.Sprintf("%q %s", g.Query, res.Message)
	if len(warns) > 0 {
		res.Message += " (Prometheus warns: " + redact.Text(strings.Join(warns, "; ")) + ")"
	}
	return res
}

// Probe checks, before the rollout changes anything, that Prometheus answers and that the query
// parses (the format_query API; a server without it runs the query once instead).
func (g *PromGate) Probe(ctx context.Context) error {
	_, err := g.API.FormatQuery(ctx, g.Query)
	var ae *v1.Error
	if errors.As(err, &ae) && ae.Type == v1.ErrClient && strings.Contains(ae.Msg, "404") {
		_, _, _, err = g.API.Query(ctx, g.Query, time.Time{})
		if errors.As(err, &ae) && ae.Type == v1.ErrExec {
			err = nil // it parsed, and failed as it ran: as format_query would have passed it, the gate judges it
		}
	}
	switch {
	case err == nil:
		return nil
	case errors.As(err, &ae) && ae.Type == v1.ErrBadData:
		return setting.Errorf("Prom.Queries", "%q: Prometheus %s rejects it: %s: fix the query (test it in Prometheus's expression browser)", g.Query, g.Server, redact.Text(ae.Msg))
	}
	return setting.Errorf("Prom.Queries", "%q: %s: check {Prom.URL}, {Prom.CAFile} and {Prom.BearerFile}", g.Query, g.explain(err))
}

// explain turns a query API error into one redacted line naming the server.
func (g *PromGate) explain(err error) string {
	var ae *v1.Error
	if errors.As(err, &ae) {
		msg := ae.Msg
		if d := firstLine(ae.Detail); d != "" && ae.Type != v1.ErrBadData && ae.Type != v1.ErrExec {
			msg += ": " + d
		}
		return fmt.Sprintf("Prometheus %s answered %s: %s", g.Server, ae.Type, redact.Text(msg))
	}
	if errors.Is(err, context.DeadlineExceeded) {
		return fmt.Sprintf("Prometheus %s did not answer in time", g.Server)
	}
	return fmt.Sprintf("Prometheus %s: %s", g.Server, maskOutput(unwrapURLError(err).Error()))
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(strings.TrimSpace(s), "\n")
	if len(s) > 200 {
		s = s[:200] + "..."
	}
	return s
}

// JudgeProm is the verdict on one query result, without the query in its message: pass when
// there is at least one sample and none is 0 or NaN. It does no I/O.
func JudgeProm(val model.Value, noDataPasses bool) GateResult {
	var samples []sample
	switch v := val.(type) {
	case model.Vector:
		for _, s := range v {
			samples = append(samples, sample{labels: labelsOf(s.Metric), v: float64(s.Value)})
		}
	case *model.Scalar:
		samples = append(samples, sample{v: float64(v.Value)})
	case model.Matrix:
		return GateResult{Status: preflight.Fail, Value: "a range vector",
			Message: "returned a range vector: a gate needs an instant vector or a scalar (a condition such as `sum(rate(x[1m])) < bool 0.01`)"}
	case nil:
	default:
		return GateResult{Status: preflight.Fail, Value: val.Type().String(),
			Message: fmt.Sprintf("returned a %s: a gate needs an instant vector or a scalar", val.Type())}
	}
	if len(samples) == 0 {
		if noDataPasses {
			return GateResult{Status: preflight.Warn, Value: "no data", Message: "returned no data (passes: no data is set to pass)"}
		}
		return GateResult{Status: preflight.Fail, Value: "no data",
			Message: "returned no data: a gate that sees no data does not pass a step (write the condition with bool, check the metric exists, or set no data to pass)"}
	}
	sort.SliceStable(samples, func(i, j int) bool { return samples[i].labels < samples[j].labels })
	shown := formatSamples(samples)
	var zero, nan int
	for _, s := range samples {
		switch {
		case math.IsNaN(s.v):
			nan++
		case s.v == 0:
			zero++
		}
	}
	if zero+nan == 0 {
		return GateResult{Status: preflight.Pass, Value: shown, Message: "returned " + shown}
	}
	var why []string
	if zero > 0 {
		why = append(why, fmt.Sprintf("%d of %d samples are 0 (the condition is false)", zero, len(samples)))
	}
	if nan > 0 {
		why = append(why, fmt.Sprintf("%d of %d samples are NaN", nan, len(samples)))
	}
	return GateResult{Status: preflight.Fail, Value: shown, Message: "returned " + shown + ": " + strings.Join(why, ", ")}
}

type sample struct {
	labels string // {a="b"}, "" without labels
	v      float64
}

func labelsOf(m model.Metric) string {
	if len(m) == 0 {
		return ""
	}
	return model.LabelSet(m).String()
}

// formatSamples lists the failing samples first, then the others, at most maxShownSamples.
func formatSamples(ss []sample) string {
	order := make([]sample, 0, len(ss))
	for _, s := range ss {
		if s.v == 0 || math.IsNaN(s.v) {
			order = append(order, s)
		}
	}
	for _, s := range ss {
		if s.v != 0 && !math.IsNaN(s.v) {
			order = append(order, s)
		}
	}
	var parts []string
	for i, s := range order {
		if i == maxShownSamples {
			parts = append(parts, fmt.Sprintf("and %d more", len(order)-i))
			break
		}
		v := model.SampleValue(s.v).String()
		if s.labels != "" {
			v = s.labels + " " + v
		}
		parts = append(parts, v)
	}
	return strings.Join(parts, ", ")
}

// Prober is a gate that can check, before a rollout changes anything, that it can be evaluated.
type Prober interface {
	Probe(ctx context.Context) error
}

// ProbeGates probes every gate that is a Prober, each bounded by timeout, and returns the
// problems on one line (nil when every one answered).
func ProbeGates(ctx context.Context, gates []Gate, timeout time.Duration) error {
	var errs []string
	for _, g := range gates {
		p, ok := g.(Prober)
		if !ok {
			continue
		}
		pctx, cancel := context.WithTimeout(ctx, timeout)
		err := p.Probe(pctx)
		cancel()
		if err != nil {
			errs = append(errs, fmt.Sprintf("gate %s: %v", g.Name(), err))
		}
	}
	if len(errs) == 0 {
		return nil
	}
	return errors.New(strings.Join(errs, "; "))
}
