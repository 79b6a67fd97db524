package profile

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
)

// Analysis deletion outcomes.
const (
	DeleteDeleted     = "deleted"      // DELETE answered 204 (or a dry run would send it)
	DeleteAlreadyGone = "already-gone" // GET answered {"analysis":null}: nothing to delete
	DeleteNotTheRuns  = "not-the-runs" // GET named it otherwise than the run did: left alone
	DeleteFailed      = "failed"       // the GET or the DELETE failed; Error says how
)

// AnalysisRef is one analysis a run created, as the run named it: its id, its name (the create's
// nonce) and its project.
type AnalysisRef struct {
	ID      string `json:"id"`
	Name    string `json:"name"`
	Project string `json:"project,omitempty"`
}

// AnalysisDeletion is what deleting one analysis through the API did.
type AnalysisDeletion struct {
	ID     string `json:"id"`
	Target string `json:"target"`
	Result string `json:"result"`
	Status int    `json:"status,omitempty"`
	Error  string `json:"error,omitempty"`
}

// DeleteAnalyses removes a run's analyses through the real server's API: for each, a GET of
// the analysis (one that reads back as {"analysis":null} is already gone and gets no DELETE,
// which would Answer 500; one whose name or project is not the one the run gave it is not the
// run's, and is left alone), then DELETE /analyses/:id.json, which answers 204. The server removes
// the analysis's records; its files stay for the caller to remove (result files are not
// destroyed, and the extraction goes only later, in a background job). With dryRun nothing is
// deleted: the results say what would be. Requests go to base, one at a time, each bounded by
// 30 s.
func DeleteAnalyses(ctx context.Context, c Doer, base *url.URL, refs []AnalysisRef, dryRun bool) []AnalysisDeletion {
	api := API{Client: c, Targets: []Target{{URL: base}}}
	out := make([]AnalysisDeletion, 0, len(refs))
	for _, ref := range refs {
		id := ref.ID
		d := AnalysisDeletion{ID: id, Target: base.Redacted()}
		code, body, errS := api.Get(ctx, 0, "/analyses/"+url.PathEscape(id)+".json")
		switch {
		case errS != "":
			d.Result, d.Error = DeleteFailed, "GET: "+errS
		case code != http.StatusOK:
			d.Result, d.Status, d.Error = DeleteFailed, code, fmt.Sprintf("GET answered %d: %s", code, Excerpt(body))
		case !HoldsRecord(body, "analysis", id):
			d.Result, d.Status = DeleteAlreadyGone, code
		case namedOtherwise(body, ref) != "":
			d.Result, d.Status, d.Error = DeleteNotTheRuns, code, namedOtherwise(body, ref)
		case dryRun:
			d.Result = DeleteDeleted
		default:
			d.Status, d.Error = api.Delete(ctx, "/analyses/"+url.PathEscape(id)+".json")
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

// namedOtherwise says how a show's analysis differs from what the run named it ("" when it does
// not): its name must be the run's, and its project, when the show gives one, the run's.
func namedOtherwise(body []byte, ref AnalysisRef) string {
	var v struct {
		Analysis map[string]any `json:"analysis"`
	}
	if json.Unmarshal(body, &v) != nil || v.Analysis == nil {
		return "the server's Answer does not read as an analysis"
	}
	name, _ := v.Analysis["name"].(string)
	if name != ref.Name {
		return fmt.Sprintf("the server names it %q, the run named it %q: not the run's, left alone", name, ref.Name)
	}
	if project := ownID(v.Analysis, "project_id"); ref.Project != "" && project != "" && project != ref.Project {
		return fmt.Sprintf("the server puts it in project %s, the run in %s: not the run's, left alone", project, ref.Project)
	}
	return ""
}
