package sandbox

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// Resque's worker registry, as Resque 2.0 keeps it (lib/resque/worker.rb): a worker adds its
// name (host:pid:queues) to resque:workers when it starts; while it performs a job,
// resque:worker:<name> holds {queue, run_at, payload} (working_on), deleted when the job is done
// (done_working). A worker that starts prunes the dead workers of its host: one whose process is
// gone is unregistered, and the job it was performing is failed with
// Resque::PruneDeadWorkerDirtyExit, so that a job lost with a killed worker is in resque:failed,
// never silently gone.

// dirtyExit is the exception Resque records for the job of a worker that died while performing it.
const dirtyExit = "Resque::PruneDeadWorkerDirtyExit"

// workingOn is the value of resque:worker:<name> while the worker performs a job.
type workingOn struct {
	Queue   string          `json:"queue"`
	RunAt   string          `json:"run_at"`
	Payload json.RawMessage `json:"payload"`
}

// register adds the worker to resque:workers, after pruning the dead workers of this host.
func (w *worker) register(ctx context.Context) {
	w.pruneDead(ctx)
	if err := w.q.rdb.SAdd(ctx, w.q.workersKey(), w.name).Err(); err != nil && ctx.Err() == nil {
		w.logf("worker: registering in %s: %v", w.q.workersKey(), err)
	}
}

// unregister removes the worker (on a graceful stop).
func (w *worker) unregister(ctx context.Context) {
	_ = w.q.rdb.Del(ctx, w.q.workerKey(w.name)).Err()
	_ = w.q.rdb.SRem(ctx, w.q.workersKey(), w.name).Err()
}

// working records the job the worker performs, and returns when it began; done clears it.
func (w *worker) working(ctx context.Context, queue, raw string) string {
	at := time.Now().UTC().Format(time.RFC3339Nano)
	payload := json.RawMessage(raw)
	if !json.Valid([]byte(raw)) {
		payload = json.RawMessage(strconv.Quote(raw))
	}
	b, _ := json.Marshal(workingOn{Queue: queue, RunAt: at, Payload: payload})
	_ = w.q.rdb.Set(ctx, w.q.workerKey(w.name), b, 0).Err()
	return at
}

func (w *worker) done(ctx context.Context) { _ = w.q.rdb.Del(ctx, w.q.workerKey(w.name)).Err() }

// pruneDead unregisters the registered workers of this host whose process is gone, failing the
// job each was performing with Resque::PruneDeadWorkerDirtyExit.
func (w *worker) pruneDead(ctx context.Context) {
	names, err := w.q.rdb.SMembers(ctx, w.q.workersKey()).Result()
	if err != nil {
		return
	}
	host, _ := os.Hostname()
	for _, name := range names {
		h, pid, ok := workerHostPid(name)
		if !ok || h != host || pid == os.Getpid() || processAlive(pid) {
			continue
		}
		if v, err := w.q.rdb.Get(ctx, w.q.workerKey(name)).Result(); err == nil {
			var job workingOn
			if json.Unmarshal([]byte(v), &job) == nil {
				var class struct {
					Class string `json:"class"`
				}
				_ = json.Unmarshal(job.Payload, &class)
				why := fmt.Errorf("Worker %s:%d did not gracefully exit while processing %s", h, pid, class.Class)
				if err := w.q.failAs(ctx, job.Queue, string(job.Payload), name, job.RunAt, dirtyExit, why); err != nil {
					w.logf("worker: recording the dead worker %s's job: %v", name, err)
				} else {
					w.logf("worker: %s died while performing %s: failed with %s", name, class.Class, dirtyExit)
				}
			}
		}
		_ = w.q.rdb.Del(ctx, w.q.workerKey(name)).Err()
		_ = w.q.rdb.SRem(ctx, w.q.workersKey(), name).Err()
	}
}

// workerHostPid splits a worker name host:pid:queues.
func workerHostPid(name string) (string, int, bool) {
	parts := strings.SplitN(name, ":", 3)
	if len(parts) < 3 {
		return "", 0, false
	}
	pid, err := strconv.Atoi(parts[1])
	return parts[0], pid, err == nil && pid > 0
}

// processAlive says whether pid names a live process (a zombie counts as gone).
func processAlive(pid int) bool {
	if err := syscall.Kill(pid, 0); errors.Is(err, syscall.ESRCH) {
		return false
	}
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return false
	}
	if i := strings.LastIndexByte(string(b), ')'); i > 0 && i+2 < len(b) {
		return b[i+2] != 'Z'
	}
	return true
}
