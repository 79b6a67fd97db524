package stress

import (
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/osctl/osctl/internal/testenv/scriptenv"
)

// TestScripts runs testdata/*.txtar against the real osctl binary: the exit codes and the main
// error messages of osctl stress, judge and cleanup. $OK answers 200 and $BUSY 503 "Request queue
// full", on loopback.
func TestScripts(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/busy" {
			http.Error(w, "Request queue full", http.StatusServiceUnavailable)
		}
	}))
	t.Cleanup(srv.Close) // the scripts run after this function returns
	scriptenv.Run(t, testscript.Params{Dir: "testdata", Setup: func(env *testscript.Env) error {
		env.Setenv("OK", srv.URL+"/ok")
		env.Setenv("BUSY", srv.URL+"/busy")
		return nil
	}})
}
