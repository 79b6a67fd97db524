package profile

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/osctl/osctl/pkg/stress/history"
)

// ResqueFailedMax bounds how many entries of Resque's failed list ReadResqueFailed reads: the
// newest. A list that holds more has older entries, which a run cannot have made unless it ran
// for longer than those took to fail.
const ResqueFailedMax = 10000

// resqueFailedPage is how many entries one LRANGE reads.
const resqueFailedPage = 500

// DefaultResqueNamespace is the key prefix Resque's redis-namespace gives its keys: the failed
// list is resque:failed.
const DefaultResqueNamespace = "resque"

// ResqueFailedKey is the failed list of Resque under namespace ns (Resque's Redis failure
// backend pushes each failure on its right).
func ResqueFailedKey(ns string) string { return strings.TrimSuffix(ns, ":") + ":failed" }

// ResqueFailures is what ReadResqueFailed found in a Resque failed list.
type ResqueFailures struct {
	// Jobs are the failed InitializeAnalysis jobs of the analyses keep accepted, failed at or
	// after the run began, oldest first: the failed jobs the sandbox's GET /status/failed_jobs
	// gives.
	Jobs []history.FailedJob
	// Len is how many entries the list held; Read how many of the newest were read (at most
	// ResqueFailedMax; fewer when a whole page of them failed before the run began).
	Len, Read int64
	// Older are other failures from before the run began: not the run's, ignored. OlderOfRun
	// are failures of the run's own analyses stamped before the run began (the server's clock
	// behind osctl's, or an earlier run of the same run id): in Jobs all the same, since an
	// analysis id is the run's, and a failure left out would be a false clean verdict.
	Older, OlderOfRun int
	// Others are failures since the run began of other jobs or other analyses: not judged.
	Others int
	// Malformed entries are not Resque's JSON or have no failed_at: skipped.
	Malformed int
	// Cut says the reading stopped at ResqueFailedMax entries, all since the run began: older
	// failures of the run may lie beyond them, not read.
	Cut bool
}

// ReadResqueFailed reads Resque's failed list key (ResqueFailedKey) on c, newest first, and
// returns the failed InitializeAnalysis jobs of the analyses keep accepts that failed at or
// after since. It only reads (LLEN, LRANGE): nothing is removed from the list.
func ReadResqueFailed(ctx context.Context, c redis.Cmdable, key string, since time.Time, keep func(analysis string) bool) (ResqueFailures, error) {
	var out ResqueFailures
	n, err := c.LLen(ctx, key).Result()
	if err != nil {
		return out, fmt.Errorf("LLEN %s: %w", key, err)
	}
	out.Len = n
	since = since.Truncate(time.Second) // failed_at is to the second
	// Positive indexes from the length read first: failures pushed meanwhile do not shift them.
	reachedOlder := false
	for end := n - 1; end >= 0 && out.Read < ResqueFailedMax; {
		start := max(0, end-resqueFailedPage+1, n-ResqueFailedMax)
		raw, err := c.LRange(ctx, key, start, end).Result()
		if err != nil {
			return out, fmt.Errorf("LRANGE %s %d %d: %w", key, start, end, err)
		}
		out.Read += int64(len(raw))
		older, jobs := 0, out.Jobs
		out.Jobs = nil
		for _, v := range raw {
			if out.add(v, since, keep) {
				older++
			}
		}
		out.Jobs = append(out.Jobs, jobs...) // oldest first, as the list is
		reachedOlder = older > 0             // the reading got back to the run's start
		if len(raw) == 0 || older == len(raw) {
			reachedOlder = true
			break // the list is in the order of failure: what lies before this page is older still
		}
		end = start - 1
	}
	out.Cut = !reachedOlder && out.Read < out.Len
	return out, nil
}

// add sorts one entry of the list into out and says whether it failed before since.
func (out *ResqueFailures) add(v string, since time.Time, keep func(string) bool) (older bool) {
	var f resqueFailure
	if json.Unmarshal([]byte(v), &f) != nil {
		out.Malformed++
		return false
	}
	latest, ok := failedBy(f.FailedAt)
	if !ok {
		out.Malformed++
		return false
	}
	fj, isExtraction := f.extraction()
	ofRun := isExtraction && keep(fj.Analysis)
	older = latest.Before(since)
	switch {
	case ofRun: // the run's own analysis: judged even when stamped before the run (a clock behind)
		out.Jobs = append(out.Jobs, fj)
		if older {
			out.OlderOfRun++
		}
	case older:
		out.Older++
	default:
		out.Others++
	}
	return older
}

// failedBy is the latest time a failed_at (Ruby's Time#strftime("%Y/%m/%d %H:%M:%S %Z"), in the
// worker's local time) can stand for: the time itself in UTC or GMT, or with a numeric zone
// (+04, +0530); for any other zone name, which Go cannot resolve, the time as UTC plus 12
// hours: the local time of the zone farthest behind UTC (UTC-12).
func failedBy(s string) (time.Time, bool) {
	i := strings.LastIndexByte(s, ' ')
	if i < 0 {
		return time.Time{}, false
	}
	t, err := time.Parse("2006/01/02 15:04:05", s[:i])
	if err != nil {
		return time.Time{}, false
	}
	switch zone := s[i+1:]; {
	case zone == "UTC" || zone == "GMT" || zone == "Z":
		return t, true
	case len(zone) >= 3 && (zone[0] == '+' || zone[0] == '-'):
		off, ok := zoneOffset(zone)
		if !ok {
			return time.Time{}, false
		}
		return t.Add(-off), true
	default:
		return t.Add(12 * time.Hour), true
	}
}

// zoneOffset parses a numeric zone, +HH, +HHMM or +HH:MM.
func zoneOffset(z string) (time.Duration, bool) {
	digits := strings.ReplaceAll(z[1:], ":", "")
	if len(digits) != 2 && len(digits) != 4 {
		return 0, false
	}
	h, err := strconv.Atoi(digits[:2])
	if err != nil || h > 14 {
		return 0, false
	}
	m := 0
	if len(digits) == 4 {
		if m, err = strconv.Atoi(digits[2:]); err != nil || m > 59 {
			return 0, false
		}
	}
	off := time.Duration(h)*time.Hour + time.Duration(m)*time.Minute
	if z[0] == '-' {
		off = -off
	}
	return off, true
}
