package openstudio

import (
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"

	"github.com/osctl/osctl/pkg/stress/detect"
	"github.com/osctl/osctl/pkg/stress/history"
	"github.com/osctl/osctl/pkg/stress/snapshot"
)

// run indexes a history by object.
type run struct {
	analyses    []string                     // in order of creation
	byA         map[string][]*history.Record // analysis -> load requests on it
	uploads     map[string][]*history.Record // analysis -> zip uploads
	starts      map[string][]*history.Record // analysis -> starts
	results     map[string][]*history.Record // returned result id -> upload_file requests
	resultsNoID []*history.Record
	creates     []*history.Record
	readbacks   map[string]*history.Record // kind/id -> read-back
	// unsafe are the requests left out because an id they name cannot be a directory under the
	// state directory (history.CheckName): what each named, for a reason.
	unsafe []string
}

func index(h *history.History) *run {
	r := &run{byA: map[string][]*history.Record{}, uploads: map[string][]*history.Record{}, starts: map[string][]*history.Record{},
		results: map[string][]*history.Record{}, readbacks: map[string]*history.Record{}}
	seen := map[string]bool{}
	addA := func(a string) {
		if a != "" && !seen[a] {
			seen[a] = true
			r.analyses = append(r.analyses, a)
		}
	}
	for i := range h.Records {
		rec := &h.Records[i]
		switch rec.Kind {
		case history.KindReadback:
			r.readbacks[rec.Op+"/"+rec.ID] = rec
			continue
		case history.KindRequest:
		default:
			continue
		}
		if err := pathIDs(rec); err != nil {
			r.unsafe = append(r.unsafe, fmt.Sprintf("%s #%d: %v", rec.Op, rec.Seq, err))
			continue
		}
		switch rec.Op {
		case history.OpCreateAnalysis:
			if rec.Applied() {
				addA(createdID(rec))
			}
			r.creates = append(r.creates, rec)
			continue
		case history.OpCreateProject, history.OpCreateDataPoint:
			r.creates = append(r.creates, rec)
		case history.OpUpload:
			r.uploads[rec.Analysis] = append(r.uploads[rec.Analysis], rec)
		case history.OpStart:
			r.starts[rec.Analysis] = append(r.starts[rec.Analysis], rec)
		case history.OpUploadFile:
			if rec.Returned != "" {
				r.results[rec.Returned] = append(r.results[rec.Returned], rec)
			} else if rec.Applied() {
				r.resultsNoID = append(r.resultsNoID, rec)
			}
		}
		if rec.Analysis != "" && !rec.Setup {
			addA(rec.Analysis)
			r.byA[rec.Analysis] = append(r.byA[rec.Analysis], rec)
		}
	}
	return r
}

func createdID(r *history.Record) string { return r.CreatedID() }

// pathIDs checks the ids of a request that name directories under the state directory: its
// analysis, the analysis it created, the result file it returned.
func pathIDs(rec *history.Record) error {
	ids := []string{rec.Analysis}
	switch {
	case rec.Op == history.OpCreateAnalysis && rec.Applied():
		ids = append(ids, createdID(rec))
	case rec.Op == history.OpUploadFile:
		ids = append(ids, rec.Returned)
	}
	for _, id := range ids {
		if id == "" {
			continue
		}
		if err := history.CheckName(id); err != nil {
			return err
		}
	}
	return nil
}

// UnsafeIDs are the requests of an openstudio history whose ids cannot name a directory under the
// state directory (a history or a server that names "../../x"): they are left out of the dirs
// read and of the verdict, and each is a reason the verdict is not clean.
func UnsafeIDs(h *history.History) []string {
	if !h.Header.Kind().Files {
		return nil
	}
	return index(h).unsafe
}

// Dirs returns the directories (relative to the volume root) that hold this run's objects: the
// only part of the volume that is read and judged.
func Dirs(h *history.History) []string {
	r := index(h)
	var out []string
	for _, a := range r.analyses {
		out = append(out, zipDir(a), extractDir(a))
	}
	ids := slices.Sorted(maps.Keys(r.results))
	for _, id := range ids {
		out = append(out, resultDir(id))
	}
	return out
}

