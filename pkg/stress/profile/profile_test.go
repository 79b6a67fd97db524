package profile

import (
	"archive/zip"
	"bytes"
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/osctl/osctl/pkg/stress/attack"
	"github.com/osctl/osctl/pkg/stress/history"
)

func TestBuildZipManifestMatchesZip(t *testing.T) {
	z, man, err := BuildZip("osctl-0badc0de-00000001")
	if err != nil {
		t.Fatal(err)
	}
	z2, _, _ := BuildZip("osctl-0badc0de-00000001")
	if !bytes.Equal(z, z2) {
		t.Fatal("BuildZip is not a function of its nonce")
	}
	z3, _, _ := BuildZip("osctl-0badc0de-00000002")
	if bytes.Equal(z, z3) {
		t.Fatal("two nonces gave one zip")
	}
	zr, err := zip.NewReader(bytes.NewReader(z), int64(len(z)))
	if err != nil {
		t.Fatal(err)
	}
	if len(zr.File) != len(man) {
		t.Fatalf("%d entries, manifest %d", len(zr.File), len(man))
	}
	for i, f := range zr.File {
		rc, _ := f.Open()
		b, _ := io.ReadAll(rc)
		rc.Close()
		if f.Name != man[i].Name || Sum(b) != man[i].Hash || int64(len(b)) != man[i].Size || !bytes.Contains(b, []byte("osctl-0badc0de-00000001")) {
			t.Fatalf("entry %s does not match its manifest or lacks the nonce", f.Name)
		}
	}
}

func TestIDsAndOwnership(t *testing.T) {
	a := AnalysisID("0badc0de", 17)
	if a != "0badc0de-000a-4000-8000-000000000011" || !OwnedBy(a, "0badc0de") || OwnedBy(a, "0badc0df") {
		t.Fatal(a)
	}
	if !OwnedBy(ResultName("0badc0de", 3), "0badc0de") || !ValidRunID(NewRunID()) || ValidRunID("../x") {
		t.Fatal("ownership")
	}
	// Whole names only: a uuid whose first group is the run id is someone else's.
	for _, foreign := range []string{"0badc0de-3c1d-4b8e-9a51-0d6f2b7e9c11", "0badc0de-000a-4000-8000-00000000001", "0badc0de-000a-4000-8000-0000000000111",
		"0badc0de-", "osctl-0badc0de-notes.txt", "0badc0de-000a-4000-8000-000000000011/..", "osctl-0badc0de-00000003.json.bak"} {
		if OwnedBy(foreign, "0badc0de") {
			t.Errorf("%q owned", foreign)
		}
	}
	if !OwnedBy(DataPointID("0badc0de", 2), "0badc0de") || !IsAnalysisOf(a, "0badc0de") || IsAnalysisOf(DataPointID("0badc0de", 2), "0badc0de") ||
		IsAnalysisOf("0badc0de-3c1d-4b8e-9a51-0d6f2b7e9c11", "0badc0de") || OwnedBy(a, "") || IsAnalysisOf(a, "") {
		t.Error("ids of the run")
	}
}

func TestParseMixAndTargets(t *testing.T) {
	m, err := ParseMix("upload=3, start=0,upload_file=1")
	if err != nil || m != (Mix{Upload: 3, UploadFile: 1}) {
		t.Fatalf("%+v %v", m, err)
	}
	for _, bad := range []string{"upload", "upload=-1", "nope=1", "upload=0"} {
		if _, err := ParseMix(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
	u, err := ParseTargets([]string{"http://127.0.0.1:1,http://127.0.0.1:2", " http://127.0.0.1:3 "})
	if err != nil || len(u) != 3 {
		t.Fatalf("%v %v", u, err)
	}
	for _, bad := range []string{"127.0.0.1:1", "ftp://x", "http://"} {
		if _, err := ParseTargets([]string{bad}); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}

func TestProbe(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/status" {
			_, _ = io.WriteString(w, `{"status":"ok","sandbox":true,"replica":2,"locking":"redlock","queue":"shared","max_active":3}`)
			return
		}
		http.NotFound(w, r)
	}))
	defer srv.Close()
	u, _ := ParseTargets([]string{srv.URL})
	tg := Probe(context.Background(), srv.Client(), u[0])
	if !tg.Reachable || !tg.Status.Sandbox || tg.Status.Replica != 2 || tg.Status.MaxActive != 3 {
		t.Fatalf("%+v", tg)
	}
}

func TestStartBodyCode(t *testing.T) {
	for _, c := range []struct {
		body string
		want attack.Outcome
	}{{`{"code":200}`, attack.Acknowledged}, {`{"code":500,"error":"x"}`, attack.Ambiguous}, {`{}`, attack.Ambiguous}, {`{"code":422}`, attack.Rejected}} {
		rec := &history.Record{Op: history.OpStart}
		resp := &http.Response{StatusCode: 200, Body: io.NopCloser(strings.NewReader(c.body))}
		r := &attack.Result{Status: 200}
		if got := Finish(rec, r, resp, func() time.Time { return time.Time{} }); got != c.want {
			t.Errorf("%s: %v, want %v", c.body, got, c.want)
		}
	}
}
