package redisconn

import (
	"context"
	"errors"
	"fmt"
	"net"
	"regexp"
	"strings"

	"github.com/osctl/osctl/pkg/redact"
)

// Ping checks one master and returns a one-line error that says what is wrong and what to do.
// A cluster answers when every primary shard does; a Sentinel-managed master when the sentinels
// name it and it answers.
func Ping(ctx context.Context, m Master) error {
	if m.KindOf() == Cluster {
		nodes, err := m.Nodes(ctx)
		if err != nil {
			return Explain(m, err)
		}
		for _, n := range nodes {
			if err := n.Client.Ping(ctx).Err(); err != nil {
				return fmt.Errorf("cluster shard %s: %w", n.Addr, Explain(m, err))
			}
		}
		return nil
	}
	if m.KindOf() == Sentinel {
		if _, err := m.sentinel.masterAddr(ctx); err != nil {
			return Explain(m, err)
		}
	}
	if err := m.Client.Ping(ctx).Err(); err != nil {
		return Explain(m, err)
	}
	return nil
}

// PermissionError says the server's ACL refuses a command or keys osctl needs.
type PermissionError struct {
	Master string
	// Command is the refused command in capitals (EVAL for EVAL and EVALSHA); "" when keys were
	// refused, or a command inside a script (Redis does not say which).
	Command string
	// Keys says the user may not access the keys osctl uses.
	Keys bool
	Err  error
}

func (e *PermissionError) Error() string {
	switch {
	case e.Command != "":
		fix := "+" + strings.ToLower(e.Command)
		if e.Command == "EVAL" {
			fix += " +evalsha"
		}
		return fmt.Sprintf("Redis %s: the ACL user may not run %s (NOPERM): grant it (ACL SETUSER <user> %s) or use a user that may", e.Master, e.Command, fix)
	case e.Keys:
		return fmt.Sprintf("Redis %s: the ACL user may not access the keys osctl uses (NOPERM; GET on redlock:* and analysis:*, osctl:* for its own): add ~redlock:* ~analysis:* ~osctl:* to the user's key patterns", e.Master)
	}
	return fmt.Sprintf("Redis %s: the ACL user may not run a command inside osctl's scripts (GET, SET, DEL, PTTL, PEXPIRE, TYPE, MGET, SCAN, ZADD, ZRANGE, TIME): grant those commands (docs/migration/redis-managed.md lists the ACL)", e.Master)
}

func (e *PermissionError) Unwrap() error { return e.Err }

var nopermCmdRE = regexp.MustCompile(`(?i)NOPERM .*permissions to run the '([a-z_|-]+)' command`)

// Permission returns the PermissionError err is, or nil when err is not an ACL refusal.
func Permission(m Master, err error) *PermissionError {
	if err == nil {
		return nil
	}
	msg := err.Error()
	if sm := nopermCmdRE.FindStringSubmatch(msg); sm != nil {
		cmd := strings.ToUpper(sm[1])
		if strings.HasPrefix(cmd, "EVAL") {
			cmd = "EVAL"
		}
		return &PermissionError{Master: m.Name, Command: cmd, Err: err}
	}
	switch {
	case strings.Contains(msg, "NOPERM") && strings.Contains(msg, "keys"),
		strings.Contains(msg, "can't access at least one of the keys"):
		return &PermissionError{Master: m.Name, Keys: true, Err: err}
	case strings.Contains(msg, "The user executing the script can't run this command"):
		return &PermissionError{Master: m.Name, Err: err}
	}
	return nil
}

// Explain turns a go-redis error into one line naming the master and the likely fix.
func Explain(m Master, err error) error {
	if pe := Permission(m, err); pe != nil {
		return pe
	}
	msg := redact.Text(err.Error())
	var ne net.Error
	switch {
	case strings.Contains(msg, "WRONGPASS") || strings.Contains(msg, "invalid password") || strings.Contains(msg, "invalid username-password"):
		return fmt.Errorf("Redis %s: authentication failed (wrong user or password): check the URL's user and password, {Redis.Password}", m.Name)
	case strings.Contains(msg, "NOAUTH"):
		return fmt.Errorf("Redis %s: a password is required: put it in the URL, {Redis.Password}", m.Name)
	case strings.Contains(msg, "called without any password configured"):
		return fmt.Errorf("Redis %s: a password was sent but the server has none set: drop it from the URL or the password flags", m.Name)
	case errors.Is(err, ErrNoSuchMaster):
		return fmt.Errorf("Redis %s: the sentinels monitor no master %q: check {Redis.SentinelMaster} (redis-cli -p 26379 SENTINEL MASTERS lists them)", m.Name, m.Addr)
	case strings.Contains(msg, "no sentinel answered") || strings.Contains(msg, "all sentinels specified in configuration are unreachable"):
		return fmt.Errorf("Redis %s: no sentinel answered (%s): check the sentinels' addresses (port 26379) and credentials", m.Name, msg)
	case strings.Contains(msg, "MOVED ") || strings.Contains(msg, "ASK "):
		return fmt.Errorf("Redis %s: this is a Redis Cluster node (%s): pass it as {Redis.Clusters} URL", m.Name, firstWords(msg, 3))
	case strings.Contains(msg, "cluster support disabled"):
		return fmt.Errorf("Redis %s: this server is not a Redis Cluster (cluster support disabled): pass it as {Redis.URLs} URL", m.Name)
	case strings.Contains(msg, "CLUSTERDOWN"):
		return fmt.Errorf("Redis %s: the cluster is down (%s): check CLUSTER INFO on its nodes", m.Name, msg)
	case strings.Contains(msg, "READONLY"):
		return fmt.Errorf("Redis %s: this server is a replica (READONLY): give its master, or {Redis.Sentinels} to follow the master", m.Name)
	case strings.Contains(msg, "connection refused"):
		return fmt.Errorf("Redis %s: connection refused: is the server running and the port right?", m.Name)
	case errors.As(err, &ne) && ne.Timeout():
		return fmt.Errorf("Redis %s: timed out: check the address, firewall, or use {Redis.Service} for an in-cluster Service", m.Name)
	case strings.Contains(msg, "no such host"):
		return fmt.Errorf("Redis %s: host not found: check the host name (in-cluster names need {Redis.Service})", m.Name)
	case strings.Contains(msg, "certificate"):
		return fmt.Errorf("Redis %s: TLS verification failed (%s): pass the server's CA with {Redis.CAFile}", m.Name, msg)
	case strings.Contains(msg, "unknown command"):
		return fmt.Errorf("Redis %s: %s: the server disabled or renamed a command osctl needs (managed Redis does that)", m.Name, msg)
	}
	return fmt.Errorf("Redis %s: %s", m.Name, msg)
}

func firstWords(s string, n int) string {
	f := strings.Fields(s)
	if len(f) > n {
		f = f[:n]
	}
	return strings.Join(f, " ")
}
