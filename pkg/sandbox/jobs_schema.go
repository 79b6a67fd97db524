package sandbox

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"mime"
	"net/http"
	"strconv"
	"strings"
	"unicode/utf8"
)

// The submit body's schema (elb-openapi's JobSubmitRequest, schemas.py), read with pydantic's rules.

// fieldError is one entry of FastAPI's 422 answer.
type fieldError struct {
	Type  string
	Loc   []any
	Msg   string
	Input any
}

func validationDetail(errs ...fieldError) map[string]any {
	d := make([]map[string]any, len(errs))
	for i, e := range errs {
		d[i] = map[string]any{"type": e.Type, "loc": e.Loc, "msg": e.Msg, "input": e.Input}
	}
	return map[string]any{"detail": d}
}

// submitBody is JobSubmitRequest (elb-openapi's schemas.py) read from a JSON object with
// pydantic's rules: type errors answer 422, unknown fields are kept as passthrough.
type submitBody struct {
	Program, DB, ResourceProfile, Source   string
	ClusterName, Queries, Results          *string
	ResultsPrefix, QueryFasta, Key, CorrID *string
	Priority                               int
	Passthrough                            map[string]any
}

// Limits of the passthrough fields (schemas.py _sanitize_passthrough).
const (
	passMaxKeys   = 32
	passMaxKeyLen = 128
	passMaxValLen = 1024
	passMaxTotal  = 16384
)

var knownSubmitFields = map[string]bool{"program": true, "db": true, "cluster_name": true, "queries": true, "results": true,
	"results_prefix": true, "options": true, "query_fasta": true, "taxid": true, "is_inclusive": true, "blast_options": true,
	"priority": true, "batch_len": true, "idempotency_key": true, "resource_profile": true, "submission_source": true,
	"external_correlation_id": true}

type bodyReader struct {
	m    map[string]any
	errs []fieldError
}

func (b *bodyReader) fail(typ, msg string, input any, loc ...any) {
	b.errs = append(b.errs, fieldError{Type: typ, Loc: append([]any{"body"}, loc...), Msg: msg, Input: input})
}

// str reads a string field: absent gives def (or "Field required" when required), null or
// another type is an error unless optional (null is then absent).
func (b *bodyReader) str(name string, required, optional bool, def string, minLen, maxLen int) (string, bool) {
	v, ok := b.m[name]
	if !ok || (v == nil && optional) {
		if required {
			b.fail("missing", "Field required", nil, name)
		}
		return def, false
	}
	s, isStr := v.(string)
	if !isStr {
		b.fail("string_type", "Input should be a valid string", v, name)
		return def, false
	}
	if n := utf8.RuneCountInString(s); n < minLen {
		b.fail("string_too_short", "String should have at least "+strconv.Itoa(minLen)+" character", s, name)
	} else if maxLen > 0 && n > maxLen {
		b.fail("string_too_long", "String should have at most "+strconv.Itoa(maxLen)+" characters", s, name)
	}
	return s, true
}

func (b *bodyReader) optStr(name string, maxLen int) *string {
	s, ok := b.str(name, false, true, "", 0, maxLen)
	if !ok {
		return nil
	}
	return &s
}

// integer reads an int with pydantic's lax rules (a whole number, or a string of one).
func integer(v any) (int64, bool) {
	switch x := v.(type) {
	case json.Number:
		if n, err := x.Int64(); err == nil {
			return n, true
		}
		if f, err := x.Float64(); err == nil && f == float64(int64(f)) {
			return int64(f), true
		}
	case string:
		if n, err := strconv.ParseInt(strings.TrimSpace(x), 10, 64); err == nil {
			return n, true
		}
	}
	return 0, false
}

func (b *bodyReader) optInt(name string, lo, hi int64, loc ...any) {
	m := b.m
	v, ok := m[name]
	if !ok || v == nil {
		return
	}
	n, isInt := integer(v)
	path := append(loc, name)
	switch {
	case !isInt:
		b.fail("int_parsing", "Input should be a valid integer", v, path...)
	case n < lo:
		b.fail("greater_than_equal", "Input should be greater than or equal to "+strconv.FormatInt(lo, 10), v, path...)
	case n > hi:
		b.fail("less_than_equal", "Input should be less than or equal to "+strconv.FormatInt(hi, 10), v, path...)
	}
}

func (b *bodyReader) optBool(name string) {
	v, ok := b.m[name]
	if !ok || v == nil {
		return
	}
	switch x := v.(type) {
	case bool:
		return
	case json.Number:
		if x == "0" || x == "1" {
			return
		}
	case string:
		switch strings.ToLower(x) {
		case "0", "off", "f", "false", "n", "no", "1", "on", "t", "true", "y", "yes":
			return
		}
	}
	b.fail("bool_parsing", "Input should be a valid boolean", v, name)
}

// priorityLabels are _PRIORITY_LABELS.
var priorityLabels = map[string]int{"low": 25, "normal": 50, "high": 75, "urgent": 100}

// normalisePriority is _normalise_priority: a label, or a number clamped to 0-100; anything else
// is normal.
func normalisePriority(v any) int {
	switch x := v.(type) {
	case string:
		l := strings.ToLower(strings.TrimSpace(x))
		if p, ok := priorityLabels[l]; ok {
			return p
		}
		n, err := strconv.Atoi(l)
		if err != nil {
			return 50
		}
		return min(100, max(0, n))
	case json.Number:
		n, _ := integer(x)
		return int(min(100, max(0, n)))
	}
	return 50
}

