package history

import (
	"bytes"
	"strings"
	"testing"
	"time"
)

func TestRoundTrip(t *testing.T) {
	var buf bytes.Buffer
	w := NewWriter(&buf)
	t0 := time.Date(2026, 1, 2, 3, 4, 5, 6, time.UTC)
	recs := []*Record{
		{Kind: KindHeader, Header: &Header{Schema: SchemaVersion, Run: "abcd0123", Profile: "openstudio", Started: t0}},
		{Kind: KindRequest, Seq: 1, Op: OpUpload, Upload: Upload{Analysis: "a", Hash: "h", Manifest: []Entry{{Name: "x", Hash: "y", Size: 3}}}, Start: t0, End: t0.Add(time.Second), Status: 201, Outcome: Acknowledged},
		{Kind: KindReadback, Op: "analysis", ID: "a", Status: 200},
		{Kind: KindFooter, Footer: &Footer{Finished: t0.Add(time.Minute), Partial: true, Reason: "interrupted"}},
	}
	for _, r := range recs {
		if err := w.Write(r); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	h, err := Read(&buf)
	if err != nil {
		t.Fatal(err)
	}
	if h.Header.Run != "abcd0123" || len(h.Records) != 2 || h.Footer == nil || !h.Footer.Partial {
		t.Fatalf("got %+v", h)
	}
	if !h.Records[0].Start.Equal(t0) || h.Records[0].Manifest[0].Size != 3 || !h.Records[0].Applied() {
		t.Fatalf("record 0: %+v", h.Records[0])
	}
}

func TestReadErrors(t *testing.T) {
	hdr := `{"kind":"header","header":{"schema":2,"run":"r","profile":"openstudio","targets":null,"requests":1,"concurrency":1,"started":"2026-01-01T00:00:00Z"}}` + "\n"
	for name, in := range map[string]string{
		"empty":       "",
		"no header":   `{"kind":"request","op":"upload"}` + "\n",
		"bad json":    hdr + "{nope\n",
		"bad kind":    hdr + `{"kind":"what"}` + "\n",
		"bad outcome": hdr + `{"kind":"request","outcome":"maybe"}` + "\n",
		"bad schema":  strings.Replace(hdr, `"schema":2`, `"schema":99`, 1),
		"two headers": hdr + hdr,
	} {
		if _, err := Read(strings.NewReader(in)); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
	if _, err := Read(strings.NewReader(hdr + "\n\n")); err != nil {
		t.Errorf("blank lines: %v", err)
	}
}

func FuzzRead(f *testing.F) {
	f.Add([]byte(`{"kind":"header","header":{"schema":2,"run":"r","profile":"openstudio","targets":["http://127.0.0.1:1"],"requests":1,"concurrency":1,"started":"2026-01-01T00:00:00Z"}}` + "\n" +
		`{"kind":"request","op":"upload","analysis":"a","outcome":"acknowledged","manifest":[{"name":"x","hash":"y","size":1}]}` + "\n" +
		`{"kind":"job","job":"j","runs":[{"state":"queued","polls":2,"first_start":"2026-01-01T00:00:00Z","first_end":"2026-01-01T00:00:00Z","last_start":"2026-01-01T00:00:00Z","last_end":"2026-01-01T00:00:00Z"}]}` + "\n"))
	f.Add([]byte("{}\n"))
	f.Add([]byte(`{"kind":"footer"}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		h, err := Read(bytes.NewReader(b))
		if err != nil {
			return
		}
		// A parsed history re-encodes and parses to the same number of records.
		var buf bytes.Buffer
		w := NewWriter(&buf)
		_ = w.Write(&Record{Kind: KindHeader, Header: &h.Header})
		for i := range h.Records {
			_ = w.Write(&h.Records[i])
		}
		_ = w.Flush()
		h2, err := Read(&buf)
		if err != nil {
			t.Fatalf("re-read: %v", err)
		}
		if len(h2.Records) != len(h.Records) {
			t.Fatalf("records %d -> %d", len(h.Records), len(h2.Records))
		}
	})
}

// TestReadCutLastLine: a last line cut by a crash (no newline, not a whole record) is ignored and
// counted; the run has no footer, so it reads as partial. A malformed line elsewhere, or a
// malformed last line that has its newline, stays an error.
func TestReadCutLastLine(t *testing.T) {
	hdr := `{"kind":"header","header":{"schema":2,"run":"0badc0de","profile":"jobs","targets":["http://127.0.0.1:1"],"requests":2,"concurrency":1,"started":"2026-01-01T00:00:00Z"}}` + "\n"
	rec := `{"kind":"request","seq":1,"op":"submit_job","target":"http://127.0.0.1:1","outcome":"acknowledged","returned_id":"0123456789ab"}` + "\n"
	for cut := 1; cut < len(rec)-1; cut += 7 {
		h, err := Read(strings.NewReader(hdr + rec + rec[:cut]))
		if err != nil {
			t.Fatalf("cut at %d: %v", cut, err)
		}
		if h.Cut != 1 || len(h.Records) != 1 || h.Footer != nil || !strings.Contains(h.CutNotice(), "history ends mid-record: 1 partial line ignored") {
			t.Fatalf("cut at %d: cut %d, %d records, footer %v, notice %q", cut, h.Cut, len(h.Records), h.Footer, h.CutNotice())
		}
	}
	// A whole last record without its newline is a record, not a cut.
	if h, err := Read(strings.NewReader(hdr + strings.TrimSuffix(rec, "\n"))); err != nil || h.Cut != 0 || len(h.Records) != 1 || h.CutNotice() != "" {
		t.Fatalf("last record without newline: %+v, %v", h, err)
	}
	for name, in := range map[string]string{
		"malformed middle":            hdr + rec[:20] + "\n" + rec,
		"malformed last with newline": hdr + rec + rec[:20] + "\n",
		"cut header":                  hdr[:30],
	} {
		if _, err := Read(strings.NewReader(in)); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}

func TestCheckName(t *testing.T) {
	for _, ok := range []string{"0badc0de-000a-4000-8000-000000000001", "abc", "..x", "a..b"} {
		if err := CheckName(ok); err != nil {
			t.Errorf("%q: %v", ok, err)
		}
	}
	for _, bad := range []string{"", ".", "..", "../../x", "/etc", "a/b", `a\b`, "a\x00b", "a\nb"} {
		if err := CheckName(bad); err == nil {
			t.Errorf("%q: accepted", bad)
		}
	}
}
