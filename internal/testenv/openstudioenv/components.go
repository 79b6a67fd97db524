package openstudioenv

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/osctl/osctl/pkg/redisproc"
)

// FerretDBVersion is the FerretDB that scripts/ferretdb-build.sh builds.
const FerretDBVersion = "v1.24.2"

// FerretDBPath is $OSCTL_FERRETDB, else the binary in scripts/ferretdb-build.sh's cache.
func FerretDBPath() string {
	if p := os.Getenv("OSCTL_FERRETDB"); p != "" {
		return p
	}
	cache := os.Getenv("OSCTL_CACHE")
	if cache == "" {
		cache = "/var/cache/osctl"
	}
	return filepath.Join(cache, "ferretdb-"+FerretDBVersion, "bin", "ferretdb")
}

// Check says what is missing to run the environment, and how to install it (nil: nothing).
func Check(ferretdb string) error {
	var missing []string
	for _, b := range []string{"ruby", "bundle", "passenger", "git", "redis-server"} {
		if _, err := exec.LookPath(b); err != nil {
			missing = append(missing, b)
		}
	}
	if len(missing) > 0 {
		return fmt.Errorf("openstudioenv: %s not installed: run scripts/test-deps.sh (Debian's ruby-rails, passenger and friends)", strings.Join(missing, ", "))
	}
	if _, err := os.Stat(ferretdb); err != nil {
		return fmt.Errorf("openstudioenv: FerretDB %s not built (%s): run scripts/ferretdb-build.sh", FerretDBVersion, ferretdb)
	}
	return nil
}

func moduleRoot() (string, error) {
	out, err := exec.Command("go", "env", "GOMOD").Output()
	if err != nil || strings.TrimSpace(string(out)) == "" || strings.TrimSpace(string(out)) == os.DevNull {
		return "", fmt.Errorf("openstudioenv: osctl's module root not found (go env GOMOD: %v); set Options.Root", err)
	}
	return filepath.Dir(strings.TrimSpace(string(out))), nil
}

// startStores starts Redis (Resque's queues; the patched app's lock) and FerretDB.
func (s *Server) startStores(ctx context.Context) error {
	rctx, cancel := context.WithTimeout(ctx, 20*time.Second)
	defer cancel()
	rdir := filepath.Join(s.Dir, "redis")
	if err := os.MkdirAll(rdir, 0o755); err != nil {
		return err
	}
	rs, err := redisproc.Start(rctx, redisproc.Options{Dir: rdir})
	if err != nil {
		return fmt.Errorf("redis-server: %v", err)
	}
	s.stopFn = append(s.stopFn, func() error { rs.Kill(); return nil })
	s.RedisURL = rs.URL()
	port, err := redisproc.FreePort()
	if err != nil {
		return err
	}
	s.Mongo = "127.0.0.1:" + strconv.Itoa(port)
	// No telemetry (it would reach out of the machine), no debug listener.
	p, err := startProc("ferretdb", filepath.Join(s.Dir, "db"), filepath.Join(s.Dir, "log"), os.Environ(), s.opts.FerretDB,
		"--handler=sqlite", "--sqlite-url=file:"+filepath.Join(s.Dir, "db")+"/", "--listen-addr="+s.Mongo,
		"--debug-addr=-", "--telemetry=disable", "--state-dir="+filepath.Join(s.Dir, "db"), "--log-level=warn")
	if err != nil {
		return err
	}
	s.stopFn = append(s.stopFn, func() error { return p.stop(10 * time.Second) })
	for end := time.Now().Add(20 * time.Second); ; time.Sleep(100 * time.Millisecond) {
		if c, err := net.DialTimeout("tcp", s.Mongo, time.Second); err == nil {
			c.Close()
			return nil
		}
		if p.Exited() || time.Now().After(end) {
			return fmt.Errorf("FerretDB did not listen on %s:\n%s", s.Mongo, p.tail())
		}
	}
}

// env is a Ruby process's environment: upstream's image runs RAILS_ENV=docker; the deployment's
// config files read the host names and paths from here. name is the process's "pod".
func (s *Server) env(name, project, host, tmpdir string, extra ...string) []string {
	env := append(os.Environ(),
		"RAILS_ENV=docker", "BUNDLE_GEMFILE="+filepath.Join(s.app, "Gemfile"),
		"OSCTL_MONGO_HOST="+s.Mongo, "REDIS_URL="+s.RedisURL, "SECRET_KEY_BASE=osctl-test-"+strings.Repeat("0", 64),
		"OS_SERVER_HOST_URL="+host, "OS_SERVER_PROJECT_PATH="+project,
		"OS_SERVER_LOG_PATH="+filepath.Join(s.Dir, "log", name), "OS_SERVER_RAILS_TMP_PATH="+filepath.Join(tmpdir, "rails"),
		"TMPDIR="+tmpdir, "POD_NAME="+name, "HOSTNAME="+name)
	env = append(env, s.opts.Env...)
	return append(env, extra...)
}

// rake runs one rake task to its end (upstream's start-server.sh creates the indexes first).
func (s *Server) rake(name string, task string) error {
	tmp := filepath.Join(s.tmp, name)
	if err := os.MkdirAll(tmp, 0o755); err != nil {
		return err
	}
	p, err := startProc(name, filepath.Join(s.app, "server"), filepath.Join(s.Dir, "log"),
		s.env(name, s.Volume, "http://127.0.0.1:1", tmp), "ruby", "-S", "rake", task)
	if err != nil {
		return err
	}
	select {
	case <-p.Done():
	case <-time.After(3 * time.Minute):
		_ = p.stop(5 * time.Second)
	}
	if code := p.Cmd.ProcessState.ExitCode(); code != 0 {
		return fmt.Errorf("rake %s exited %d:\n%s", task, code, p.tail())
	}
	return nil
}

