package nfscheck

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/osctl/osctl/pkg/preflight"
)

// Rule ids of the mount grading. They are stable: users ignore rules by id.
const (
	RuleMount       = "nfs.mount"       // an NFS mount holds the path
	RuleNoac        = "nfs.noac"        // attribute cache off (noac)
	RuleCTO         = "nfs.cto"         // close-to-open revalidation on (no nocto)
	RuleHard        = "nfs.hard"        // hard mount (no soft/softerr)
	RuleLookupcache = "nfs.lookupcache" // lookupcache=pos/none (a plus)
	RuleLocking     = "nfs.locking"     // locks reach the server (v3 without nolock/local_lock)
	RulePodsAgree   = "nfs.pods-agree"  // every pod of the workload mounts with the same options
)

// GradeOptions tune the grading.
type GradeOptions struct {
	// AppLocksFiles says the application takes flock/fcntl locks on the share (OpenStudio
	// does, on analysis_zip.lock): then v3 nolock/local_lock is a FAIL rather than a WARN.
	AppLocksFiles bool
}

// NoMountResult is the FAIL for a path that no NFS mount holds.
func NoMountResult(subject, p string, m Mount, found bool) preflight.Result {
	msg := fmt.Sprintf("no NFS mount holds %s", p)
	if found {
		msg += fmt.Sprintf(": it is on %s %s mounted at %s", m.FSType, m.Source, m.MountPoint)
	}
	return preflight.Result{ID: RuleMount, Status: preflight.Fail, Subject: subject, Message: msg,
		Fix: "mount the shared volume over NFS at " + p + " (or check the right mount point)"}
}

// GradePath finds the mount holding p in ms and grades it; a path on no NFS mount is a FAIL.
func GradePath(ms []Mount, p, subject string, g GradeOptions) []preflight.Result {
	m, ok := FindMount(ms, p)
	if !ok || !m.IsNFS() {
		return []preflight.Result{NoMountResult(subject, p, m, ok)}
	}
	return GradeMount(m, subject, g)
}

// GradeMount grades one NFS mount's options per the noac table (see the package doc and
// docs/migration): every rule gives one result, so a report shows what passed too.
func GradeMount(m Mount, subject string, g GradeOptions) []preflight.Result {
	o := MountOptions(m)
	vers := o.Version
	if vers == "" {
		vers = "?"
	}
	if subject == "" {
		subject = m.MountPoint
	}
	rs := []preflight.Result{{ID: RuleMount, Status: preflight.Pass, Subject: subject,
		Message: fmt.Sprintf("%s mounted at %s (%s vers=%s)", m.Source, m.MountPoint, m.FSType, vers)}}
	rs = append(rs, GradeOptionsResults(o, subject, g)...)
	return rs
}

