package sandbox

import (
	"sort"
	"time"
)

// model is one of OpenStudio Server's Mongoid models as its API shows it: its declared fields
// with their defaults, and whether it is dynamic. Mongoid serializes every declared field, null
// when it has no value (Serializable#field_names: the document's keys plus every declared
// field); a dynamic model (Mongoid::Attributes::Dynamic) stores any key it is given, the others
// raise Mongoid::Errors::UnknownAttribute on a key they do not declare, which Rails answers
// with HTTP 500.
type model struct {
	// fields maps each declared field (Mongoid::Timestamps' created_at and updated_at
	// included) to its default; nil means none (serialized as null).
	fields map[string]any
	// dynamic stores unknown keys instead of refusing them.
	dynamic bool
	// consumed are keys the controller takes out of the params before it builds the model.
	consumed map[string]bool
}

// Defaults that are empty containers; fresh copies are made for every record.
var (
	emptyHash  = map[string]any{}
	emptyArray = []any{}
)

// projectModel is app/models/project.rb.
var projectModel = model{fields: map[string]any{
	"_id": nil, "uuid": nil, "name": "", "display_name": "", "created_at": nil, "updated_at": nil,
}}

// analysisModel is app/models/analysis.rb (dynamic), with the fields mongoid-paperclip adds for
// its seed_zip attachment and the project_id of belongs_to :project.
var analysisModel = model{dynamic: true, fields: map[string]any{
	"_id": nil, "uuid": nil, "version_uuid": nil, "name": nil, "display_name": nil, "description": nil,
	"run_flag": false, "exit_on_guideline_14": 0, "cli_debug": "--debug", "cli_verbose": "--verbose",
	"initialize_worker_timeout": 28800, "upload_results_timeout": 28800, "run_workflow_timeout": 28800,
	"download_zip": true, "download_osm": true, "download_osw": true, "gemfile": false, "download_reports": true,
	"variable_display_name_choice": "display_name", "results": emptyHash, "problem": nil, "status_message": "",
	"output_variables": emptyArray, "os_metadata": nil, "analysis_logs": emptyHash, "urbanopt": false,
	"urbanopt_variables": emptyArray, "feature_file": "", "scenario_file": "", "reopt": false, "reopt_type": "",
	"samples": nil, "significant_digits": 3,
	"seed_zip_file_name": nil, "seed_zip_content_type": nil, "seed_zip_file_size": nil, "seed_zip_updated_at": nil,
	"seed_zip_fingerprint": nil, "project_id": nil, "created_at": nil, "updated_at": nil,
}}

// dataPointModel is app/models/data_point.rb; the controller's create consumes
// ordered_variable_values before it builds the data point.
var dataPointModel = model{consumed: map[string]bool{"ordered_variable_values": true}, fields: map[string]any{
	"_id": nil, "uuid": nil, "name": nil, "description": "", "variable_values": nil, "set_variable_values": emptyHash,
	"seed": "", "weather_file": "", "da_descriptions": emptyArray, "status": "na", "status_message": "", "job_id": nil,
	"results": emptyHash, "run_queue_time": nil, "run_start_time": nil, "run_end_time": nil, "sdp_log_file": emptyArray,
	"worker_logs": emptyHash, "ip_address": nil, "internal_ip_address": nil, "analysis_id": nil,
	"created_at": nil, "updated_at": nil,
}}

// unknown returns the keys of obj that the model refuses (sorted); none for a dynamic model.
// "id" is Mongoid's alias of _id.
func (m model) unknown(obj record) []string {
	if m.dynamic {
		return nil
	}
	var out []string
	for k := range obj {
		if _, ok := m.fields[k]; !ok && k != "id" && !m.consumed[k] {
			out = append(out, k)
		}
	}
	sort.Strings(out)
	return out
}

// build returns a new document: the model's defaults, then the client's keys (without the
// consumed ones; id as _id), then the server's: _id and uuid (set_uuid_from_id) and the
// timestamps unless the client sent them.
func (m model) build(obj record, id string, now time.Time) record {
	rec := record{}
	for k, v := range m.fields {
		rec[k] = freshDefault(v)
	}
	for k, v := range obj {
		switch {
		case m.consumed[k]:
		case k == "id":
			rec["_id"] = v
		default:
			rec[k] = v
		}
	}
	rec["_id"], rec["uuid"] = id, id
	ts := mongoTime(now)
	for _, k := range []string{"created_at", "updated_at"} {
		if rec[k] == nil {
			rec[k] = ts
		}
	}
	return rec
}

func freshDefault(v any) any {
	switch v.(type) {
	case map[string]any:
		return map[string]any{}
	case []any:
		return []any{}
	}
	return v
}

// mongoTime is a time as Rails renders a Mongoid time in JSON: UTC with milliseconds (MongoDB
// keeps no more).
func mongoTime(t time.Time) string { return t.UTC().Format("2006-01-02T15:04:05.000Z") }

// recordID returns the id a create gets: _id (or its alias id) when sent, else uuid (the
// models' `default: -> { uuid || SecureRandom.uuid }`), else a new random uuid. The sandbox
// refuses (422) an id it cannot use as a path component; the real server would store it.
func recordID(kind string, obj record) (string, error) {
	for _, key := range []string{"_id", "id", "uuid"} {
		v, ok := obj[key]
		if !ok || v == nil {
			continue
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
	return newUUID(), nil
}
