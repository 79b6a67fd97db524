package locks

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/spf13/cobra"

	"github.com/osctl/osctl/internal/cli/cmdutil"
	"github.com/osctl/osctl/internal/cli/output"
	"github.com/osctl/osctl/pkg/lock/files"
)

// FilesOptions are the inputs of `osctl locks files`.
type FilesOptions struct {
	Env
	Format output.Format
	Root   string
	Names  []string
	MinAge time.Duration
	Delete bool
	DryRun bool
	Yes    bool
	// ExtractorsStopped is the operator's word that no extractor can open the lock files.
	ExtractorsStopped bool
}

// FilesReport is the -o json|yaml result of `osctl locks files`.
type FilesReport struct {
	Root     string          `json:"root"`
	Files    []files.File    `json:"files"`
	Removals []files.Removal `json:"removals,omitempty"`
	Warnings []string        `json:"warnings,omitempty"`
}

// NewCmdFiles builds `osctl locks files`.
func NewCmdFiles(f *cmdutil.Factory, runF func(context.Context, *FilesOptions) error) *cobra.Command {
	opts := &FilesOptions{Env: envOf(f)}
	cmd := &cobra.Command{
		Use:   "files --root DIR [--delete]",
		Short: "Find (and remove) stale lock files on the shared volume",
		Long: `OpenStudio Server takes a flock on <analysis_dir>/analysis_zip.lock while it extracts an analysis zip
and writes analysis_zip.receipt when done. A lock file without its receipt that nobody holds and
that has not changed for --min-age is debris of an extraction that died: it is listed as stale.
One flocked right now is listed as held (an extraction in progress) and never removed.

--delete removes the stale ones (asking first on a terminal; --yes for scripts), each only after
checking, with the file open and flocked, that it is the file that was listed (same inode, size
and modification time), that no receipt appeared, that nobody holds its flock and that no other
process on this machine has it open. Exit 1 when stale files are found and not removed.

Removing a flock lock file is not safe while an extractor may run: OpenStudio's extractor opens
analysis_zip.lock, then flocks it, and never checks afterwards that the path still names the file
it locked. One caught between the two when the file goes would lock the removed file while the
next extractor creates a new one: two extractions at once. No check can see that from another NFS
client, so --delete removes nothing unless --extractors-stopped says that every extractor (the
analysis_wrappers Resque worker of every web pod) is stopped; --delete --dry-run runs every check
without it.`,
		Example: `  osctl locks files --root /mnt/openstudio/server/analyses
  osctl locks files --root /mnt/openstudio --min-age 1h -o json
  osctl locks files --root /mnt/openstudio --delete --dry-run
  osctl locks files --root /mnt/openstudio --delete --extractors-stopped --yes`,
		Args: cobra.NoArgs,
		RunE: cmdutil.RunE(opts, func(cmd *cobra.Command, args []string) error {
			return opts.validate()
		}, runF, filesRun),
	}
	fl := cmd.Flags()
	fl.StringVar(&opts.Root, "root", "", "directory to search (symbolic links are not followed)")
	fl.StringArrayVar(&opts.Names, "name", nil, "lock file name glob (repeatable; default analysis_zip.lock); the receipt of X.lock is X.receipt")
	fl.DurationVar(&opts.MinAge, "min-age", files.DefaultMinAge, "a lock file changed more recently than this is not stale (0: no minimum)")
	fl.BoolVar(&opts.Delete, "delete", false, "remove the stale lock files")
	fl.BoolVar(&opts.DryRun, "dry-run", false, "with --delete: run every check, remove nothing")
	fl.BoolVarP(&opts.Yes, "yes", "y", false, "do not ask for confirmation (for scripts)")
	fl.BoolVar(&opts.ExtractorsStopped, "extractors-stopped", false, "with --delete: every process that extracts analyses, on every NFS client, is stopped (without it --delete removes nothing)")
	output.AddFlag(cmd, &opts.Format)
	return cmd
}

// validate checks the flags and arguments; it does no I/O.
func (o *FilesOptions) validate() error {
	if o.Root == "" {
		return cmdutil.Usage("--root DIR is required: the shared volume's directory to search, e.g. /mnt/openstudio")
	}
	if o.MinAge < 0 {
		return cmdutil.Usage("--min-age must not be negative")
	}
	if o.DryRun && !o.Delete {
		return cmdutil.Usage("--dry-run goes with --delete")
	}
	if o.ExtractorsStopped && !o.Delete {
		return cmdutil.Usage("--extractors-stopped goes with --delete")
	}
	if o.Delete && !o.DryRun && !o.ExtractorsStopped {
		return cmdutil.Usage("--delete needs --extractors-stopped: " + files.UnsafeRemoval +
			". Stop every extractor (the analysis_wrappers Resque worker of every web pod), then pass --extractors-stopped; --delete --dry-run checks without it (nothing was removed)")
	}
	return nil
}

