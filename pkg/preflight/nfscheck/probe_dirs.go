package nfscheck

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"syscall"
	"time"

	"github.com/osctl/osctl/pkg/preflight"
)

// ProbeOptions tune the probe.
type ProbeOptions struct {
	// Timeout bounds how long the reader is polled for the fresh state. The default is 10s.
	Timeout time.Duration
	// Poll is the polling interval. The default is 100ms.
	Poll time.Duration
	// Settle is the pause after priming the reader's lookups. The default is 1.1s.
	Settle time.Duration
}

func (o *ProbeOptions) defaults() {
	if o.Timeout <= 0 {
		o.Timeout = 10 * time.Second
	}
	if o.Poll <= 0 {
		o.Poll = 100 * time.Millisecond
	}
	if o.Settle <= 0 {
		o.Settle = 1100 * time.Millisecond
	}
}

// Probe runs the empirical probe between two client mounts of one export, in both directions
// (A writes and B reads, then B writes and A reads): size after append, a new file after a
// failed lookup, mtime after touch, and flock exclusion. The reader's lookups are primed first
// so that only its caches are tested. A fresh reader PASSes; a stale one FAILs as STALE with
// the time it took to converge (or that it did not within the timeout). Two paths on one
// device share one client cache and prove nothing: that is a WARN and no test runs. An error
// means the probe could not run (a directory is missing or not writable, or the two paths are
// not the same directory).
func Probe(ctx context.Context, dirA, dirB string, o ProbeOptions) ([]preflight.Result, error) {
	o.defaults()
	devA, err := dirDev(dirA)
	if err != nil {
		return nil, err
	}
	devB, err := dirDev(dirB)
	if err != nil {
		return nil, err
	}
	pair := dirA + " and " + dirB
	if devA == devB {
		return []preflight.Result{{ID: RuleProbeClients, Status: preflight.Warn, Subject: pair,
			Message: fmt.Sprintf("both paths are on one device (st_dev %d:%d): one client instance shares one attribute cache, so the probe would look coherent and prove nothing", devMajor(devA), devMinor(devA)),
			Fix:     "give two mounts from different client instances (two pods on two nodes, or two mounts from different server addresses)"}}, nil
	}
	id := randomID()
	if err := sameExport(ctx, dirA, dirB, id, o); err != nil {
		return nil, err
	}
	rs := []preflight.Result{{ID: RuleProbeClients, Status: preflight.Pass, Subject: pair,
		Message: fmt.Sprintf("two client instances (st_dev %d:%d and %d:%d) see the same directory", devMajor(devA), devMinor(devA), devMajor(devB), devMinor(devB))}}
	// Each direction uses its own file names: a name the reader itself unlinked earlier would be
	// a cached negative lookup, a different test.
	for i, dir := range [][2]string{{dirA, dirB}, {dirB, dirA}} {
		r, err := probeDirection(ctx, dir[0], dir[1], fmt.Sprintf("%s-%d", id, i+1), o)
		if err != nil {
			return nil, err
		}
		rs = append(rs, r...)
	}
	return rs, nil
}

func dirDev(d string) (uint64, error) {
	fi, err := os.Stat(d)
	if err != nil {
		return 0, fmt.Errorf("probe: %v", err)
	}
	if !fi.IsDir() {
		return 0, fmt.Errorf("probe: %s is not a directory", d)
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return 0, fmt.Errorf("probe: cannot read the device of %s", d)
	}
	return uint64(st.Dev), nil
}

func devMajor(d uint64) uint64 { return (d >> 8) & 0xfff }
func devMinor(d uint64) uint64 { return (d & 0xff) | ((d >> 12) & 0xfff00) }

func randomID() string {
	b := make([]byte, 6)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

// sameExport writes a marker through a and reads it through b with open+read (close-to-open
// makes that fresh on any NFS client).
func sameExport(ctx context.Context, a, b, id string, o ProbeOptions) error {
	name := ".osctl-probe-" + id + ".same"
	want := "osctl probe " + id
	if err := os.WriteFile(filepath.Join(a, name), []byte(want), 0o644); err != nil {
		return fmt.Errorf("probe: %s is not writable: %v", a, err)
	}
	defer os.Remove(filepath.Join(a, name))
	deadline := time.Now().Add(min(o.Timeout, 5*time.Second))
	for {
		got, err := os.ReadFile(filepath.Join(b, name))
		if err == nil && string(got) == want {
			return nil
		}
		if time.Now().After(deadline) || ctx.Err() != nil {
			return fmt.Errorf("probe: a file written in %s does not appear in %s: they are not the same directory of one export", a, b)
		}
		sleep(ctx, o.Poll)
	}
}

func sleep(ctx context.Context, d time.Duration) {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
	case <-t.C:
	}
}

