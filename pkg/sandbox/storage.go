package sandbox

import (
	"context"
	"sync"
)

// storage writes analysis zips, extractions and result files into the state directory; the
// locking mode decides how.
type storage interface {
	// storeZip stores an uploaded analysis zip at original/<name>.
	storeZip(ctx context.Context, analysisID, name string, body []byte) error
	// extract unpacks the analysis's current zip into server/analyses/<id>/.
	extract(ctx context.Context, analysisID string) error
	// storeResult stores a result file at data_points/<resultID>/files/original/<name>.
	storeResult(ctx context.Context, resultID, name string, body []byte) error
}

// keyedMutex is a process-local mutex per key (the local mode's lock).
type keyedMutex struct {
	mu   sync.Mutex
	keys map[string]*keyedEntry
}

type keyedEntry struct {
	mu   sync.Mutex
	refs int
}

// lock locks key and returns its unlock function.
func (k *keyedMutex) lock(key string) func() {
	k.mu.Lock()
	if k.keys == nil {
		k.keys = map[string]*keyedEntry{}
	}
	e := k.keys[key]
	if e == nil {
		e = &keyedEntry{}
		k.keys[key] = e
	}
	e.refs++
	k.mu.Unlock()
	e.mu.Lock()
	return func() {
		e.mu.Unlock()
		k.mu.Lock()
		e.refs--
		if e.refs == 0 {
			delete(k.keys, key)
		}
		k.mu.Unlock()
	}
}
