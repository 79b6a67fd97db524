package sandbox

import (
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"strings"
	"time"
)

// record is a stored object: its client-sent keys plus the server's (_id, created_at, ...).
type record map[string]any

func (s *Server) stamp(rec record, id string) record {
	if rec == nil {
		rec = record{}
	}
	now := s.now().UTC().Format(time.RFC3339Nano)
	rec["_id"] = id
	rec["created_at"] = now
	rec["updated_at"] = now
	return rec
}

// bodyObject decodes {"<root>": {...}} and returns the inner object (400 when absent).
func bodyObject(r *http.Request, root string) (record, error) {
	var body map[string]any
	if err := decodeJSON(r, &body); err != nil {
		return nil, err
	}
	v, ok := body[root]
	if !ok || v == nil {
		return nil, badRequest("param is missing or the value is empty: %s", root)
	}
	obj, ok := v.(map[string]any)
	if !ok {
		return nil, badRequest("param %s must be a JSON object", root)
	}
	return record(obj), nil
}

func (s *Server) mustExist(kind, dbKind, id string) (record, error) {
	if err := checkID(kind, id); err != nil {
		return nil, notFound(kind, id)
	}
	var rec record
	if err := s.db.get(dbKind, &rec, id); err != nil {
		if errors.Is(err, errNoRecord) {
			return nil, notFound(kind, id)
		}
		return nil, err
	}
	return rec, nil
}

func (s *Server) getRecord(w http.ResponseWriter, kind, dbKind, id string) {
	rec, err := s.mustExist(kind, dbKind, id)
	if err != nil {
		writeError(w, err)
		return
	}
	writeJSON(w, http.StatusOK, rec)
}

func (s *Server) createProject(w http.ResponseWriter, r *http.Request) {
	obj, err := bodyObject(r, "project")
	if err != nil {
		writeError(w, err)
		return
	}
	id := newObjectID()
	rec := s.stamp(obj, id)
	if err := s.db.create("projects", rec, id); err != nil {
		writeError(w, err)
		return
	}
	w.Header().Set("Location", "/projects/"+id)
	writeJSON(w, http.StatusCreated, rec)
}

// clientID returns obj[key] as an id when the client sent one, else a new one from gen.
func clientID(kind string, obj record, key string, gen func() string) (string, error) {
	v, ok := obj[key]
	if !ok || v == nil || v == "" {
		return gen(), nil
	}
	id, ok := v.(string)
	if !ok {
		return "", unprocessable("%s.%s must be a string", kind, key)
	}
	if err := checkID(kind, id); err != nil {
		return "", err
	}
	return id, nil
}

func (s *Server) createAnalysis(w http.ResponseWriter, r *http.Request, projectID string) {
	if _, err := s.mustExist("project", "projects", projectID); err != nil {
		writeError(w, err)
		return
	}
	obj, err := bodyObject(r, "analysis")
	if err != nil {
		writeError(w, err)
		return
	}
	id, err := clientID("analysis", obj, "uuid", newUUID)
	if err != nil {
		writeError(w, err)
		return
	}
	rec := s.stamp(obj, id)
	rec["uuid"] = id
	rec["project_id"] = projectID
	rec["status"] = "na"
	if err := s.db.create("analyses", rec, id); err != nil {
		if errors.Is(err, errExists) {
			err = unprocessable("analysis %q already exists (duplicate uuid)", id)
		}
		writeError(w, err)
		return
	}
	w.Header().Set("Location", "/analyses/"+id)
	writeJSON(w, http.StatusCreated, rec)
}

func (s *Server) analysisStatus(w http.ResponseWriter, id string) {
	rec, err := s.mustExist("analysis", "analyses", id)
	if err != nil {
		writeError(w, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"analysis": map[string]any{
		"_id": id, "status": rec["status"], "analysis_type": "batch_run", "jobs": []any{},
	}})
}

// filePart is one uploaded file of a multipart body.
type filePart struct {
	name string
	body []byte
}

// readMultipart reads a multipart/form-data body: plain fields and files, by field name.
func readMultipart(r *http.Request) (map[string]string, map[string]filePart, error) {
	mt, _, err := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if err != nil || mt != "multipart/form-data" {
		return nil, nil, badRequest("send the file as multipart/form-data (Content-Type was %q)", r.Header.Get("Content-Type"))
	}
	mr, err := r.MultipartReader()
	if err != nil {
		return nil, nil, badRequest("bad multipart body: %v", err)
	}
	fields, files := map[string]string{}, map[string]filePart{}
	for {
		part, err := mr.NextPart()
		if err == io.EOF {
			break
		}
		if err != nil {
			var mbe *http.MaxBytesError
			if errors.As(err, &mbe) {
				return nil, nil, err
			}
			return nil, nil, badRequest("bad multipart body: %v", err)
		}
		b, err := io.ReadAll(part)
		if err != nil {
			var mbe *http.MaxBytesError
			if errors.As(err, &mbe) {
				return nil, nil, err
			}
			return nil, nil, badRequest("bad multipart body: %v", err)
		}
		if fn := part.FileName(); fn != "" {
			files[part.FormName()] = filePart{name: fn, body: b}
		} else {
			fields[part.FormName()] = string(b)
		}
	}
	return fields, files, nil
}

