package openstudio

import (
	"context"
	"net/url"

	"github.com/osctl/osctl/pkg/stress/history"
	"github.com/osctl/osctl/pkg/stress/profile"
)

// Readback reads every record of plan (what the run created, PlanReadback) back through the API, one GET per record, and
// records one read-back line for each (records are judged through the API, docs/architecture.md).
// A record is there only when the body holds a record whose id is the one asked for: the real
// server answers a missing project or analysis with 200 and null. It also reads every analysis's
// status.json once, so that the judge knows which of its jobs left "queued" (an extraction ran).
func (p *Load) Readback(ctx context.Context, plan profile.ReadbackPlan) {
	type item struct{ kind, path, id string }
	var items []item
	if plan.Project != "" {
		items = append(items, item{"project", "/projects/" + url.PathEscape(plan.Project) + ".json", plan.Project})
	}
	for _, a := range plan.Analyses {
		items = append(items, item{"analysis", "/analyses/" + url.PathEscape(a) + ".json", a})
		items = append(items, item{history.ReadbackStatus, profile.StatusPath(a), a})
	}
	for _, d := range plan.DataPoints {
		items = append(items, item{"data_point", "/data_points/" + url.PathEscape(d) + ".json", d})
	}
	p.api().Parallel(ctx, len(items), func(i int) {
		it := items[i]
		rec := &history.Record{Kind: history.KindReadback, Op: it.kind, ID: it.id, Path: it.path}
		rec.Start = p.now()
		code, body, errS := p.api().Get(ctx, i, it.path)
		rec.End, rec.Status, rec.Error = p.now(), code, errS
		if it.kind == history.ReadbackStatus {
			rec.Found, rec.Jobs = profile.ParseStatus(body, it.id)
		} else {
			rec.Found = profile.HoldsRecord(body, it.kind, it.id)
		}
		if !rec.Found && errS == "" {
			rec.Body = profile.Excerpt(body)
		}
		p.Record(rec)
	})
}

// JobCounts reads every analysis's status.json: the jobs listed and how many are queued (a status
// that cannot be read counts as one queued: not settled yet).
func (p *Load) JobCounts(ctx context.Context) (jobs, queued int) {
	counts := make([][2]int, len(p.st.analyses))
	p.api().Parallel(ctx, len(p.st.analyses), func(i int) {
		_, body, errS := p.api().Get(ctx, i, profile.StatusPath(p.st.analyses[i]))
		if errS != "" {
			counts[i][1] = 1 // unknown: not settled yet
			return
		}
		_, js := profile.ParseStatus(body, p.st.analyses[i])
		for _, j := range js {
			counts[i][0]++
			if j.Status == history.JobQueued {
				counts[i][1]++
			}
		}
	})
	for _, c := range counts {
		jobs += c[0]
		queued += c[1]
	}
	return jobs, queued
}
