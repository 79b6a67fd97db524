package sandbox_test

import (
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/osctl/osctl/pkg/sandbox"
)

// The tests in this file check, one item of the real server's behaviour per test or table row,
// what OpenStudio Server v3.7.0 answers (docs/sandbox.md), in every locking mode.

func TestStrictModelsRefuseUnknownKeys(t *testing.T) {
	eachMode(t, func(t *testing.T, mode sandbox.Locking) {
		base := serveMode(t, mode)
		pid := newProject(t, base)
		aid := newAnalysis(t, base, pid, "")
		cases := []struct {
			name, path, root string
			obj              map[string]any
			want             int
		}{
			{"project: an unknown key", "/projects.json", "project", map[string]any{"name": "p", "osctl_nonce": "n1"}, 500},
			{"project: description is no field", "/projects.json", "project", map[string]any{"description": "d"}, 500},
			{"project: every field", "/projects.json", "project", map[string]any{"uuid": "p-all", "name": "p", "display_name": "P", "created_at": "2026-01-01T00:00:00.000Z", "updated_at": "2026-01-01T00:00:00.000Z"}, 201},
			{"data point: an unknown key", "/analyses/" + aid + "/data_points.json", "data_point", map[string]any{"name": "dp", "osctl_nonce": "n2"}, 500},
			{"data point: unknown key under a missing analysis (checked first)", "/analyses/nope/data_points.json", "data_point", map[string]any{"nonce": "n3"}, 500},
			{"data point: every field", "/analyses/" + aid + "/data_points.json", "data_point", map[string]any{
				"uuid": "dp-all", "name": "dp", "description": "nonce here", "variable_values": []any{1}, "set_variable_values": map[string]any{},
				"seed": "s", "weather_file": "w", "da_descriptions": []any{}, "status": "na", "status_message": "", "job_id": "j", "results": map[string]any{},
				"run_queue_time": nil, "run_start_time": nil, "run_end_time": nil, "sdp_log_file": []any{}, "worker_logs": map[string]any{},
				"ip_address": "1.2.3.4", "internal_ip_address": "10.0.0.1", "analysis_id": aid, "created_at": nil, "updated_at": nil}, 201},
			{"data point: ordered_variable_values the controller consumes", "/analyses/" + aid + "/data_points.json", "data_point", map[string]any{"name": "dp", "ordered_variable_values": []any{}}, 201},
			{"analysis: any key (dynamic)", "/projects/" + pid + "/analyses.json", "analysis", map[string]any{"uuid": "a-dyn", "osctl_nonce": "n4", "problem": map[string]any{"x": 1}}, 201},
		}
		for _, c := range cases {
			a := sendJSON(t, "POST", base+c.path, map[string]any{c.root: c.obj})
			if c.want == 500 {
				wantJSON(t, c.name, a, 500, railsError(500))
				continue
			}
			if a.status != c.want {
				t.Errorf("%s: HTTP %d %s, want %d", c.name, a.status, a.body, c.want)
			}
		}
		if a := send(t, "GET", base+"/analyses/a-dyn.json", "", nil); a.obj()["analysis"].(map[string]any)["osctl_nonce"] != "n4" {
			t.Errorf("the dynamic analysis did not store its unknown key: %s", a.body)
		}
		a := sendJSON(t, "POST", base+"/analyses/"+aid+"/data_points.json", map[string]any{"data_point": map[string]any{"ordered_variable_values": []any{1.5}}})
		wantJSON(t, "data point: ordered values the analysis has no variables for", a, 422, map[string]any{"message": "Variable array and analysis variable size differ", "data_point_errors": ""})
	})
}

