package sandbox

import (
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"net/http"
	"strings"
)

// record is a stored document: its fields as the API shows them.
type record map[string]any

// bodyObject reads the params of a create, {"<root>": {...}}: params.require(root).permit!.
// A body that is not JSON, or a missing or empty root, is 400 (ActionController::ParameterMissing);
// a root that is not an object is 500 (permit! on a non-hash raises).
func bodyObject(r *http.Request, root string) (record, error) {
	var body map[string]any
	if err := decodeJSON(r, &body); err != nil {
		return nil, err
	}
	v, ok := body[root]
	if !ok || v == nil || v == "" {
		return nil, badRequest("param is missing or the value is empty: %s", root)
	}
	obj, ok := v.(map[string]any)
	if !ok {
		return nil, crash("undefined method `permit!' for %v (param %s is not a JSON object)", v, root)
	}
	return record(obj), nil
}

// refuseUnknown is Mongoid::Errors::UnknownAttribute (HTTP 500) for a key a strict model does
// not declare.
func refuseUnknown(m model, kind string, obj record) error {
	if keys := m.unknown(obj); len(keys) > 0 {
		return crash("Mongoid::Errors::UnknownAttribute: attempted to set %s on %s (not a field; put a nonce in name)", strings.Join(keys, ", "), kind)
	}
	return nil
}

// find is Model.find with raise_not_found_error: false: the record, or nil when there is none
// (or when the id is not one the sandbox could have stored).
func (s *documents) find(dbKind, id string) (record, error) {
	if checkID("record", id) != nil {
		return nil, nil
	}
	var rec record
	if err := s.db.get(dbKind, &rec, id); err != nil {
		if errors.Is(err, errNoRecord) {
			return nil, nil
		}
		return nil, err
	}
	return rec, nil
}

// findOrAnswer is a show action's read of its record: the record, or false once it answered a
// failed read (as Rails does) or a missing record (status, with missing as the body).
func findOrAnswer(w http.ResponseWriter, d *documents, table, id string, status int, missing any) (record, bool) {
	rec, err := d.find(table, id)
	if err != nil {
		writeRails(w, err)
		return nil, false
	}
	if rec == nil {
		writeJSON(w, status, missing)
		return nil, false
	}
	return rec, true
}

// dropped reports whether --drop-creates loses the create of id: the first 8 bytes of its
// SHA-256, as a fraction of 2^64, below the drop fraction. The same id is always dropped or
// always kept.
func (s *documents) dropped(id string) bool {
	if s.drop <= 0 {
		return false
	}
	h := sha256.Sum256([]byte(id))
	return float64(binary.BigEndian.Uint64(h[:8])>>11)/(1<<53) < s.drop
}

// str returns v as a string ("" when it is not one).
func str(v any) string {
	s, _ := v.(string)
	return s
}