func probeDirection(ctx context.Context, w, r, id string, o ProbeOptions) ([]preflight.Result, error) {
	subject := fmt.Sprintf("reader %s (writer %s)", r, w)
	p := func(dir, n string) string { return filepath.Join(dir, ".osctl-probe-"+id+"."+n) }
	names := []string{"size", "new", "mtime", "lock"}
	defer func() {
		for _, n := range names {
			_ = os.Remove(p(w, n))
		}
	}()
	if err := os.WriteFile(p(w, "size"), []byte("a"), 0o644); err != nil {
		return nil, fmt.Errorf("probe: writing in %s: %v", w, err)
	}
	if err := os.WriteFile(p(w, "mtime"), []byte("q"), 0o644); err != nil {
		return nil, fmt.Errorf("probe: writing in %s: %v", w, err)
	}
	if err := os.WriteFile(p(w, "lock"), nil, 0o644); err != nil {
		return nil, fmt.Errorf("probe: writing in %s: %v", w, err)
	}
	// Prime the reader: look everything up twice (settles its dentry verifier), as probe.sh does.
	prime := func() {
		for _, n := range []string{"size", "mtime", "new"} {
			_, _ = os.Stat(p(r, n))
		}
	}
	prime()
	sleep(ctx, 300*time.Millisecond)
	prime()
	sleep(ctx, o.Settle)
	if ctx.Err() != nil {
		return nil, ctx.Err()
	}

	// The writer's changes.
	f, err := os.OpenFile(p(w, "size"), os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		return nil, fmt.Errorf("probe: %v", err)
	}
	_, err = f.WriteString("bbbb")
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return nil, fmt.Errorf("probe: appending in %s: %v", w, err)
	}
	past := time.Unix(1_000_000_000, 0)
	if err := os.Chtimes(p(w, "mtime"), past, past); err != nil {
		return nil, fmt.Errorf("probe: touching in %s: %v", w, err)
	}
	if err := os.WriteFile(p(w, "new"), []byte("xyz"), 0o644); err != nil {
		return nil, fmt.Errorf("probe: creating in %s: %v", w, err)
	}
	start := time.Now()

	statSize := func(path string, want int64) func() (string, bool) {
		return func() (string, bool) {
			fi, err := os.Stat(path)
			if err != nil {
				if errors.Is(err, os.ErrNotExist) {
					return "ENOENT", false
				}
				return err.Error(), false
			}
			return fmt.Sprintf("size %d", fi.Size()), fi.Size() == want
		}
	}
	obs := []*observation{
		{id: RuleProbeSize, what: "the new size (5) after the writer appended and closed", check: statSize(p(r, "size"), 5)},
		{id: RuleProbeNewFile, what: "a file the writer created after the reader's lookup failed", check: statSize(p(r, "new"), 3)},
		{id: RuleProbeMtime, what: "the new mtime after the writer touched the file", check: func() (string, bool) {
			fi, err := os.Stat(p(r, "mtime"))
			if err != nil {
				if errors.Is(err, os.ErrNotExist) {
					return "ENOENT", false
				}
				return err.Error(), false
			}
			return "mtime " + fi.ModTime().UTC().Format(time.RFC3339), fi.ModTime().Equal(past)
		}},
	}
	if err := converge(ctx, obs, start, o, nil); err != nil {
		return nil, err
	}
	var rs []preflight.Result
	for _, ob := range obs {
		rs = append(rs, ob.result(subject, o.Timeout))
	}
	rs = append(rs, probeFlock(p(w, "lock"), p(r, "lock"), subject))
	return rs, nil
}

// converge looks at every observation at once (what the reader sees first, and whether that is
// fresh), then again every o.Poll until all have converged or o.Timeout has passed since start.
// refresh, when set, runs before every look (one exec reading a pod's view).
func converge(ctx context.Context, obs []*observation, start time.Time, o ProbeOptions, refresh func() error) error {
	look := func(first bool) error {
		if refresh != nil {
			if err := refresh(); err != nil {
				return err
			}
		}
		for _, ob := range obs {
			switch {
			case first:
				ob.first, ob.fresh = ob.check()
				ob.done = ob.fresh
			case !ob.done:
				if _, ok := ob.check(); ok {
					ob.done, ob.conv = true, time.Since(start)
				}
			}
		}
		return nil
	}
	if err := look(true); err != nil {
		return err
	}
	deadline := start.Add(o.Timeout)
	for ctx.Err() == nil && time.Now().Before(deadline) && !allDone(obs) {
		sleep(ctx, o.Poll)
		if err := look(false); err != nil {
			return err
		}
	}
	return nil
}

func allDone(obs []*observation) bool {
	for _, ob := range obs {
		if !ob.done {
			return false
		}
	}
	return true
}

// probeFlock holds an exclusive flock through the writer's mount and tries a non-blocking one
// through the reader's. Each open file is its own lock owner, so the two conflict exactly when
// the locks meet at the server.
func probeFlock(wPath, rPath, subject string) preflight.Result {
	res := preflight.Result{ID: RuleProbeFlock, Subject: subject}
	wf, err := os.OpenFile(wPath, os.O_RDWR, 0)
	if err != nil {
		res.Status, res.Message = preflight.Unknown, "cannot open the lock file: "+err.Error()
		return res
	}
	defer wf.Close()
	if err := syscall.Flock(int(wf.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		res.Status, res.Message = preflight.Unknown, "the writer could not take the lock: "+err.Error()
		return res
	}
	defer func() { _ = syscall.Flock(int(wf.Fd()), syscall.LOCK_UN) }()
	rf, err := os.OpenFile(rPath, os.O_RDWR, 0)
	if err != nil {
		res.Status, res.Message = preflight.Unknown, "the reader cannot open the lock file: "+err.Error()
		return res
	}
	defer rf.Close()
	err = syscall.Flock(int(rf.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
	switch {
	case err == nil:
		_ = syscall.Flock(int(rf.Fd()), syscall.LOCK_UN)
		res.Status = preflight.Fail
		res.Message = "the reader GOT the exclusive lock the writer holds: locks stay on each client (nolock/local_lock)"
		res.Fix = "remove nolock/local_lock (NFSv3 needs rpc.statd and NLM), or use NFSv4"
	case errors.Is(err, syscall.EWOULDBLOCK):
		res.Status, res.Message = preflight.Pass, "the reader was blocked by the writer's exclusive lock: locks reach the server"
	default:
		res.Status, res.Message = preflight.Unknown, "the reader's flock failed: "+err.Error()
	}
	return res
}
