package rollout

import (
	"fmt"
	"os"
	"os/signal"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/osctl/osctl/internal/cli/cmdutil"
	"github.com/osctl/osctl/pkg/rollout"
)

// progressPrinter prints a rollout's progress on stderr: a bar and an updating line on a
// terminal, plain lines otherwise.
type progressPrinter struct {
	io          *cmdutil.IOStreams
	tty         bool
	mu          sync.Mutex
	rollingBack atomic.Bool // a rollback (or undo) runs
	byInterrupt atomic.Bool // the rollback was started by an interruption
	interrupted atomic.Bool // a signal arrived
	open        bool        // a \r line is open on the terminal
	lastWait    string      // the last Deployment state printed
	lastGates   string      // the last gate summary printed, per step
}

func newProgressPrinter(io *cmdutil.IOStreams) *progressPrinter {
	return &progressPrinter{io: io, tty: io.IsStderrTTY()}
}

func bar(step, steps int) string {
	if steps <= 0 {
		return ""
	}
	if step > steps {
		step = steps
	}
	return "[" + strings.Repeat("#", step) + strings.Repeat("-", steps-step) + "] "
}

func (p *progressPrinter) line(s string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.open {
		fmt.Fprint(p.io.ErrOut, "\r\033[K")
		p.open = false
	}
	fmt.Fprintln(p.io.ErrOut, s)
}

func (p *progressPrinter) status(s string) {
	if !p.tty {
		p.line(s)
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	fmt.Fprint(p.io.ErrOut, "\r\033[K"+s)
	p.open = true
}

func (p *progressPrinter) observe(pr rollout.Progress) {
	ts := pr.Time.UTC().Format("15:04:05")
	prefix := ts + " "
	if p.tty {
		prefix += bar(pr.Step, pr.Steps)
	}
	switch pr.Kind {
	case rollout.ProgressStep:
		p.lastWait = ""
		p.line(prefix + pr.Message + fmt.Sprintf("; waiting until %s for %s ready replicas", pr.Deadline.UTC().Format("15:04:05"), pr.Range))
	case rollout.ProgressWaiting:
		if pr.State != nil && pr.State.String() != p.lastWait {
			p.lastWait = pr.State.String()
			p.status(prefix + "  deployment " + pr.State.String())
		}
	case rollout.ProgressReady, rollout.ProgressFinal, rollout.ProgressInfo:
		p.line(prefix + pr.Message)
	case rollout.ProgressGates:
		var parts []string
		failed := false
		for _, g := range pr.Gates {
			parts = append(parts, fmt.Sprintf("%s %s", g.Gate, strings.ToUpper(string(g.Status))))
			if g.Failed() {
				failed = true
			}
		}
		left := time.Until(pr.Deadline).Round(time.Second)
		if left < 0 {
			left = 0
		}
		msg := fmt.Sprintf("%s  gates: %s (hold %s left)", prefix, strings.Join(parts, ", "), left)
		summary := fmt.Sprintf("%d %s", pr.Step, strings.Join(parts, ", "))
		changed := summary != p.lastGates
		switch {
		case failed:
			p.line(msg)
		case p.tty:
			p.status(msg)
		case changed:
			// Plain output: a line when the gates' verdicts change, not every round.
			p.line(msg)
		}
		p.lastGates = summary
		for _, g := range pr.Gates {
			// What a PromQL gate's query returned, when its verdict is new.
			if g.Status != "pass" || (g.Value != "" && changed) {
				p.line(fmt.Sprintf("    %s: %s", g.Gate, g.Message))
			}
		}
	case rollout.ProgressPassed:
		p.line(fmt.Sprintf("%sstep %d/%d passed: %s replicas held with gates passing", prefix, pr.Step, pr.Steps, pr.Range))
	case rollout.ProgressRollback:
		p.byInterrupt.Store(strings.Contains(pr.Message, rollout.ErrInterrupted.Error()))
		p.rollingBack.Store(true)
		p.line(prefix + "ROLLING BACK: " + pr.Message)
	case rollout.ProgressRolledBack, rollout.ProgressDone:
		p.line(prefix + pr.Message)
	case rollout.ProgressWarning:
		p.line(prefix + "WARNING: " + pr.Message)
	}
}

// refusal is what a second Ctrl-C prints while a rollout or its rollback runs (cli.Run prints
// it: see cmdutil.Interrupts).
const refusal = "rollback in progress: NOT abandoning it (Ctrl-C is refused until it finishes; it is bounded by --rollback-timeout)"

// watchSignals tells the user what the first Ctrl-C does (it also cancels the command's context
// in cli.Run): it starts a rollback, or is refused when a rollback already runs. Later ones are
// refused by cli.Run with the same message, through in.Refuse, until stop is called.
func (p *progressPrinter) watchSignals(in *cmdutil.Interrupts) (stop func()) {
	release := in.Refuse(refusal)
	ch := make(chan os.Signal, 4)
	signal.Notify(ch, os.Interrupt, syscall.SIGTERM)
	done := make(chan struct{})
	go func() {
		for {
			select {
			case <-done:
				return
			case <-ch:
				if p.interrupted.Swap(true) {
					continue // cli.Run prints the refusal
				}
				// The first signal cancels the command's context (in cli.Run) and so starts the
				// rollback, which may already show here: it is still the first one.
				if p.rollingBack.Load() && !p.byInterrupt.Load() {
					p.line(refusal)
				} else {
					p.line("interrupted: stopping the rollout and rolling back (a second Ctrl-C will not abandon the rollback)")
				}
			}
		}
	}()
	return func() {
		signal.Stop(ch)
		close(done)
		release()
	}
}