// startRuby starts every Ruby process: per replica Passenger and a Resque worker on
// analysis_wrappers sharing the replica's TMPDIR; the web-background worker; the simulation
// worker, which does not mount the volume (its project path is a directory of its own) and
// reaches the web tier by URL, as the chart's worker does through the web Service.
func (s *Server) startRuby() error {
	o := s.opts
	for i := 1; i <= o.Replicas; i++ {
		port, err := redisproc.FreePort()
		if err != nil {
			return err
		}
		s.ports = append(s.ports, port)
		s.Targets = append(s.Targets, fmt.Sprintf("http://127.0.0.1:%d", port))
	}
	host := s.Targets[0]
	for i, port := range s.ports {
		name := fmt.Sprintf("web%d", i+1)
		tmp := filepath.Join(s.tmp, name)
		if err := os.MkdirAll(tmp, 0o755); err != nil {
			return err
		}
		env := s.env(name, s.Volume, host, tmp)
		pidFile := filepath.Join(s.Dir, "run", name+"-passenger.pid")
		p, err := startProc(name, filepath.Join(s.app, "server"), filepath.Join(s.Dir, "log"), env,
			"passenger", "start", "--engine", "builtin", "--address", "127.0.0.1", "--port", strconv.Itoa(port),
			"--environment", "docker", "--max-pool-size", strconv.Itoa(o.PoolSize), "--min-instances", strconv.Itoa(o.PoolSize),
			"--max-request-queue-size", strconv.Itoa(o.QueueSize), "--pool-idle-time", "0",
			"--pid-file", pidFile, "--log-file", filepath.Join(s.Dir, "log", name+"-passenger.log"),
			"--disable-anonymous-telemetry", "--disable-security-update-check", "--ruby", "ruby")
		if err != nil {
			return err
		}
		p.pidFile = pidFile
		s.procs = append(s.procs, p)
		if err := s.worker(name+"-resque", "analysis_wrappers", s.Volume, host, tmp); err != nil {
			return err
		}
	}
	if err := s.worker("web-background", "background,analyses", s.Volume, host, ""); err != nil {
		return err
	}
	return s.worker("worker", "simulations", filepath.Join(s.Dir, "worker"), host, "")
}

// worker starts `rake environment resque:work` on queues, as upstream's start scripts do.
func (s *Server) worker(name, queues, project, host, tmp string) error {
	if tmp == "" {
		tmp = filepath.Join(s.tmp, name)
		if err := os.MkdirAll(tmp, 0o755); err != nil {
			return err
		}
	}
	p, err := startProc(name, filepath.Join(s.app, "server"), filepath.Join(s.Dir, "log"),
		s.env(name, project, host, tmp, "QUEUES="+queues, "INTERVAL=5"), "ruby", "-S", "rake", "environment", "resque:work")
	if err != nil {
		return err
	}
	s.procs = append(s.procs, p)
	return nil
}

// waitReady waits until every replica answers GET /status.json and every Resque worker has
// registered itself.
func (s *Server) waitReady(ctx context.Context, timeout time.Duration) error {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	rc := redis.NewClient(&redis.Options{Addr: strings.TrimPrefix(s.RedisURL, "redis://")})
	defer rc.Close()
	want := int64(s.opts.Replicas + 2)
	hc := &http.Client{Timeout: 10 * time.Second}
	for {
		for _, p := range s.procs {
			if p.Exited() {
				return fmt.Errorf("%s exited while booting:\n%s", p.name, p.tail())
			}
		}
		up := 0
		for _, t := range s.Targets {
			if resp, err := hc.Get(t + "/status.json"); err == nil {
				resp.Body.Close()
				if resp.StatusCode == http.StatusOK {
					up++
				}
			}
		}
		n, _ := rc.SCard(ctx, "resque:workers").Result()
		if up == len(s.Targets) && n >= want {
			return nil
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("not up after %s: %d of %d replicas answer, %d of %d Resque workers registered\n%s", timeout, up, len(s.Targets), n, want, s.Logs())
		case <-time.After(500 * time.Millisecond):
		}
	}
}

// RubyCommand returns a command that runs argv in the app's server/ directory with a web
// replica's environment (replica 1's TMPDIR aside), less the variables named in drop: for a test
// that boots the app once more, for example without its lock's configuration.
func (s *Server) RubyCommand(name string, drop []string, argv ...string) *exec.Cmd {
	tmp := filepath.Join(s.tmp, name)
	_ = os.MkdirAll(tmp, 0o755)
	var env []string
	for _, kv := range s.env(name, s.Volume, s.Targets[0], tmp) {
		k, _, _ := strings.Cut(kv, "=")
		keep := true
		for _, d := range drop {
			keep = keep && k != d
		}
		if keep {
			env = append(env, kv)
		}
	}
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Dir, cmd.Env = filepath.Join(s.app, "server"), env
	return cmd
}

// LogDir is where the processes' logs are: <name>.log for each process's output, and <name>/
// for the Rails log (docker.log) and Resque's (resque.log) of each.
func (s *Server) LogDir() string { return filepath.Join(s.Dir, "log") }