// byDir groups the state's files under each of dirs, in one pass over the files.
func byDir(st *snapshot.State, dirs map[string]bool) map[string][]string {
	out := map[string][]string{}
	for p := range st.Files {
		// Object directories are the first four path elements (server/assets/analyses/<a>,
		// server/assets/data_points/<id>) or the first three (server/analyses/<a>).
		parts := strings.SplitN(p, "/", 5)
		for _, n := range []int{3, 4} {
			if len(parts) > n {
				d := strings.Join(parts[:n], "/")
				if dirs[d] {
					out[d] = append(out[d], p)
				}
			}
		}
	}
	for _, ps := range out {
		sort.Strings(ps)
	}
	return out
}

// Findings diffs the state against the expected state of an openstudio run. With a nil
// state (the files were not read) only the records are judged.
func Findings(h *history.History, st *snapshot.State, ignore []string) []detect.Finding {
	r := index(h)
	if st == nil {
		return judgeRecords(r)
	}
	dirs := map[string]bool{}
	for _, d := range Dirs(h) {
		dirs[d] = true
	}
	files := byDir(st, dirs)
	var out []detect.Finding
	for _, a := range r.analyses {
		out = append(out, judgeZip(a, r.uploads[a], st, files[zipDir(a)], ignore)...)
		// An extraction is judged once a job of the analysis left "queued"; until then it may
		// not have run yet, or it failed, and it is never "lost".
		if jobRan(r.readbacks[history.ReadbackStatus+"/"+a]) {
			out = append(out, judgeExtract(a, r.uploads[a], r.starts[a], st, files[extractDir(a)], ignore)...)
		}
	}
	ids := slices.Sorted(maps.Keys(r.results))
	for _, id := range ids {
		out = append(out, judgeResult(id, r.results[id], resultsDeletable(r, r.results[id]), st, files[resultDir(id)], ignore)...)
	}
	for _, rec := range r.resultsNoID {
		out = append(out, detect.Finding{Kind: detect.Lost, Object: rec.DataPoint, Requests: []detect.RequestRef{detect.Ref(rec)},
			Expected: "an acknowledged upload_file answers the result's id", Got: "no id in the answer: the result file cannot be found"})
	}
	out = append(out, judgeRecords(r)...)
	return out
}

// maybe returns the records of rs that may have been applied: acknowledged or ambiguous.
func maybe(rs []*history.Record) []*history.Record { return keep(rs, (*history.Record).Maybe) }

// applied returns the acknowledged records of rs.
func applied(rs []*history.Record) []*history.Record { return keep(rs, (*history.Record).Applied) }

// keep returns the records of rs for which ok holds, in their order.
func keep(rs []*history.Record, ok func(*history.Record) bool) []*history.Record {
	var out []*history.Record
	for _, r := range rs {
		if ok(r) {
			out = append(out, r)
		}
	}
	return out
}

func anyApplied(rs []*history.Record) bool {
	for _, r := range rs {
		if r.Applied() {
			return true
		}
	}
	return false
}

