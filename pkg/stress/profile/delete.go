package profile

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
)

// Analysis deletion outcomes.
const (
	DeleteDeleted     = "deleted"      // DELETE answered 204 (or a dry run would send it)
	DeleteAlreadyGone = "already-gone" // GET answered {"analysis":null}: nothing to delete
	DeleteFailed      = "failed"       // the GET or the DELETE failed; Error says how
)

// AnalysisDeletion is what deleting one analysis through the API did.
type AnalysisDeletion struct {
	ID     string `json:"id"`
	Target string `json:"target"`
	Result string `json:"result"`
	Status int    `json:"status,omitempty"`
	Error  string `json:"error,omitempty"`
}

// DeleteAnalyses removes a run's analyses through the real server's API: for each id, a GET of
// the analysis (one that reads back as {"analysis":null} is already gone and gets no DELETE,
// which would answer 500), then DELETE /analyses/:id.json, which answers 204. The server removes
// the analysis's records; its files stay for the caller to remove (result files are not
// destroyed, and the extraction goes only later, in a background job). With dryRun nothing is
// deleted: the results say what would be. Requests go to base, one at a time, each bounded by
// 30 s.
func DeleteAnalyses(ctx context.Context, c Doer, base *url.URL, ids []string, dryRun bool) []AnalysisDeletion {
	p := &OpenStudio{Targets: []Target{{URL: base}}, Client: c}
	out := make([]AnalysisDeletion, 0, len(ids))
	for _, id := range ids {
		d := AnalysisDeletion{ID: id, Target: base.Redacted()}
		code, body, errS := p.api().get(ctx, 0, "/analyses/"+url.PathEscape(id)+".json")
		switch {
		case errS != "":
			d.Result, d.Error = DeleteFailed, "GET: "+errS
		case code != http.StatusOK:
			d.Result, d.Status, d.Error = DeleteFailed, code, fmt.Sprintf("GET answered %d: %s", code, Excerpt(body))
		case !HoldsRecord(body, "analysis", id):
			d.Result, d.Status = DeleteAlreadyGone, code
		case dryRun:
			d.Result = DeleteDeleted
		default:
			d.Status, d.Error = p.api().delete(ctx, "/analyses/"+url.PathEscape(id)+".json")
			d.Result = DeleteDeleted
			if d.Error != "" {
				d.Result = DeleteFailed
			}
		}
		out = append(out, d)
		if ctx.Err() != nil {
			break
		}
	}
	return out
}
