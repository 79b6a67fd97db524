package sandbox

import (
	"errors"
	"net/http"
	"strings"
)

// creation is a record a create action stores: a project, or a child of a parent record (an
// analysis in a project, a data point in an analysis).
type creation struct {
	kind, table string // "analysis", "analyses"
	model       model
	strict      string // the model's class when it refuses unknown keys ("DataPoint"); "" for a dynamic model
	// prepare, when set, runs on the body first; it answers, and returns false, to refuse it.
	prepare     func(w http.ResponseWriter, obj record) bool
	parent      string // "project"; "" for a record without a parent
	parentTable string // "projects"
	parentID    string
	parentKey   string // the record's key that names its parent, "project_id"
	link        string // the parent's list of children, "project_analyses"
}

// createRecord is a create action: the body (the kind's object), the model's check of its keys
// (an unknown key in a strict model is 500), its id (the client's, or a new uuid), its parent
// (belongs_to is required: a missing one is a validation error, 422), the record stored (a
// duplicate id is Mongo's duplicate-key error, 500) unless --drop-creates loses it, and 201 with
// the document and its Location.
func (s *openStudioService) createRecord(w http.ResponseWriter, r *http.Request, c creation) {
	obj, err := bodyObject(r, c.kind)
	if err == nil && c.prepare != nil && !c.prepare(w, obj) {
		return
	}
	if err == nil && c.strict != "" {
		err = refuseUnknown(c.model, c.strict, obj)
	}
	var id string
	if err == nil {
		id, err = recordID(c.kind, obj)
	}
	if err == nil && c.parent != "" {
		err = s.checkParent(c)
	}
	if err != nil {
		writeRails(w, err)
		return
	}
	rec := c.model.build(obj, id, s.now())
	if c.parent != "" {
		rec[c.parentKey] = c.parentID
	}
	if err := s.storeCreated(c, rec, id); err != nil {
		writeRails(w, err)
		return
	}
	w.Header().Set("Location", location(r, c.table, id))
	writeJSON(w, http.StatusCreated, rec)
}

// checkParent is belongs_to's required parent: a missing one is a validation error.
func (s *documents) checkParent(c creation) error {
	parent, err := s.find(c.parentTable, c.parentID)
	if err == nil && parent == nil {
		err = invalid("Mongoid::Errors::Validations: %s must exist (%s %q)", strings.ToUpper(c.parent[:1])+c.parent[1:], c.parent, c.parentID)
	}
	return err
}

// storeCreated stores a created record, and a child's place in its parent's list, unless
// --drop-creates loses the child (a project is always stored).
func (s *documents) storeCreated(c creation, rec record, id string) error {
	if c.parent != "" && s.dropped(id) {
		return nil
	}
	if err := s.db.create(c.table, rec, id); err != nil {
		if errors.Is(err, errExists) {
			err = crash("Mongo::Error::OperationFailure: E11000 duplicate key error (%s _id %q)", strings.ReplaceAll(c.kind, "_", " "), id)
		}
		return err
	}
	if c.parent == "" {
		return nil
	}
	if err := s.db.create(c.link, record{}, c.parentID, id); err != nil && !errors.Is(err, errExists) {
		return err
	}
	return nil
}
