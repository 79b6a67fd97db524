package rollout

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/osctl/osctl/internal/cli/cmdutil"
	"github.com/osctl/osctl/pkg/k8s"
	"github.com/osctl/osctl/pkg/rollout"
)

// session is what every rollout subcommand starts from: clients, the runner and the target.
type session struct {
	kube   *k8s.Clients
	runner *rollout.Runner
	target *rollout.Target
}

// open loads the clients, checks permissions up front (nothing changes when one is missing) and
// reads the HPA, its Deployment, the journal and the Lease.
func open(ctx context.Context, f *cmdutil.Factory, hpa string, needs *rollout.Needs) (*session, error) {
	kc, err := f.Kube()
	if err != nil {
		return nil, err
	}
	ns := kc.Namespace
	if ns == "" {
		ns = "default"
	}
	r := &rollout.Runner{Client: kc.Clientset, Namespace: ns, HPA: hpa, Now: f.Now}
	if needs != nil {
		if err := rollout.CheckPermissions(ctx, kc.Clientset, ns, rollout.RequiredPermissions(ns, *needs)); err != nil {
			return nil, err
		}
	}
	t, err := r.Inspect(ctx)
	if err != nil {
		return nil, err
	}
	return &session{kube: kc, runner: r, target: t}, nil
}

// openChanging is open for a subcommand that changes the HPA: until restore is called, a second
// Ctrl-C says that undone is what it leaves undone.
func openChanging(ctx context.Context, f *cmdutil.Factory, hpa string, needs *rollout.Needs, undone string) (s *session, restore func(), err error) {
	restore = f.Interrupts.SetUndone(func() string { return undone })
	s, err = open(ctx, f, hpa, needs)
	return s, restore, err
}

// openJournal is openChanging for resume or undo (verb), with the journal it acts on.
func openJournal(ctx context.Context, f *cmdutil.Factory, hpa string, needs *rollout.Needs, verb, undone string) (*session, *rollout.Journal, func(), error) {
	s, restore, err := openChanging(ctx, f, hpa, needs, undone)
	if err != nil {
		return nil, nil, restore, err
	}
	if s.target.Journal == nil {
		return nil, nil, restore, fmt.Errorf("HPA %s/%s has no rollout journal: nothing to %s", s.runner.Namespace, s.runner.HPA, verb)
	}
	return s, s.target.Journal, restore, nil
}

// forceHint adds the flag that takes over a held Lease to a *rollout.HeldError.
func forceHint(err error) error {
	var he *rollout.HeldError
	if errors.As(err, &he) {
		return fmt.Errorf("%w (--force)", err)
	}
	return err
}

// awaitLease returns once the rollout's Lease is free for this osctl (rollout.Runner.AwaitLease:
// no other holder, or one whose Lease stayed unchanged for its duration while watched here),
// saying on stderr when it waits; with force it warns that it takes the Lease over at once.
func (s *session) awaitLease(ctx context.Context, f *cmdutil.Factory, force bool) error {
	l := s.target.Lease
	if force {
		if l.HeldByOther("") {
			fmt.Fprintf(f.IO.ErrOut, "WARNING: --force: taking the rollout over from %s at once, without waiting to see its Lease unchanged for %s\n", l.Holder, l.Duration)
		}
		return nil
	}
	return forceHint(s.runner.AwaitLease(ctx, s.target, func(msg string) { fmt.Fprintln(f.IO.ErrOut, msg) }))
}

// holder names this process for the Lease and the journal.
func (s *session) holder(ctx context.Context) string {
	cctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	return rollout.NewHolder(rollout.WhoAmI(cctx, s.kube.Clientset))
}

// drive readies the runner to change the cluster (its holder, Lease and timeouts, a progress
// printer on stderr) and starts telling the user what Ctrl-C does; stop ends that.
func (s *session) drive(ctx context.Context, f *cmdutil.Factory, lease LeaseFlags, gateTimeout, rollbackTimeout time.Duration, rollingBack bool) (stop func()) {
	r := s.runner
	r.Holder = s.holder(ctx)
	r.LeaseDuration, r.Force = lease.Duration, lease.Force
	r.GateTimeout, r.RollbackTimeout = gateTimeout, rollbackTimeout
	pp := newProgressPrinter(f.IO)
	pp.rollingBack.Store(rollingBack)
	r.Observer = pp.observe
	return pp.watchSignals(f.Interrupts)
}

func needsFor(gc rollout.GateConfig, change bool) *rollout.Needs {
	return &rollout.Needs{Change: change, Watch: change, PodsGate: gc.Pods || gc.Locks, NFSGate: gc.NFS}
}
