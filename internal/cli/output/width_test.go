package output

import (
	"bytes"
	"io"
	"strings"
	"testing"
)

var longRow = []string{"FAIL", "manifests", "nfs.storageclass", "storageclass/nfs",
	"StorageClass nfs (claim nfs-pvc) mounts without noac (mountOptions: vers=4,sync) and the web Deployment may run more than one pod: every pod caches attributes for up to 60 s"}

func table(w io.Writer) *TableWriter {
	t := NewTable(w, "STATUS", "CHECK", "ID", "SUBJECT", "MESSAGE")
	_ = t.Append("PASS", "manifests", "web.hpa-locking", "hpa/web", "one replica")
	_ = t.Append(longRow)
	_ = t.Append([]any{"WARN", "manifests", "web.pdb", "deployment/web", strings.Repeat("ünïcødé ", 30)})
	return t
}

func lines(s string) []string { return strings.Split(strings.TrimRight(s, "\n"), "\n") }

func TestTableFitsATerminal(t *testing.T) {
	for _, cols := range []int{120, 80, 60} {
		var buf bytes.Buffer
		if err := table(Terminal(&buf, cols)).Render(); err != nil {
			t.Fatal(err)
		}
		for _, l := range lines(buf.String()) {
			if w := DisplayWidth(l); w > cols {
				t.Errorf("%d columns: a line of %d: %q", cols, w, l)
			}
		}
		out := buf.String()
		// The narrow columns stay whole; the message is cut with an ellipsis.
		for _, want := range []string{"nfs.storageclass", "storageclass/nfs", "web.hpa-locking", "one replica"} {
			if cols >= 80 && !strings.Contains(out, want) {
				t.Errorf("%d columns: %q was cut:\n%s", cols, want, out)
			}
		}
		if strings.Contains(out, longRow[4]) || !strings.Contains(out, "StorageClas") || !strings.Contains(out, Ellipsis) {
			t.Errorf("%d columns: the long message is not cut with an ellipsis:\n%s", cols, out)
		}
	}
}

func TestTableIsWholeInAPipeAndWithWide(t *testing.T) {
	var pipe, wide bytes.Buffer
	if err := table(&pipe).Render(); err != nil {
		t.Fatal(err)
	}
	if err := Print(Terminal(&wide, 60), Wide, nil, func(w io.Writer) error { return table(w).Render() }); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(pipe.String(), longRow[4]) || strings.Contains(pipe.String(), Ellipsis) {
		t.Fatalf("a pipe got a cut table:\n%s", pipe.String())
	}
	if wide.String() != pipe.String() {
		t.Fatalf("-o wide on a terminal differs from the whole table:\n%s\nvs\n%s", wide.String(), pipe.String())
	}
	// Every row has every cell: whitespace-separated, the first four fields are the short cells.
	for i, l := range lines(pipe.String())[1:] {
		if f := strings.Fields(l); len(f) < 5 || f[1] != "manifests" {
			t.Errorf("row %d is not parseable: %q", i, l)
		}
	}
}

func TestPrintTableFitsAndJSONIsUnchanged(t *testing.T) {
	var tbl, js bytes.Buffer
	if err := Print(Terminal(&tbl, 70), Table, nil, func(w io.Writer) error { return table(w).Render() }); err != nil {
		t.Fatal(err)
	}
	for _, l := range lines(tbl.String()) {
		if DisplayWidth(l) > 70 {
			t.Fatalf("-o table on a 70-column terminal printed %d columns: %q", DisplayWidth(l), l)
		}
	}
	v := map[string]string{"message": longRow[4]}
	if err := Print(Terminal(&js, 40), JSON, v, nil); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(js.String(), longRow[4]) {
		t.Fatalf("JSON was cut on a terminal: %s", js.String())
	}
}

func TestCut(t *testing.T) {
	for _, c := range []struct {
		in   string
		cols int
		want string
	}{{"abcdef", 6, "abcdef"}, {"abcdef", 5, "abcd…"}, {"abcdef", 1, "…"}, {"abcdef", 0, "abcdef"}, {"日本語テキスト", 5, "日本…"}} {
		if got := Cut(c.in, c.cols); got != c.want || (c.cols > 0 && DisplayWidth(got) > c.cols) {
			t.Errorf("Cut(%q, %d) = %q, want %q", c.in, c.cols, got, c.want)
		}
	}
}

func TestWrap(t *testing.T) {
	text := "set strategy.rollingUpdate maxSurge: 0 and maxUnavailable: 1 (or strategy type Recreate) until distributed locking is enabled " +
		strings.Repeat("x", 70)
	ls := Wrap(text, 40, "  web.rollout-surge: ", "      ")
	if len(ls) < 4 {
		t.Fatalf("not wrapped: %q", ls)
	}
	var words []string
	for i, l := range ls {
		if DisplayWidth(l) > 40 {
			t.Errorf("line %d has %d columns: %q", i, DisplayWidth(l), l)
		}
		if i > 0 && !strings.HasPrefix(l, "      ") {
			t.Errorf("line %d lacks the indent: %q", i, l)
		}
		words = append(words, strings.Fields(l)...)
	}
	got := strings.Join(words[1:], " ")
	if want := strings.Join(strings.Fields(text), " "); !strings.HasPrefix(want, strings.TrimSuffix(got, Ellipsis)) || !strings.HasSuffix(got, Ellipsis) {
		t.Errorf("the words changed (only the over-long last word may be cut):\n%s\n%s", got, want)
	}
	if one := Wrap(text, 0, "> ", ""); len(one) != 1 || one[0] != "> "+text {
		t.Errorf("no width: %q", one)
	}
}

func TestFormatWide(t *testing.T) {
	var f Format
	if err := f.Set("wide"); err != nil || f != Wide || !f.IsTable() {
		t.Fatalf("wide: %v %q", err, f)
	}
	if err := f.Set("narrow"); err == nil || !strings.Contains(err.Error(), "table|wide|json|yaml|jsonl") {
		t.Fatalf("an unknown format: %v", err)
	}
}

func TestProgressBarFitsItsTerminal(t *testing.T) {
	for _, cols := range []int{120, 80} {
		var buf bytes.Buffer
		bar := ProgressBar(Terminal(&buf, cols), true, 10000)
		for i := 0; i < 10000; i += 997 {
			_ = bar.Set(i)
		}
		_ = bar.Finish()
		for _, seg := range strings.FieldsFunc(buf.String(), func(r rune) bool { return r == '\r' || r == '\n' }) {
			if DisplayWidth(seg) > cols {
				t.Errorf("%d columns: a progress line of %d: %q", cols, DisplayWidth(seg), seg)
			}
		}
		if !strings.Contains(buf.String(), "requests") {
			t.Fatalf("no bar drawn: %q", buf.String())
		}
	}
	if ProgressBar(&bytes.Buffer{}, false, 10) != nil {
		t.Fatal("a bar in a pipe")
	}
}
