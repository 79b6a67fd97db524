// Package profile turns a stress profile (openstudio, jobs, http) into operations for the
// attacker, and records each request in the history. Profiles speak the target's API; they know
// nothing about connection tuning, which is the attacker's.
package profile

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"regexp"
	"strings"
)

// NewRunID returns a fresh run id: 8 lowercase hex digits. Every object a run creates is named
// with it, so that its objects (and only those) can be judged and cleaned up.
func NewRunID() string {
	var b [4]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

var runIDRe = regexp.MustCompile(`^[0-9a-f]{8}$`)

// ValidRunID reports whether s has the shape of a run id.
func ValidRunID(s string) bool { return runIDRe.MatchString(s) }

// AnalysisID is the uuid-shaped id of the run's i-th analysis: the run id is its first group, so
// any uuid-accepting server stores it as given and the run's directories share a prefix.
func AnalysisID(run string, i int) string { return objectID(run, 0xa, i) }

// DataPointID is the uuid-shaped id of the run's i-th data point.
func DataPointID(run string, i int) string { return objectID(run, 0xd, i) }

func objectID(run string, kind, i int) string {
	return fmt.Sprintf("%s-%04x-4%03x-8000-%012x", run, kind, 0, i)
}

// Nonce is the unique token of the run's seq-th request; it is written into the request's body.
func Nonce(run string, seq int64) string { return fmt.Sprintf("osctl-%s-%08d", run, seq) }

// ZipName is the file name every upload of the run uses (one name per analysis, so that the
// uploads of one analysis contend for one path).
func ZipName(run string) string { return "osctl-" + run + ".zip" }

// ResultName is the file name of the run's seq-th result file upload.
func ResultName(run string, seq int64) string { return fmt.Sprintf("osctl-%s-%08d.json", run, seq) }

// OwnedBy reports whether a directory or file name belongs to run: the whole name is one of the
// run's analysis or data point ids (<run>-000a-4000-8000-<12 hex digits>), one of its result
// file names (osctl-<run>-<8 digits>.json) or its zip's name. A prefix is not enough: a run id
// has the shape of the first group of any uuid, so <run>-3c1d-4b8e-... is someone else's.
func OwnedBy(name, run string) bool {
	if !ValidRunID(run) {
		return false
	}
	if name == ZipName(run) {
		return true
	}
	return ownedRe.MatchString(name) && (strings.HasPrefix(name, run+"-") || strings.HasPrefix(name, "osctl-"+run+"-"))
}

var ownedRe = regexp.MustCompile(`^(?:[0-9a-f]{8}-000[ad]-4000-8000-[0-9a-f]{12}|osctl-[0-9a-f]{8}-[0-9]{8,}\.json)$`)

// IsAnalysisOf reports whether id is, whole, one of run's analysis ids (AnalysisID).
func IsAnalysisOf(id, run string) bool {
	return ValidRunID(run) && strings.HasPrefix(id, run+"-000a-4000-8000-") && ownedRe.MatchString(id)
}

// IsResultFileOf reports whether name is, whole, one of run's result file names (ResultName).
func IsResultFileOf(name, run string) bool {
	return ValidRunID(run) && strings.HasPrefix(name, "osctl-"+run+"-") && ownedRe.MatchString(name)
}