func judgeZip(a string, uploads []*history.Record, st *snapshot.State, files []string, ignore []string) []detect.Finding {
	var out []detect.Finding
	u := maybe(uploads)
	name := ""
	for _, rec := range uploads {
		if rec.File != "" {
			name = rec.File
			break
		}
	}
	zp := ""
	if name != "" {
		zp = zipPath(a, name)
	}
	for _, p := range files {
		if p != zp && !ignored(p, ignore) {
			out = append(out, detect.Finding{Kind: detect.Phantom, Object: a, Paths: []string{p}, Expected: "only the analysis zip " + name + " under " + zipDir(a), Got: "a file no request explains"})
		}
	}
	if zp == "" {
		return out
	}
	f, exists := st.Files[zp]
	switch {
	case !exists && anyApplied(uploads):
		out = append(out, detect.Finding{Kind: detect.Lost, Object: a, Paths: []string{zp}, Requests: detect.Refs(applied(uploads), 5),
			Expected: fmt.Sprintf("the zip of one of %d acknowledged uploads", len(applied(uploads))), Got: "no file"})
	case !exists:
	case len(u) == 0:
		out = append(out, detect.Finding{Kind: detect.Phantom, Object: a, Paths: []string{zp}, Expected: "no zip: no upload was acknowledged or ambiguous", Got: fmt.Sprintf("%d bytes", f.Size)})
	case f.Err != "":
		out = append(out, detect.Finding{Kind: detect.Torn, Object: a, Paths: []string{zp}, Requests: detect.Refs(u, 5), Expected: "a readable zip", Got: f.Err})
	default:
		for _, rec := range u {
			if rec.Hash == f.Hash {
				return out
			}
		}
		// The real server may rewrite a stored zip with its entries sorted by name: other
		// bytes, the same entries. Such a zip is that upload.
		if f.Entries != nil {
			for _, rec := range u {
				if sameEntries(f.Entries, rec.Manifest) {
					return out
				}
			}
		}
		got := fmt.Sprintf("%d bytes, sha256 %s, matching no upload", f.Size, short(f.Hash))
		switch {
		case f.ZipErr != "":
			got += " (" + f.ZipErr + ")"
		case f.Entries != nil:
			got += fmt.Sprintf(" by bytes or by its %d entries", len(f.Entries))
		}
		out = append(out, detect.Finding{Kind: detect.Torn, Object: a, Paths: []string{zp}, Requests: detect.Refs(u, 5),
			Expected: fmt.Sprintf("the bytes or the entries of one of %d uploads (%s)", len(u), sizes(u)), Got: got})
	}
	return out
}

// sameEntries reports whether a stored zip's entries are exactly an upload's manifest: the same
// names, each with the same bytes (order does not matter).
func sameEntries(got []snapshot.Entry, man []history.Entry) bool {
	if len(got) != len(man) || len(man) == 0 {
		return false
	}
	want := make(map[string]string, len(man))
	for _, e := range man {
		want[e.Name] = e.Hash
	}
	for _, e := range got {
		if h, ok := want[e.Name]; !ok || h != e.Hash {
			return false
		}
		delete(want, e.Name)
	}
	return len(want) == 0
}

func sizes(rs []*history.Record) string {
	var s []string
	for i, r := range rs {
		if i == 3 {
			s = append(s, "...")
			break
		}
		s = append(s, fmt.Sprintf("%d bytes", r.Size))
	}
	return strings.Join(s, ", ")
}

func short(h string) string {
	if len(h) > 12 {
		return h[:12]
	}
	return h
}

// mustExtract returns, for each start acknowledged after an acknowledged upload, that upload and
// the start: the evidence that the extraction must exist once a job of the analysis ran.
func mustExtract(uploads, starts []*history.Record) []*history.Record {
	var must []*history.Record
	for _, s := range starts {
		if !s.Applied() {
			continue
		}
		for _, up := range uploads {
			if up.Applied() && !up.End.After(s.Start) {
				must = append(must, up, s)
				break
			}
		}
	}
	return must
}

// jobRan reports whether a job of the analysis left "queued" by the time its status was read: a
// start only queues a job, a worker extracts later, and the job moves on only once its extraction
// succeeded. Without that read (a history cut short) no job is known to have run.
func jobRan(status *history.Record) bool {
	if status == nil {
		return false
	}
	for _, j := range status.Jobs {
		if j.Status != history.JobQueued {
			return true
		}
	}
	return false
}

