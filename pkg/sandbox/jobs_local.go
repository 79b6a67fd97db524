package sandbox

import (
	"context"
	"maps"
	"slices"
	"sync"
)

// localStore is elb-openapi's process-local dict: the ceiling is enforced against this
// replica's own jobs only, and no other replica sees them. It serves both per-replica queue
// modes: local (the limit is the whole ceiling) and split (the limit is this replica's share).
type localStore struct {
	mu      sync.Mutex
	jobs    map[string]*job
	order   []string // every job, oldest first
	active  map[string]bool
	created int64 // jobs created, for requeueEvery
}

func newLocalStore() *localStore {
	return &localStore{jobs: map[string]*job{}, active: map[string]bool{}}
}

// create is main.py's _save_job at the end of a submit: the job is written as given, queued, over
// any job of the same id. elb-openapi looks a replay of the key up long before it saves (the two
// steps are not atomic), so a second submit of a key that passed the lookup while the first was
// still in flight writes its queued job over the first one's, even once that one was dispatched:
// its slot is freed while its submit thread runs (the replay race, docs/sandbox.md). The dict
// keeps the job's place in its order.
func (s *localStore) create(_ context.Context, j *job, requeueEvery int, phase string) (*job, bool, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	j = j.clone()
	s.created++
	if requeueEvery > 0 && s.created%int64(requeueEvery) == 0 {
		j.Requeue = phase
	}
	if _, ok := s.jobs[j.ID]; !ok {
		s.order = append(s.order, j.ID)
	}
	s.jobs[j.ID] = j
	delete(s.active, j.ID)
	return j.clone(), true, nil
}

func (s *localStore) get(_ context.Context, id string) (*job, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	j, ok := s.jobs[id]
	if !ok {
		return nil, errNoJob
	}
	return j.clone(), nil
}

func (s *localStore) list(context.Context) ([]*job, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]*job, 0, len(s.order))
	for _, id := range s.order {
		out = append(out, s.jobs[id].clone())
	}
	return out, nil
}

// queued returns the queued jobs in dispatch order (under s.mu).
func (s *localStore) queued() []*job {
	var q []*job
	for _, id := range s.order {
		if j := s.jobs[id]; j.Status == JobQueued {
			q = append(q, j)
		}
	}
	sortQueue(q)
	return q
}

func (s *localStore) queue(context.Context) ([]string, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	q := s.queued()
	ids := make([]string, len(q))
	for i, j := range q {
		ids[i] = j.ID
	}
	return ids, nil
}

func (s *localStore) claim(_ context.Context, limit int, set map[string]string) (*job, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.active) >= limit {
		return nil, nil
	}
	q := s.queued()
	if len(q) == 0 {
		return nil, nil
	}
	j := q[0]
	if j.StartedAt != "" {
		set = maps.Clone(set)
		delete(set, fStartedAt) // started_at keeps the first dispatch
	}
	j.apply(set)
	j.Status = JobDispatching
	s.active[j.ID] = true
	return j.clone(), nil
}

func (s *localStore) update(_ context.Context, id string, from []string, set map[string]string) (bool, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	j, ok := s.jobs[id]
	if !ok || (len(from) > 0 && !slices.Contains(from, j.Status)) {
		return false, nil
	}
	j.apply(set)
	if JobActive(j.Status) {
		s.active[id] = true
	} else {
		delete(s.active, id)
	}
	return true, nil
}

func (s *localStore) remove(_ context.Context, id string) (*job, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	j, ok := s.jobs[id]
	if !ok {
		return nil, errNoJob
	}
	delete(s.jobs, id)
	delete(s.active, id)
	if i := slices.Index(s.order, id); i >= 0 {
		s.order = slices.Delete(s.order, i, i+1)
	}
	return j, nil
}
