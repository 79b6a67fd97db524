package locks

import (
	"context"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/osctl/osctl/internal/cli/cmdutil"
	"github.com/osctl/osctl/internal/cli/output"
	"github.com/osctl/osctl/pkg/lock/ops"
)

// BreakOptions are the inputs of `osctl locks break`.
type BreakOptions struct {
	Env
	Redis
	// ScanFlags are the scan of --stale (--pattern) and the retry window.
	ScanFlags
	Who     func() string
	Format  output.Format
	Keys    []string
	Stale   bool
	Force   bool
	DryRun  bool
	Yes     bool
	NoAudit bool
}

// NewCmdBreak builds `osctl locks break`.
func NewCmdBreak(f *cmdutil.Factory, runF func(context.Context, *BreakOptions) error) *cobra.Command {
	opts := &BreakOptions{Env: envOf(f), Redis: redisOf(f), Who: who}
	cmd := &cobra.Command{
		Use:   "break [KEY...] [--stale]",
		Short: "Delete stale Redis locks safely: re-check on every master, compare-and-delete, audit",
		Long: `Break the given lock keys, or with --stale every stale lock inspect finds. For each key it re-reads
every master, then deletes on each master with a Lua script that checks on the server, atomically,
that the value is still the one observed and that the stale condition still holds (a lock renewed
since has a TTL again and is not deleted; one whose TTL is above the one read minus the time
since was renewed, and is not deleted either). A lock that is not stale is refused, with the
reason, unless --force; a key that is not a lock (a hash, an osctl: key) is always refused. A
string with no TTL is a lock only when its value has a lock library's shape (osctl, redlock-rb,
redsync, or a worker id host:pid under a redlock:/analysis: lock key); any other (a session, a cache entry) is never selected by --stale and is broken only
when named with --force. A KEY that inspect prints quoted (it holds odd bytes) may be given as
printed, quotes included.

Every break is printed and appended to the stream osctl:audit on every reachable master (who,
when, key, value, masters, reason, result per master); --no-audit disables that. It asks before
deleting when run on a terminal; pass --yes in scripts. Exit 1 when a break was refused or not
(fully) done; exit 2 when it could not run.`,
		Example: `  osctl locks break --stale --dry-run
  osctl locks break --stale --yes
  osctl locks break 'redlock:6f1c...:extract' --force --yes`,
		RunE: cmdutil.RunE(opts, func(cmd *cobra.Command, args []string) error {
			opts.Keys = make([]string, len(args))
			for i, a := range args {
				opts.Keys[i] = unquoteKey(a)
			}
			return opts.validate()
		}, runF, breakRun),
	}
	fl := cmd.Flags()
	fl.BoolVar(&opts.Stale, "stale", false, "break every stale lock (of --pattern, default redlock:* and analysis:*:init_lock); with KEYs, only those that are stale")
	fl.StringArrayVar(&opts.Patterns, "pattern", nil, "key glob to scan with --stale (repeatable)")
	fl.BoolVar(&opts.Force, "force", false, "break the named KEYs even when they are not stale, and a string with no TTL whatever its value (never a hash, list or osctl: key)")
	fl.BoolVar(&opts.DryRun, "dry-run", false, "re-read and decide, delete nothing")
	fl.BoolVarP(&opts.Yes, "yes", "y", false, "do not ask for confirmation (for scripts)")
	fl.BoolVar(&opts.NoAudit, "no-audit", false, "do not append the breaks to the stream osctl:audit")
	fl.DurationVar(&opts.RetryWindow, "retry-window", ops.DefaultRetryWindow, "wait before re-reading a key held on fewer masters than a quorum")
	output.AddFlag(cmd, &opts.Format)
	return cmd
}

// validate checks the flags and arguments; it does no I/O.
func (o *BreakOptions) validate() error {
	if len(o.Keys) == 0 && !o.Stale {
		return cmdutil.Usage("say what to break: one or more KEYs, or --stale for every stale lock")
	}
	if len(o.Keys) > 0 && len(o.Patterns) > 0 {
		return cmdutil.Usage("--pattern selects keys to scan: give KEYs or --pattern, not both")
	}
	if o.Force && o.Stale && len(o.Keys) == 0 {
		return cmdutil.Usage("--force with --stale and no KEY would add nothing: --force breaks named KEYs that are not stale")
	}
	if o.RetryWindow <= 0 {
		return cmdutil.Usage("--retry-window must be positive")
	}
	return nil
}

// breakSettings names the break request's settings (pkg/lock/ops.BreakRequest) as flags.
var breakSettings = cmdutil.Settings{"Force": "--force", "Stale": "--stale"}

