package rollout

import (
	"strings"
	"testing"
)

// TestMaskOutput: what a gate's output or error may echo from a command line is masked before
// it is printed or journalled; ordinary text is left alone.
func TestMaskOutput(t *testing.T) {
	for _, tc := range []struct{ in, secret string }{
		{"curl -fsS -u ops:hunter2 http://web/health", "hunter2"},
		{"curl --user=ops:hunter2 http://web", "hunter2"},
		{"curl -H 'X-Api-Key: k3yk3yk3y' http://web", "k3yk3yk3y"},
		{"X-Api-Key:k3yk3yk3y", "k3yk3yk3y"},
		{"Authorization: Basic b3BzOmh1bnRlcjI=", "b3BzOmh1bnRlcjI"},
		{"basic b3BzOmh1bnRlcjI=", "b3BzOmh1bnRlcjI"},
		{"mysql -h db -uops -pS3cretPw -e 'select 1'", "S3cretPw"},
		{"osctl stress --token s3cr3t-tok --requests 10", "s3cr3t-tok"},
		{"deploy --api-key=zzzkey123", "zzzkey123"},
		{"APP_SECRET_KEY=abcdef123 ./check", "abcdef123"},
		{"export DB_PASSWORD='pa ss'", "pa ss"},
		{"redis://:s3cret@queue:6379", "s3cret"},
		{"token=abc123 failed", "abc123"},
	} {
		got := maskOutput(tc.in)
		if strings.Contains(got, tc.secret) || !strings.Contains(got, "xxxxx") {
			t.Errorf("maskOutput(%q) = %q: the secret %q shows", tc.in, got, tc.secret)
		}
	}
	for _, plain := range []string{"3 races found in 1000 requests", "GET answered 503 in 12ms", "exit status 1: connection refused", "--requests 10 --concurrency 5"} {
		if got := maskOutput(plain); got != plain {
			t.Errorf("maskOutput(%q) = %q: ordinary text changed", plain, got)
		}
	}
}
