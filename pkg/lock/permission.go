package lock

import (
	"errors"
	"fmt"
	"regexp"
	"strings"
)

// ErrPermission says a master's ACL refuses a command or a key the lock needs (NOPERM); the
// error wrapping it names the command, and the wrapped reply says which master refused. A
// managed Redis user for pkg/lock needs GET, SET, DEL, PEXPIRE, PTTL, EVAL and EVALSHA on
// ~redlock:* and ~osctl:* (the semaphore also TIME and the sorted-set commands it uses).
var ErrPermission = errors.New("lock: the Redis ACL user may not run a command the lock needs")

var nopermCmd = regexp.MustCompile(`NOPERM .*permissions to run the '([a-z_|-]+)' command`)

// permission wraps err with ErrPermission, naming the refused command, when a master answered
// NOPERM; any other error is returned as it is.
func permission(err error) error {
	if err == nil || errors.Is(err, ErrPermission) {
		return err
	}
	msg := err.Error()
	if m := nopermCmd.FindStringSubmatch(msg); m != nil {
		cmd := strings.ToUpper(m[1])
		grant := "+" + m[1]
		if strings.HasPrefix(cmd, "EVAL") {
			cmd, grant = "EVAL", "+eval +evalsha"
		}
		return fmt.Errorf("%w: %s (grant %s to the user): %w", ErrPermission, cmd, grant, err)
	}
	if strings.Contains(msg, "NOPERM") || strings.Contains(msg, "can't access at least one of the keys") {
		return fmt.Errorf("%w: its keys (add ~redlock:* ~osctl:* to the user's key patterns): %w", ErrPermission, err)
	}
	if strings.Contains(msg, "The user executing the script can't run this command") {
		return fmt.Errorf("%w: a command inside its scripts (GET, SET, DEL, PEXPIRE, PTTL, TIME, ZADD, ZRANGE...): %w", ErrPermission, err)
	}
	return err
}