func (s *Server) uploadZip(w http.ResponseWriter, r *http.Request, id string) {
	rec, err := s.mustExist("analysis", "analyses", id)
	if err != nil {
		writeError(w, err)
		return
	}
	_, files, err := readMultipart(r)
	if err != nil {
		writeError(w, err)
		return
	}
	f, ok := files["file"]
	if !ok {
		writeError(w, badRequest("param is missing or the value is empty: file (a multipart file field)"))
		return
	}
	name, err := checkFileName(f.name)
	if err != nil {
		writeError(w, err)
		return
	}
	if err := s.st.storeZip(r.Context(), id, name, f.body); err != nil {
		s.cfg.Logf("upload of analysis %s failed: %v", id, err)
		writeError(w, fmt.Errorf("storing the analysis zip: %v", err))
		return
	}
	rec["seed_zip_file_name"] = name
	writeJSON(w, http.StatusCreated, rec)
}

func (s *Server) action(w http.ResponseWriter, r *http.Request, id string) {
	rec, err := s.mustExist("analysis", "analyses", id)
	if err != nil {
		writeError(w, err)
		return
	}
	var body struct {
		Action string `json:"analysis_action"`
	}
	if err := decodeJSON(r, &body); err != nil {
		writeError(w, err)
		return
	}
	switch body.Action {
	case "stop":
		writeJSON(w, http.StatusOK, map[string]any{"code": 200, "analysis": id})
		return
	case "start":
	default:
		writeError(w, unprocessable("analysis_action must be start or stop, got %q", body.Action))
		return
	}
	if err := s.st.extract(r.Context(), id); err != nil {
		s.cfg.Logf("start of analysis %s failed: %v", id, err)
		writeJSON(w, http.StatusOK, map[string]any{"code": 500, "error": "initializing analysis " + id + ": " + err.Error()})
		return
	}
	if rec["status"] != "started" {
		rec["status"] = "started"
		rec["updated_at"] = s.now().UTC().Format(time.RFC3339Nano)
		if err := s.db.put("analyses", rec, id); err != nil {
			writeJSON(w, http.StatusOK, map[string]any{"code": 500, "error": err.Error()})
			return
		}
	}
	writeJSON(w, http.StatusOK, map[string]any{"code": 200, "analysis": id, "status": "started"})
}

func (s *Server) createDataPoint(w http.ResponseWriter, r *http.Request, analysisID string) {
	if _, err := s.mustExist("analysis", "analyses", analysisID); err != nil {
		writeError(w, err)
		return
	}
	obj, err := bodyObject(r, "data_point")
	if err != nil {
		writeError(w, err)
		return
	}
	id, err := clientID("data_point", obj, "uuid", newUUID)
	if err != nil {
		writeError(w, err)
		return
	}
	rec := s.stamp(obj, id)
	rec["uuid"] = id
	rec["analysis_id"] = analysisID
	if _, ok := rec["status"]; !ok {
		rec["status"] = "na"
	}
	if err := s.db.create("data_points", rec, id); err != nil {
		if errors.Is(err, errExists) {
			writeJSON(w, http.StatusUnprocessableEntity, map[string]any{"message": "data point could not be created", "data_point_errors": map[string]any{"uuid": []string{"is already taken"}}})
			return
		}
		writeError(w, err)
		return
	}
	w.Header().Set("Location", "/data_points/"+id)
	writeJSON(w, http.StatusCreated, rec)
}

func (s *Server) getDataPoint(w http.ResponseWriter, id string) {
	rec, err := s.mustExist("data_point", "data_points", id)
	if err != nil {
		writeError(w, err)
		return
	}
	ids, err := s.db.list("result_files", id)
	if err != nil {
		writeError(w, err)
		return
	}
	files := make([]record, 0, len(ids))
	for _, rid := range ids {
		var rf record
		if err := s.db.get("result_files", &rf, id, rid); err == nil {
			files = append(files, rf)
		}
	}
	rec["result_files"] = files
	writeJSON(w, http.StatusOK, rec)
}

func (s *Server) uploadResult(w http.ResponseWriter, r *http.Request, dataPointID string) {
	if _, err := s.mustExist("data_point", "data_points", dataPointID); err != nil {
		writeError(w, err)
		return
	}
	fields, files, err := readMultipart(r)
	if err != nil {
		writeError(w, err)
		return
	}
	f, ok := files["file[attachment]"]
	if !ok {
		writeError(w, badRequest("param is missing or the value is empty: file[attachment] (a multipart file field)"))
		return
	}
	name, err := checkFileName(f.name)
	if err != nil {
		writeError(w, err)
		return
	}
	display := strings.TrimSpace(fields["file[display_name]"])
	if display == "" {
		display = name
	}
	typ := strings.TrimSpace(fields["file[type]"])
	if typ == "" {
		typ = "Report"
	}
	id := newObjectID()
	if err := s.st.storeResult(r.Context(), id, name, f.body); err != nil {
		s.cfg.Logf("result file upload for data point %s failed: %v", dataPointID, err)
		writeError(w, fmt.Errorf("storing the result file: %v", err))
		return
	}
	now := s.now().UTC().Format(time.RFC3339Nano)
	rec := record{"id": id, "_id": id, "data_point_id": dataPointID, "display_name": display, "type": typ,
		"attachment_file_name": name, "attachment_file_size": len(f.body), "created_at": now, "updated_at": now}
	if err := s.db.create("result_files", rec, dataPointID, id); err != nil {
		writeError(w, err)
		return
	}
	writeJSON(w, http.StatusCreated, rec)
}