func TestIDsAreStrings(t *testing.T) {
	eachMode(t, func(t *testing.T, mode sandbox.Locking) {
		base := serveMode(t, mode)
		pid := newProject(t, base)
		if !uuidRE.MatchString(pid) {
			t.Errorf("a project without uuid got _id %q, want a random uuid", pid)
		}
		creates := []struct {
			kind, path, root string
		}{
			{"project", "/projects.json", "project"},
			{"analysis", "/projects/" + pid + "/analyses.json", "analysis"},
		}
		aid := newAnalysis(t, base, pid, "")
		creates = append(creates, struct{ kind, path, root string }{"data point", "/analyses/" + aid + "/data_points.json", "data_point"})
		for _, c := range creates {
			id := "osctl-" + strings.ReplaceAll(c.kind, " ", "-") + "-7"
			a := sendJSON(t, "POST", base+c.path, map[string]any{c.root: map[string]any{"uuid": id, "name": "n"}})
			if a.status != 201 || a.obj()["_id"] != id || a.obj()["uuid"] != id {
				t.Errorf("%s with uuid %s: HTTP %d %s, want 201 with _id and uuid %s", c.kind, id, a.status, a.body, id)
			}
			wantJSON(t, c.kind+": a duplicate uuid (MongoDB's duplicate key)", sendJSON(t, "POST", base+c.path, map[string]any{c.root: map[string]any{"uuid": id}}), 500, railsError(500))
			a = sendJSON(t, "POST", base+c.path, map[string]any{c.root: map[string]any{"_id": id + "-b", "uuid": "ignored"}})
			if a.obj()["_id"] != id+"-b" || a.obj()["uuid"] != id+"-b" {
				t.Errorf("%s with _id: %s, want _id and uuid %s-b", c.kind, a.body, id)
			}
			a = sendJSON(t, "POST", base+c.path, map[string]any{c.root: map[string]any{"name": "n"}})
			if got, _ := a.obj()["_id"].(string); !uuidRE.MatchString(got) || a.obj()["uuid"] != got {
				t.Errorf("%s without uuid: _id %q uuid %v, want one random uuid", c.kind, got, a.obj()["uuid"])
			}
		}
		dp := sendJSON(t, "POST", base+"/analyses/"+aid+"/data_points.json", map[string]any{"data_point": map[string]any{"name": "n"}}).obj()["_id"].(string)
		ct, body := multipartFile(map[string]string{"file[display_name]": "r", "file[type]": "Report"}, "file[attachment]", "r.json", "application/json", []byte("{}"))
		a := send(t, "POST", base+"/data_points/"+dp+"/upload_file.json", ct, body)
		if rid, _ := a.obj()["id"].(string); a.status != 201 || !oidRE.MatchString(rid) {
			t.Errorf("result file id: HTTP %d %s, want 24 hex digits", a.status, a.body)
		}
	})
}

func TestMissingRecordsAnswerAsTheRealServer(t *testing.T) {
	eachMode(t, func(t *testing.T, mode sandbox.Locking) {
		base := serveMode(t, mode)
		zipCT, zipBody := multipartFile(nil, "file", "seed.zip", "application/zip", orderedZip(t, []string{"a"}, [][]byte{[]byte("a")}))
		resCT, resBody := multipartFile(nil, "file[attachment]", "r.json", "application/json", []byte("{}"))
		start := []byte(`{"analysis_action":"start","without_delay":false,"analysis_type":"batch_run"}`)
		cases := []struct {
			name, method, path, ctype string
			body                      []byte
			status                    int
			want                      any
		}{
			{"GET a missing project", "GET", "/projects/nope.json", "", nil, 200, nil},
			{"GET a missing analysis", "GET", "/analyses/nope.json", "", nil, 200, map[string]any{"analysis": nil}},
			{"GET a missing analysis's status", "GET", "/analyses/nope/status.json", "", nil, 200, map[string]any{"analyses": []any{}}},
			{"GET a missing data point", "GET", "/data_points/nope.json", "", nil, 422, map[string]any{"error": "No Datapoint"}},
			{"GET an id the sandbox cannot store", "GET", "/analyses/a%2Fb.json", "", nil, 200, map[string]any{"analysis": nil}},
			{"create an analysis under a missing project", "POST", "/projects/nope/analyses.json", "application/json", []byte(`{"analysis":{"name":"a"}}`), 422, railsError(422)},
			{"create a data point under a missing analysis", "POST", "/analyses/nope/data_points.json", "application/json", []byte(`{"data_point":{"name":"d"}}`), 422, railsError(422)},
			{"upload to a missing analysis", "POST", "/analyses/nope/upload.json", zipCT, zipBody, 500, railsError(500)},
			{"start a missing analysis", "POST", "/analyses/nope/action.json", "application/json", start, 500, railsError(500)},
			{"stop a missing analysis", "POST", "/analyses/nope/action.json", "application/json", []byte(`{"analysis_action":"stop"}`), 500, railsError(500)},
			{"upload_file to a missing data point", "POST", "/data_points/nope/upload_file.json", resCT, resBody, 500, railsError(500)},
			{"DELETE a missing analysis", "DELETE", "/analyses/nope.json", "", nil, 500, railsError(500)},
		}
		for _, c := range cases {
			wantJSON(t, c.name, send(t, c.method, base+c.path, c.ctype, c.body, "Accept", "application/json"), c.status, c.want)
		}
	})
}

