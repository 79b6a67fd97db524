package rollout

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/osctl/osctl/pkg/preflight"
)

// GateResult is one run of one gate.
type GateResult struct {
	Gate     string             `json:"gate"`
	Status   preflight.Status   `json:"status"` // pass, warn or fail
	Message  string             `json:"message"`
	Value    string             `json:"value,omitempty"` // what a PromQL gate's query returned
	Details  []preflight.Result `json:"details,omitempty"`
	At       time.Time          `json:"at"`
	Duration time.Duration      `json:"duration"`
}

// Failed reports whether the gate failed.
func (r GateResult) Failed() bool { return r.Status == preflight.Fail }

// Gate is a check that must keep passing while a step holds.
type Gate interface {
	// Name is the gate's short name (nfs, locks, pods, http, cmd, prom-1, ...).
	Name() string
	// Check runs the gate once. A gate that cannot be evaluated fails: a rollout does not go on
	// without evidence.
	Check(ctx context.Context) GateResult
}

// ResultsGate turns a check that returns preflight results (the NFS preflight, the Redis
// preflight) into a gate that fails when any result fails or the check errors.
type ResultsGate struct {
	GateName string
	Run      func(ctx context.Context) ([]preflight.Result, error)
}

// Name implements Gate.
func (g *ResultsGate) Name() string { return g.GateName }

// Check implements Gate.
func (g *ResultsGate) Check(ctx context.Context) GateResult {
	rs, err := g.Run(ctx)
	res := GateResult{Gate: g.GateName, Details: rs}
	if err != nil {
		res.Status, res.Message = preflight.Fail, "could not run: "+err.Error()
		return res
	}
	return summarize(res, rs)
}

func summarize(res GateResult, rs []preflight.Result) GateResult {
	var fails, warns []string
	for _, r := range rs {
		switch r.Status {
		case preflight.Fail:
			fails = append(fails, oneLine(r))
		case preflight.Warn:
			warns = append(warns, oneLine(r))
		}
	}
	switch {
	case len(fails) > 0:
		res.Status, res.Message = preflight.Fail, strings.Join(fails, "; ")
	case len(warns) > 0:
		res.Status, res.Message = preflight.Warn, strings.Join(warns, "; ")
	default:
		res.Status, res.Message = preflight.Pass, fmt.Sprintf("%d checks pass", len(rs))
	}
	return res
}

func oneLine(r preflight.Result) string {
	s := r.ID
	if r.Subject != "" {
		s += " " + r.Subject
	}
	return s + ": " + r.Message
}

// runGates runs every gate once, concurrently, each bounded by timeout, and returns the results
// in the gates' order.
func runGates(ctx context.Context, gates []Gate, timeout time.Duration, now func() time.Time) []GateResult {
	out := make([]GateResult, len(gates))
	var wg sync.WaitGroup
	for i, g := range gates {
		wg.Add(1)
		go func() {
			defer wg.Done()
			gctx, cancel := context.WithTimeout(ctx, timeout)
			defer cancel()
			start := now()
			r := g.Check(gctx)
			r.Gate, r.At, r.Duration = g.Name(), start.UTC(), now().Sub(start)
			if r.Status == "" {
				r.Status = preflight.Fail
				r.Message = "gate returned no status"
			}
			if gctx.Err() != nil && ctx.Err() == nil && r.Status != preflight.Pass {
				r.Status, r.Message = preflight.Fail, fmt.Sprintf("did not finish within %s: %s", timeout, r.Message)
			}
			out[i] = r
		}()
	}
	wg.Wait()
	return out
}
