package stress

import (
	"context"
	"fmt"
	"io"
	"net/url"
	"os"

	"github.com/osctl/osctl/internal/cli/cmdutil"
	"github.com/osctl/osctl/internal/cli/output"
	"github.com/osctl/osctl/pkg/redact"
	"github.com/osctl/osctl/pkg/stress/attack"
	"github.com/osctl/osctl/pkg/stress/history"
	"github.com/osctl/osctl/pkg/stress/profile"
)

// OpenStudioCleanupResult is what cleanup of an openstudio run did (or would do).
type OpenStudioCleanupResult struct {
	Run    string `json:"run"`
	DryRun bool   `json:"dry_run"`
	// Target is the server the analyses were deleted through; empty when it is the sandbox
	// (whose records go with its state directory) or no target was reachable.
	Target   string                     `json:"target,omitempty"`
	Analyses []profile.AnalysisDeletion `json:"analyses"`
	Removed  []string                   `json:"removed"`
	Files    int                        `json:"files"`
}

// cleanupOpenStudio deletes an openstudio run's analyses through the server's API (unless the
// target is the sandbox) and removes the run's files from the volume: DELETE leaves the result
// files, and removes the extraction only later, in a background job.
func cleanupOpenStudio(ctx context.Context, o *CleanupOptions, h *history.History) error {
	if o.StateDir == "" {
		return cmdutil.Usage("an openstudio run's files are on the volume: pass --state-dir DIR, its root on this machine")
	}
	if fi, err := os.Stat(o.StateDir); err != nil || !fi.IsDir() {
		return cmdutil.Usage("--state-dir %s is not a directory", o.StateDir)
	}
	base, err := cleanupTarget(o, h)
	if err != nil {
		return err
	}
	client := attack.NewClient(4, o.Timeout)
	defer client.CloseIdleConnections()
	res := OpenStudioCleanupResult{Run: h.Header.Run, DryRun: true, Analyses: []profile.AnalysisDeletion{}}
	t := profile.Probe(ctx, client, base)
	if !t.Reachable {
		return fmt.Errorf("target %s is not reachable: %s (pass --target URL of the server the run used)", base.Redacted(), redact.Text(t.ProbeErr))
	}
	ids := runAnalyses(h)
	if !t.Status.Sandbox {
		res.Target = base.Redacted()
		// Look first (a dry run of the deletion): what exists, what is already gone.
		res.Analyses = profile.DeleteAnalyses(ctx, client, base, ids, true)
	}
	dirs, files, err := RunDirs(o.StateDir, h.Header.Run)
	if err != nil {
		return fmt.Errorf("listing run %s: %v", h.Header.Run, err)
	}
	res.Removed, res.Files = append([]string{}, dirs...), files
	show := func() error {
		return output.Print(o.IO.Out, o.Format, res, func(w io.Writer) error { return printOpenStudioCleanup(w, res) })
	}
	toDelete := 0
	for _, d := range res.Analyses {
		if d.Result == profile.DeleteDeleted {
			toDelete++
		}
	}
	if o.DryRun || (toDelete == 0 && len(dirs) == 0) {
		res.DryRun = o.DryRun
		return show()
	}
	q := fmt.Sprintf("Remove %d directories (%d files) of stress run %s under %s?", len(dirs), files, h.Header.Run, o.StateDir)
	if res.Target != "" {
		q = fmt.Sprintf("Delete %d analyses of stress run %s through %s, and remove %d directories (%d files) under %s?", toDelete, h.Header.Run, res.Target, len(dirs), files, o.StateDir)
	}
	if err := cmdutil.Confirm(o.IO, o.Yes, q); err != nil {
		return err
	}
	res.DryRun = false
	failed := 0
	if res.Target != "" {
		res.Analyses = profile.DeleteAnalyses(ctx, client, base, ids, false)
		for _, d := range res.Analyses {
			if d.Result == profile.DeleteFailed {
				failed++
			}
		}
	}
	for i, d := range dirs {
		if err := os.RemoveAll(d); err != nil {
			res.Removed = dirs[:i]
			_ = show()
			return fmt.Errorf("removing %s: %v (what is listed above was done)", d, err)
		}
	}
	if err := show(); err != nil {
		return err
	}
	if failed > 0 {
		return fmt.Errorf("%d of %d analyses were not deleted (listed above); run cleanup again to retry", failed, len(ids))
	}
	return nil
}

// cleanupTarget is the server to delete through: --target, else the run's first target (which the
// history keeps without its password).
func cleanupTarget(o *CleanupOptions, h *history.History) (*url.URL, error) {
	raw := o.Target
	if raw == "" {
		if len(h.Header.Targets) == 0 {
			return nil, cmdutil.Usage("the history names no target: pass --target URL")
		}
		raw = h.Header.Targets[0]
		if u, err := url.Parse(raw); err == nil && u.User != nil {
			return nil, cmdutil.Usage("the history keeps target %s without its password: pass --target URL", raw)
		}
	}
	us, err := profile.ParseTargets([]string{raw})
	if err != nil {
		return nil, cmdutil.Usage("--target: %v", err)
	}
	return us[0], nil
}

// runAnalyses are the analyses whose create was acknowledged or ambiguous: those that may exist.
func runAnalyses(h *history.History) []string {
	var ids []string
	seen := map[string]bool{}
	for _, r := range h.Records {
		if r.Kind != history.KindRequest || r.Op != history.OpCreateAnalysis || !r.Maybe() {
			continue
		}
		id := r.ID
		if r.Returned != "" {
			id = r.Returned
		}
		if !seen[id] {
			seen[id] = true
			ids = append(ids, id)
		}
	}
	return ids
}

func printOpenStudioCleanup(w io.Writer, r OpenStudioCleanupResult) error {
	verb, del := "removed", "deleted"
	if r.DryRun {
		verb, del = "would remove", "would delete"
	}
	n := 0
	for _, d := range r.Analyses {
		switch d.Result {
		case profile.DeleteAlreadyGone:
			fmt.Fprintf(w, "analysis %s is already gone (GET answered {\"analysis\":null})\n", d.ID)
		case profile.DeleteFailed:
			fmt.Fprintf(w, "analysis %s not deleted: %s\n", d.ID, d.Error)
		default:
			n++
			fmt.Fprintf(w, "%s analysis %s through %s\n", del, d.ID, r.Target)
		}
	}
	for _, d := range r.Removed {
		fmt.Fprintf(w, "%s %s\n", verb, d)
	}
	if r.Target != "" {
		fmt.Fprintf(w, "run %s: %s %d analyses through the API; ", r.Run, del, n)
	} else {
		fmt.Fprintf(w, "run %s: ", r.Run)
	}
	_, err := fmt.Fprintf(w, "%s %d directories (%d files)\n", verb, len(r.Removed), r.Files)
	return err
}
