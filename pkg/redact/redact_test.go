package redact

import (
	"strings"
	"testing"
)

func TestURL(t *testing.T) {
	cases := map[string]string{
		"redis://:s3cret@queue:6379":                                 "redis://:xxxxx@queue:6379",
		"redis://user:s3cret@queue:6379/0":                           "redis://user:xxxxx@queue:6379/0",
		"rediss://default:p%40ss@host:6380":                          "rediss://default:xxxxx@host:6380",
		"redis://queue:6379":                                         "redis://queue:6379",
		"redis://user@queue:6379":                                    "redis://user@queue:6379",
		"redis://:s3cret@queue:notaport/%zz":                         "redis://:xxxxx@queue:notaport/%zz",
		"not a url with redis://u:pw@h:1 in":                         "not a url with redis://u:xxxxx@h:1 in",
		"redis://:pa ss@host:1":                                      "redis://:xxxxx@host:1",
		"http://user:s3cret@127.0.0.1:1/path":                        "http://user:xxxxx@127.0.0.1:1/path",
		"redis://s:26379?addr=t:26379&password=s3cret&master_name=m": "redis://s:26379?addr=t%3A26379&master_name=m&password=xxxxx",
		"redis://s:26379?password=s3cret;x=%zz":                      "redis://s:26379?password=xxxxx",
		" ://user:s3cret@h:1":                                        " ://user:xxxxx@h:1",
	}
	for in, want := range cases {
		if got := URL(in); got != want {
			t.Errorf("URL(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestText(t *testing.T) {
	in := `dial redis://:hunter22@q:6379 failed; Authorization: Bearer abc.def.ghi; password=topsecret requirepass "x1y2z3"`
	got := Text(in)
	for _, secret := range []string{"hunter22", "abc.def.ghi", "topsecret", "x1y2z3"} {
		if strings.Contains(got, secret) {
			t.Errorf("Text left %q in %q", secret, got)
		}
	}
	if !strings.Contains(got, "redis://:xxxxx@q:6379") {
		t.Errorf("Text mangled the URL: %q", got)
	}
}

func TestSecrets(t *testing.T) {
	var s Secrets
	s.Add("")   // ignored
	s.Add("ab") // too short to be safe to replace
	s.Add("from-a-file-123")
	got := s.String("auth failed with from-a-file-123 on ab")
	if got != "auth failed with xxxxx on ab" {
		t.Errorf("got %q", got)
	}
	var nilS *Secrets
	if nilS.String("password=x") != "password=xxxxx" {
		t.Errorf("nil Secrets does not scrub")
	}
}

// FuzzURL checks that no password given in a URL survives URL().
func FuzzURL(f *testing.F) {
	f.Add("user", "s3cret", "queue:6379")
	f.Add("", "p@ss:w/rd", "h:1")
	f.Fuzz(func(t *testing.T, user, pw, host string) {
		if len(pw) < 4 || strings.ContainsAny(pw, "@/?#% \t\n") || strings.Contains(host+user, pw) || strings.Contains("redis://:xxxxx", pw) {
			t.Skip()
		}
		raw := "redis://" + user + ":" + pw + "@" + host
		if got := URL(raw); strings.Contains(got, pw) {
			t.Fatalf("URL(%q) = %q leaks the password", raw, got)
		}
	})
}
