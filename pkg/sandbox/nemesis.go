package sandbox

import (
	"errors"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"sync"

	"github.com/osctl/osctl/pkg/nemesis"
	"github.com/osctl/osctl/pkg/proc"
)

// Nemesis injects faults (a nemesis.Injector) into an `osctl sandbox up` running over Dir: it finds the replicas
// and redis-servers in the sandbox's processes file, and signals them by pid, after checking
// that each is still a child of the sandbox's supervisor (so a pid reused by another process is
// never signalled).
type Nemesis struct {
	Dir string
	mu  sync.Mutex
	rng *rand.Rand
}

// NewNemesis returns the injector of the sandbox over dir, choosing its targets with seed.
func NewNemesis(dir string, seed uint64) (*Nemesis, error) {
	s := &Nemesis{Dir: dir, rng: rand.New(rand.NewPCG(seed, seed^0x6e656d65736973))}
	if _, err := s.processes(); err != nil {
		return nil, err
	}
	return s, nil
}

func (s *Nemesis) processes() (Processes, error) {
	p, err := ReadProcesses(s.Dir)
	if errors.Is(err, fs.ErrNotExist) {
		return p, fmt.Errorf("%s has no %s: faults are injected into a running 'osctl sandbox up' over this state directory (one older than this osctl does not write it)", s.Dir, ProcessesFile)
	}
	return p, err
}

// Check refuses kills without restarts (the sandbox would stop) and Redis faults on masters
// the sandbox did not start.
func (s *Nemesis) Check(faults []nemesis.Fault) error {
	p, err := s.processes()
	if err != nil {
		return err
	}
	for _, f := range faults {
		switch {
		case f.Kind.Kills() && !p.Restart:
			return fmt.Errorf("%v: the sandbox does not restart its processes, so a kill would stop it; start it with restarts (the default of sandbox up)", f)
		case f.Kind.HitsRedis() && len(p.Redis) == 0:
			return fmt.Errorf("%v: the sandbox was given its Redis masters and started none, so it has no redis-server to fault", f)
		case len(p.Replicas) == 0:
			return fmt.Errorf("%v: the sandbox names no replica", f)
		case f.Kind.TargetsHolder():
			if err := checkHolder(f, p); err != nil {
				return err
			}
		}
	}
	return nil
}

// Inject hits a process chosen by the seeded generator among those of f's kind.
func (s *Nemesis) Inject(f nemesis.Fault) (string, func() error, error) {
	p, err := s.processes()
	if err != nil {
		return "", nil, err
	}
	pool := p.Replicas
	if f.Kind.HitsRedis() {
		pool = p.Redis
	}
	if len(pool) == 0 {
		return "", nil, fmt.Errorf("no process of the sandbox to fault")
	}
	s.mu.Lock()
	victim := pool[s.rng.IntN(len(pool))]
	s.mu.Unlock()
	return s.signal(victim, p, f.Kind.Pauses())
}

// childOf checks, in /proc, that pid's parent is parent.
func childOf(pid, parent int) error {
	st, err := proc.Stat(pid)
	if err != nil {
		return err
	}
	if st.PPid != parent {
		return fmt.Errorf("process %d is not the sandbox's (its parent is not %d): not signalled", pid, parent)
	}
	return nil
}
