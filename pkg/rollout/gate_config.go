package rollout

import (
	"fmt"

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

// Again is what resume is given again: the --gate-http URL, the --gate-cmd and the --prometheus
// URL (empty: not given).
type Again struct {
	HTTP, Cmd, Prometheus string
}

// Given returns the gate config with the flags given again on resume. A masked one must be
// given, and a given one must be the rollout's own (the same once masked): resume runs the
// gates the rollout started with.
func (g GateConfig) Given(a Again) (GateConfig, error) {
	var err error
	if g.HTTP, err = given("--gate-http", g.HTTP, a.HTTP, g.HTTPMasked); err != nil {
		return g, err
	}
	if g.Cmd, err = given("--gate-cmd", g.Cmd, a.Cmd, g.CmdMasked); err != nil {
		return g, err
	}
	if a.Prometheus != "" && len(g.Prom.Queries) == 0 {
		return g, fmt.Errorf("--prometheus is given but the rollout has no --gate-prom gate")
	}
	if g.Prom.URL, err = given("--prometheus", g.Prom.URL, a.Prometheus, g.Prom.URLMasked); err != nil {
		return g, err
	}
	g.HTTPMasked, g.CmdMasked, g.Prom.URLMasked = false, false, false
	return g, nil
}

func given(flag, stored, again string, masked bool) (string, error) {
	switch {
	case again == "" && masked:
		return "", fmt.Errorf("the rollout's %s held a credential and the journal keeps it masked (%q): pass the same %s again", flag, stored, flag)
	case again == "":
		return stored, nil
	case redact.Text(again) != stored:
		return "", fmt.Errorf("%s %q is not the rollout's gate (%q): resume runs the gates the rollout started with", flag, redact.Text(again), stored)
	}
	return again, nil
}
