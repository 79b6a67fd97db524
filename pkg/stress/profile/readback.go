package profile

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/osctl/osctl/pkg/stress/history"
)

// Readback reads every record the run created back through the API, one GET per record, and
// records one read-back line for each (contract section 3: records are judged through the API).
func (p *OpenStudio) Readback(ctx context.Context) {
	type item struct{ kind, path, id string }
	var items []item
	if p.Project != "" {
		items = append(items, item{"project", "/projects/" + url.PathEscape(p.Project) + ".json", p.Project})
	}
	for _, a := range p.analyses {
		items = append(items, item{"analysis", "/analyses/" + url.PathEscape(a) + ".json", a})
	}
	p.mu.Lock()
	for _, d := range p.createdDP {
		items = append(items, item{"data_point", "/data_points/" + url.PathEscape(d.id) + ".json", d.id})
	}
	p.mu.Unlock()
	p.parallel(ctx, len(items), func(i int) {
		it := items[i]
		rec := &history.Record{Kind: history.KindReadback, Op: it.kind, ID: it.id, Path: it.path}
		rec.Start = p.now()
		rec.Status, rec.Error = p.get(ctx, i, it.path, nil)
		rec.End = p.now()
		p.Record(rec)
	})
}

// get sends a GET and returns its status, decoding a JSON answer into v when given.
func (p *OpenStudio) get(ctx context.Context, i int, path string, v any) (int, string) {
	t := p.Targets[i%len(p.Targets)].URL
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, join(t, path), nil)
	if err != nil {
		return 0, err.Error()
	}
	req.Header.Set("Accept", "application/json")
	resp, err := p.Client.Do(req)
	if err != nil {
		return 0, err.Error()
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	if v != nil && resp.StatusCode == http.StatusOK {
		_ = json.Unmarshal(b, v)
	}
	return resp.StatusCode, ""
}

// SettleResult says how the target settled after the load.
type SettleResult struct {
	Settled  bool           `json:"settled"`
	Waited   time.Duration  `json:"waited_ns"`
	Rounds   int            `json:"rounds"`
	Statuses map[string]int `json:"statuses,omitempty"` // analysis status -> count, at the end
}

// Settle waits until the analyses' status endpoints stop changing and, when fingerprint is given
// (a cheap listing of the run's files), the files stop changing: two identical rounds in a row,
// polled every interval, up to timeout.
func (p *OpenStudio) Settle(ctx context.Context, timeout, interval time.Duration, fingerprint func(context.Context) (string, error)) SettleResult {
	if interval <= 0 {
		interval = 500 * time.Millisecond
	}
	begin := p.now()
	deadline := time.NewTimer(timeout)
	defer deadline.Stop()
	var last string
	res := SettleResult{}
	for {
		res.Rounds++
		statuses := make([]string, len(p.analyses))
		p.parallel(ctx, len(p.analyses), func(i int) {
			var body struct {
				Analysis struct {
					Status string `json:"status"`
				} `json:"analysis"`
				Status string `json:"status"`
			}
			code, errS := p.get(ctx, i, "/analyses/"+url.PathEscape(p.analyses[i])+"/status.json", &body)
			s := body.Analysis.Status
			if s == "" {
				s = body.Status
			}
			if errS != "" {
				s = "error"
			} else if code != http.StatusOK {
				s = "http-" + http.StatusText(code)
			}
			statuses[i] = s
		})
		res.Statuses = map[string]int{}
		for _, s := range statuses {
			res.Statuses[s]++
		}
		fp := strings.Join(statuses, ",")
		if fingerprint != nil {
			f, err := fingerprint(ctx)
			if err != nil {
				f = "error:" + err.Error()
			}
			fp += "|" + f
		}
		if res.Rounds > 1 && fp == last {
			res.Settled = true
			res.Waited = p.now().Sub(begin)
			return res
		}
		last = fp
		select {
		case <-ctx.Done():
			res.Waited = p.now().Sub(begin)
			return res
		case <-deadline.C:
			res.Waited = p.now().Sub(begin)
			return res
		case <-time.After(interval):
		}
	}
}
