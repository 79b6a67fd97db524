package profile

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/osctl/osctl/pkg/redact"
	"github.com/osctl/osctl/pkg/stress/attack"
	"github.com/osctl/osctl/pkg/stress/history"
)

// API is a small client of the OpenStudio Server API, as the openstudio profile's setup,
// read-backs, settle and cleanup use it: one call records its request, a GET or DELETE answers
// status and body, and the ids of the answers are parsed here only.
type API struct {
	Client  Doer
	Targets []Target
	// Now is the clock (time.Now when nil).
	Now func() time.Time
	// Concurrency bounds the requests parallel sends at once. The default is 16.
	Concurrency int
}

func (a API) now() time.Time {
	if a.Now == nil {
		return time.Now()
	}
	return a.Now()
}

// Parallel calls f for 0..n-1, at most Concurrency at once, until ctx ends.
func (a API) Parallel(ctx context.Context, n int, f func(i int)) {
	c := a.Concurrency
	if c <= 0 {
		c = 16
	}
	var wg sync.WaitGroup
	var next atomic.Int64
	for w := 0; w < min(c, n); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for ctx.Err() == nil {
				i := int(next.Add(1) - 1)
				if i >= n {
					return
				}
				f(i)
			}
		}()
	}
	wg.Wait()
}

// Call sends one setup request synchronously: rec names it (op, method, path) and gets the rest.
func (a API) Call(ctx context.Context, i int, rec *history.Record, ctype string, body []byte) {
	t := a.Targets[i%len(a.Targets)].URL
	rec.Kind, rec.Target = history.KindRequest, t.Redacted()
	rec.Start = a.now()
	var rd io.Reader
	if body != nil {
		rd = bytes.NewReader(body)
	}
	req, err := http.NewRequestWithContext(ctx, rec.Method, JoinPath(t, rec.Path), rd)
	if err != nil {
		rec.End, rec.Error, rec.Outcome = a.now(), err.Error(), history.Rejected
		return
	}
	if ctype != "" {
		req.Header.Set("Content-Type", ctype)
	}
	req.Header.Set("Accept", "application/json")
	resp, err := a.Client.Do(req)
	r := attack.Result{Start: rec.Start, Intended: rec.Start}
	if err != nil {
		r.Err, r.Sent = err, !attack.IsRefused(err)
	} else {
		r.Status = resp.StatusCode
		r.Sent = true
	}
	out := Finish(rec, &r, resp, a.now)
	if resp != nil {
		_, _ = io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
	}
	rec.Outcome = out.String()
}

// Get sends a GET and returns its status and body (at most 1 MiB), or the transport error.
func (a API) Get(ctx context.Context, i int, path string) (int, []byte, string) {
	t := a.Targets[i%len(a.Targets)].URL
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	ans, err := Exchange(ctx, a.Client, http.MethodGet, JoinPath(t, path), nil, nil, 1<<20)
	switch {
	case err != nil:
		return 0, nil, err.Error()
	case ans.ReadErr != nil:
		return ans.Status, ans.Body, ans.ReadErr.Error()
	}
	return ans.Status, ans.Body, ""
}

// Delete sends one DELETE and returns its status, and an error text unless it answered 2xx.
func (a API) Delete(ctx context.Context, path string) (int, string) {
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	ans, err := Exchange(ctx, a.Client, http.MethodDelete, JoinPath(a.Targets[0].URL, path), nil, nil, excerptLen)
	if err != nil {
		return 0, "DELETE: " + err.Error()
	}
	if ans.Status/100 != 2 {
		return ans.Status, fmt.Sprintf("DELETE answered %d: %s", ans.Status, Excerpt(ans.Body))
	}
	return ans.Status, ""
}

// Finish fills a record from a result and response (reading the body) and returns the outcome.
func Finish(rec *history.Record, r *attack.Result, resp *http.Response, now func() time.Time) attack.Outcome {
	var body []byte
	if resp != nil {
		body, _ = io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	}
	r.End = now()
	rec.Start, rec.End, rec.Status = r.Start, r.End, r.Status
	if r.Intended.Before(r.Start) {
		rec.Intended = r.Intended
	}
	if r.Err != nil {
		rec.Error = r.Err.Error()
		rec.Timeout = r.Timeout
	}
	out := attack.Classify(r)
	if resp != nil && len(body) > 0 {
		var m map[string]any
		if json.Unmarshal(body, &m) == nil {
			rec.Returned = ExtractID(m)
			if c, ok := m["code"].(float64); ok {
				rec.BodyCode = int(c)
			}
		}
	}
	if rec.Op == history.OpStart && r.Err == nil && r.Status == http.StatusOK {
		// action.json always answers 200; success or failure is the body's code.
		switch {
		case rec.BodyCode == 200:
			out = attack.Acknowledged
		case rec.BodyCode >= 500 || rec.BodyCode == 0:
			out = attack.Ambiguous
		default:
			out = attack.Rejected
		}
	}
	if out != attack.Acknowledged {
		rec.Body = Excerpt(body)
	}
	rec.Outcome = out.String()
	return out
}

// excerptLen is how much of an answer's body a record keeps.
const excerptLen = 160

// Excerpt returns the start of a body on one line, for a record's Body: control characters become
// spaces, credentials in it are masked, and a longer body is cut with "...".
func Excerpt(b []byte) string {
	cut := len(b) > excerptLen
	if cut {
		b = b[:excerptLen]
	}
	s := strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f {
			return ' '
		}
		return r
	}, strings.ToValidUTF8(string(b), "?"))
	s = redact.Text(strings.TrimSpace(s))
	if cut {
		s += "..."
	}
	return s
}

// ExtractID finds a record id in an OpenStudio answer: _id, id or uuid, at the top or under
// project, analysis, data_point.
func ExtractID(m map[string]any) string {
	if id := ownID(m, "_id", "id", "uuid"); id != "" {
		return id
	}
	for _, k := range []string{"project", "analysis", "data_point"} {
		if sub, ok := m[k].(map[string]any); ok {
			if id := ExtractID(sub); id != "" {
				return id
			}
		}
	}
	return ""
}

// RecordID is a document's own id: _id (a string, or {"$oid": ...}), else id.
func RecordID(m map[string]any) string { return ownID(m, "_id", "id") }

// ownID is the first of keys that holds an id: a non-empty string, a number, or {"$oid": ...}.
func ownID(m map[string]any, keys ...string) string {
	for _, k := range keys {
		switch v := m[k].(type) {
		case string:
			if v != "" {
				return v
			}
		case float64:
			return strconv.FormatInt(int64(v), 10)
		case map[string]any:
			if s, ok := v["$oid"].(string); ok {
				return s
			}
		}
	}
	return ""
}
