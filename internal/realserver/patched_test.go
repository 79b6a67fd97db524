package realserver

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/osctl/osctl/internal/testenv/openstudioenv"
	"github.com/osctl/osctl/pkg/stress/profile"
)

// TestPatchedServerIsClean runs the same load against 3 replicas of OpenStudio Server v3.7.0
// with contrib/rails/openstudio-server-v3.7.0.patch and osctl_lock.rb, the lock on Resque's
// Redis (REDIS_URL): osctl's verdict must be exit 0, clean and conclusive with osctl's defaults.
// Then, on the same server: with the zip lock held elsewhere a start answers (not 5xx) while an
// upload waits for the lock; the lock's acquisitions are in the Rails log at debug level; the
// extraction keeps upstream's directory modes; and the app refuses to boot with no lock
// configured.
func TestPatchedServerIsClean(t *testing.T) {
	t.Parallel()
	s := openstudioenv.StartT(t, openstudioenv.Options{Patched: true, PoolSize: 4})
	r := stress(t, s, "--requests", "300", "--concurrency", "60")
	if r.code != 0 || r.rep.Verdict != "clean" || !r.rep.Conclusive {
		t.Fatalf("exit %d, verdict %s (conclusive %v) %v, findings %v: want exit 0, clean and conclusive", r.code, r.rep.Verdict,
			r.rep.Conclusive, r.rep.Reasons, r.rep.Counts)
	}
	if r.rep.ResultFiles.Judged == 0 || r.rep.Extractions.Judged == 0 {
		t.Errorf("result files judged %d, extractions judged %d: a clean verdict that judged none of them proves little",
			r.rep.ResultFiles.Judged, r.rep.Extractions.Judged)
	}
	t.Logf("settle: waited %.0fs, stopped: %s; jobs %d, ran %d, queued %d", r.rep.SettleWait, r.rep.SettleStopped,
		r.rep.Extractions.Jobs, r.rep.Extractions.Ran, r.rep.Extractions.Queued)
	checkModes(t, r)
	t.Run("lock held elsewhere", func(t *testing.T) { lockHeld(t, s) })
	t.Run("acquisitions logged at debug", func(t *testing.T) { debugLogged(t, s) })
	t.Run("no lock configured refuses to boot", func(t *testing.T) { refusesUnlocked(t, s) })
}

// checkModes: the patched extraction's directories are 0777, as upstream's (its entrypoint's
// umask 0000 and mkdir_p), not the 0755 of a fixed mode.
func checkModes(t *testing.T, r run) {
	t.Helper()
	n := 0
	for a := range startedAnalyses(r.h) {
		for _, d := range []string{filepath.Join(r.volume, "server/analyses", a), filepath.Join(r.volume, "server/analyses", a, "scripts")} {
			fi, err := os.Stat(d)
			if err != nil {
				continue
			}
			n++
			if m := fi.Mode().Perm(); m != 0o777 {
				t.Errorf("%s has mode %o, want upstream's 0777", d, m)
			}
		}
	}
	if n == 0 {
		t.Errorf("no extracted directory to check the modes of")
	}
}

