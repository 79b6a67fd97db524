package rollout

import (
	"github.com/osctl/osctl/pkg/setting"

	"github.com/osctl/osctl/pkg/redact"
)

// Masked returns the gate config as the journal keeps it: a credential in the HTTP gate's URL, in
// the gate command (a URL password, token=, password=, a bearer token) or in the Prometheus URL
// is masked, and marked so that resume asks for the flag again.
func (g GateConfig) Masked() GateConfig {
	g.Prom.Queries = append([]string(nil), g.Prom.Queries...)
	if m := redact.Text(g.Prom.URL); m != g.Prom.URL {
		g.Prom.URL, g.Prom.URLMasked = m, true
	}
	if m := redact.Text(g.HTTP); m != g.HTTP {
		g.HTTP, g.HTTPMasked = m, true
	}
	if m := redact.Text(g.Cmd); m != g.Cmd {
		g.Cmd, g.CmdMasked = m, true
	}
	return g
}

// Again is what resume is given again: the HTTP gate's URL, the command gate and the Prometheus
// URL (empty: not given).
type Again struct {
	HTTP, Cmd, Prometheus string
}

// Given returns the gate config with the flags given again on resume. A masked one must be
// given, and a given one must be the rollout's own (the same once masked): resume runs the
// gates the rollout started with.
func (g GateConfig) Given(a Again) (GateConfig, error) {
	var err error
	if g.HTTP, err = given("Again.HTTP", g.HTTP, a.HTTP, g.HTTPMasked); err != nil {
		return g, err
	}
	if g.Cmd, err = given("Again.Cmd", g.Cmd, a.Cmd, g.CmdMasked); err != nil {
		return g, err
	}
	if a.Prometheus != "" && len(g.Prom.Queries) == 0 {
		return g, setting.Errorf("Again.Prometheus", "is given but the rollout has no PromQL gate")
	}
	if g.Prom.URL, err = given("Again.Prometheus", g.Prom.URL, a.Prometheus, g.Prom.URLMasked); err != nil {
		return g, err
	}
	g.HTTPMasked, g.CmdMasked, g.Prom.URLMasked = false, false, false
	return g, nil
}

func given(name, stored, again string, masked bool) (string, error) {
	switch {
	case again == "" && masked:
		return "", setting.Errorf(name, ": the rollout's gate held a credential and the journal keeps it masked (%q): give the same one again", stored)
	case again == "":
		return stored, nil
	case redact.Text(again) != stored:
		return "", setting.Errorf(name, "%q is not the rollout's gate (%q): resume runs the gates the rollout started with", redact.Text(again), stored)
	}
	return again, nil
}
