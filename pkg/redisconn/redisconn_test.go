package redisconn

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/redis/go-redis/v9"

	"github.com/osctl/osctl/internal/testenv"
	"github.com/osctl/osctl/pkg/redisproc"
)

const pw = "Corr3ct-Horse"

func TestParseURL(t *testing.T) {
	ok := []string{"redis://127.0.0.1:6379", "redis://:" + pw + "@queue:6379/2", "rediss://user:" + pw + "@h:6380", "redis://queue"}
	for _, u := range ok {
		if _, err := ParseURL(u); err != nil {
			t.Errorf("ParseURL(%q): %v", u, err)
		}
	}
	bad := map[string]string{
		"http://:" + pw + "@h:1":      `scheme "http"`,
		"queue:6379":                  "use redis://",
		"redis://:" + pw + "@":        "bad Redis URL",
		"redis://h:1/notadb":          "bad Redis URL",
		"redis://:" + pw + "@h:1/x y": "bad Redis URL",
	}
	for u, want := range bad {
		_, err := ParseURL(u)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("ParseURL(%q) = %v, want an error with %q", u, err, want)
			continue
		}
		if strings.Contains(err.Error(), pw) || strings.Contains(err.Error(), "\n") {
			t.Errorf("ParseURL(%q) error leaks the password or spans lines: %v", u, err)
		}
	}
}

func TestConnect(t *testing.T) {
	if _, err := Connect(Config{}); err == nil {
		t.Error("no URLs: no error")
	}
	if _, err := Connect(Config{URLs: []string{"redis://h:1", "redis://h:1"}}); err == nil || !strings.Contains(err.Error(), "given twice") {
		t.Errorf("duplicate master: %v", err)
	}
	if _, err := Connect(Config{URLs: []string{"redis://h:1"}, CAFile: "/nonexistent"}); err == nil {
		t.Error("missing CA file: no error")
	}
	ca := filepath.Join(t.TempDir(), "ca.pem")
	if err := os.WriteFile(ca, []byte("not pem"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := Connect(Config{URLs: []string{"rediss://h:1"}, CAFile: ca}); err == nil || !strings.Contains(err.Error(), "no PEM") {
		t.Errorf("bad CA file: %v", err)
	}
	ms, err := Connect(Config{URLs: []string{"redis://user:" + pw + "@h:1", "redis://h:2"}, Password: "from-file-pw"})
	if err != nil {
		t.Fatal(err)
	}
	defer Close(ms)
	for _, m := range ms {
		if strings.Contains(m.Name, pw) || strings.Contains(m.Name, "from-file-pw") || !strings.Contains(m.Name, "xxxxx") {
			t.Errorf("master name %q", m.Name)
		}
		if m.Client.(*redis.Client).Options().Password != "from-file-pw" {
			t.Errorf("password from the file not used for %s", m.Name)
		}
	}
	if ms[0].Name != "redis://user:xxxxx@h:1" || ms[1].Addr != "h:2" {
		t.Errorf("names %q %q", ms[0].Name, ms[1].Addr)
	}
}

// TestPingExplains checks the one-line explanations against real servers.
func TestPingExplains(t *testing.T) {
	ctx := context.Background()
	r := testenv.StartRedis(t, testenv.WithPassword(pw))
	dead, err := redisproc.FreePort()
	if err != nil {
		t.Fatal(err)
	}
	cases := map[string]string{
		r.URL():                                   "",
		"redis://:wrong-" + pw + "@" + r.Addr:     "authentication failed",
		"redis://" + r.Addr:                       "a password is required",
		"redis://127.0.0.1:" + strconv.Itoa(dead): "connection refused",
		"redis://no-such-host.invalid:6379":       "host not found",
	}
	for u, want := range cases {
		ms, err := Connect(Config{URLs: []string{u}})
		if err != nil {
			t.Fatal(err)
		}
		err = Ping(ctx, ms[0])
		Close(ms)
		if want == "" {
			if err != nil {
				t.Errorf("%s: %v", u, err)
			}
			continue
		}
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("Ping(%s) = %v, want %q", u, err, want)
			continue
		}
		if strings.Contains(err.Error(), pw) || strings.Contains(err.Error(), "\n") {
			t.Errorf("Ping(%s) error leaks the password or spans lines: %v", u, err)
		}
	}
}
