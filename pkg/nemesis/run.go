package nemesis

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"
)

// Injector injects one fault into a target and undoes a pause (pkg/sandbox's Nemesis is the
// sandbox's).
type Injector interface {
	// Check says, before any load, whether every fault of the schedule can be injected.
	Check(faults []Fault) error
	// Inject injects f and names the process it hit. For a pause, resume ends it.
	Inject(f Fault) (target string, resume func() error, err error)
}

// Plan is a run's nemesis: its schedule, where the faults go, and the seed of the choice of
// targets (reported, so that a run's choices can be repeated).
type Plan struct {
	Faults   []Fault
	Injector Injector
	Seed     uint64
}

// Run injects faults on their schedule from start until the load ends (loadDone closed) or ctx
// ends, and returns them with their targets and outcomes. A fault due after the load ended is
// NotInjected. A pause lasts its FOR even past the end of the load, but ends at once when ctx
// ends: Run never returns while a process it paused is still stopped.
func Run(ctx context.Context, faults []Fault, inj Injector, start time.Time, loadDone <-chan struct{}, logf func(string, ...any)) []Fault {
	out := append([]Fault(nil), faults...)
	var pauses sync.WaitGroup
	for i := range out {
		f := &out[i]
		timer := time.NewTimer(time.Until(start.Add(time.Duration(f.At))))
		select {
		case <-timer.C:
		case <-loadDone:
			timer.Stop()
			f.Outcome = NotInjected
			continue
		case <-ctx.Done():
			timer.Stop()
			f.Outcome = NotInjected
			continue
		}
		target, resume, err := inject(ctx, inj, f, loadDone)
		f.Target, f.Injected = target, time.Now()
		if errors.Is(err, ErrNoHolder) {
			f.Outcome, f.Injected = NoHolder+" within "+HolderWait.String(), time.Time{}
			logf("nemesis: %v not injected: no lock was held by a replica within %v", f, HolderWait)
			continue
		}
		if err != nil {
			f.Outcome = "failed: " + err.Error()
			logf("nemesis: %v failed: %v", f, err)
			continue
		}
		logf("nemesis: %v on %s", f, target)
		if resume == nil {
			f.Outcome = Done
			continue
		}
		pauses.Add(1)
		go func() {
			defer pauses.Done()
			t := time.NewTimer(time.Duration(f.For))
			select {
			case <-t.C:
			case <-ctx.Done():
				t.Stop()
			}
			f.Ended = time.Now()
			if err := resume(); err != nil {
				f.Outcome = "failed: resuming: " + err.Error()
				return
			}
			f.Outcome = Done
		}()
	}
	pauses.Wait()
	return out
}

// inject injects f: a holder kind waits up to HolderWait (and no longer than the load) for a
// lock to be held, and names the lock in f.
func inject(ctx context.Context, inj Injector, f *Fault, loadDone <-chan struct{}) (string, func() error, error) {
	if !f.Kind.TargetsHolder() {
		return inj.Inject(*f)
	}
	hi, ok := inj.(HolderInjector)
	if !ok {
		return "", nil, fmt.Errorf("%s needs a target that can find a lock's holder", f.Kind)
	}
	wctx, cancel := context.WithTimeout(ctx, HolderWait)
	defer cancel()
	go func() {
		select {
		case <-loadDone:
			cancel()
		case <-wctx.Done():
		}
	}()
	target, held, resume, err := hi.InjectHolder(wctx, *f)
	if err == nil {
		f.Lock = &held
	}
	return target, resume, err
}