func filesRun(ctx context.Context, opts *FilesOptions) error {
	if err := cmdutil.NeedsLinux("locks files", "it takes the lock files' flocks as OpenStudio's extraction does, through a Linux NFS client; run it where the volume is mounted (a web pod: kubectl exec POD -- osctl locks files --root DIR)"); err != nil {
		return err
	}
	f := opts.Env
	minAge := opts.MinAge
	if minAge == 0 {
		minAge = -1
	}
	rep := FilesReport{Root: opts.Root, Files: []files.File{}}
	warnings, err := files.Find(ctx, files.Options{Root: opts.Root, Names: opts.Names, MinAge: minAge, Now: f.Now}, func(lf files.File) error {
		rep.Files = append(rep.Files, lf)
		return nil
	})
	if err != nil {
		return err
	}
	rep.Warnings = warnings
	for _, w := range warnings {
		warn(f, "%s", w)
	}
	stale := 0
	for _, lf := range rep.Files {
		if lf.Status == files.StatusStale {
			stale++
		}
	}
	if opts.Delete && stale > 0 {
		if !opts.DryRun {
			if err := printFiles(f, opts.Format, FilesReport{Root: rep.Root, Files: rep.Files}, true); err != nil {
				return err
			}
			if err := cmdutil.Confirm(f.IO, opts.Yes, fmt.Sprintf("Remove %d stale lock file(s) under %s?", stale, opts.Root)); err != nil {
				return err
			}
		}
		for _, lf := range rep.Files {
			if lf.Status == files.StatusStale {
				rep.Removals = append(rep.Removals, files.Remove(ctx, lf, files.RemoveOptions{DryRun: opts.DryRun, ExtractorsStopped: opts.ExtractorsStopped}))
			}
		}
	}
	if err := printFiles(f, opts.Format, rep, false); err != nil {
		return err
	}
	removed := 0
	for _, r := range rep.Removals {
		switch r.Result {
		case files.ResultRemoved, files.ResultGone:
			removed++
		}
		if r.Result == files.ResultRemoved {
			fmt.Fprintf(f.IO.ErrOut, "removed %s\n", r.Path)
		}
	}
	switch {
	case len(rep.Files) == 0:
		fmt.Fprintf(f.IO.ErrOut, "no lock file without its receipt older than %v under %s\n", opts.MinAge, opts.Root)
	case opts.DryRun:
		fmt.Fprintln(f.IO.ErrOut, "dry run: nothing was removed")
	case opts.Delete:
		fmt.Fprintf(f.IO.ErrOut, "%d of %d stale lock file(s) removed\n", removed, stale)
	}
	if stale > removed {
		return cmdutil.ErrSilentFound
	}
	return nil
}

// printFiles prints the listing; with planOnly (before the confirmation) it goes to stderr.
func printFiles(f Env, format output.Format, rep FilesReport, planOnly bool) error {
	w := f.IO.Out
	if planOnly {
		w, format = f.IO.ErrOut, output.Table
	}
	return output.Print(w, format, rep, func(w io.Writer) error {
		removal := map[string]files.Removal{}
		for _, r := range rep.Removals {
			removal[r.Path] = r
		}
		if len(rep.Files) == 0 {
			return nil
		}
		headers := []string{"PATH", "STATUS", "AGE", "SIZE", "MODIFIED"}
		if len(rep.Removals) > 0 {
			headers = append(headers, "RESULT", "DETAIL")
		}
		t := output.NewTable(w, headers...)
		for _, lf := range rep.Files {
			row := []any{escape(lf.Path), lf.Status, lf.Age().String(), lf.Size, lf.ModTime.Format(time.RFC3339)}
			if len(rep.Removals) > 0 {
				r, ok := removal[lf.Path]
				if !ok {
					r = files.Removal{Result: "-"}
				}
				row = append(row, r.Result, r.Detail)
			}
			if err := t.Append(row); err != nil {
				return err
			}
		}
		return t.Render()
	})
}
