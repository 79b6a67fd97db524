package sandbox

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"sort"
)

// Job states of an analysis's jobs (app/models/job.rb; the analysis library sets them).
const (
	AnalysisJobQueued    = "queued"
	AnalysisJobStarted   = "started"
	AnalysisJobCompleted = "completed"
)

// An analysis's jobs are records under db/jobs/<analysis id>/, one file per
// (index, analysis_type): Job.find_or_create_by(analysis_id:, analysis_type:, index:) is a
// create of that file, which is atomic across processes, so two starts that saw the same
// jobs.length land on one job, as they can on the real server.
func jobFile(index int, analysisType string) string {
	h := sha256.Sum256([]byte(analysisType))
	return fmt.Sprintf("%d-%s", index, hex.EncodeToString(h[:8]))
}

// analysisJobs returns an analysis's jobs ordered by index (then by creation), each with the
// name of its file in "file".
func (s *documents) analysisJobs(analysisID string) ([]record, error) {
	files, err := s.db.list("jobs", analysisID)
	if err != nil {
		return nil, err
	}
	jobs := make([]record, 0, len(files))
	for _, f := range files {
		var j record
		if err := s.db.get("jobs", &j, analysisID, f); err != nil {
			if errors.Is(err, errNoRecord) {
				continue
			}
			return nil, err
		}
		j["file"] = f
		jobs = append(jobs, j)
	}
	sort.SliceStable(jobs, func(a, b int) bool {
		ia, ib := intOf(jobs[a]["index"]), intOf(jobs[b]["index"])
		if ia != ib {
			return ia < ib
		}
		return fmt.Sprint(jobs[a]["created_at"]) < fmt.Sprint(jobs[b]["created_at"])
	})
	return jobs, nil
}

// findOrCreateJob is Job.new_job's find_or_create_by: it returns the job file of
// (analysisID, analysisType, index), creating the job when there is none.
func (s *documents) findOrCreateJob(analysisID, analysisType string, index int) (string, error) {
	file := jobFile(index, analysisType)
	now := mongoTime(s.now())
	j := record{"_id": newObjectID(), "analysis_id": analysisID, "analysis_type": analysisType, "index": index,
		"status": "", "status_message": "", "queued_time": nil, "start_time": nil, "end_time": nil, "delayed_job_id": nil,
		"initial_options": nil, "run_options": map[string]any{}, "results": map[string]any{}, "created_at": now, "updated_at": now}
	if err := s.db.create("jobs", j, analysisID, file); err != nil && !errors.Is(err, errExists) {
		return "", err
	}
	return file, nil
}

// jobByID finds the file of an analysis's job by its id; "" when there is none.
func (s *documents) jobByID(analysisID, jobID string) (string, error) {
	jobs, err := s.analysisJobs(analysisID)
	if err != nil {
		return "", err
	}
	for _, j := range jobs {
		if j["_id"] == jobID {
			return j["file"].(string), nil
		}
	}
	return "", nil
}

// setJob updates one job's fields.
func (s *documents) setJob(analysisID, file string, fields record) error {
	_, err := s.db.update("jobs", func(j record) error {
		for k, v := range fields {
			j[k] = v
		}
		j["updated_at"] = mongoTime(s.now())
		return nil
	}, analysisID, file)
	return err
}

// analysisState is what Analysis#status and #analysis_type answer: the last job's (by index),
// "unknown" before there is any; under Resque a last job "completed" reads "post-processing"
// until finalization marks it "post-processing finished", which reads "completed".
func analysisState(jobs []record) (status, analysisType string) {
	if len(jobs) == 0 {
		return "unknown", "unknown"
	}
	last := jobs[len(jobs)-1]
	status, _ = last["status"].(string)
	switch status {
	case AnalysisJobCompleted:
		status = "post-processing"
	case "post-processing finished":
		status = AnalysisJobCompleted
	}
	analysisType, ok := last["analysis_type"].(string)
	if !ok {
		analysisType = "unknown"
	}
	return status, analysisType
}

func intOf(v any) int {
	switch n := v.(type) {
	case float64:
		return int(n)
	case int:
		return n
	}
	return 0
}
