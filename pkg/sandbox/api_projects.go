package sandbox

import (
	"net/http"
)

// createProject is ProjectsController#create: a strict model, the id from _id or uuid, 201 with
// the bare project and a Location; a duplicate id is MongoDB's duplicate-key error (500).
func (s *openStudioService) createProject(w http.ResponseWriter, r *http.Request) {
	s.createRecord(w, r, creation{kind: "project", table: "projects", model: projectModel, strict: "Project"})
}

// getProject is ProjectsController#show: the bare project with its analyses, or null (HTTP 200)
// when there is none.
func (s *openStudioService) getProject(w http.ResponseWriter, id string) {
	rec, ok := findOrAnswer(w, &s.documents, "projects", id, http.StatusOK, nil)
	if !ok {
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
