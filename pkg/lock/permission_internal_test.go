package lock

import (
	"errors"
	"strings"
	"testing"
)

func TestPermission(t *testing.T) {
	cases := map[string]string{
		"master #0: NOPERM this user has no permissions to run the 'evalsha' command":                          "EVAL (grant +eval +evalsha",
		"NOPERM this user has no permissions to run the 'set' command":                                         "SET (grant +set",
		"NOPERM this user has no permissions to access one of the keys used as arguments":                      "its keys (add ~redlock:* ~osctl:*",
		"ERR The user executing the script can't run this command or subcommand script: 1f, on @user_script:1": "a command inside its scripts",
	}
	for msg, want := range cases {
		err := permission(errors.New(msg))
		if !errors.Is(err, ErrPermission) || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), msg) {
			t.Errorf("permission(%q) = %v, want ErrPermission with %q", msg, err, want)
		}
		if again := permission(err); again != err {
			t.Errorf("wrapped twice: %v", again)
		}
	}
	plain := errors.New("connection refused")
	if permission(plain) != plain || permission(nil) != nil {
		t.Error("a non-ACL error was changed")
	}
}