func judgeExtract(a string, uploads, starts []*history.Record, st *snapshot.State, files []string, ignore []string) []detect.Finding {
	var out []detect.Finding
	dir := extractDir(a)
	u := maybe(uploads)
	must := mustExtract(uploads, starts)
	names := map[string]bool{} // every entry name of every upload
	for _, up := range u {
		for _, e := range up.Manifest {
			names[e.Name] = true
		}
	}
	got := map[string]string{} // entry -> hash
	for _, p := range files {
		if ignored(p, ignore) {
			continue
		}
		rel := strings.TrimPrefix(p, dir+"/")
		if !names[rel] || len(maybe(starts)) == 0 {
			out = append(out, detect.Finding{Kind: detect.Phantom, Object: a, Paths: []string{p}, Requests: detect.Refs(maybe(starts), 3),
				Expected: "only entries of an uploaded zip, extracted by a start", Got: "a file no request explains"})
			continue
		}
		f := st.Files[p]
		if f.Err != "" {
			got[rel] = "unreadable"
		} else {
			got[rel] = f.Hash
		}
	}
	if len(got) == 0 {
		if len(must) > 0 {
			out = append(out, detect.Finding{Kind: detect.Lost, Object: a, Paths: []string{dir}, Requests: detect.Refs(must, 4),
				Expected: "the extracted analysis (a start was acknowledged after an acknowledged upload)", Got: "no extracted entries"})
		}
		return out
	}
	if oneManifest(u, got) {
		return out
	}
	// Which upload does each entry come from; any that matches none is torn.
	from := map[string][]*history.Record{}
	var torn []string
	for _, rel := range slices.Sorted(maps.Keys(got)) {
		h := got[rel]
		for _, up := range u {
			for _, e := range up.Manifest {
				if e.Name == rel && e.Hash == h {
					from[rel] = append(from[rel], up)
				}
			}
		}
		if len(from[rel]) == 0 {
			torn = append(torn, dir+"/"+rel)
		}
	}
	if len(torn) > 0 {
		return append(out, detect.Finding{Kind: detect.Torn, Object: a, Paths: torn, Requests: detect.Refs(u, 5),
			Expected: fmt.Sprintf("each extracted entry holds the bytes of that entry in one of %d uploads", len(u)),
			Got:      fmt.Sprintf("%d entries match no upload", len(torn))})
	}
	return append(out, mixedExtraction(a, dir, u, names, got, from))
}

// oneManifest reports whether the extracted entries (got: name to hash) are exactly one
// upload's manifest.
func oneManifest(uploads []*history.Record, got map[string]string) bool {
	for _, up := range uploads {
		if len(up.Manifest) != len(got) {
			continue
		}
		same := true
		for _, e := range up.Manifest {
			if got[e.Name] != e.Hash {
				same = false
				break
			}
		}
		if same {
			return true
		}
	}
	return false
}

// mixedExtraction is the finding for an extraction whose every entry comes from some upload, but
// not all from one (or with entries of the uploads missing): which uploads, which entries.
func mixedExtraction(a, dir string, u []*history.Record, names map[string]bool, got map[string]string, from map[string][]*history.Record) detect.Finding {
	var missing []string
	for n := range names {
		if _, ok := got[n]; !ok {
			missing = append(missing, dir+"/"+n)
		}
	}
	sort.Strings(missing)
	srcs := map[int64]*history.Record{}
	var paths []string
	for _, rel := range slices.Sorted(maps.Keys(got)) {
		paths = append(paths, dir+"/"+rel)
		for _, up := range from[rel] {
			srcs[up.Seq] = up
		}
	}
	var ev []*history.Record
	for _, up := range u {
		if srcs[up.Seq] != nil {
			ev = append(ev, up)
		}
	}
	desc := fmt.Sprintf("entries from %d different uploads", len(ev))
	if len(missing) > 0 {
		desc = fmt.Sprintf("%d entries missing (%s)", len(missing), strings.Join(missing[:min(3, len(missing))], ", "))
		paths = append(paths, missing...)
	}
	return detect.Finding{Kind: detect.Mixed, Object: a, Paths: paths, Requests: detect.Refs(ev, 6),
		Expected: "the entries of exactly one upload", Got: desc, Holds: detect.Seqs(ev[:min(len(ev), 6)])}
}

// resultsDeletable reports whether the result file of these upload_file requests may have been
// deleted by design: a start of the analysis its data point belongs to was acknowledged or
// ambiguous. The real server's simulation worker begins every data point it runs with
// DELETE /data_points/:id/result_files ("in case this is a rerun"; DjJobs::RunSimulateDataPoint),
// and RunAnalysis runs every data point of the analysis not simulated yet, whenever the single
// background worker gets to it: minutes after the start, so a start sent before the upload_file
// deletes it too. Such a file is not judged lost (docs/sandbox.md); a file that is there is still
// judged by its bytes.
func resultsDeletable(r *run, ups []*history.Record) bool {
	for _, rec := range ups {
		if len(maybe(r.starts[rec.Analysis])) > 0 {
			return true
		}
	}
	return false
}

