package sandbox

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
)

// action is AnalysesController#action. It always answers HTTP 200 for start and stop (the
// outcome is the body's code); a missing analysis crashes (500); any other analysis_action
// renders nothing (204).
func (s *openStudioService) action(w http.ResponseWriter, r *http.Request, id string) {
	rec, err := s.find("analyses", id)
	var params map[string]any
	if err == nil {
		params, err = actionParams(r)
	}
	if err != nil {
		writeRails(w, err)
		return
	}
	act := params["analysis_action"]
	if act != "start" && act != "stop" {
		w.WriteHeader(http.StatusNoContent)
		return
	}
	if rec == nil {
		writeRails(w, nilRecord("analysis", id, "run_analysis"))
		return
	}
	if act == "stop" {
		err = s.stopAnalysis(id)
	} else {
		err = s.startAnalysis(r, id, params)
	}
	if err != nil {
		writeRails(w, err)
		return
	}
	rec, err = s.find("analyses", id) // @analysis after save! and reload
	if err == nil && rec == nil {
		err = nilRecord("analysis", id, "reload")
	}
	if err != nil {
		writeRails(w, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"code": 200, "analysis": rec})
}

// actionParams reads the JSON params of an action; an empty body is no params.
func actionParams(r *http.Request) (map[string]any, error) {
	b, err := io.ReadAll(r.Body)
	if err != nil {
		var mbe *http.MaxBytesError
		if errors.As(err, &mbe) {
			return nil, err
		}
		return nil, badRequest("reading the request body: %v", err)
	}
	params := map[string]any{}
	if len(b) > 0 {
		if err := json.Unmarshal(b, &params); err != nil {
			return nil, badRequest("request body is not a JSON object: %v", err)
		}
	}
	return params, nil
}

// startAnalysis is Analysis#start (without_delay false): Job.new_job finds or creates the job
// at index jobs.length (two starts that read the same length share it), marks it queued, and
// InitializeAnalysis is enqueued for a worker. It returns at once: the extraction happens
// later, on whichever replica's worker takes the job. With without_delay true the analysis
// runs in the request instead (AnalysisLibrary::BatchRun#perform, no InitializeAnalysis, so no
// extraction): the sandbox marks the job started, and completed when the analysis has no data
// point left to simulate.
func (s *openStudioService) startAnalysis(r *http.Request, id string, params map[string]any) error {
	analysisType := "batch_run"
	if v, ok := params["analysis_type"]; ok && v != nil {
		analysisType = fmt.Sprint(v)
	}
	options := map[string]any{"skip_init": false, "id": id, "controller": "analyses", "action": "action", "format": "json"}
	for k, v := range params {
		options[k] = v
	}
	jobs, err := s.analysisJobs(id)
	if err != nil {
		return err
	}
	file, err := s.findOrCreateJob(id, analysisType, len(jobs))
	if err != nil {
		return err
	}
	now := mongoTime(s.now())
	if err := s.setJob(id, file, record{"status": AnalysisJobQueued, "queued_time": now, "initial_options": options}); err != nil {
		return err
	}
	var j record
	if err := s.db.get("jobs", &j, id, file); err != nil {
		return err
	}
	if fmt.Sprint(params["without_delay"]) == "true" {
		return s.runInForeground(id, file)
	}
	return s.resque.enqueue(r.Context(), queueAnalysisWrappers, classInitialize, analysisType, id, j["_id"], options)
}

// runInForeground stands in for BatchRun#perform run in the request.
func (s *openStudioService) runInForeground(id, file string) error {
	dps, err := s.analysisDataPoints(id)
	if err != nil {
		return err
	}
	state := record{"status": AnalysisJobCompleted, "start_time": mongoTime(s.now()), "end_time": mongoTime(s.now())}
	for _, dp := range dps {
		if dp["status"] == "na" {
			state = record{"status": AnalysisJobStarted, "start_time": mongoTime(s.now())}
		}
	}
	if err := s.setJob(id, file, state); err != nil {
		return err
	}
	_, err = s.db.update("analyses", func(a record) error { a["run_flag"] = true; return nil }, id)
	return err
}

// stopAnalysis is Analysis#stop_analysis: run_flag false, every job not completed marked
// completed ("datapoint canceled"), queued data points canceled.
func (s *openStudioService) stopAnalysis(id string) error {
	jobs, err := s.analysisJobs(id)
	if err != nil {
		return err
	}
	now := mongoTime(s.now())
	for _, j := range jobs {
		if j["status"] != AnalysisJobCompleted {
			if err := s.setJob(id, j["file"].(string), record{"status": AnalysisJobCompleted, "end_time": now, "status_message": "datapoint canceled"}); err != nil {
				return err
			}
		}
	}
	dps, err := s.analysisDataPoints(id)
	if err != nil {
		return err
	}
	for _, dp := range dps {
		if dp["status"] != "queued" {
			continue
		}
		if _, err := s.db.update("data_points", func(d record) error {
			if d["run_start_time"] == nil {
				d["run_start_time"] = now
			}
			d["run_end_time"], d["status"], d["status_message"], d["updated_at"] = now, "completed", "datapoint canceled", now
			return nil
		}, str(dp["_id"])); err != nil && !errors.Is(err, errNoRecord) {
			return err
		}
	}
	_, err = s.db.update("analyses", func(a record) error { a["run_flag"] = false; a["updated_at"] = now; return nil }, id)
	return err
}
