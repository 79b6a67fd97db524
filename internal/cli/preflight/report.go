package preflight

import (
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/osctl/osctl/internal/cli/cmdutil"
	"github.com/osctl/osctl/internal/cli/output"
	"github.com/osctl/osctl/pkg/preflight"
)

// Item is one check's result in a report, tagged with the check that produced it.
type Item struct {
	Check string `json:"check"`
	preflight.Result
}

// Skip says which check did not run and why.
type Skip struct {
	Check  string `json:"check"`
	Reason string `json:"reason"`
}

// Report is what every preflight command prints.
type Report struct {
	Results []Item            `json:"results"`
	Skipped []Skip            `json:"skipped,omitempty"`
	Errors  []Skip            `json:"errors,omitempty"`
	Summary preflight.Summary `json:"summary"`
}

// Common are the flags every preflight command shares.
type Common struct {
	Format     output.Format
	JUnit      string
	ConfigPath string
	Config     *preflight.Config
}

func (c *Common) loadConfig() error {
	if c.ConfigPath == "" || c.Config != nil {
		return nil
	}
	cfg, err := preflight.LoadConfig(c.ConfigPath)
	if err != nil {
		return cmdutil.Usage("--config: %v", err)
	}
	c.Config = cfg
	return nil
}

func (r *Report) add(check string, rs []preflight.Result) {
	for _, x := range rs {
		r.Results = append(r.Results, Item{Check: check, Result: x})
	}
}

// check adds a check's results, or, when err says it could not run, that error, which it
// returns.
func (r *Report) check(name string, rs []preflight.Result, err error) error {
	if err != nil {
		r.Errors = append(r.Errors, Skip{Check: name, Reason: err.Error()})
		return err
	}
	r.add(name, rs)
	return nil
}

// runOne prints the report of the one check name: its results, or the error that kept it from
// running.
func runOne(streams *cmdutil.IOStreams, c *Common, name string, rs []preflight.Result, err error) error {
	r := &Report{}
	return finish(streams, c, r, r.check(name, rs, err))
}

func (r *Report) results() []preflight.Result {
	out := make([]preflight.Result, len(r.Results))
	for i, it := range r.Results {
		out[i] = it.Result
	}
	return out
}

// finish prints the report, writes the JUnit file, and returns the error that sets the exit
// code: a could-not-run error (exit 2) wins over a FAIL (exit 1).
func finish(streams *cmdutil.IOStreams, c *Common, r *Report, runErr error) error {
	r.Summary = preflight.Summarize(r.results())
	if r.Results == nil {
		r.Results = []Item{}
	}
	// A table with nothing in it but the error would repeat the error line Main prints.
	onlyErr := len(r.Results) == 0 && len(r.Skipped) == 0 && runErr != nil && c.Format.IsTable()
	if !onlyErr {
		if err := output.Print(streams.Out, c.Format, r, func(w io.Writer) error { return printTable(w, r) }); err != nil {
			return err
		}
	}
	if c.JUnit != "" {
		if err := writeJUnit(c.JUnit, r); err != nil {
			return fmt.Errorf("writing --junit %s: %v", c.JUnit, err)
		}
	}
	if runErr != nil {
		return runErr
	}
	if r.Summary.Failed {
		return cmdutil.ErrSilentFound
	}
	return nil
}

func writeJUnit(path string, r *Report) error {
	var suites []preflight.Suite
	idx := map[string]int{}
	for _, it := range r.Results {
		i, ok := idx[it.Check]
		if !ok {
			i = len(suites)
			idx[it.Check] = i
			suites = append(suites, preflight.Suite{Name: it.Check})
		}
		suites[i].Results = append(suites[i].Results, it.Result)
	}
	for _, s := range r.Skipped {
		suites = append(suites, preflight.Suite{Name: s.Check, Results: []preflight.Result{{ID: s.Check, Status: preflight.Unknown, Message: "skipped: " + s.Reason}}})
	}
	for _, s := range r.Errors {
		suites = append(suites, preflight.Suite{Name: s.Check, Results: []preflight.Result{{ID: s.Check, Status: preflight.Fail, Message: "could not run: " + s.Reason}}})
	}
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := preflight.WriteJUnit(f, "osctl preflight", suites); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

func printTable(w io.Writer, r *Report) error {
	if len(r.Results) > 0 {
		t := output.NewTable(w, "STATUS", "CHECK", "ID", "SUBJECT", "MESSAGE")
		for _, it := range r.Results {
			if err := t.Append(strings.ToUpper(string(it.Status)), it.Check, it.ID, it.Subject, it.Message); err != nil {
				return err
			}
		}
		if err := t.Render(); err != nil {
			return err
		}
	}
	// Fixes, skips and errors wrap within a terminal's width; elsewhere each stays on one line.
	var fixes []string
	seen := map[string]bool{}
	for _, it := range r.Results {
		if it.Fix == "" || (it.Status != preflight.Fail && it.Status != preflight.Warn) {
			continue
		}
		k := it.ID + "\x00" + it.Fix
		if seen[k] {
			continue
		}
		seen[k] = true
		fixes = append(fixes, fmt.Sprintf("%s (%s): %s", it.ID, it.Subject, it.Fix))
	}
	if len(fixes) > 0 {
		fmt.Fprint(w, "\nFixes:\n")
		for _, f := range fixes {
			output.Fprintw(w, f, "  ", "      ")
		}
	}
	for _, s := range r.Skipped {
		output.Fprintw(w, fmt.Sprintf("skipped %s: %s", s.Check, s.Reason), "", "  ")
	}
	for _, s := range r.Errors {
		output.Fprintw(w, fmt.Sprintf("could not run %s: %s", s.Check, s.Reason), "", "  ")
	}
	s := r.Summary
	verdict := "PASS"
	switch {
	case len(r.Errors) > 0:
		verdict = "COULD NOT RUN"
	case s.Failed:
		verdict = "FAIL"
	case s.Warn > 0:
		verdict = "PASS with warnings"
	}
	_, err := fmt.Fprintf(w, "\n%s: %d fail, %d warn, %d unknown, %d info, %d pass\n", verdict, s.Fail, s.Warn, s.Unknown, s.Info, s.Pass)
	return err
}
