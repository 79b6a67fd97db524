package lock_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/osctl/osctl/internal/testenv"
	"github.com/osctl/osctl/pkg/lock"
)

// writeEvent is one write the fenced resource saw.
type writeEvent struct {
	Holder   string
	Token    int64
	Phase    string
	Zombie   bool
	Live     bool // the writer's lease said it was held when it sent the write
	Accepted bool
	Overlap  bool // accepted while another holder's section (begin without end) was open
	OverZ    bool // ... and that section was a zombie's
}

// fencedResource is storage that can compare: it accepts a write only when its token is not
// lower than the last accepted token, and records every write.
type fencedResource struct {
	mu       sync.Mutex
	last     int64
	open     string // holder whose section began and has not ended
	openZ    bool   // that section is a zombie's
	log      []writeEvent
	overlaps int
}

func (r *fencedResource) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	if err := req.ParseForm(); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	tok, err := strconv.ParseInt(req.PostForm.Get("token"), 10, 64)
	if err != nil {
		http.Error(w, "bad token", http.StatusBadRequest)
		return
	}
	ev := writeEvent{Holder: req.PostForm.Get("holder"), Token: tok, Phase: req.PostForm.Get("phase"),
		Zombie: req.PostForm.Get("zombie") == "true", Live: req.PostForm.Get("live") == "true"}
	r.mu.Lock()
	if ev.Phase == "abandon" { // not a write: the holder stopped when its lease was lost
		if r.open == ev.Holder {
			r.open = ""
		}
		r.mu.Unlock()
		return
	}
	ev.Accepted = tok >= r.last
	if ev.Accepted {
		if r.open != "" && r.open != ev.Holder {
			ev.Overlap, ev.OverZ = true, r.openZ
			r.overlaps++
		}
		r.last = tok
		switch ev.Phase {
		case "begin":
			r.open, r.openZ = ev.Holder, ev.Zombie
		case "end":
			if r.open == ev.Holder {
				r.open = ""
			}
		}
	}
	r.log = append(r.log, ev)
	r.mu.Unlock()
	if !ev.Accepted {
		http.Error(w, "stale fencing token", http.StatusConflict)
	}
}

// checkFencedLog returns every violation of fencing in a resource's write log: a token shared
// by two holders (two acquisitions got the same token, so storage cannot tell the stale one),
// or an accepted write whose token is lower than one accepted before it (a stale write let in).
func checkFencedLog(log []writeEvent) []string {
	var out []string
	owner := map[int64]string{}
	var highest int64
	for i, ev := range log {
		if h, ok := owner[ev.Token]; ok && h != ev.Holder {
			out = append(out, fmt.Sprintf("write %d: token %d used by %s and by %s", i, ev.Token, h, ev.Holder))
		}
		owner[ev.Token] = ev.Holder
		if !ev.Accepted {
			continue
		}
		if ev.Token < highest {
			out = append(out, fmt.Sprintf("write %d: stale token %d accepted after %d", i, ev.Token, highest))
		}
		highest = max(highest, ev.Token)
	}
	return out
}

func TestCheckFencedLogCatchesViolations(t *testing.T) {
	ok := []writeEvent{{Holder: "a", Token: 1, Accepted: true}, {Holder: "b", Token: 2, Accepted: true}, {Holder: "a", Token: 1}}
	if v := checkFencedLog(ok); len(v) != 0 {
		t.Fatalf("clean log flagged: %v", v)
	}
	shared := []writeEvent{{Holder: "a", Token: 3, Accepted: true}, {Holder: "b", Token: 3, Accepted: true}}
	if v := checkFencedLog(shared); len(v) != 1 {
		t.Fatalf("shared token not flagged: %v", v)
	}
	stale := []writeEvent{{Holder: "a", Token: 4, Accepted: true}, {Holder: "b", Token: 3, Accepted: true}}
	if v := checkFencedLog(stale); len(v) != 1 {
		t.Fatalf("stale accepted write not flagged: %v", v)
	}
}

