package locks

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"runtime/debug"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/osctl/osctl/internal/cli/cmdutil"
	"github.com/osctl/osctl/internal/cli/output"
	"github.com/osctl/osctl/pkg/lock"
	"github.com/osctl/osctl/pkg/lock/ops"
)

// InspectOptions are the inputs of `osctl locks inspect`.
type InspectOptions struct {
	Env
	ScanFlags
	Redis
	Format    output.Format
	StaleOnly bool
	Watch     time.Duration // 0: run once
}

// Report is the -o json|yaml result of inspect.
type Report struct {
	Masters  []ops.MasterStatus `json:"masters"`
	Locks    []ops.View         `json:"locks"`
	Keys     int                `json:"keys"`
	Stale    int                `json:"stale"`
	Warnings []string           `json:"warnings,omitempty"`
}

// NewCmdInspect builds `osctl locks inspect`.
func NewCmdInspect(f *cmdutil.Factory, runF func(context.Context, *InspectOptions) error) *cobra.Command {
	opts := &InspectOptions{Env: envOf(f), Redis: redisOf(f)}
	cmd := &cobra.Command{
		Use:   "inspect [--pattern GLOB]... [--watch [INTERVAL]]",
		Short: "Show every Redis lock on every master with its holder, TTL, quorum and a verdict",
		Long: `Scan every master (SCAN MATCH, never KEYS) for keys matching the patterns (default redlock:* and
analysis:*:init_lock) and show, per key, the value and TTL on each master, whether the value is on
a majority of all masters (quorum), the analysis id and step, the value's flavour (redlock-rb,
redsync, osctl, unknown) and a verdict:

  stale     no TTL on some master and a lock library's value (no lock library writes that); or
            held on fewer masters than a quorum on two reads a retry window apart; or an osctl
            holder value that records its pod's namespace, whose pod the API server says is
            gone from that namespace (only with a kubeconfig). A holder that is a host name, a
            value without a namespace, or a namespace osctl cannot read is never judged gone:
            its lock waits for its TTL
  long-ttl  TTL above ` + lock.MaxTTL.String() + ` (e.g. upstream's 120 s init_lock): reported, not stale
  live      otherwise
  not-a-lock  a matching key that is not a string (hash, list...), that osctl owns, or a string
            with no TTL whose value no lock library writes (a session)

The TTL column lists the TTL on each master in --redis order: "-" absent, "none" no TTL,
"down" unreachable. A Redis Cluster (--redis-cluster) is one master: every primary shard is
scanned and the NODE column names the shard each key lives on; for a master found through
Sentinel (--redis-sentinel) NODE is the master the sentinels name, host:port. Exit 1 when a stale lock is shown or a master could not be read; exit 2
when no master answers.`,
		Example: `  osctl locks inspect --redis redis://:PASS@10.0.0.5:6379
  osctl locks inspect --stale -o json
  osctl locks inspect --pattern 'redlock:abc*' --watch 5s
  osctl locks inspect --redis-cluster 'rediss://osctl:PASS@10.0.0.5:6379?addr=10.0.0.6:6379' --redis-ca ca.pem
  OSCTL_REDIS=redis://r1:6379,redis://r2:6379,redis://r3:6379 osctl locks inspect -o jsonl > locks.jsonl`,
		Args: cobra.MaximumNArgs(1),
		RunE: cmdutil.RunE(opts, func(cmd *cobra.Command, args []string) error {
			return opts.validate(args, cmd.Flags().Changed("watch"))
		}, runF, inspectRun),
	}
	fl := cmd.Flags()
	addScanFlags(cmd, &opts.ScanFlags)
	fl.BoolVar(&opts.StaleOnly, "stale", false, "show only stale locks")
	fl.DurationVar(&opts.Watch, "watch", 0, "refresh every INTERVAL until Ctrl-C (default 2s when given without a value)")
	fl.Lookup("watch").NoOptDefVal = "2s"
	output.AddFlag(cmd, &opts.Format)
	return cmd
}

// validate checks the flags and arguments (an interval after --watch is the one argument);
// it does no I/O.
func (o *InspectOptions) validate(args []string, watchGiven bool) error {
	if len(args) == 1 {
		d, err := time.ParseDuration(args[0])
		if !watchGiven || err != nil {
			return cmdutil.Usage("unexpected argument %q: patterns go in --pattern; an interval goes with --watch (e.g. --watch 5s)", args[0])
		}
		o.Watch = d
	}
	if watchGiven && o.Watch < 100*time.Millisecond {
		return cmdutil.Usage("--watch interval %v is too short: use at least 100ms", o.Watch)
	}
	return o.ScanFlags.validate()
}

