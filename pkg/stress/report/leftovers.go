package report

import (
	"fmt"
	"strings"
	"time"

	"github.com/osctl/osctl/pkg/stress/detect"
	"github.com/osctl/osctl/pkg/stress/history"
)

// Leftovers is what a dead holder may have left after a run with faults: what the run read
// after its load (the footer's, so `osctl stress judge` gives the same), and how long each
// killed or paused replica may have blocked the others (detect.Blocked, from the history).
type Leftovers struct {
	history.Leftovers
	// Read says the files and Redis locks were read (false: the run could not, e.g. without a
	// sandbox's --state-dir; the lists are then empty).
	Read       bool             `json:"read"`
	BlockedFor []detect.Blocked `json:"blocked_for"`
}

// addFaults marks the requests each fault caught in flight and adds what the faults left.
func (r *Report) addFaults(h *history.History) {
	faults, blocked := detect.FaultsCaught(h)
	if faults == nil {
		return
	}
	r.Faults = faults
	l := &Leftovers{BlockedFor: blocked}
	if f := h.Footer; f.Leftovers != nil {
		l.Leftovers, l.Read = *f.Leftovers, true
	}
	if l.LockFiles == nil {
		l.LockFiles = []history.LeftoverFile{}
	}
	if l.TempFiles == nil {
		l.TempFiles = []history.LeftoverFile{}
	}
	if l.RedisLocks == nil {
		l.RedisLocks = []history.LeftoverLock{}
	}
	if l.BlockedFor == nil {
		l.BlockedFor = []detect.Blocked{}
	}
	r.Leftovers = l
}

// StaleLocks counts the Redis locks whose holder is gone.
func (l *Leftovers) StaleLocks() int {
	n := 0
	for _, k := range l.RedisLocks {
		if k.Status == "stale" {
			n++
		}
	}
	return n
}

// Lines are the terminal summary's lines for the leftovers: one that counts them, then one per
// Redis lock, lock file and temp file (at most n of each), and each fault's longest block.
func (l *Leftovers) Lines(n int) []string {
	if l == nil {
		return nil
	}
	if !l.Read {
		return []string{"leftovers: not read (the run had no {StateDir} of a sandbox); none counted"}
	}
	out := []string{fmt.Sprintf("leftovers (not findings; the verdict stands): %d lock file(s), %d temp file(s), %d Redis lock(s) (%d stale)",
		len(l.LockFiles), len(l.TempFiles), len(l.RedisLocks), l.StaleLocks())}
	for i, k := range l.RedisLocks {
		if i == n {
			out = append(out, fmt.Sprintf("  and %d more Redis locks (see -o json)", len(l.RedisLocks)-n))
			break
		}
		out = append(out, fmt.Sprintf("  redis lock %s: %s, %s (held on %d of %d masters, TTL %v)", k.Key, k.Status, k.Reason, k.Held, k.Masters, time.Duration(k.TTLMillis)*time.Millisecond))
	}
	out = append(out, fileLines("lock file", l.LockFiles, n)...)
	out = append(out, fileLines("temp file", l.TempFiles, n)...)
	for _, b := range l.BlockedFor {
		out = append(out, fmt.Sprintf("  %s may have blocked analysis %s for up to %.1fs (request %d's wait after it)", b.Fault, b.Analysis, b.Seconds, b.Seq))
	}
	for _, w := range l.Warnings {
		out = append(out, "  not read: "+w)
	}
	return out
}

func fileLines(what string, files []history.LeftoverFile, n int) []string {
	var out []string
	for i, f := range files {
		if i == n {
			out = append(out, fmt.Sprintf("  and %d more %ss (see -o json)", len(files)-n, what))
			break
		}
		s := "  " + what + " " + f.Path
		var notes []string
		if f.Status != "" {
			notes = append(notes, f.Status)
		}
		if f.Dir {
			notes = append(notes, "a directory")
		}
		notes = append(notes, fmt.Sprintf("%d bytes", f.Size))
		out = append(out, s+" ("+strings.Join(notes, ", ")+")")
	}
	return out
}
