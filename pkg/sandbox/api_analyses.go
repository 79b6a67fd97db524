package sandbox

import (
	"crypto/md5"
	"encoding/hex"
	"net/http"
	"path/filepath"
	"regexp"
	"strings"
)

// createAnalysis is AnalysesController#create: any key is stored (a dynamic model); a missing
// project is a validation error (belongs_to is required: 422); a duplicate id is 500.
func (s *openStudioService) createAnalysis(w http.ResponseWriter, r *http.Request, projectID string) {
	s.createRecord(w, r, creation{kind: "analysis", table: "analyses", model: analysisModel, parent: "project", parentTable: "projects",
		parentID: projectID, parentKey: "project_id", link: "project_analyses"})
}

// getAnalysis is AnalysesController#show: {"analysis": <analysis or null>}, HTTP 200 either way.
func (s *openStudioService) getAnalysis(w http.ResponseWriter, id string) {
	rec, err := s.find("analyses", id)
	if err != nil {
		writeRails(w, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"analysis": rec})
}

// dataPointStates are DataPoint.status_states, the data points status.json lists.
var dataPointStates = map[string]bool{"na": true, "queued": true, "started": true, "completed": true}

// analysisStatus is AnalysesController#status for one id: {"analysis": {...}} with its jobs in
// index order and its data points, or {"analyses": []} when there is no such analysis.
func (s *openStudioService) analysisStatus(w http.ResponseWriter, id string) {
	rec, ok := findOrAnswer(w, &s.documents, "analyses", id, http.StatusOK, map[string]any{"analyses": []any{}})
	if !ok {
		return
	}
	jobs, err := s.analysisJobs(id)
	if err != nil {
		writeRails(w, err)
		return
	}
	dps, err := s.analysisDataPoints(id)
	if err != nil {
		writeRails(w, err)
		return
	}
	status, analysisType := analysisState(jobs)
	jobsOut := make([]map[string]any, 0, len(jobs))
	for _, j := range jobs {
		jobsOut = append(jobsOut, map[string]any{"index": j["index"], "analysis_type": j["analysis_type"], "status": j["status"], "status_message": j["status_message"]})
	}
	dpsOut := make([]map[string]any, 0, len(dps))
	for _, dp := range dps {
		if dataPointStates[str(dp["status"])] {
			dpsOut = append(dpsOut, map[string]any{"_id": dp["_id"], "id": dp["_id"], "name": dp["name"], "analysis_id": dp["analysis_id"],
				"status": dp["status"], "status_message": dp["status_message"]})
		}
	}
	writeJSON(w, http.StatusOK, map[string]any{"analysis": map[string]any{
		"_id": id, "id": id, "status": status, "analysis_type": analysisType, "run_flag": rec["run_flag"],
		"exit_on_guideline_14": rec["exit_on_guideline_14"], "total_datapoints": len(dpsOut), "jobs": jobsOut, "data_points": dpsOut,
	}})
}

// seedZipStored is the stored name of the seed zip an analysis record points at: "" for none,
// and for a name a client set itself that is no file name the sandbox could have stored (an
// analysis takes any key, seed_zip_file_name too).
func seedZipStored(a record) string {
	if n := str(a["seed_zip_file_name"]); n != "" && checkID("file", storedName(n)) == nil {
		return storedName(n)
	}
	return ""
}

