package headerflags

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/spf13/cobra"

	"github.com/osctl/osctl/internal/cli/cmdutil"
	"github.com/osctl/osctl/pkg/redact"
)

func parse(t *testing.T, args ...string) (*redact.Secrets, map[string][]string, string, error) {
	t.Helper()
	var f Flags
	cmd := &cobra.Command{Use: "x", RunE: func(*cobra.Command, []string) error { return nil }}
	f.Add(cmd, "test")
	if err := cmd.ParseFlags(args); err != nil {
		t.Fatal(err)
	}
	s := &redact.Secrets{}
	h, note, err := f.Parse(s)
	return s, h, note, err
}

// TestHeadersFromEnvFileAndFlags: the variable's lines, the file's and the flags' all go, each
// value a secret, and the note names the variable's headers (not their values).
func TestHeadersFromEnvFileAndFlags(t *testing.T) {
	file := filepath.Join(t.TempDir(), "headers")
	if err := os.WriteFile(file, []byte("# the job API\r\nX-ELB-API-Token: from-file\r\n\r\nAccept: a, b\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Setenv(EnvVar, "X-Env-One: e1, e2\n\n# comment\nx-env-two:env-three")
	s, h, note, err := parse(t, "--header-file", file, "--header", "X-Flag: flag-one")
	if err != nil {
		t.Fatal(err)
	}
	if got := h["X-Env-One"][0] + "|" + h["X-Env-Two"][0] + "|" + h["X-Elb-Api-Token"][0] + "|" + h["Accept"][0] + "|" + h["X-Flag"][0]; got != "e1, e2|env-three|from-file|a, b|flag-one" {
		t.Fatalf("headers %v", h)
	}
	if note != "headers from $OSCTL_STRESS_HEADERS: X-Env-One, X-Env-Two" {
		t.Errorf("note %q", note)
	}
	if masked := s.String("env-three from-file flag-one"); masked != "xxxxx xxxxx xxxxx" {
		t.Errorf("not all values are secrets: %s", masked)
	}
	t.Setenv(EnvVar, "")
	if _, _, note, err := parse(t); err != nil || note != "" {
		t.Errorf("nothing given: %q %v", note, err)
	}
}

// TestMalformedSecretHeaderIsNotEchoed: a malformed header, from a flag, the file or the
// variable, is a usage error naming where it is (and its name once valid), never its value.
func TestMalformedSecretHeaderIsNotEchoed(t *testing.T) {
	const secret = "hunter2-s3cr3t"
	file := filepath.Join(t.TempDir(), "headers")
	if err := os.WriteFile(file, []byte("Accept: json\n"+secret+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		env  string
		args []string
		want string
	}{
		{"", []string{"--header", "X-A: 1", "--header", secret}, "--header #2: use 'Name: value'"},
		{"", []string{"--header", "X-ELB-API-Token " + secret + ": x"}, "--header #1: the part before ':' is not a valid header name"},
		{"", []string{"--header", "X-ELB-API-Token: " + secret + "\r\nX-Injected: 1"}, "--header #1 (X-ELB-API-Token): the value holds a control character"},
		{"", []string{"--header-file", file}, "--header-file " + file + " line 2: use 'Name: value'"},
		{"Accept: json\nBearer " + secret, nil, "OSCTL_STRESS_HEADERS line 2: use 'Name: value'"},
		{"", []string{"--header-file", file + ".none"}, "cannot read --header-file"},
	} {
		t.Setenv(EnvVar, c.env)
		_, _, _, err := parse(t, c.args...)
		if err == nil || !strings.Contains(err.Error(), c.want) || cmdutil.ExitCode(err) != 2 || strings.Contains(err.Error(), secret) {
			t.Errorf("%v: %v, want a usage error about %s without the value", c.args, err, c.want)
		}
	}
}
