package stress

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/osctl/osctl/internal/cli/cmdutil"
	"github.com/osctl/osctl/internal/cli/output"
	"github.com/osctl/osctl/pkg/stress/profile"
)

// CleanupOptions are the flags of `osctl stress cleanup`.
type CleanupOptions struct {
	IO       *cmdutil.IOStreams
	Run      string
	StateDir string
	DryRun   bool
	Yes      bool
	Format   output.Format
	// A run's history (cleanup_jobs.go): the run id, profile and targets come from it.
	History string
	Headers []string
	Timeout time.Duration
	Target  string
}

// CleanupResult lists what cleanup removed (or would remove).
type CleanupResult struct {
	Run     string   `json:"run"`
	DryRun  bool     `json:"dry_run"`
	Removed []string `json:"removed"`
	Files   int      `json:"files"`
}

// NewCmdCleanup builds `osctl stress cleanup`.
func NewCmdCleanup(f *cmdutil.Factory, runF func(context.Context, *CleanupOptions) error) *cobra.Command {
	o := &CleanupOptions{IO: f.IO}
	cmd := &cobra.Command{
		Use:   "cleanup --run ID --state-dir DIR | --history FILE [--state-dir DIR]",
		Short: "Remove what one stress run left: its analyses and files, or a jobs run's jobs",
		Long: `cleanup removes the directories of one stress run's own objects: the analyses and data
point result directories whose names carry the run id (osctl stress prints it, and it is in the
report and history). Nothing else on the volume is touched. It asks before removing (or pass
--yes); --dry-run lists what would go. Records in the server's database are not removed.

With --history FILE of an openstudio run and --state-dir DIR, cleanup also deletes the run's
analyses through the server's API (DELETE /analyses/:id.json; --target URL, else the run's
first target), unless the target is the sandbox. An analysis whose GET answers
{"analysis":null} is reported as already gone and is not sent a DELETE. The files are still
removed from the volume itself: DELETE leaves the result files, and removes the extraction only
later, in a background job.

With --history FILE of a jobs run, cleanup deletes the run's jobs through the job API
(DELETE /v1/jobs/{id}), each on the replica that accepted it, then checks that each answers
404. The token goes in --header 'X-ELB-API-Token: TOKEN', as for the run.`,
		Example: `  osctl stress cleanup --run 1a2b3c4d --state-dir /mnt/openstudio --dry-run
  osctl stress cleanup --run 1a2b3c4d --state-dir /mnt/openstudio --yes
  osctl stress cleanup --history run.jsonl --state-dir /mnt/openstudio --target http://web:8080 --dry-run
  osctl stress cleanup --history jobs-run.jsonl --header 'X-ELB-API-Token: TOKEN' --dry-run`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if o.History != "" {
				return cleanupHistory(cmd.Context(), f, o)
			}
			if !profile.ValidRunID(o.Run) {
				return cmdutil.Usage("--run %q: pass the run id, 8 hex digits (in the run's report as \"run\")", o.Run)
			}
			if o.StateDir == "" {
				return cmdutil.Usage("pass --state-dir DIR, the volume's root")
			}
			if runF != nil {
				return runF(cmd.Context(), o)
			}
			return cleanupRun(cmd.Context(), o)
		},
	}
	cmd.Flags().StringVar(&o.Run, "run", "", "the run id whose objects to remove")
	cmd.Flags().StringVar(&o.StateDir, "state-dir", "", "the shared volume's root on this machine")
	cmd.Flags().BoolVar(&o.DryRun, "dry-run", false, "list what would be removed, remove nothing")
	cmd.Flags().BoolVar(&o.Yes, "yes", false, "remove without asking")
	addCleanupHistoryFlags(cmd, o)
	output.AddFlag(cmd, &o.Format)
	return cmd
}

// RunDirs returns the directories of run's objects under the volume root: analysis assets and
// extractions named with the run id, and result directories all of whose files carry it.
func RunDirs(root, run string) ([]string, int, error) {
	var dirs []string
	files := 0
	for _, parent := range []string{"server/assets/analyses", "server/analyses"} {
		ents, err := os.ReadDir(filepath.Join(root, parent))
		if err != nil && !os.IsNotExist(err) {
			return nil, 0, err
		}
		for _, e := range ents {
			if e.IsDir() && strings.HasPrefix(e.Name(), run+"-") {
				d := filepath.Join(root, parent, e.Name())
				dirs = append(dirs, d)
				files += countFiles(d)
			}
		}
	}
	rp := filepath.Join(root, "server/assets/data_points")
	ents, err := os.ReadDir(rp)
	if err != nil && !os.IsNotExist(err) {
		return nil, 0, err
	}
	for _, e := range ents {
		if !e.IsDir() {
			continue
		}
		orig := filepath.Join(rp, e.Name(), "files", "original")
		fs, err := os.ReadDir(orig)
		if err != nil || len(fs) == 0 {
			continue
		}
		owned := true
		for _, f := range fs {
			if !strings.HasPrefix(f.Name(), "osctl-"+run+"-") {
				owned = false
				break
			}
		}
		if owned {
			d := filepath.Join(rp, e.Name())
			dirs = append(dirs, d)
			files += countFiles(d)
		}
	}
	sort.Strings(dirs)
	return dirs, files, nil
}

func countFiles(d string) int {
	n := 0
	_ = filepath.WalkDir(d, func(_ string, de os.DirEntry, err error) error {
		if err == nil && !de.IsDir() {
			n++
		}
		return nil
	})
	return n
}

func cleanupRun(_ context.Context, o *CleanupOptions) error {
	if fi, err := os.Stat(o.StateDir); err != nil || !fi.IsDir() {
		return fmt.Errorf("--state-dir %s is not a directory", o.StateDir)
	}
	dirs, files, err := RunDirs(o.StateDir, o.Run)
	if err != nil {
		return fmt.Errorf("listing run %s: %v", o.Run, err)
	}
	res := CleanupResult{Run: o.Run, DryRun: o.DryRun, Removed: dirs, Files: files}
	if res.Removed == nil {
		res.Removed = []string{}
	}
	if len(dirs) > 0 && !o.DryRun {
		if err := cmdutil.Confirm(o.IO, o.Yes, fmt.Sprintf("Remove %d directories (%d files) of stress run %s under %s?", len(dirs), files, o.Run, o.StateDir)); err != nil {
			return err
		}
		for i, d := range dirs {
			if err := os.RemoveAll(d); err != nil {
				res.Removed = dirs[:i]
				_ = output.Print(o.IO.Out, o.Format, res, func(w io.Writer) error { return printCleanup(w, res) })
				return fmt.Errorf("removing %s: %v (the directories listed above were removed)", d, err)
			}
		}
	}
	return output.Print(o.IO.Out, o.Format, res, func(w io.Writer) error { return printCleanup(w, res) })
}

func printCleanup(w io.Writer, r CleanupResult) error {
	verb := "removed"
	if r.DryRun {
		verb = "would remove"
	}
	for _, d := range r.Removed {
		fmt.Fprintf(w, "%s %s\n", verb, d)
	}
	_, err := fmt.Fprintf(w, "run %s: %s %d directories (%d files)\n", r.Run, verb, len(r.Removed), r.Files)
	return err
}
