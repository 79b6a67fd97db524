package sandbox

import (
	"context"
	"sync"
)

// storage writes analysis zips, extractions and result files into the state directory; the
// locking mode decides how.
type storage interface {
	// storeZip stores an uploaded seed zip at original/<name>. save persists the analysis
	// record and returns the stored name it had just before ("" when none); loaded is the one
	// it had when the request loaded it, whose file Paperclip queued for deletion.
	storeZip(ctx context.Context, analysisID, name, loaded string, body []byte, save func() (prev string, err error)) error
	// dropZip deletes a seed zip, and the directories that leaves empty, after save has
	// persisted the change of the record (cleared or destroyed) and returned the stored name.
	dropZip(ctx context.Context, analysisID string, save func() (name string, err error)) error
	// initialize is run_initialization: it extracts the seed zip that zipName names into
	// server/analyses/<id>/ (sort-rewriting the zip unless turned off), in initAttempts
	// attempts.
	initialize(ctx context.Context, analysisID string, zipName func() (string, error)) error
	// removeExtraction is the DeleteAnalysis job of server/analyses/<id>/.
	removeExtraction(ctx context.Context, analysisID string) error
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
