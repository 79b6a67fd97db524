package rollout

import (
	"fmt"

	"github.com/osctl/osctl/pkg/redact"
)

// Masked returns the gate config as the journal keeps it: a credential in the HTTP gate's URL or
// in the gate command (a URL password, token=, password=, a bearer token) is masked, and marked
// so that resume asks for the flag again.
func (g GateConfig) Masked() GateConfig {
	if m := redact.Text(g.HTTP); m != g.HTTP {
		g.HTTP, g.HTTPMasked = m, true
	}
	if m := redact.Text(g.Cmd); m != g.Cmd {
		g.Cmd, g.CmdMasked = m, true
	}
	return g
}

// Given returns the gate config with the --gate-http URL and --gate-cmd given again on resume
// (empty: not given). A masked one must be given, and a given one must be the rollout's own
// (the same once masked): resume runs the gates the rollout started with.
func (g GateConfig) Given(httpURL, cmd string) (GateConfig, error) {
	var err error
	if g.HTTP, err = given("--gate-http", g.HTTP, httpURL, g.HTTPMasked); err != nil {
		return g, err
	}
	if g.Cmd, err = given("--gate-cmd", g.Cmd, cmd, g.CmdMasked); err != nil {
		return g, err
	}
	g.HTTPMasked, g.CmdMasked = false, false
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