// GradeOptionsResults grades parsed options (a live mount's, or a PV's mountOptions).
func GradeOptionsResults(o Options, subject string, g GradeOptions) []preflight.Result {
	var rs []preflight.Result
	add := func(id string, st preflight.Status, msg, fix string) {
		rs = append(rs, preflight.Result{ID: id, Status: st, Subject: subject, Message: msg, Fix: fix})
	}
	const noacFix = "mount with noac (PV spec.mountOptions: [noac], then restart the pods; a StorageClass change only affects new PVs)"
	switch {
	case o.Noac:
		add(RuleNoac, preflight.Pass, "noac: no attribute cache, synchronous writes (effective attribute cache 0 s)", "")
	case o.ActimeoZero() && o.Sync:
		add(RuleNoac, preflight.Pass, "actimeo=0 with sync: attributes always fresh, synchronous writes (effective attribute cache 0 s)", "")
	case o.ActimeoZero():
		add(RuleNoac, preflight.Warn, "actimeo=0 without sync: attributes fresh (0 s), but writes are held until close/fsync, so another pod can see a short file", "use noac (it implies sync)")
	case o.Sync:
		add(RuleNoac, preflight.Fail, fmt.Sprintf("sync alone: writes are synchronous but attributes are still cached for up to %d s (%s)", o.StaleSeconds(), o.acText()), noacFix)
	default:
		add(RuleNoac, preflight.Fail, fmt.Sprintf("attribute cache on: another pod's changes (size, mtime, new files) can stay invisible for up to %d s (%s)", o.StaleSeconds(), o.acText()), noacFix)
	}
	if o.Nocto {
		add(RuleCTO, preflight.Fail, "nocto: open() does not revalidate, so even open+read can return stale data", "remove nocto")
	} else {
		add(RuleCTO, preflight.Pass, "close-to-open consistency on (no nocto)", "")
	}
	switch {
	case o.Softerr:
		add(RuleHard, preflight.Warn, "softerr: I/O errors surface to the application on timeouts (ETIMEDOUT), risking half-written files", "mount hard")
	case o.Soft:
		add(RuleHard, preflight.Warn, "soft: I/O can fail with EIO after retrans timeouts, a risk of silent data corruption", "mount hard")
	default:
		add(RuleHard, preflight.Pass, "hard mount", "")
	}
	switch o.Lookupcache {
	case "pos", "positive":
		add(RuleLookupcache, preflight.Info, "lookupcache=pos: negative lookups are revalidated, so files created by another pod appear at once (a plus)", "")
	case "none":
		add(RuleLookupcache, preflight.Info, "lookupcache=none: every lookup is revalidated (a plus, at some cost)", "")
	}
	switch {
	case o.IsV4():
		msg := "NFSv" + o.Version + ": locks go to the server"
		if o.Nolock || (o.LocalLock != "" && o.LocalLock != "none") {
			msg += " (v4 ignores nolock/local_lock)"
		}
		add(RuleLocking, preflight.Pass, msg, "")
	case o.IsV3() && (o.Nolock || (o.LocalLock != "" && o.LocalLock != "none")):
		what := "nolock"
		if !o.Nolock {
			what = "local_lock=" + o.LocalLock
		}
		st, msg := preflight.Warn, ""
		if g.AppLocksFiles {
			st = preflight.Fail
			msg = " and the application locks files on the share"
		}
		add(RuleLocking, st, fmt.Sprintf("NFSv3 %s: flock/fcntl locks only exclude within one node%s", what, msg), "remove nolock and local_lock (or set local_lock=none) so NLM carries locks to the server")
	case o.IsV3():
		add(RuleLocking, preflight.Pass, "NFSv3 with NLM: locks reach the server", "")
	default:
		add(RuleLocking, preflight.Info, "NFS version unknown: cannot tell whether locks reach the server", "")
	}
	return rs
}

// Disagreement compares the pods' options signatures: one FAIL naming the groups when they
// differ, a PASS otherwise. sigs maps a subject (pod) to its signature.
func Disagreement(workload string, sigs map[string]string) preflight.Result {
	groups := map[string][]string{}
	var order []string
	for _, pod := range slices.Sorted(maps.Keys(sigs)) {
		s := sigs[pod]
		if _, ok := groups[s]; !ok {
			order = append(order, s)
		}
		groups[s] = append(groups[s], pod)
	}
	if len(groups) <= 1 {
		return preflight.Result{ID: RulePodsAgree, Status: preflight.Pass, Subject: workload,
			Message: fmt.Sprintf("%d pod(s) mount the volume with the same caching options", len(sigs))}
	}
	var parts []string
	for _, s := range order {
		parts = append(parts, fmt.Sprintf("%s: %s", strings.Join(groups[s], " "), s))
	}
	return preflight.Result{ID: RulePodsAgree, Status: preflight.Fail, Subject: workload,
		Message: "pods disagree on caching options: " + strings.Join(parts, "; "),
		Fix:     "make every pod mount one PV with noac, then restart the old pods (a PV change reaches a pod only when it remounts)"}
}
