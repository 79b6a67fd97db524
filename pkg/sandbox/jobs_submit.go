package sandbox

import (
	"crypto/sha256"
	"encoding/hex"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"unicode/utf8"
)

// Checks of the submit handler (main.py submit_job), in its order.
var (
	validPrograms   = []string{"blastn", "blastp", "blastx", "psiblast", "rpsblast", "rpstblastn", "tblastn", "tblastx"}
	blobURLRe       = regexp.MustCompile(`^https://[a-z0-9]+\.blob\.core\.windows\.net/[a-z0-9][-a-z0-9]*/.*$`)
	resultsPrefixRe = regexp.MustCompile(`^\d{4}/(0[1-9]|1[0-2])/(0[1-9]|[12]\d|3[01])/$`)
	sources         = map[string]bool{"dashboard": true, "external_api": true, "terminal": true, "system": true}
)

// blobBase is the sandbox's stand-in for the service's storage account.
const blobBase = "https://sandbox.blob.core.windows.net"

func checkBlobURL(v, field string) string {
	if !blobURLRe.MatchString(v) {
		return field + " must be a valid Azure Blob URL"
	}
	u, err := url.Parse(v)
	if err != nil || u.RawQuery != "" || u.Fragment != "" || strings.Contains(v, "?") || strings.Contains(v, "#") {
		return field + " must not include query strings, fragments, or SAS tokens"
	}
	parts := strings.Split(u.Path, "/")
	for _, p := range parts[min(3, len(parts)):] {
		if p == "" || p == "." || p == ".." {
			return field + " contains path traversal or empty segments"
		}
	}
	return ""
}

// dbName is _db_name_from_value.
func dbName(v string) string {
	if u, err := url.Parse(v); err == nil && u.Scheme == "https" {
		var parts []string
		for _, p := range strings.Split(u.Path, "/") {
			if p != "" {
				parts = append(parts, p)
			}
		}
		if len(parts) == 0 {
			return "unknown"
		}
		return parts[len(parts)-1]
	}
	s := strings.Trim(strings.TrimSpace(v), "/")
	parts := strings.Split(s, "/")
	if last := parts[len(parts)-1]; last != "" {
		return last
	}
	return "unknown"
}

// jobIDFromKey is _job_id_from_idempotency_key over "<submission_source>:<key>".
func jobIDFromKey(source, key string) (string, bool) {
	c := strings.TrimSpace(source + ":" + key)
	if c == "" || utf8.RuneCountInString(c) > 256 {
		return "", false
	}
	sum := sha256.Sum256([]byte(c))
	return hex.EncodeToString(sum[:])[:12], true
}

// submitJob is POST /v1/jobs: 202 with the job, queued (or already dispatching), whatever the
// ceiling; a replay of an idempotency key this replica holds answers 202 with that job.
func (s *jobsService) submitJob(w http.ResponseWriter, r *http.Request) {
	b, invalid, err := readSubmit(r)
	if err != nil {
		writeError(w, err)
		return
	}
	if invalid != nil {
		writeJSON(w, http.StatusUnprocessableEntity, invalid)
		return
	}
	ctx := r.Context()
	source, corr, status, detail := checkSubmitter(b)
	if status != 0 {
		fastAPIError(w, status, detail)
		return
	}
	var id string
	if b.Key != nil && *b.Key != "" {
		var ok bool
		if id, ok = jobIDFromKey(source, *b.Key); !ok {
			fastAPIError(w, http.StatusBadRequest, "idempotency_key must be 1-256 characters")
			return
		}
		if old, err := s.st.get(ctx, id); err == nil {
			s.replay(w, old)
			return
		}
	} else {
		id = randomHex(6)
	}
	mode, dbURL, detail := checkSubmitMode(b)
	if detail != "" {
		fastAPIError(w, http.StatusBadRequest, detail)
		return
	}
	now := s.now()
	stamp := isoTime(now)
	cluster := "sandbox"
	if b.ClusterName != nil && *b.ClusterName != "" {
		cluster = *b.ClusterName
	}
	j := &job{ID: id, Status: JobQueued, Mode: mode, CreatedAt: stamp, QueuedAt: stamp, UpdatedAt: stamp,
		LastProgressAt: stamp, Priority: b.Priority, Resource: b.ResourceProfile, Source: source, CorrID: corr,
		ClusterName: cluster, Program: b.Program, DB: dbURL, DBName: dbName(b.DB), Seq: now.UnixMicro(), Replica: s.cfg.Replica,
		IdempotencyKey: b.Key}
	if len(b.Passthrough) > 0 {
		j.Passthrough = string(mustJSON(b.Passthrough))
	}
	stored, created, err := s.st.create(ctx, j, s.cfg.Jobs.RequeueEvery, s.cfg.Jobs.RequeuePhase)
	if err != nil {
		fastAPIError(w, http.StatusServiceUnavailable, "failed to persist job queue state")
		return
	}
	if !created { // the same key submitted at the same time: the other one made the job
		s.replay(w, stored)
		return
	}
	s.dispatchOnce()
	cur := stored
	if j2, err := s.st.get(ctx, id); err == nil {
		cur = j2
	}
	out := map[string]any{"job_id": id, "status": cur.Status, "queue_position": s.queuePosition(r, cur),
		"submission_source": source, "external_correlation_id": corr, "created_at": stamp,
		"blast_version": "unknown", "blast_version_detail": map[string]any{"version": "unknown"}, "db_name": j.DBName,
		"db_version": "unknown", "db_version_detail": map[string]any{"version": "unknown"},
		"message": "Poll GET /v1/jobs/" + id + "/status for progress.", "status_url": "/v1/jobs/" + id + "/status"}
	if len(b.Passthrough) > 0 {
		out["passthrough"] = b.Passthrough
	}
	writeJSON(w, http.StatusAccepted, out)
}