// uploadZip is AnalysesController#upload: `@analysis.seed_zip = params[:file]; @analysis.save`.
// A missing analysis crashes on the nil record (500). Paperclip accepts only application/zip
// (422 otherwise); no file clears the attachment, deleting the stored zip (201).
func (s *openStudioService) uploadZip(w http.ResponseWriter, r *http.Request, id string) {
	rec, err := s.find("analyses", id)
	var files map[string]filePart
	if err == nil {
		_, files, err = readMultipart(r)
	}
	if err == nil && rec == nil {
		err = nilRecord("analysis", id, "save")
	}
	if err != nil {
		writeRails(w, err)
		return
	}
	var out record
	f, ok := files["file"]
	if !ok {
		err = s.st.dropZip(r.Context(), id, func() (string, error) {
			var prev string
			var err error
			out, err = s.db.update("analyses", func(a record) error {
				prev = seedZipStored(a)
				for _, k := range []string{"file_name", "content_type", "file_size", "updated_at", "fingerprint"} {
					a["seed_zip_"+k] = nil
				}
				a["updated_at"] = mongoTime(s.now())
				return nil
			}, id)
			return prev, err
		})
	} else {
		if ct := strings.TrimSpace(f.ctype); ct != "application/zip" {
			w.Header().Set(errorHeader, "Paperclip: seed_zip content type "+ct+" is not application/zip")
			writeJSON(w, http.StatusUnprocessableEntity, map[string]any{"seed_zip_content_type": []string{"is invalid"}, "seed_zip": []string{"is invalid"}})
			return
		}
		var clean, stored string
		if clean, stored, err = uploadNames(f.name); err != nil {
			writeRails(w, err)
			return
		}
		sum := md5.Sum(f.body)
		err = s.st.storeZip(r.Context(), id, stored, seedZipStored(rec), f.body, func() (string, error) {
			var prev string
			var err error
			out, err = s.db.update("analyses", func(a record) error {
				prev = seedZipStored(a)
				now := mongoTime(s.now())
				a["seed_zip_file_name"], a["seed_zip_content_type"], a["seed_zip_file_size"] = clean, "application/zip", len(f.body)
				a["seed_zip_updated_at"], a["seed_zip_fingerprint"], a["updated_at"] = now, hex.EncodeToString(sum[:]), now
				return nil
			}, id)
			return prev, err
		})
	}
	if err != nil {
		s.cfg.Logf("upload of analysis %s failed: %v", id, err)
		writeRails(w, crash("storing the seed zip: %v", err))
		return
	}
	w.Header().Set("Location", location(r, "analyses", id))
	writeJSON(w, http.StatusCreated, out)
}

// uuidDir is the pattern Analysis#queue_delete_files requires of the analysis directory before
// it queues the DeleteAnalysis jobs: an analysis whose id is not a lowercase uuid keeps its
// extraction on the volume.
var uuidDir = regexp.MustCompile(`^.*/analysis_[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$`)

// deleteAnalysis is AnalysesController#destroy, with the model's callbacks in their order: the
// data points (with their embedded result files' records, not their files) and jobs are
// destroyed, DeleteAnalysis jobs are queued for the simulation directory and the extraction,
// the analysis is deleted and Paperclip deletes its seed zip. JSON answers 204; HTML is a
// redirect to the project. A missing analysis crashes (500).
func (s *openStudioService) deleteAnalysis(w http.ResponseWriter, r *http.Request, id string) {
	rec, err := s.find("analyses", id)
	if err == nil && rec == nil {
		err = nilRecord("analysis", id, "project")
	}
	if err == nil {
		err = s.destroyAnalysis(r, id, rec)
	}
	if err != nil {
		writeRails(w, err)
		return
	}
	if !wantsJSON(r) {
		w.Header().Set("Location", location(r, "projects", str(rec["project_id"])))
		w.WriteHeader(http.StatusFound)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

func (s *openStudioService) destroyAnalysis(r *http.Request, id string, rec record) error {
	dps, err := s.db.list("analysis_data_points", id)
	if err != nil {
		return err
	}
	for _, dp := range dps {
		if err := s.db.removeAll("result_files", dp); err != nil {
			return err
		}
		if err := s.db.remove("data_points", dp); err != nil {
			return err
		}
	}
	if err := s.db.removeAll("analysis_data_points", id); err != nil {
		return err
	}
	if err := s.db.removeAll("jobs", id); err != nil {
		return err
	}
	simDir := filepath.Join(s.cfg.StateDir, "analysis_"+id)
	if uuidDir.MatchString(simDir) {
		for _, dir := range []string{simDir, s.layout.extractDir(id)} {
			if err := s.resque.enqueue(r.Context(), queueBackground, classDeleteAnalysis, dir); err != nil {
				return err
			}
		}
	} else {
		s.cfg.Logf("analysis %s: will not delete analysis directory because it does not conform to pattern", id)
	}
	return s.st.dropZip(r.Context(), id, func() (string, error) {
		if err := s.db.remove("analyses", id); err != nil {
			return "", err
		}
		return seedZipStored(rec), s.db.remove("project_analyses", str(rec["project_id"]), id)
	})
}