func breakRun(ctx context.Context, opts *BreakOptions) error {
	f := opts.Env
	masters, lo, closer, err := opts.open(ctx, f, opts.ScanFlags)
	defer closer()
	if err != nil {
		return err
	}
	plan, err := ops.PlanBreak(ctx, masters, lo, ops.BreakRequest{Keys: opts.Keys, Stale: opts.Stale, Force: opts.Force,
		DryRun: opts.DryRun, Who: opts.Who()}, f.Now())
	if err != nil {
		return err
	}
	warnDown(f, plan.Summary, "breaking on the other masters only")
	for _, w := range plan.Summary.Warnings {
		warn(f, "%s", w)
	}
	for _, k := range plan.Missing {
		fmt.Fprintf(f.IO.ErrOut, "%s: on no master: nothing to break\n", escape(k))
	}
	records := plan.Refused
	for i := range records {
		records[i].Reason = breakSettings.Text(records[i].Reason)
	}
	b := ops.NewBreaker(masters, ops.BreakOptions{Force: opts.Force, DryRun: opts.DryRun, Audit: !opts.NoAudit,
		Who: opts.Who(), Explain: explain, Now: f.Now})
	if len(plan.Break) > 0 {
		// A user that may not run the break script learns it before anything is asked or done.
		if err := b.Check(ctx, plan.Break[0].Key); err != nil {
			return fmt.Errorf("cannot break: %w (nothing was changed)", err)
		}
	}
	if len(plan.Break) > 0 && !opts.DryRun {
		fmt.Fprintf(f.IO.ErrOut, "About to break %d lock(s) on %d master(s):\n", len(plan.Break), len(masters))
		for _, v := range plan.Break {
			fmt.Fprintf(f.IO.ErrOut, "  %s = %s (%s): %s\n", escape(v.Key), escape(v.Value), v.Verdict.Status, v.Verdict.Reason)
		}
		if err := cmdutil.Confirm(f.IO, opts.Yes, fmt.Sprintf("Break %d lock(s)?", len(plan.Break))); err != nil {
			return err
		}
	}
	for _, v := range plan.Break {
		rec, err := b.Break(ctx, v)
		if err != nil {
			_ = printBreaks(f, opts.Format, records)
			return fmt.Errorf("interrupted while breaking %s: %v (the breaks above are done)", escape(v.Key), err)
		}
		records = append(records, rec)
	}
	if err := printBreaks(f, opts.Format, records); err != nil {
		return err
	}
	return breakSummary(f, records, len(plan.Break) == 0 && plan.AskedStale)
}

// unquoteKey accepts a key as inspect prints it: quoted Go-style when it holds odd bytes.
func unquoteKey(s string) string {
	if len(s) >= 2 && s[0] == '"' && s[len(s)-1] == '"' {
		if u, err := strconv.Unquote(s); err == nil {
			return u
		}
	}
	return s
}

func printBreaks(f Env, format output.Format, records []ops.AuditRecord) error {
	if format == output.JSONL {
		for _, r := range records {
			if err := output.Print(f.IO.Out, format, r, nil); err != nil {
				return err
			}
		}
		return nil
	}
	if records == nil {
		records = []ops.AuditRecord{}
	}
	return output.Print(f.IO.Out, format, records, func(w io.Writer) error {
		if len(records) == 0 {
			return nil
		}
		t := output.NewTable(w, "KEY", "OUTCOME", "VALUE", "RESULTS", "REASON")
		for _, r := range records {
			res := make([]string, len(r.Results))
			for i, m := range r.Results {
				res[i] = m.Master + "=" + m.Result
				if m.Node != "" {
					res[i] = m.Master + " (" + m.Node + ")=" + m.Result
				}
			}
			cell := strings.Join(res, ",")
			if cell == "" {
				cell = "-"
			}
			if err := t.Append([]any{escape(r.Key), r.Outcome, escape(r.Value), cell, r.Reason}); err != nil {
				return err
			}
		}
		return t.Render()
	})
}

// breakSummary says on stderr exactly what changed and decides the exit code.
func breakSummary(f Env, records []ops.AuditRecord, nothingAsked bool) error {
	t := ops.Tally(records)
	for _, r := range records {
		for _, m := range r.Results {
			if m.Result == ops.ResultDeleted && m.Node != "" {
				fmt.Fprintf(f.IO.ErrOut, "deleted %s = %s on %s (node %s)\n", escape(r.Key), escape(r.Value), m.Master, m.Node)
			} else if m.Result == ops.ResultDeleted {
				fmt.Fprintf(f.IO.ErrOut, "deleted %s = %s on %s\n", escape(r.Key), escape(r.Value), m.Master)
			}
		}
		for _, a := range r.Audit {
			if a.Result != ops.ResultAppended {
				warn(f, "audit record of %s not written on %s: %s", escape(r.Key), a.Master, a.Detail)
			}
		}
	}
	switch {
	case nothingAsked:
		fmt.Fprintln(f.IO.ErrOut, "no stale locks: nothing to break")
	case len(records) > 0 && records[0].DryRun:
		fmt.Fprintf(f.IO.ErrOut, "dry run: nothing was changed (%d lock(s) would be broken, %d refused)\n", len(records)-t.Problems, t.Problems)
	default:
		fmt.Fprintf(f.IO.ErrOut, "%d lock(s) broken (%d key(s) deleted on masters), %d refused or not fully broken; %d audit record(s) appended to %s\n",
			t.Broken, t.Deleted, t.Problems, t.Audited, ops.AuditStream)
	}
	if t.Problems > 0 {
		return cmdutil.ErrSilentFound
	}
	return nil
}