func TestCreatesAnswerBareDocumentsWithLocation(t *testing.T) {
	eachMode(t, func(t *testing.T, mode sandbox.Locking) {
		base := serveMode(t, mode)
		host := strings.TrimPrefix(base, "http://")
		a := sendJSON(t, "POST", base+"/projects.json", map[string]any{"project": map[string]any{"uuid": "p1"}})
		if a.status != 201 || a.header.Get("Location") != "http://"+host+"/projects/p1" {
			t.Fatalf("project create: HTTP %d Location %q", a.status, a.header.Get("Location"))
		}
		p := a.obj()
		if p["_id"] != "p1" || p["name"] != "" || p["display_name"] != "" || !stampRE.MatchString(p["created_at"].(string)) || len(p) != 6 {
			t.Errorf("project %v: want _id, uuid, the defaults name and display_name \"\", created_at and updated_at", p)
		}
		a = sendJSON(t, "POST", base+"/projects/p1/analyses.json", map[string]any{"analysis": map[string]any{"uuid": "a1", "display_name": "A"}})
		an := a.obj()
		if a.status != 201 || a.header.Get("Location") != "http://"+host+"/analyses/a1" || an["analysis"] != nil {
			t.Fatalf("analysis create: HTTP %d Location %q %s", a.status, a.header.Get("Location"), a.body)
		}
		for k, v := range map[string]any{"_id": "a1", "uuid": "a1", "project_id": "p1", "display_name": "A", "run_flag": false, "exit_on_guideline_14": 0.0,
			"cli_debug": "--debug", "significant_digits": 3.0, "download_zip": true, "variable_display_name_choice": "display_name"} {
			if an[k] != v {
				t.Errorf("analysis %s = %v, want %v", k, an[k], v)
			}
		}
		for _, k := range []string{"name", "description", "problem", "seed_zip_file_name"} {
			if v, ok := an[k]; !ok || v != nil {
				t.Errorf("analysis %s = %v (present %v): a declared field without a value is null", k, v, ok)
			}
		}
		if _, ok := an["status"]; ok {
			t.Errorf("the analysis document has a status: it is computed from the jobs, not stored")
		}
		a = sendJSON(t, "POST", base+"/analyses/a1/data_points.json", map[string]any{"data_point": map[string]any{"uuid": "d1", "name": "D"}})
		dp := a.obj()
		if a.status != 201 || a.header.Get("Location") != "http://"+host+"/data_points/d1" || dp["analysis_id"] != "a1" || dp["status"] != "na" || dp["description"] != "" {
			t.Errorf("data point create: HTTP %d Location %q %s", a.status, a.header.Get("Location"), a.body)
		}
		if _, ok := dp["result_files"]; ok {
			t.Errorf("a new data point shows result_files: %s", a.body)
		}
	})
}

