package nfscheck

import (
	"fmt"
	"time"

	"github.com/osctl/osctl/pkg/preflight"
)

// Rule ids of the empirical probe.
const (
	RuleProbeClients = "nfs.probe.clients"  // the two paths are two client instances of one export
	RuleProbeSize    = "nfs.probe.size"     // size after the writer appends and closes
	RuleProbeNewFile = "nfs.probe.new-file" // a new file after the reader saw ENOENT
	RuleProbeMtime   = "nfs.probe.mtime"    // mtime after the writer touches
	RuleProbeFlock   = "nfs.probe.flock"    // flock excludes across the two clients
)

// observation is one thing the probe's reader must see fresh: what it saw first, whether that
// was fresh at once, and how long it took to converge.
type observation struct {
	id, what string
	check    func() (string, bool) // what the reader sees now, and whether it is fresh
	first    string
	fresh    bool
	conv     time.Duration
	done     bool
}

// result is the verdict of one observation: PASS when fresh at once, else STALE (FAIL) with
// the time it took to converge or the timeout it did not converge within.
func (ob *observation) result(subject string, timeout time.Duration) preflight.Result {
	res := preflight.Result{ID: ob.id, Subject: subject}
	switch {
	case ob.fresh:
		res.Status, res.Message = preflight.Pass, "fresh: the reader saw "+ob.what+" at once"
	case ob.done:
		res.Status = preflight.Fail
		res.Message = fmt.Sprintf("STALE: the reader still saw %s instead of %s; it converged after %d ms", ob.first, ob.what, ob.conv.Milliseconds())
	default:
		res.Status = preflight.Fail
		res.Message = fmt.Sprintf("STALE: the reader still saw %s instead of %s and had not converged after %s", ob.first, ob.what, timeout)
	}
	if res.Status == preflight.Fail {
		res.Fix = "mount the reader with noac"
	}
	return res
}

// sizeSeen is how a reader's stat output is named in a probe message.
func sizeSeen(v string) string {
	if v == "ENOENT" {
		return v
	}
	return "size " + v
}
