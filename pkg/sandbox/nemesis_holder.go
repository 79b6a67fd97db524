package sandbox

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/osctl/osctl/pkg/lock"
	"github.com/osctl/osctl/pkg/lock/holders"
	"github.com/osctl/osctl/pkg/nemesis"
	"github.com/osctl/osctl/pkg/proc"
)

// checkHolder refuses a holder kind on a sandbox whose locks osctl cannot read: one without
// Redis locks, or one given masters it did not start.
func checkHolder(f nemesis.Fault, p Processes) error {
	switch {
	case p.Locking != "" && p.Locking != LockingRedlock && p.Locking != LockingRedlockNoFence:
		return fmt.Errorf("%v: the sandbox runs lock mode %s, which takes no Redis lock to find a holder by; use redlock or redlock-nofence", f, p.Locking)
	case len(p.Redis) == 0:
		return fmt.Errorf("%v: the sandbox was given its Redis masters and started none, so osctl cannot read who holds a lock", f)
	}
	return nil
}

// InjectHolder waits until a replica of the sandbox holds a lock on one of the masters it
// started, then kills or pauses that replica (nemesis.HolderInjector).
func (s *Nemesis) InjectHolder(ctx context.Context, f nemesis.Fault) (string, nemesis.HeldLock, func() error, error) {
	p, err := s.processes()
	if err != nil {
		return "", nemesis.HeldLock{}, nil, err
	}
	if err := checkHolder(f, p); err != nil {
		return "", nemesis.HeldLock{}, nil, err
	}
	clients := make([]redis.UniversalClient, len(p.Redis))
	for i, r := range p.Redis {
		clients[i] = redis.NewClient(&redis.Options{Addr: r.Addr, MaxRetries: -1, DialTimeout: time.Second, ReadTimeout: time.Second})
		defer clients[i].Close()
	}
	seen := nemesis.Seen{}
	ttl := time.Duration(p.LockTTLMs) * time.Millisecond
	begin := time.Now()
	for {
		held := holders.Read(ctx, clients)
		now := time.Now()
		seen.Note(held, now)
		working := workingPids(ctx, clients[0])
		anyHolder := now.Sub(begin) >= preferWorkerFor
		for _, h := range held {
			victim, ok := replicaByPid(p, h.PID)
			if !ok || stopped(h.PID) || (!inJob(working[h.PID], h.Key) && !anyHolder) {
				continue
			}
			hl := nemesis.HeldLock{Key: h.Key, Holder: h.Host + ":" + strconv.Itoa(h.PID), HeldFor: nemesis.Duration(seen.HeldFor(h, ttl, now))}
			target, resume, err := s.signal(victim, p, f.Kind.Pauses())
			return target, hl, resume, err
		}
		select {
		case <-ctx.Done():
			return "", nemesis.HeldLock{}, nil, nemesis.ErrNoHolder
		case <-time.After(nemesis.PollEvery):
		}
		if p2, err := s.processes(); err == nil {
			p = p2 // a replica started again has a new pid
		}
	}
}

// signal SIGSTOPs (pause) or SIGKILLs victim after checking that it is the supervisor's child.
func (s *Nemesis) signal(victim Process, p Processes, pause bool) (string, func() error, error) {
	if err := childOf(victim.Pid, p.Supervisor); err != nil {
		return victim.String(), nil, err
	}
	sig := syscall.SIGKILL
	if pause {
		sig = syscall.SIGSTOP
	}
	if err := syscall.Kill(victim.Pid, sig); err != nil {
		return victim.String(), nil, fmt.Errorf("signalling %v: %v", victim, err)
	}
	if !pause {
		return victim.String(), nil, nil
	}
	return victim.String(), func() error { return syscall.Kill(victim.Pid, syscall.SIGCONT) }, nil
}

func replicaByPid(p Processes, pid int) (Process, bool) {
	for _, r := range p.Replicas {
		if r.Pid == pid && pid > 0 {
			return r, true
		}
	}
	return Process{}, false
}

// preferWorkerFor is how long a holder fault waits for a holder that performs a background job
// (an extraction: the critical section whose late writes the volume keeps) before it takes any
// holder. An upload's late write is overwritten by the next upload of its analysis, so a pause
// that lands in one rarely shows in the state.
const preferWorkerFor = 5 * time.Second

// workingPids maps the pid of each Resque worker that performs a job now (on the master that
// holds the sandbox's queues) to that job: resque:worker:<host:pid:queues> is set while it does.
func workingPids(ctx context.Context, c redis.UniversalClient) map[int]string {
	out := map[int]string{}
	var cursor uint64
	for ctx.Err() == nil {
		keys, next, err := c.Scan(ctx, cursor, lock.NamespacePrefix+"sandbox:*:resque:worker:*", 1000).Result()
		if err != nil {
			break
		}
		for _, k := range keys {
			_, name, _ := strings.Cut(k, ":resque:worker:")
			if _, pid, ok := workerHostPid(name); ok {
				if v, err := c.Get(ctx, k).Result(); err == nil {
					out[pid] = v
				}
			}
		}
		if cursor = next; cursor == 0 {
			break
		}
	}
	return out
}

// inJob says whether the job a worker performs (its resque:worker value) is about the analysis
// of lock key.
func inJob(job, key string) bool {
	id, _, ok := lock.ParseKey(key)
	return ok && job != "" && strings.Contains(job, `"`+id+`"`)
}

// stopped says whether pid is stopped (paused by another fault): its lock is still on the
// masters until its TTL ends, but it is not in its critical section any more.
func stopped(pid int) bool {
	st, err := proc.Stat(pid)
	return err == nil && st.State == "T"
}