// replay answers a submit whose idempotency key names a job this replica holds.
func (s *jobsService) replay(w http.ResponseWriter, old *job) {
	id := old.ID
	out := map[string]any{"job_id": id, "status": old.Status, "submission_source": old.Source,
		"external_correlation_id": old.CorrID, "blast_version": "unknown", "db_name": old.DBName,
		"db_version": "unknown", "message": "Existing job returned for idempotency_key.", "status_url": "/v1/jobs/" + id + "/status"}
	if pt := passthroughJSON(old.Passthrough); pt != nil {
		out["passthrough"] = pt
	}
	writeJSON(w, http.StatusAccepted, out)
}

// checkSubmitter checks the program and who submits, as main.py does first: the source
// (lower-cased) and the correlation id, or the status and detail the service answers.
func checkSubmitter(b *submitBody) (source, corr string, status int, detail string) {
	valid := false
	for _, p := range validPrograms {
		valid = valid || p == b.Program
	}
	if !valid {
		return "", "", http.StatusBadRequest, "Invalid program. Must be: " + strings.Join(validPrograms, ", ")
	}
	source = strings.ToLower(strings.TrimSpace(b.Source))
	switch {
	case !sources[source]:
		return "", "", http.StatusBadRequest, "submission_source must be dashboard, external_api, terminal, or system"
	case source != "external_api":
		return "", "", http.StatusForbidden, "trusted submission_source requires internal authentication"
	}
	if b.CorrID != nil {
		corr = strings.TrimSpace(*b.CorrID)
		if strings.ContainsFunc(corr, func(c rune) bool { return c < 0x20 }) {
			return "", "", http.StatusBadRequest, "value must not contain control characters"
		}
	}
	return source, corr, 0, ""
}

// checkSubmitMode checks the job's inputs: Mode B (a query_fasta) or Mode A (Blob URLs of the
// queries and results), and returns the mode and the database URL, or the 400's detail.
func checkSubmitMode(b *submitBody) (mode, dbURL, detail string) {
	mode, dbURL = "A", b.DB
	if b.QueryFasta != nil {
		mode = "B"
		if strings.TrimSpace(*b.QueryFasta) == "" {
			return "", "", "query_fasta must not be empty"
		}
		if blobURLRe.MatchString(b.DB) {
			if msg := checkBlobURL(b.DB, "db"); msg != "" {
				return "", "", msg
			}
		} else {
			if b.DB == "" || strings.HasPrefix(b.DB, "/") || strings.ContainsAny(b.DB, "?#") || strings.Contains(b.DB, "..") {
				return "", "", "db must be a safe blob path without query strings or traversal"
			}
			dbURL = blobBase + "/blast-db/" + b.DB + "/" + b.DB
		}
		if p := b.ResultsPrefix; p != nil && strings.Trim(strings.TrimSpace(*p), "/") != "" {
			if !resultsPrefixRe.MatchString(strings.Trim(strings.TrimSpace(*p), "/") + "/") {
				return "", "", "results_prefix must be an exact YYYY/MM/DD/ date path"
			}
		}
		return mode, dbURL, ""
	}
	if b.Queries == nil || b.Results == nil || *b.Queries == "" || *b.Results == "" {
		return "", "", "Mode A requires queries and results Blob URLs"
	}
	for _, f := range []struct{ v, name string }{{b.DB, "db"}, {*b.Queries, "queries"}, {*b.Results, "results"}} {
		if msg := checkBlobURL(f.v, f.name); msg != "" {
			return "", "", msg
		}
	}
	return mode, dbURL, ""
}
