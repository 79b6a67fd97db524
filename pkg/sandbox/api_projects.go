package sandbox

import (
	"errors"
	"net/http"
)

// createProject is ProjectsController#create: a strict model, the id from _id or uuid, 201 with
// the bare project and a Location; a duplicate id is MongoDB's duplicate-key error (500).
func (s *openStudioService) createProject(w http.ResponseWriter, r *http.Request) {
	obj, err := bodyObject(r, "project")
	if err == nil {
		err = refuseUnknown(projectModel, "Project", obj)
	}
	var id string
	if err == nil {
		id, err = recordID("project", obj)
	}
	if err != nil {
		writeRails(w, err)
		return
	}
	rec := projectModel.build(obj, id, s.now())
	if err := s.db.create("projects", rec, id); err != nil {
		if errors.Is(err, errExists) {
			err = crash("Mongo::Error::OperationFailure: E11000 duplicate key error (project _id %q)", id)
		}
		writeRails(w, err)
		return
	}
	w.Header().Set("Location", location(r, "projects", id))
	writeJSON(w, http.StatusCreated, rec)
}

// getProject is ProjectsController#show: the bare project with its analyses, or null (HTTP 200)
// when there is none.
func (s *openStudioService) getProject(w http.ResponseWriter, id string) {
	rec, err := s.find("projects", id)
	if err != nil {
		writeRails(w, err)
		return
	}
	if rec == nil {
		writeJSON(w, http.StatusOK, nil)
		return
	}
	ids, err := s.db.list("project_analyses", id)
	if err != nil {
		writeRails(w, err)
		return
	}
	analyses := make([]record, 0, len(ids))
	for _, aid := range ids {
		if a, err := s.find("analyses", aid); err == nil && a != nil {
			analyses = append(analyses, a)
		}
	}
	rec["analyses"] = analyses
	writeJSON(w, http.StatusOK, rec)
}