// readSubmit decodes and validates the body; a non-nil map is the 422 answer.
func readSubmit(r *http.Request) (*submitBody, map[string]any, error) {
	raw, err := io.ReadAll(r.Body)
	if err != nil {
		var mbe *http.MaxBytesError
		if errors.As(err, &mbe) {
			return nil, nil, err
		}
		return nil, nil, badRequest("reading the request body: %v", err)
	}
	if len(raw) == 0 {
		return nil, validationDetail(fieldError{"missing", []any{"body"}, "Field required", nil}), nil
	}
	// FastAPI parses the body as JSON when there is no Content-Type or a JSON one; any other
	// type leaves raw bytes, which are not an object.
	if ct := r.Header.Get("Content-Type"); ct != "" {
		mt, _, _ := mime.ParseMediaType(ct)
		if mt != "application/json" && !(strings.HasPrefix(mt, "application/") && strings.HasSuffix(mt, "+json")) {
			return nil, validationDetail(fieldError{"model_attributes_type", []any{"body"}, "Input should be a valid dictionary or object to extract fields from", string(raw)}), nil
		}
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil || dec.More() {
		return nil, validationDetail(fieldError{"json_invalid", []any{"body", 0}, "JSON decode error", map[string]any{}}), nil
	}
	m, ok := v.(map[string]any)
	if !ok {
		return nil, validationDetail(fieldError{"model_attributes_type", []any{"body"}, "Input should be a valid dictionary or object to extract fields from", v}), nil
	}
	b := &bodyReader{m: m}
	sb := &submitBody{}
	sb.Program, _ = b.str("program", false, false, "blastn", 0, 0)
	sb.DB, _ = b.str("db", true, false, "", 0, 0)
	sb.ClusterName = b.optStr("cluster_name", 0)
	sb.Queries = b.optStr("queries", 0)
	sb.Results = b.optStr("results", 0)
	sb.ResultsPrefix = b.optStr("results_prefix", 0)
	_ = b.optStr("options", 0)
	sb.QueryFasta = b.optStr("query_fasta", 0)
	b.optInt("taxid", -1<<62, 1<<62)
	b.optBool("is_inclusive")
	if bo, ok := m["blast_options"]; ok && bo != nil {
		if o, isObj := bo.(map[string]any); !isObj {
			b.fail("model_attributes_type", "Input should be a valid dictionary or object to extract fields from", bo, "blast_options")
		} else {
			ob := &bodyReader{m: o}
			ob.optInt("max_target_seqs", -1<<62, 1<<62)
			for _, f := range []string{"outfmt", "extra"} {
				_ = ob.optStr(f, 0)
			}
			if e, ok := o["evalue"]; ok && e != nil {
				if _, isNum := e.(json.Number); !isNum {
					ob.fail("float_parsing", "Input should be a valid number", e, "evalue")
				}
			}
			for _, e := range ob.errs {
				e.Loc = append([]any{"body", "blast_options"}, e.Loc[1:]...)
				b.errs = append(b.errs, e)
			}
		}
	}
	switch p := m["priority"].(type) {
	case nil, string, json.Number:
		if n, isNum := p.(json.Number); isNum {
			if _, whole := integer(n); !whole {
				b.fail("int_from_float", "Input should be a valid integer, got a number with a fractional part", p, "priority")
			}
		}
		sb.Priority = normalisePriority(p)
	default:
		b.fail("int_type", "Input should be a valid integer", p, "priority", "int")
	}
	b.optInt("batch_len", 1, 1_000_000_000)
	if k, ok := b.str("idempotency_key", false, true, "", 1, 256); ok {
		sb.Key = &k
	}
	sb.ResourceProfile, _ = b.str("resource_profile", false, false, "standard", 0, 0)
	sb.Source, _ = b.str("submission_source", false, false, "external_api", 0, 0)
	sb.CorrID = b.optStr("external_correlation_id", 128)
	if len(b.errs) > 0 {
		return nil, validationDetail(b.errs...), nil
	}
	sb.Passthrough = sanitizePassthrough(m)
	return sb, nil, nil
}

// sanitizePassthrough is _sanitize_passthrough: the unknown fields, bounded and flattened.
func sanitizePassthrough(m map[string]any) map[string]any {
	out := map[string]any{}
	total := 0
	for k, v := range m {
		if knownSubmitFields[k] {
			continue
		}
		if len(out) >= passMaxKeys {
			break
		}
		key := strings.TrimSpace(k)
		if len(key) > passMaxKeyLen {
			key = key[:passMaxKeyLen]
		}
		if key == "" {
			continue
		}
		var val any
		switch x := v.(type) {
		case nil, bool, json.Number:
			val = x
		case string:
			val = truncate(x, passMaxValLen)
		default:
			b, _ := json.Marshal(x)
			val = truncate(string(b), passMaxValLen)
		}
		total += len(key) + len(strings.Trim(string(mustJSON(val)), `"`))
		if total > passMaxTotal {
			break
		}
		out[key] = val
	}
	return out
}

func truncate(s string, n int) string {
	if len(s) > n {
		return s[:n]
	}
	return s
}

func mustJSON(v any) []byte {
	b, _ := json.Marshal(v)
	return b
}