func TestShowsAreWrapped(t *testing.T) {
	eachMode(t, func(t *testing.T, mode sandbox.Locking) {
		base := serveMode(t, mode)
		pid := newProject(t, base)
		aid := newAnalysis(t, base, pid, "a-show")
		up := uploadZip(t, base, aid, "seed.zip", orderedZip(t, []string{"a.txt"}, [][]byte{[]byte("a")}))
		if up.status != 201 || up.obj()["_id"] != aid || up.obj()["seed_zip_file_name"] != "seed.zip" || up.obj()["seed_zip_content_type"] != "application/zip" {
			t.Errorf("upload answer: HTTP %d %s, want 201 with the bare analysis", up.status, up.body)
		}
		a := send(t, "GET", base+"/analyses/"+aid+".json", "", nil)
		if got, _ := a.obj()["analysis"].(map[string]any); a.status != 200 || got["_id"] != aid || len(a.obj()) != 1 {
			t.Errorf("analysis show: %s, want {\"analysis\":{...}}", a.body)
		}
		a = send(t, "GET", base+"/projects/"+pid+".json", "", nil)
		if list, _ := a.obj()["analyses"].([]any); a.obj()["_id"] != pid || len(list) != 1 || list[0].(map[string]any)["_id"] != aid {
			t.Errorf("project show: %s, want the bare project with its analyses", a.body)
		}
		dp := sendJSON(t, "POST", base+"/analyses/"+aid+"/data_points.json", map[string]any{"data_point": map[string]any{"name": "n"}}).obj()["_id"].(string)
		ct, body := multipartFile(map[string]string{"file[display_name]": "report", "file[type]": "Report"}, "file[attachment]", "report.json", "application/json", []byte(`{"ok":1}`))
		rf := send(t, "POST", base+"/data_points/"+dp+"/upload_file.json", ct, body)
		keys := []string{}
		for k := range rf.obj() {
			keys = append(keys, k)
		}
		rid, _ := rf.obj()["id"].(string)
		if rf.status != 201 || len(keys) != 6 || rf.obj()["data_point_id"] != dp || rf.obj()["display_name"] != "report" || rf.obj()["type"] != "Report" || !oidRE.MatchString(rid) {
			t.Errorf("upload_file answer: HTTP %d %s, want {id, data_point_id, display_name, type, created_at, updated_at}", rf.status, rf.body)
		}
		a = send(t, "GET", base+"/data_points/"+dp+".json", "", nil)
		got, _ := a.obj()["data_point"].(map[string]any)
		files, _ := got["result_files"].([]any)
		if a.status != 200 || got["_id"] != dp || len(files) != 1 {
			t.Fatalf("data point show: %s, want {\"data_point\":{... result_files: [one]}}", a.body)
		}
		f := files[0].(map[string]any)
		if oid, _ := f["_id"].(map[string]any); oid["$oid"] != rid || f["attachment_file_name"] != "report.json" {
			t.Errorf("embedded result file %v: want _id {\"$oid\": %q}", f, rid)
		}
	})
}

func TestPaperclipStoredNames(t *testing.T) {
	eachMode(t, func(t *testing.T, mode sandbox.Locking) {
		base := serveMode(t, mode)
		dir := stateDirOf(t, base)
		pid := newProject(t, base)
		cases := []struct{ sent, fileName, stored string }{
			{"seed.zip", "seed.zip", "seed.zip"},
			{"out", "out", "out."},
			{"my seed.zip", "my_seed.zip", "my_seed.zip"},
			{"a&b$c+d,e:f;g=h?i@j<k>l[m]n{o}p|q^r~s#t.zip", "a_b_c_d_e_f_g_h_i_j_k_l_m_n_o_p_q_r_s_t.zip", "a_b_c_d_e_f_g_h_i_j_k_l_m_n_o_p_q_r_s_t.zip"},
			{`dir/sub\x.zip`, "dir_sub_x.zip", "dir_sub_x.zip"},
			{"a%20b.zip", "a_b.zip", "a_b.zip"},
			{"100%.zip", "100_.zip", "100_.zip"},
			{"x.tar.gz", "x.tar.gz", "x.tar.gz"},
			{"trailing.", "trailing.", "trailing."},
		}
		for i, c := range cases {
			aid := newAnalysis(t, base, pid, "")
			a := uploadZip(t, base, aid, c.sent, orderedZip(t, []string{"a"}, [][]byte{{byte(i)}}))
			if a.status != 201 || a.obj()["seed_zip_file_name"] != c.fileName {
				t.Errorf("upload named %q: HTTP %d seed_zip_file_name %v, want %q", c.sent, a.status, a.obj()["seed_zip_file_name"], c.fileName)
			}
			if !exists(dir, "server/assets/analyses", aid, "original", c.stored) {
				t.Errorf("upload named %q: not stored as original/%s", c.sent, c.stored)
			}
			dp := sendJSON(t, "POST", base+"/analyses/"+aid+"/data_points.json", map[string]any{"data_point": map[string]any{"name": "n"}}).obj()["_id"].(string)
			ct, body := multipartFile(nil, "file[attachment]", c.sent, "application/octet-stream", []byte("r"))
			rf := send(t, "POST", base+"/data_points/"+dp+"/upload_file.json", ct, body)
			rid, _ := rf.obj()["id"].(string)
			if rf.status != 201 || !exists(dir, "server/assets/data_points", rid, "files/original", c.stored) {
				t.Errorf("result file named %q: HTTP %d, not stored as files/original/%s", c.sent, rf.status, c.stored)
			}
		}
	})
}

