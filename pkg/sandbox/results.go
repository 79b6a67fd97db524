package sandbox

import (
	"errors"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
)

// deleteResultFiles is DataPointsController#result_files (DELETE /data_points/:id/result_files):
// `dp.result_files.destroy` then `dp.save`, answered 204. A missing data point crashes on nil (500).
func (s *openStudioService) deleteResultFiles(w http.ResponseWriter, dataPointID string) {
	rec, err := s.find("data_points", dataPointID)
	if err == nil && rec == nil {
		err = nilRecord("data point", dataPointID, "result_files")
	}
	if err == nil {
		err = s.destroyResultFiles(dataPointID)
	}
	if err != nil {
		writeRails(w, err)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

// destroyResultFiles destroys a data point's embedded result files: each record, and (Paperclip's
// destroy callback) its file and then each parent directory left empty, up to the result's own
// directory data_points/<result id>.
func (s *openStudioService) destroyResultFiles(dataPointID string) error {
	ids, err := s.db.list("result_files", dataPointID)
	if err != nil {
		return err
	}
	for _, rid := range ids {
		var rf record
		if err := s.db.get("result_files", &rf, dataPointID, rid); err != nil {
			continue // gone meanwhile
		}
		if name, _ := rf["attachment_file_name"].(string); name != "" {
			if err := s.removeResultFile(rid, storedName(name)); err != nil {
				return err
			}
		}
		if err := s.db.remove("result_files", dataPointID, rid); err != nil && !errors.Is(err, errNoRecord) {
			return err
		}
	}
	return nil
}

func (s *openStudioService) removeResultFile(resultID, name string) error {
	if err := checkID("result file", resultID); err != nil {
		return err
	}
	p := filepath.Join(s.layout.resultDir(resultID), name)
	if err := os.Remove(p); err != nil && !errors.Is(err, os.ErrNotExist) {
		return err
	}
	top := filepath.Join(s.layout.root, "assets", "data_points", resultID)
	for d := filepath.Dir(p); ; d = filepath.Dir(d) {
		if os.Remove(d) != nil || d == top {
			return nil
		}
	}
}

// simulateDataPoints stands in for what RunAnalysis (batch_run) makes the simulation worker do:
// every data point of the analysis still "na" is submitted, and DjJobs::RunSimulateDataPoint
// begins each with DELETE /data_points/:id/result_files ("in case this is a rerun") before it
// simulates. The sandbox simulates nothing: it deletes the result files and marks the data point
// completed, as the real worker does once its simulation failed or ended.
func (s *openStudioService) simulateDataPoints(analysisID string) error {
	dps, err := s.analysisDataPoints(analysisID)
	if err != nil {
		return err
	}
	for _, dp := range dps {
		id, _ := dp["_id"].(string)
		if st, _ := dp["status"].(string); id == "" || st != "na" {
			continue
		}
		if err := s.destroyResultFiles(id); err != nil {
			return fmt.Errorf("data point %s: %v", id, err)
		}
		if _, err := s.db.update("data_points", func(r record) error { r["status"] = "completed"; return nil }, id); err != nil && !errors.Is(err, errNoRecord) {
			return err
		}
	}
	return nil
}
