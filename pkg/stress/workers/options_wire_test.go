package workers

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	pstress "github.com/osctl/osctl/pkg/stress"
	"github.com/osctl/osctl/pkg/stress/httpload"
	"github.com/osctl/osctl/pkg/stress/openstudio"
)

// TestOptionsTravel: a Config's profile options go through the hello's JSON and come back as the
// profile's own type, equal; options for another profile, or options of an unknown profile, are
// a one-line error of the worker's, not a run with the defaults.
func TestOptionsTravel(t *testing.T) {
	cfg := httpConfig(t, "http://127.0.0.1:1/", 10, 1)
	cfg.Profile, cfg.Options = pstress.ProfileOpenStudio, openstudio.Options{Analyses: 3, Project: "p", AllowStart: true, SettleQuiet: time.Second}
	w, err := toWire(cfg)
	if err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(&hello{Config: w})
	if err != nil {
		t.Fatal(err)
	}
	var h hello
	if err := json.Unmarshal(b, &h); err != nil {
		t.Fatal(err)
	}
	got, err := h.Config.config()
	if err != nil || got.Options != cfg.Options || len(got.Targets) != 1 || got.Targets[0].String() != "http://127.0.0.1:1/" {
		t.Fatalf("%s comes back as %+v (options %#v), %v; want the options %#v", b, got, got.Options, err, cfg.Options)
	}
	for _, tc := range []struct{ edit, want string }{
		{`"Profile":"openstudio"`, `"Profile":"nope"`},
		{`"Analyses":3`, `"Analyses":"three"`},
	} {
		bad := strings.Replace(string(b), tc.edit, tc.want, 1)
		var h hello
		if err := json.Unmarshal([]byte(bad), &h); err != nil {
			t.Fatal(err)
		}
		if _, err := h.Config.config(); err == nil || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: %v, want a one-line error", tc.want, err)
		}
	}
}

// TestHTTPOptionsReachTheWorkers: the http profile's method and body, set in the coordinator's
// Config, are what a load worker in this process sends.
func TestHTTPOptionsReachTheWorkers(t *testing.T) {
	var posts, other atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		if r.Method == http.MethodPost && strings.HasPrefix(string(b), "n=") && len(b) > 2 {
			posts.Add(1)
		} else {
			other.Add(1)
		}
	}))
	defer srv.Close()
	const n = 20
	cfg := httpConfig(t, srv.URL+"/", n, 2)
	cfg.Options = httpload.Options{Method: http.MethodPost, Body: "n={{nonce}}"}
	f, err := Connect(t.Context(), []Proc{servePipe(t, "v1.2.3", ServeOptions{})}, nil, cfg, ConnectOptions{Version: "v1.2.3"})
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.Load(t.Context(), &pstress.Setup{}, nil, pstress.LoadObserver{}); err != nil {
		t.Fatal(err)
	}
	if posts.Load() != n || other.Load() != 0 {
		t.Fatalf("the target got %d POSTs with the body and %d other requests, want %d and 0", posts.Load(), other.Load(), n)
	}
}

// TestLoadPayloadsMerge: the workers' load payloads merge by the profile's LoadMerger: the jobs
// profile's counts add up and its first refusal stands; the openstudio profile's held-back parts
// come in the order they began; a profile without a merger keeps the first worker's; a payload
// that does not decode is an error naming the profile.
func TestLoadPayloadsMerge(t *testing.T) {
	raw := func(s string) json.RawMessage { return json.RawMessage(s) }
	for _, tc := range []struct {
		profile string
		parts   []json.RawMessage
		want    string
	}{
		{pstress.ProfileJobs, []json.RawMessage{raw(`{"jobs":{"followed":2,"ended":1,"requeued":1}}`),
			raw(`{"jobs":{"followed":3,"gone":1,"replayed":2},"refused":{"method":"GET","url":"u","status":401}}`)},
			`"followed":5,"ended":1,"gone":1,"not_finished":0,"requeued":1,"replayed":2`},
		{pstress.ProfileOpenStudio, []json.RawMessage{raw(`{"background_waits":[{"at_s":2}]}`), raw(`{"background_waits":[{"at_s":1}]}`)},
			`{"background_waits":[{"at_s":1`},
		{pstress.ProfileHTTP, []json.RawMessage{raw(`{"a":1}`), raw(`{"a":2}`)}, `{"a":1}`},
	} {
		got, err := mergePayloads(tc.profile, tc.parts)
		if err != nil || !strings.Contains(string(got), tc.want) {
			t.Errorf("%s: %s, %v; want %s in it", tc.profile, got, err, tc.want)
		}
	}
	if got, _ := mergePayloads(pstress.ProfileJobs, []json.RawMessage{raw(`{"refused":{"Status":403}}`), raw(`{"refused":{"Status":401}}`)}); !strings.Contains(string(got), `"Status":403`) {
		t.Errorf("refusals: %s, want the first worker's", got)
	}
	if got, err := mergePayloads(pstress.ProfileJobs, []json.RawMessage{raw(`{"jobs":`), raw(`{}`)}); err == nil || !strings.Contains(err.Error(), "jobs") {
		t.Errorf("a torn payload: %s, %v; want an error naming the jobs profile", got, err)
	}
}