// TestSafetyUnderContention runs several worker processes that contend for one key on three
// masters with renewal, kills one master mid-run and brings it back, and checks with a fenced
// resource that no stale holder's write was accepted.
func TestSafetyUnderContention(t *testing.T) {
	if testing.Short() {
		t.Skip("starts worker processes")
	}
	const (
		workers = 4
		run     = 6 * time.Second
	)
	rs := testenv.StartRedisMasters(t, 3, testenv.WithArgs("--appendonly", "yes", "--appendfsync", "always"))
	res := &fencedResource{}
	srv := httptest.NewServer(res)
	defer srv.Close()
	key := lock.Key("an-safety", "extract")
	procs := startWorkers(t, workers, func(i int) []string {
		zombie := 0
		if i < 2 {
			zombie = 4
		}
		return []string{
			workerMastersEnv + "=" + strings.Join(testenv.URLs(rs), ","),
			workerResourceEnv + "=" + srv.URL,
			workerKeyEnv + "=" + key,
			workerRunEnv + "=" + run.String(),
			workerZombieEnv + "=" + strconv.Itoa(zombie),
		}
	})
	time.Sleep(run / 3)
	rs[1].Kill()
	t.Logf("killed master #1 at %v", run/3)
	time.Sleep(run / 3)
	rs[1].Restart()
	t.Logf("restarted master #1 at %v (AOF, appendfsync always)", 2*run/3)

	waitWorkers(t, procs, run+60*time.Second)
	var total workerSummary
	acquiredBy := 0
	for i, p := range procs {
		var s workerSummary
		if err := json.Unmarshal(p.stdout.Bytes(), &s); err != nil {
			t.Fatalf("worker %d summary %q: %v\n%s", i, p.stdout.String(), err, p.stderr.String())
		}
		t.Logf("worker %d: %+v", i, s)
		if s.Acquired > 0 {
			acquiredBy++
		}
		total.Acquired += s.Acquired
		total.Zombies += s.Zombies
		total.Lost += s.Lost
		total.Accepted += s.Accepted
		total.Rejected += s.Rejected
		total.RejectedWhileLive += s.RejectedWhileLive
	}

	res.mu.Lock()
	log := append([]writeEvent(nil), res.log...)
	overlaps := res.overlaps
	res.mu.Unlock()
	var zombieAccepted, zombieRejected, liveOverlaps int
	var zombieTakeovers int
	for _, ev := range log {
		switch {
		case ev.Zombie && ev.Phase == "begin":
		case ev.Zombie && ev.Accepted:
			zombieAccepted++
		case ev.Zombie:
			zombieRejected++
		}
		switch {
		case ev.Overlap && ev.OverZ:
			zombieTakeovers++
		case ev.Overlap:
			liveOverlaps++
		}
	}
	t.Logf("acquisitions %d (by %d workers), writes %d accepted / %d rejected; zombie sections %d, zombie writes %d accepted (no newer token yet) / %d rejected; leases lost in a section %d",
		total.Acquired, acquiredBy, total.Accepted, total.Rejected, total.Zombies, zombieAccepted, zombieRejected, total.Lost)
	t.Logf("overlapping critical sections observed by the resource: %d: %d took over a zombie's section (expected: the zombie ignored its lost lease), %d took over a well-behaved holder's section (the lock did not exclude); writes rejected while the writer's lease said held: %d",
		overlaps, zombieTakeovers, liveOverlaps, total.RejectedWhileLive)

	if v := checkFencedLog(log); len(v) > 0 {
		t.Fatalf("%d fencing violations, first: %s", len(v), strings.Join(v[:min(5, len(v))], "; "))
	}
	if len(log) != total.Accepted+total.Rejected {
		t.Fatalf("resource saw %d writes, workers sent %d", len(log), total.Accepted+total.Rejected)
	}
	if total.Acquired < 10 || acquiredBy < 2 {
		t.Fatalf("too little contention to judge: %d acquisitions by %d workers", total.Acquired, acquiredBy)
	}
	if total.Zombies > 0 && zombieRejected == 0 {
		t.Fatalf("%d zombie sections wrote after their lease ended and none was rejected", total.Zombies)
	}
}

// workerProc is one re-executed test binary.
type workerProc struct {
	cmd    *exec.Cmd
	stdout bytes.Buffer
	stderr bytes.Buffer
}

// startWorkers starts n worker processes with env(i) added to their environment; they are
// killed if still running when the test ends.
func startWorkers(t *testing.T, n int, env func(i int) []string) []*workerProc {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	procs := make([]*workerProc, n)
	for i := range procs {
		p := &workerProc{}
		p.cmd = exec.Command(exe, "-test.run=^$")
		p.cmd.Env = append(append(os.Environ(), workerEnv+"="+strconv.Itoa(i)), env(i)...)
		p.cmd.Stdout, p.cmd.Stderr = &p.stdout, &p.stderr
		if err := p.cmd.Start(); err != nil {
			t.Fatal(err)
		}
		procs[i] = p
		t.Cleanup(func() {
			if p.cmd.ProcessState == nil {
				_ = p.cmd.Process.Kill()
				_ = p.cmd.Wait()
			}
		})
	}
	return procs
}

// waitWorkers waits for every worker (at most limit) and fails the test if one failed.
func waitWorkers(t *testing.T, procs []*workerProc, limit time.Duration) {
	t.Helper()
	done := make(chan struct{})
	go func() {
		defer close(done)
		for _, p := range procs {
			_ = p.cmd.Wait()
		}
	}()
	select {
	case <-done:
	case <-time.After(limit):
		t.Fatal("workers did not finish")
	}
	for i, p := range procs {
		if !p.cmd.ProcessState.Success() {
			t.Fatalf("worker %d failed: %v\n%s", i, p.cmd.ProcessState, p.stderr.String())
		}
	}
}