// judgeResult judges one result id: a duplicate id, phantoms beside it, and each acknowledged
// upload's file, which must hold its bytes, and must be there unless deletable.
func judgeResult(id string, ups []*history.Record, deletable bool, st *snapshot.State, files []string, ignore []string) []detect.Finding {
	var out []detect.Finding
	acked := applied(ups)
	if len(acked) > 1 {
		d := detect.Finding{Kind: detect.Duplicate, Object: id, Requests: detect.Refs(acked, 6),
			Expected: "one result id per acknowledged upload_file", Got: fmt.Sprintf("%d acknowledged uploads answered with id %s", len(acked), id)}
		for _, rec := range acked[:min(len(acked), 6)] {
			if f, ok := st.Files[resultPath(id, rec.File)]; ok && f.Hash == rec.Hash {
				d.Holds = append(d.Holds, rec.Seq)
			}
		}
		out = append(out, d)
	}
	explained := map[string]bool{}
	for _, rec := range maybe(ups) {
		explained[resultPath(id, rec.File)] = true
	}
	for _, p := range files {
		if !explained[p] && !ignored(p, ignore) {
			out = append(out, detect.Finding{Kind: detect.Phantom, Object: id, Paths: []string{p}, Expected: "only the result files uploaded with id " + id, Got: "a file no request explains"})
		}
	}
	for _, rec := range acked {
		p := resultPath(id, rec.File)
		f, ok := st.Files[p]
		switch {
		case !ok && deletable:
		case !ok:
			out = append(out, detect.Finding{Kind: detect.Lost, Object: id, Paths: []string{p}, Requests: []detect.RequestRef{detect.Ref(rec)}, Expected: fmt.Sprintf("the uploaded %d bytes", rec.Size), Got: "no file"})
		case f.Hash != rec.Hash:
			got := fmt.Sprintf("%d bytes, sha256 %s", f.Size, short(f.Hash))
			if f.Err != "" {
				got = f.Err
			}
			out = append(out, detect.Finding{Kind: detect.Torn, Object: id, Paths: []string{p}, Requests: []detect.RequestRef{detect.Ref(rec)}, Expected: fmt.Sprintf("the uploaded %d bytes, sha256 %s", rec.Size, short(rec.Hash)), Got: got})
		}
	}
	return out
}

var recordKind = map[string]string{
	history.OpCreateProject:   "project",
	history.OpCreateAnalysis:  "analysis",
	history.OpCreateDataPoint: "data_point",
}

func judgeRecords(r *run) []detect.Finding {
	var out []detect.Finding
	byID := map[string][]*history.Record{}
	var order []string
	for _, c := range r.creates {
		if !c.Applied() {
			continue
		}
		k := recordKind[c.Op] + "/" + createdID(c)
		if byID[k] == nil {
			order = append(order, k)
		}
		byID[k] = append(byID[k], c)
	}
	// A project is there when its analyses read back, even if the target has no project route.
	analysesRead := 0
	for k, rb := range r.readbacks {
		if strings.HasPrefix(k, "analysis/") && rb.Found {
			analysesRead++
		}
	}
	for _, k := range order {
		cs := byID[k]
		kind, id, _ := strings.Cut(k, "/")
		if len(cs) > 1 {
			out = append(out, detect.Finding{Kind: detect.Duplicate, Object: id, Requests: detect.Refs(cs, 6), Expected: "one " + kind + " per acknowledged create", Got: fmt.Sprintf("%d acknowledged creates answered id %s", len(cs), id)})
		}
		rb := r.readbacks[k]
		if rb == nil || rb.Found || rb.Status == 0 {
			continue // not read back (a partial run, or the GET failed), or there
		}
		if kind == "project" && (rb.Status == 404 || rb.Status == 405) && analysesRead > 0 {
			continue
		}
		got := fmt.Sprintf("GET answered %d", rb.Status)
		if rb.Body != "" {
			got += " " + rb.Body
		}
		if rb.Status == 200 {
			got += ": no " + kind + " with that id in the body"
		}
		out = append(out, detect.Finding{Kind: detect.Lost, Object: id, Paths: []string{rb.Path}, Requests: detect.Refs(cs, 2),
			Expected: "GET of the acknowledged " + kind + " answers it (a body holding a record with its id)", Got: got})
	}
	return out
}
