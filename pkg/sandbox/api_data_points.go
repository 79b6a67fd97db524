package sandbox

import (
	"crypto/md5"
	"encoding/hex"
	"net/http"
	"strings"
)

// createDataPoint is DataPointsController#create: ordered_variable_values mapped onto the
// analysis's variables first (the sandbox keeps none, so only an empty list matches: anything
// else is the controller's 422 "Variable array and analysis variable size differ"), then a
// strict model (an unknown key is 500, even under a missing analysis), a missing analysis a
// validation error (422), a duplicate id 500.
func (s *openStudioService) createDataPoint(w http.ResponseWriter, r *http.Request, analysisID string) {
	s.createRecord(w, r, creation{kind: "data_point", table: "data_points", model: dataPointModel, strict: "DataPoint",
		prepare: mapVariableValues, parent: "analysis", parentTable: "analyses", parentID: analysisID, parentKey: "analysis_id",
		link: "analysis_data_points"})
}

// mapVariableValues maps a data point's ordered_variable_values onto the analysis's variables:
// the sandbox keeps none, so only an empty list (or none) passes; anything else is answered 422
// and mapVariableValues returns false.
func mapVariableValues(w http.ResponseWriter, obj record) bool {
	if v, ok := obj["ordered_variable_values"]; ok && v != nil {
		if list, ok := v.([]any); !ok || len(list) > 0 {
			writeJSON(w, http.StatusUnprocessableEntity, map[string]any{"message": "Variable array and analysis variable size differ", "data_point_errors": ""})
			return false
		}
		obj["set_variable_values"] = map[string]any{}
	}
	return true
}

// analysisDataPoints returns an analysis's data points, in id order.
func (s *documents) analysisDataPoints(analysisID string) ([]record, error) {
	ids, err := s.db.list("analysis_data_points", analysisID)
	if err != nil {
		return nil, err
	}
	out := make([]record, 0, len(ids))
	for _, id := range ids {
		dp, err := s.find("data_points", id)
		if err != nil {
			return nil, err
		}
		if dp != nil {
			out = append(out, dp)
		}
	}
	return out, nil
}

// getDataPoint is DataPointsController#show: {"data_point": {...}} with the
// set_variable_values_names maps (empty: the sandbox has no variables to name the values by) and
// the embedded result_files (once there are any), whose _id shows as {"$oid": ...}; a missing
// data point is 422 {"error":"No Datapoint"}.
func (s *openStudioService) getDataPoint(w http.ResponseWriter, id string) {
	rec, ok := findOrAnswer(w, &s.documents, "data_points", id, http.StatusUnprocessableEntity, map[string]any{"error": "No Datapoint"})
	if !ok {
		return
	}
	ids, err := s.db.list("result_files", id)
	if err != nil {
		writeRails(w, err)
		return
	}
	files := make([]record, 0, len(ids))
	for _, rid := range ids {
		var rf record
		if err := s.db.get("result_files", &rf, id, rid); err == nil {
			rf["_id"] = map[string]any{"$oid": rf["_id"]}
			files = append(files, rf)
		}
	}
	if len(files) > 0 {
		rec["result_files"] = files
	}
	rec["set_variable_values_names"] = map[string]any{}
	rec["set_variable_values_display_names"] = map[string]any{}
	writeJSON(w, http.StatusOK, map[string]any{"data_point": rec})
}

// uploadResult is DataPointsController#upload_file: without file[attachment] it answers 422
// before it touches the data point; with one, a missing data point crashes (500). The result
// file is stored under its own new ObjectId and answered as the result_file view renders it.
func (s *openStudioService) uploadResult(w http.ResponseWriter, r *http.Request, dataPointID string) {
	rec, err := s.find("data_points", dataPointID)
	var fields map[string]string
	var files map[string]filePart
	if err == nil {
		fields, files, err = readMultipart(r)
	}
	if err != nil {
		writeRails(w, err)
		return
	}
	f, ok := files["file[attachment]"]
	if !ok {
		if _, asField := fields["file[attachment]"]; asField {
			writeRails(w, crash("Paperclip::AdapterRegistry::NoHandlerError: no handler for a plain-text file[attachment]"))
			return
		}
		var file any
		if d, t := fieldOrNil(fields, "file[display_name]"), fieldOrNil(fields, "file[type]"); d != nil || t != nil {
			file = map[string]any{"display_name": d, "type": t}
		}
		writeJSON(w, http.StatusUnprocessableEntity, map[string]any{"error": []string{"Missing attachment parameter"}, "result_file": file})
		return
	}
	if rec == nil {
		writeRails(w, nilRecord("data point", dataPointID, "result_files"))
		return
	}
	clean, stored, err := uploadNames(f.name)
	if err != nil {
		writeRails(w, err)
		return
	}
	id := newObjectID()
	now := mongoTime(s.now())
	sum := md5.Sum(f.body)
	rf := record{"_id": id, "display_name": fieldOrNil(fields, "file[display_name]"), "type": fieldOrNil(fields, "file[type]"),
		"attachment_file_name": clean, "attachment_content_type": strings.TrimSpace(f.ctype), "attachment_file_size": len(f.body),
		"attachment_updated_at": now, "attachment_fingerprint": hex.EncodeToString(sum[:]), "created_at": now, "updated_at": now}
	if err := s.st.storeResult(r.Context(), id, stored, f.body); err != nil {
		s.cfg.Logf("result file upload for data point %s failed: %v", dataPointID, err)
		writeRails(w, crash("storing the result file: %v", err))
		return
	}
	if err := s.db.create("result_files", rf, dataPointID, id); err != nil {
		writeRails(w, err)
		return
	}
	w.Header().Set("Location", location(r, "data_points", dataPointID))
	writeJSON(w, http.StatusCreated, map[string]any{"id": id, "data_point_id": dataPointID, "display_name": rf["display_name"],
		"type": rf["type"], "created_at": now, "updated_at": now})
}

func fieldOrNil(fields map[string]string, key string) any {
	if v, ok := fields[key]; ok {
		return v
	}
	return nil
}