func TestUploadChecksAndClears(t *testing.T) {
	eachMode(t, func(t *testing.T, mode sandbox.Locking) {
		base := serveMode(t, mode)
		dir := stateDirOf(t, base)
		aid := newAnalysis(t, base, newProject(t, base), "")
		z := orderedZip(t, []string{"a"}, [][]byte{[]byte("a")})
		ct, body := multipartFile(nil, "file", "seed.zip", "application/octet-stream", z)
		wantJSON(t, "a seed zip sent as application/octet-stream", send(t, "POST", base+"/analyses/"+aid+"/upload.json", ct, body), 422,
			map[string]any{"seed_zip_content_type": []string{"is invalid"}, "seed_zip": []string{"is invalid"}})
		if exists(dir, "server/assets/analyses", aid, "original", "seed.zip") {
			t.Errorf("a refused upload was stored")
		}
		if a := uploadZip(t, base, aid, "seed.zip", z); a.status != 201 {
			t.Fatalf("upload: HTTP %d %s", a.status, a.body)
		}
		ct, body = multipartFile(map[string]string{"other": "x"}, "", "", "", nil)
		a := send(t, "POST", base+"/analyses/"+aid+"/upload.json", ct, body)
		if a.status != 201 || a.obj()["seed_zip_file_name"] != nil || exists(dir, "server/assets/analyses", aid, "original", "seed.zip") {
			t.Errorf("an upload without a file: HTTP %d %s, want 201 and the seed zip deleted (seed_zip = nil)", a.status, a.body)
		}
		wantJSON(t, "upload_file without file[attachment]", send(t, "POST", base+"/data_points/nope/upload_file.json", ct, body), 422,
			map[string]any{"error": []string{"Missing attachment parameter"}, "result_file": nil})
	})
}

func TestActionAnswers(t *testing.T) {
	base := serveMode(t, sandbox.LockingNone)
	aid := newAnalysis(t, base, newProject(t, base), "")
	if a := sendJSON(t, "POST", base+"/analyses/"+aid+"/action.json", map[string]any{"analysis_action": "explode"}); a.status != http.StatusNoContent || len(a.body) != 0 {
		t.Errorf("an unknown analysis_action: HTTP %d %q, want 204 (the action renders nothing)", a.status, a.body)
	}
	a := startAnalysis(t, base, aid)
	if an, _ := a.obj()["analysis"].(map[string]any); an["_id"] != aid || len(a.obj()) != 2 {
		t.Errorf("start answer %s: want {\"code\":200,\"analysis\":{bare analysis}}", a.body)
	}
	a = sendJSON(t, "POST", base+"/analyses/"+aid+"/action.json", map[string]any{"analysis_action": "stop"})
	if an, _ := a.obj()["analysis"].(map[string]any); a.status != 200 || a.obj()["code"] != 200.0 || an["run_flag"] != false {
		t.Errorf("stop answer: HTTP %d %s", a.status, a.body)
	}
	jobs := statusJobs(t, base, aid)
	if len(jobs) != 1 || jobs[0]["status"] != "completed" || jobs[0]["status_message"] != "datapoint canceled" {
		t.Errorf("jobs after stop: %v, want the one job completed, datapoint canceled", jobs)
	}
	st := send(t, "GET", base+"/analyses/"+aid+"/status.json", "", nil).obj()["analysis"].(map[string]any)
	if st["status"] != "post-processing" {
		t.Errorf("analysis status %v after its last job completed, want post-processing (Resque)", st["status"])
	}
}

// TestClientSetSeedZipNameStaysInside: an analysis stores any key, seed_zip_file_name too; the
// sandbox must not follow such a name out of the analysis's directory when it deletes the zip.
func TestClientSetSeedZipNameStaysInside(t *testing.T) {
	eachMode(t, func(t *testing.T, mode sandbox.Locking) {
		base := serveMode(t, mode)
		dir := stateDirOf(t, base)
		victim := filepath.Join(dir, "server", "victim")
		if err := os.WriteFile(victim, []byte("keep"), 0o644); err != nil {
			t.Fatal(err)
		}
		pid := newProject(t, base)
		a := sendJSON(t, "POST", base+"/projects/"+pid+"/analyses.json", map[string]any{"analysis": map[string]any{"seed_zip_file_name": "../../../../victim"}})
		aid, _ := a.obj()["_id"].(string)
		if a.status != 201 {
			t.Fatalf("create: HTTP %d", a.status)
		}
		if d := send(t, "DELETE", base+"/analyses/"+aid+".json", "", nil); d.status != 204 {
			t.Fatalf("DELETE: HTTP %d", d.status)
		}
		if !exists(victim) {
			t.Fatalf("DELETE followed a client-set seed_zip_file_name out of the analysis's directory")
		}
	})
}