func inspectRun(ctx context.Context, opts *InspectOptions) error {
	if opts.Format == output.JSONL {
		// Streaming allocates a little per key and keeps almost nothing: collecting less often
		// halves its CPU time, and the soft limit keeps the heap flat whatever the key count.
		defer debug.SetGCPercent(debug.SetGCPercent(400))
		defer debug.SetMemoryLimit(debug.SetMemoryLimit(48 << 20))
	}
	if opts.Watch <= 0 {
		return inspectOnce(ctx, opts)
	}
	var last error
	for i := 0; ; i++ {
		if i > 0 {
			t := time.NewTimer(opts.Watch)
			select {
			case <-ctx.Done():
				t.Stop()
				return last
			case <-t.C:
			}
		}
		if opts.IO.IsStdoutTTY() && opts.Format.IsTable() {
			fmt.Fprint(opts.IO.Out, "\033[H\033[2J") // a terminal shows the latest refresh only
		}
		fmt.Fprintf(opts.IO.ErrOut, "--- %s (every %v; Ctrl-C to stop)\n", opts.Now().UTC().Format(time.RFC3339), opts.Watch)
		err := inspectOnce(ctx, opts)
		if ctx.Err() != nil {
			return last
		}
		last = err
		if err != nil && cmdutil.ExitCode(err) == cmdutil.ExitError {
			fmt.Fprintln(opts.IO.ErrOut, "error: "+opts.Secrets.String(err.Error()))
		}
	}
}

func inspectOnce(ctx context.Context, opts *InspectOptions) error {
	f := opts.Env
	masters, lo, closer, err := opts.open(ctx, f, opts.ScanFlags)
	defer closer()
	if err != nil {
		return err
	}
	var views []ops.View
	// JSON lines stream through a buffer: one write per 64 KiB, not one per key.
	stream := bufio.NewWriterSize(f.IO.Out, 64<<10)
	var line []byte
	defer stream.Flush()
	emit := func(v ops.View) error {
		if opts.StaleOnly && v.Verdict.Status != ops.StatusStale {
			return nil
		}
		if opts.Format == output.JSONL {
			// The same line output.Print(w, output.JSONL, v, nil) writes (View.MarshalJSON is
			// AppendJSON), without encoding/json re-validating a million lines.
			line = append(v.AppendJSON(line[:0]), '\n')
			_, err := stream.Write(line)
			return err
		}
		views = append(views, v)
		return nil
	}
	sum, err := ops.Inspect(ctx, masters, lo, emit)
	if ferr := stream.Flush(); err == nil {
		err = ferr
	}
	if err != nil {
		return err
	}
	warnDown(f, sum, "showing the other masters")
	if opts.Format.IsTable() {
		noteTopology(f, sum)
	}
	for _, w := range sum.Warnings {
		warn(f, "%s", w)
	}
	if opts.Format != output.JSONL {
		rep := Report{Masters: sum.Masters, Locks: views, Keys: sum.Keys, Stale: sum.Stale, Warnings: sum.Warnings}
		if rep.Locks == nil {
			rep.Locks = []ops.View{}
		}
		if err := output.Print(f.IO.Out, opts.Format, rep, func(w io.Writer) error { return inspectTable(w, views, hasNodes(sum)) }); err != nil {
			return err
		}
		if opts.Format.IsTable() && len(views) == 0 {
			what := "locks"
			if opts.StaleOnly {
				what = "stale locks"
			}
			pats := opts.Patterns
			if len(pats) == 0 {
				pats = ops.DefaultPatterns
			}
			fmt.Fprintf(f.IO.ErrOut, "no %s matching %s on %d master(s)\n", what, strings.Join(pats, ", "), len(masters))
		}
	}
	if sum.Stale > 0 || sum.Down() > 0 {
		return cmdutil.ErrSilentFound
	}
	return nil
}

// inspectTable prints one row per key; withNodes adds the NODE column (the shard, or the master
// Sentinel named, each key was read on, per master) when a master is a cluster or Sentinel's.
func inspectTable(w io.Writer, views []ops.View, withNodes bool) error {
	if len(views) == 0 {
		return nil
	}
	head := []string{"KEY", "VERDICT", "HELD", "TTL", "FLAVOUR", "VALUE", "REASON"}
	if withNodes {
		head = []string{"KEY", "VERDICT", "HELD", "TTL", "NODE", "FLAVOUR", "VALUE", "REASON"}
	}
	t := output.NewTable(w, head...)
	for _, v := range views {
		ttls := make([]string, len(v.Holdings))
		nodes := make([]string, len(v.Holdings))
		for i, h := range v.Holdings {
			ttls[i] = ttlCell(h)
			nodes[i] = h.Node
			if nodes[i] == "" {
				nodes[i] = "-"
			}
		}
		flavour, value := string(v.Flavour), escape(v.Value)
		if v.Type != "string" {
			flavour, value = "-", v.Type
		}
		if flavour == "" {
			flavour = "-"
		}
		row := []any{escape(v.Key), string(v.Verdict.Status), fmt.Sprintf("%d/%d", v.Held, v.Masters), strings.Join(ttls, ",")}
		if withNodes {
			row = append(row, strings.Join(nodes, ","))
		}
		if err := t.Append(append(row, flavour, value, v.Verdict.Reason)...); err != nil {
			return err
		}
	}
	return t.Render()
}

func ttlCell(h ops.Holding) string {
	switch {
	case !h.Reachable():
		return "down"
	case !h.Present:
		return "-"
	case h.TTLMillis == ops.NoTTL:
		return "none"
	}
	return (time.Duration(h.TTLMillis) * time.Millisecond).Round(100 * time.Millisecond).String()
}