// api sends one request to base and returns the status, the body and how long it took.
func api(t *testing.T, method, url, ctype string, body []byte) (int, []byte, time.Duration) {
	t.Helper()
	req, err := http.NewRequest(method, url, bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	if ctype != "" {
		req.Header.Set("Content-Type", ctype)
	}
	req.Header.Set("Accept", "application/json")
	began := time.Now()
	resp, err := (&http.Client{Timeout: 2 * time.Minute}).Do(req)
	if err != nil {
		t.Errorf("%s %s: %v", method, url, err)
		return 0, nil, time.Since(began)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, b, time.Since(began)
}

func uploadBody(t *testing.T, nonce string) ([]byte, string, []byte) {
	t.Helper()
	z, _, err := profile.BuildZip(nonce)
	if err != nil {
		t.Fatal(err)
	}
	b, ct := profile.Multipart(nil, "file", "lockheld.zip", "application/zip", z)
	return b, ct, z
}

// lockHeld holds redlock:<id>:analysis_zip from Go while a start and an upload of that analysis
// come in. The start must answer, not 5xx, while the key is still held (its latency is
// reported, not bounded: these machines are noisy); the upload must not answer until the lock
// is released, and then store its zip.
func lockHeld(t *testing.T, s *openstudioenv.Server) {
	base := s.Targets[1]
	code, b, _ := api(t, "POST", base+"/projects.json", "application/json", []byte(`{"project":{"name":"osctl lock held"}}`))
	var p struct {
		ID string `json:"_id"`
	}
	if code != 201 || json.Unmarshal(b, &p) != nil || p.ID == "" {
		t.Fatalf("create project: HTTP %d %s", code, b)
	}
	a := "6f1c2b3a-0000-4000-8000-00000000a11c"
	if code, b, _ = api(t, "POST", base+"/projects/"+p.ID+"/analyses.json", "application/json",
		[]byte(`{"analysis":{"uuid":"`+a+`","name":"osctl lock held","problem":{"analysis_type":"batch_run"}}}`)); code != 201 {
		t.Fatalf("create analysis: HTTP %d %s", code, b)
	}
	body, ct, _ := uploadBody(t, "osctl-lockheld-1")
	if code, b, _ = api(t, "POST", base+"/analyses/"+a+"/upload.json", ct, body); code != 201 {
		t.Fatalf("first upload: HTTP %d %s", code, b)
	}
	rc := appRedis(t, s)
	ctx := context.Background()
	key, holder := "redlock:"+a+":analysis_zip", "osctl:v1:lock-held-test:1:heldbygo"
	if ok, err := rc.SetNX(ctx, key, holder, time.Minute).Result(); !ok || err != nil {
		t.Fatalf("holding %s: %v %v", key, ok, err)
	}
	released := false
	release := func() time.Time {
		if !released {
			released = true
			if v, _ := rc.Get(ctx, key).Result(); v == holder {
				rc.Del(ctx, key)
			}
		}
		return time.Now()
	}
	defer release()

	code, b, took := api(t, "POST", s.Targets[2]+"/analyses/"+a+"/action.json", "application/json",
		[]byte(`{"analysis_action":"start","without_delay":false,"analysis_type":"batch_run"}`))
	var st struct {
		Code int `json:"code"`
	}
	_ = json.Unmarshal(b, &st)
	still, _ := rc.Get(ctx, key).Result()
	t.Logf("start with %s held elsewhere: HTTP %d, code %d, in %s", key, code, st.Code, took.Round(time.Millisecond))
	if code >= 500 || st.Code != 200 {
		t.Errorf("start with the zip lock held elsewhere: HTTP %d %s, want 200 {\"code\":200}", code, b)
	}
	if still != holder {
		t.Fatalf("the key was no longer held by the test when the start answered (%q): the ordering proves nothing", still)
	}

	body2, ct2, zip2 := uploadBody(t, "osctl-lockheld-2")
	type answer struct {
		code int
		body []byte
		at   time.Time
	}
	done := make(chan answer, 1)
	go func() {
		code, b, _ := api(t, "POST", s.Targets[0]+"/analyses/"+a+"/upload.json", ct2, body2)
		done <- answer{code, b, time.Now()}
	}()
	// Hold well past the request's arrival, but inside the upload's ~6 s of retries (32 tries,
	// 0.1-0.3 s apart), so that it waits rather than gives up.
	select {
	case ans := <-done:
		t.Fatalf("the upload answered HTTP %d %s while the zip lock was held elsewhere: it did not wait for the lock", ans.code, ans.body)
	case <-time.After(2500 * time.Millisecond):
	}
	at := release()
	ans := <-done
	t.Logf("upload answered HTTP %d %s after the release", ans.code, ans.at.Sub(at).Round(time.Millisecond))
	if ans.code != 201 || ans.at.Before(at) {
		t.Fatalf("upload: HTTP %d %s at %s, release at %s: want 201 after the release", ans.code, ans.body, ans.at, at)
	}
	got, err := os.ReadFile(filepath.Join(s.Volume, "server/assets/analyses", a, "original", "lockheld.zip"))
	if err != nil || !bytes.Equal(got, zip2) {
		t.Errorf("the stored zip is not the upload that waited (%d bytes, %v)", len(got), err)
	}
}

// debugLogged: the web replicas' Rails logs (docker.log, debug level in the docker environment)
// hold the lock's acquisitions and releases of analysis zips.
func debugLogged(t *testing.T, s *openstudioenv.Server) {
	acquired, released := 0, 0
	for i := range s.Targets {
		b, err := os.ReadFile(filepath.Join(s.LogDir(), fmt.Sprintf("web%d", i+1), "docker.log"))
		if err != nil {
			t.Fatal(err)
		}
		for _, line := range strings.Split(string(b), "\n") {
			switch {
			case strings.Contains(line, "osctl_lock: acquired redlock:") && strings.Contains(line, ":analysis_zip as osctl:v1:web"):
				acquired++
			case strings.Contains(line, "osctl_lock: released redlock:"):
				released++
			}
		}
	}
	t.Logf("the web replicas' Rails logs hold %d acquisitions and %d releases of zip locks", acquired, released)
	if acquired == 0 || released == 0 {
		t.Errorf("no \"osctl_lock: acquired/released\" debug line in the web replicas' docker.log")
	}
}

// refusesUnlocked boots the patched app without REDIS_URL or REDLOCK_URLS in the docker
// environment (production-like): it must refuse, naming what to set.
func refusesUnlocked(t *testing.T, s *openstudioenv.Server) {
	cmd := s.RubyCommand("unlocked", []string{"REDIS_URL", "REDLOCK_URLS"}, "ruby", "-S", "rake", "environment")
	out, err := cmd.CombinedOutput()
	if err == nil || !strings.Contains(string(out), "osctl_lock: neither REDLOCK_URLS nor REDIS_URL is set in the docker environment") {
		t.Errorf("booting the patched app without a lock: %v, want a refusal naming REDIS_URL\n%s", err, lastLine(string(out)))
	}
	cmd = s.RubyCommand("unlocked-off", []string{"REDIS_URL", "REDLOCK_URLS"}, "ruby", "-S", "rake", "environment")
	cmd.Env = append(cmd.Env, "OSCTL_LOCK=off")
	if out, err := cmd.CombinedOutput(); err != nil || !strings.Contains(string(out), "WITHOUT the lock") {
		t.Errorf("OSCTL_LOCK=off: %v, want a boot with a warning\n%s", err, out)
	}
}
