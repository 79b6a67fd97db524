package sandbox

import (
	"encoding/base64"
	"encoding/json"
	"errors"
	"net/http"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"
)

// TokenHeader carries the job API's token.
const TokenHeader = "X-ELB-API-Token"

// fastAPIError answers like FastAPI's HTTPException: {"detail": msg}.
func fastAPIError(w http.ResponseWriter, status int, msg string) {
	writeJSON(w, status, map[string]any{"detail": msg})
}

var nonHex = regexp.MustCompile(`[^a-f0-9]`)

// sanitizeJobID is _sanitize_job_id: lowercase, drop every character that is not hex, and
// accept 6 to 12 of them.
func sanitizeJobID(id string) (string, bool) {
	c := nonHex.ReplaceAllString(strings.ToLower(id), "")
	return c, len(c) >= 6 && len(c) <= 12
}

func (s *jobsService) jobOr404(w http.ResponseWriter, r *http.Request, raw string) (*job, bool) {
	id, ok := sanitizeJobID(raw)
	if !ok {
		fastAPIError(w, http.StatusBadRequest, "Invalid job_id format")
		return nil, false
	}
	j, err := s.st.get(r.Context(), id)
	switch {
	case errors.Is(err, errNoJob):
		fastAPIError(w, http.StatusNotFound, "Job "+id+" not found")
		return nil, false
	case err != nil:
		fastAPIError(w, http.StatusServiceUnavailable, "reading the job store: "+err.Error())
		return nil, false
	}
	return j, true
}

func (s *jobsService) jobStatus(w http.ResponseWriter, r *http.Request, raw string) {
	j, ok := s.jobOr404(w, r, raw)
	if !ok {
		return
	}
	id := j.ID
	j, err := s.refresh(r.Context(), j)
	if errors.Is(err, errNoJob) {
		fastAPIError(w, http.StatusNotFound, "Job "+id+" not found")
		return
	}
	if err != nil {
		fastAPIError(w, http.StatusServiceUnavailable, "refreshing the job: "+err.Error())
		return
	}
	phase := j.Phase
	if phase == "" {
		phase = j.Status
	}
	writeJSON(w, http.StatusOK, map[string]any{
		"job_id": j.ID, "status": j.Status, "phase": phase, "queue_position": s.queuePosition(r, j),
		"created_at": j.CreatedAt, "updated_at": j.UpdatedAt, "last_progress_at": j.LastProgressAt,
		"program": j.Program, "db": j.DB, "resource_profile": j.Resource, "error": j.Error,
		"kubernetes": map[string]any{"summary": map[string]any{}},
	})
}

// queuePosition is the job's 1-based place in the queue, nil when it is not queued.
func (s *jobsService) queuePosition(r *http.Request, j *job) any {
	if j.Status != JobQueued {
		return nil
	}
	ids, err := s.st.queue(r.Context())
	if p := position(ids, j.ID); err == nil && p > 0 {
		return p
	}
	return nil
}

// deleteJob cancels the job (its submit thread stops) and forgets it: later reads answer 404.
func (s *jobsService) deleteJob(w http.ResponseWriter, r *http.Request, raw string) {
	j, ok := s.jobOr404(w, r, raw)
	if !ok {
		return
	}
	s.cancel(j.ID)
	if _, err := s.st.remove(r.Context(), j.ID); err != nil && !errors.Is(err, errNoJob) {
		fastAPIError(w, http.StatusServiceUnavailable, "deleting the job: "+err.Error())
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"job_id": j.ID, "status": "deleted"})
}

// seconds is _duration_seconds: whole seconds from start to end (now when end is empty).
func seconds(start, end string, now time.Time) any {
	s, err := time.Parse(time.RFC3339Nano, start)
	if err != nil {
		return nil
	}
	e := now
	if end != "" {
		if e, err = time.Parse(time.RFC3339Nano, end); err != nil {
			return nil
		}
	}
	return max(0, int(e.Sub(s)/time.Second))
}

// listJobs is GET /v1/jobs?limit=&cursor=: every job this replica holds (its own with the local
// queues, all with the shared one), without refreshing any.
func (s *jobsService) listJobs(w http.ResponseWriter, r *http.Request) {
	limit := 0
	if v, ok := r.URL.Query()["limit"]; ok {
		n, err := strconv.Atoi(v[0])
		if err != nil || n < 1 || n > 500 {
			writeJSON(w, http.StatusUnprocessableEntity, validationDetail(fieldError{"greater_than_equal", []any{"query", "limit"}, "Input should be an integer from 1 to 500", v[0]}))
			return
		}
		limit = n
	}
	js, err := s.st.list(r.Context())
	if err != nil {
		fastAPIError(w, http.StatusServiceUnavailable, "reading the job store: "+err.Error())
		return
	}
	queue, err := s.st.queue(r.Context())
	if err != nil {
		fastAPIError(w, http.StatusServiceUnavailable, "reading the job store: "+err.Error())
		return
	}
	now := s.now()
	items := make([]map[string]any, 0, len(js))
	for _, j := range js {
		var pos any
		if p := position(queue, j.ID); p > 0 {
			pos = p
		}
		end := ""
		if JobTerminal(j.Status) {
			end = j.CompletedAt
			if end == "" {
				end = j.UpdatedAt
			}
		}
		item := map[string]any{"job_id": j.ID, "status": j.Status, "mode": j.Mode, "created_at": j.CreatedAt,
			"program": j.Program, "cluster_name": j.ClusterName, "db": j.DB, "elb_job_id": "", "priority": j.Priority,
			"queue_position": pos, "started_at": j.StartedAt, "updated_at": j.UpdatedAt,
			"elapsed_seconds": seconds(j.CreatedAt, end, now), "queue_wait_seconds": nil, "run_seconds": nil}
		if j.StartedAt != "" {
			item["queue_wait_seconds"] = seconds(j.QueuedAt, j.StartedAt, now)
			item["run_seconds"] = seconds(j.StartedAt, end, now)
		}
		items = append(items, item)
	}
	total := len(items)
	if limit == 0 {
		writeJSON(w, http.StatusOK, map[string]any{"jobs": items, "count": total, "next_cursor": nil, "has_more": false})
		return
	}
	key := func(m map[string]any) string { return m["created_at"].(string) + "\x1f" + m["job_id"].(string) }
	sort.Slice(items, func(a, b int) bool { return key(items[a]) > key(items[b]) })
	if c := r.URL.Query().Get("cursor"); c != "" {
		if raw, err := base64.URLEncoding.DecodeString(c); err == nil && strings.Contains(string(raw), "\x1f") {
			kept := items[:0]
			for _, it := range items {
				if key(it) < string(raw) {
					kept = append(kept, it)
				}
			}
			items = kept
		}
	}
	page, more := items, false
	if len(items) > limit {
		page, more = items[:limit], true
	}
	var next any
	if more && len(page) > 0 {
		next = base64.URLEncoding.EncodeToString([]byte(key(page[len(page)-1])))
	}
	writeJSON(w, http.StatusOK, map[string]any{"jobs": page, "count": total, "next_cursor": next, "has_more": more})
}

// passthroughJSON decodes a stored passthrough object (nil when none).
func passthroughJSON(s string) map[string]any {
	if s == "" {
		return nil
	}
	var m map[string]any
	if json.Unmarshal([]byte(s), &m) != nil || len(m) == 0 {
		return nil
	}
	return m
}
