// Package redisproc starts and stops real redis-server processes on free loopback ports: the
// sandbox's Redis masters and the test harness's.
package redisproc

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/osctl/osctl/pkg/proc"
)

// InstallHint is the one command that installs redis-server on Debian.
const InstallHint = "apt-get install -y redis-server"

// ErrNotInstalled says redis-server is not on PATH.
var ErrNotInstalled = errors.New("redis-server is not installed: run '" + InstallHint + "' (Debian/Ubuntu) or put redis-server on PATH")

// Options configure one server.
type Options struct {
	// Dir holds the server's data, log and pid files. It must exist.
	Dir string
	// Port to listen on 127.0.0.1; 0 picks a free one.
	Port int
	// Password, when set, is required of clients (requirepass).
	Password string
	// Args are extra redis-server arguments, for example "--appendonly", "yes".
	Args []string
	// ConfigFile, when set, is a redis.conf (mode 0600: the password is appended to it) that
	// the server reads instead of stdin, with the settings above appended. A Sentinel rewrites
	// it, so it must be writable.
	ConfigFile string
	// Sentinel runs the server as a Redis Sentinel (redis-server CONFIG --sentinel): its
	// ConfigFile holds the `sentinel monitor` lines, and no data files are set.
	Sentinel bool
}

// Server is a running redis-server process that this package started.
type Server struct {
	Addr string // 127.0.0.1:PORT
	Port int
	opts Options
	g    *proc.Group
}

// Path returns redis-server's path or ErrNotInstalled.
func Path() (string, error) {
	p, err := exec.LookPath("redis-server")
	if err != nil {
		return "", ErrNotInstalled
	}
	return p, nil
}

// Start launches redis-server and waits until it answers PING (at most 10 s).
func Start(ctx context.Context, o Options) (*Server, error) {
	bin, err := Path()
	if err != nil {
		return nil, err
	}
	var lastErr error
	for attempt := 0; attempt < 5; attempt++ {
		port := o.Port
		if port == 0 {
			if port, err = FreePort(); err != nil {
				return nil, err
			}
		}
		s, err := start(ctx, bin, o, port)
		if err == nil {
			return s, nil
		}
		lastErr = err
		if o.Port != 0 {
			break
		}
	}
	return nil, lastErr
}

func start(ctx context.Context, bin string, o Options, port int) (*Server, error) {
	// The configuration goes through stdin ("-"), so that the password is not on the command
	// line, where any local user could read it; a Sentinel, which needs a file it can rewrite,
	// gets it appended to its ConfigFile instead.
	conf := fmt.Sprintf("port %d\nbind 127.0.0.1\ndir %s\ndaemonize no\nlogfile %s\nprotected-mode no\n",
		port, confQuote(o.Dir), confQuote(filepath.Join(o.Dir, fmt.Sprintf("redis-%d.log", port))))
	if !o.Sentinel {
		conf += fmt.Sprintf("save \"\"\nappendonly no\ndbfilename %s\nappendfilename %s\nappenddirname %s\n",
			confQuote(fmt.Sprintf("dump-%d.rdb", port)), confQuote(fmt.Sprintf("appendonly-%d.aof", port)), confQuote(fmt.Sprintf("aof-%d", port)))
	}
	if o.Password != "" {
		conf += "requirepass " + confQuote(o.Password) + "\n"
	}
	args := append([]string{"-"}, o.Args...)
	if o.ConfigFile != "" {
		base, err := os.ReadFile(o.ConfigFile)
		if err != nil {
			return nil, err
		}
		if err := os.WriteFile(o.ConfigFile, append(append(base, '\n'), conf...), 0o600); err != nil {
			return nil, err
		}
		args = append([]string{o.ConfigFile}, o.Args...)
		conf = ""
	}
	if o.Sentinel {
		args = append(args[:1:1], append([]string{"--sentinel"}, args[1:]...)...)
	}
	cmd := exec.Command(bin, args...)
	cmd.Stdin = strings.NewReader(conf)
	g, err := proc.Start(cmd, syscall.SIGKILL)
	if err != nil {
		return nil, fmt.Errorf("starting redis-server: %v", err)
	}
	s := &Server{Addr: fmt.Sprintf("127.0.0.1:%d", port), Port: port, opts: o, g: g}
	c := redis.NewClient(&redis.Options{Addr: s.Addr, Password: o.Password, DialTimeout: 200 * time.Millisecond, MaxRetries: -1})
	defer c.Close()
	deadline := time.Now().Add(10 * time.Second)
	for {
		if err := c.Ping(ctx).Err(); err == nil {
			return s, nil
		}
		select {
		case <-g.Done():
			log, _ := os.ReadFile(filepath.Join(o.Dir, fmt.Sprintf("redis-%d.log", port)))
			return nil, fmt.Errorf("redis-server on port %d exited at start: %s", port, lastLine(log))
		case <-ctx.Done():
			s.Kill()
			return nil, ctx.Err()
		case <-time.After(20 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			s.Kill()
			return nil, fmt.Errorf("redis-server on port %d did not answer within 10s", port)
		}
	}
}

func lastLine(b []byte) string {
	for len(b) > 0 && (b[len(b)-1] == '\n' || b[len(b)-1] == '\r') {
		b = b[:len(b)-1]
	}
	for i := len(b) - 1; i >= 0; i-- {
		if b[i] == '\n' {
			return string(b[i+1:])
		}
	}
	return string(b)
}

// URL returns the redis:// URL of the server (with its password, for handing to a client).
func (s *Server) URL() string {
	if s.opts.Password != "" {
		return "redis://:" + s.opts.Password + "@" + s.Addr
	}
	return "redis://" + s.Addr
}

// Pid returns the server's process id.
func (s *Server) Pid() int { return s.g.Pid() }

// Alive reports whether the process is still running.
func (s *Server) Alive() bool { return !s.g.Exited() }

// Kill ends the server at once with SIGKILL (a crash) and waits for it.
func (s *Server) Kill() { s.g.Kill() }

// Stop asks the server to shut down (SIGTERM) and waits up to 5 s before killing it.
func (s *Server) Stop() { s.g.Stop(5 * time.Second) }

// Restart starts a stopped or killed server again on the same port with the same options.
func (s *Server) Restart(ctx context.Context) error {
	s.Kill()
	o := s.opts
	o.Port = s.Port
	n, err := Start(ctx, o)
	if err != nil {
		return err
	}
	*s = *n
	return nil
}

// FreePort asks the kernel for a free TCP port on 127.0.0.1.
func FreePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, fmt.Errorf("finding a free port: %v", err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

// confQuote quotes s for a redis.conf line: in double quotes, with backslash, quote and every
// byte outside printable ASCII escaped as Redis reads them (\\, \", \xHH).
func confQuote(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '\\' || c == '"':
			b.WriteByte('\\')
			b.WriteByte(c)
		case c < 0x20 || c > 0x7e:
			fmt.Fprintf(&b, "\\x%02x", c)
		default:
			b.WriteByte(c)
		}
	}
	b.WriteByte('"')
	return b.String()
}
