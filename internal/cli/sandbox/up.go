package sandbox

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"github.com/osctl/osctl/internal/cli/cmdutil"
	"github.com/osctl/osctl/pkg/redact"
	"github.com/osctl/osctl/pkg/redisconn"
	"github.com/osctl/osctl/pkg/redisproc"
	"github.com/osctl/osctl/pkg/sandbox"
)

// Bounds of `up`.
const (
	maxReplicas     = 32
	maxRedisMasters = 7
	readyTimeout    = 30 * time.Second
	stopGrace       = 5 * time.Second
)

// UpOptions configure `osctl sandbox up`.
type UpOptions struct {
	IO *cmdutil.IOStreams
	// Interrupts is told which processes a second Ctrl-C would leave running.
	Interrupts *cmdutil.Interrupts
	// RedisURLs are the --redis URLs (else $OSCTL_REDIS); empty means start redis-server.
	RedisURLs func() []string
	// RedisFlags are the other Redis flags of the root, passed on to replicas.
	RedisFlags cmdutil.RedisFlags
	// Executable returns the osctl binary that replicas run (os.Executable).
	Executable func() (string, error)

	Mode         modeFlags
	Replicas     int
	RedisMasters int
	Dir          string
	PortBase     int
}

// NewCmdUp returns `osctl sandbox up`.
func NewCmdUp(f *cmdutil.Factory, runF func(context.Context, *UpOptions) error) *cobra.Command {
	opts := &UpOptions{IO: f.IO, Interrupts: f.Interrupts, RedisURLs: f.RedisURLs, Executable: os.Executable}
	cmd := &cobra.Command{
		Use:   "up",
		Short: "Start N sandbox replicas over one state directory (and Redis), in the foreground",
		Long: `Start N sandbox replicas as separate processes on loopback ports, sharing one state directory
(server/ laid out like /mnt/openstudio; records under db/), and Redis masters: the --redis
URLs if given, else --redis-masters redis-server processes on free ports. Every mode needs
Redis: each replica's background worker takes InitializeAnalysis jobs from its Resque queues
there (--locking redlock locks on every master, --queue shared keeps its jobs on the first).
When every replica answers GET /status, up prints one
JSON line on stdout for scripts (replica URLs, state dir, Redis URLs with passwords redacted,
modes, its pid) and stays in the foreground. Ctrl-C or SIGTERM stops every replica and
redis-server it started; the state directory is kept. If a replica dies, up says so, stops the
rest and exits 2.`,
		Example: `  # the real app's behaviour on three replicas: races appear under load
  osctl sandbox up --replicas 3

  # the fixed app: Redlock around each critical section, jobs admitted through Redis
  osctl sandbox up --replicas 3 --locking redlock --queue shared --dir /tmp/os-state

  # the naive fix of the per-replica job queue: the ceiling divided between replicas; a job
  # queued on a busy replica waits while another idles (osctl stress --profile jobs: stranded)
  osctl sandbox up --replicas 2 --queue split

  # elb-openapi's job API as its code has it: a token, a 5 s dispatch tick, every 6th job
  # requeued once, no ceiling in GET /status; --queue local is its bug (a ceiling per replica)
  osctl sandbox up --replicas 2 --queue local --max-active 2 --job-duration 3s \
    --api-token "$TOKEN" --requeue-every 6 --hide-ceiling

  # watch the locks while they are held
  osctl sandbox up --replicas 2 --locking redlock --hold 3s &
  osctl locks inspect --redis redis://127.0.0.1:PORT`,
		Args: cobra.NoArgs,
		RunE: cmdutil.RunE(opts, func(cmd *cobra.Command, args []string) error {
			opts.RedisFlags = f.Redis
			opts.Mode.resolve(cmd.Flags())
			return opts.validate()
		}, runF, upRun),
	}
	opts.Mode.add(cmd)
	cmd.Flags().IntVar(&opts.Replicas, "replicas", 1, "number of replicas (separate processes)")
	cmd.Flags().IntVar(&opts.RedisMasters, "redis-masters", 1, "redis-server processes to start when no --redis URL is given")
	cmd.Flags().StringVar(&opts.Dir, "dir", "", "shared state directory (default a new temporary directory, printed)")
	cmd.Flags().IntVar(&opts.PortBase, "port-base", 0, "first replica's port; replica i listens on port-base+i (0: free ports)")
	return cmd
}

func (o *UpOptions) validate() error {
	if err := o.Mode.validate(); err != nil {
		return err
	}
	if o.Replicas < 1 || o.Replicas > maxReplicas {
		return cmdutil.Usage("--replicas %d: use 1 to %d", o.Replicas, maxReplicas)
	}
	if o.RedisMasters < 1 || o.RedisMasters > maxRedisMasters {
		return cmdutil.Usage("--redis-masters %d: use 1 to %d", o.RedisMasters, maxRedisMasters)
	}
	if o.PortBase != 0 && (o.PortBase < 1024 || o.PortBase+o.Replicas-1 > 65535) {
		return cmdutil.Usage("--port-base %d: use 0 (free ports) or 1024 to %d", o.PortBase, 65536-o.Replicas)
	}
	if o.RedisFlags.Secret != "" || o.RedisFlags.Service != "" {
		return cmdutil.Usage("sandbox up takes local Redis masters as --redis URLs; --redis-secret and --redis-service are for a cluster's Redis")
	}
	if len(o.RedisFlags.Clusters)+len(o.RedisFlags.Sentinels) > 0 {
		return cmdutil.Usage("sandbox up takes local standalone Redis masters as --redis URLs, not --redis-cluster or --redis-sentinel")
	}
	return nil
}

// replica is one started replica process.
type replica struct {
	index int
	url   string
	cmd   *exec.Cmd
	done  chan struct{}
	err   error
}

func upRun(ctx context.Context, o *UpOptions) (retErr error) {
	errOut := o.IO.ErrOut
	dir, err := prepareDir(o.Dir)
	if err != nil {
		return err
	}
	exe, err := o.Executable()
	if err != nil {
		return fmt.Errorf("finding the osctl executable to run replicas: %v", err)
	}

	left := &leftovers{dir: dir}
	defer o.Interrupts.SetUndone(left.undone)()

	// Redis: given, or started here (and stopped on the way out).
	urls := o.RedisURLs()
	var servers []*redisproc.Server
	defer func() {
		for _, s := range servers {
			s.Stop()
		}
		if len(servers) > 0 {
			fmt.Fprintf(errOut, "sandbox: stopped %d redis-server process(es)\n", len(servers))
		}
	}()
	if len(urls) == 0 {
		// Every replica's background worker takes its jobs from Redis, whatever the modes.
		if _, err := redisproc.Path(); err != nil {
			return fmt.Errorf("the sandbox needs Redis for its background workers: %v; or pass --redis URL", err)
		}
		rdir := filepath.Join(dir, "redis")
		if err := os.MkdirAll(rdir, 0o755); err != nil {
			return err
		}
		for i := 0; i < o.RedisMasters; i++ {
			s, err := redisproc.Start(ctx, redisproc.Options{Dir: rdir})
			if err != nil {
				return fmt.Errorf("starting redis-server: %v", err)
			}
			servers = append(servers, s)
			left.addServer(s)
			urls = append(urls, s.URL())
			fmt.Fprintf(errOut, "sandbox: started redis-server %s (pid %d)\n", s.URL(), s.Pid())
		}
	} else if err := pingAll(ctx, urls, o.RedisFlags); err != nil {
		return err
	}

	ns := randomHex(6)
	replicas := make([]*replica, 0, o.Replicas)
	defer func() {
		stopReplicas(replicas)
		if len(replicas) > 0 {
			fmt.Fprintf(errOut, "sandbox: stopped %d replica(s); state kept in %s\n", len(replicas), dir)
		}
	}()
	for i := 0; i < o.Replicas; i++ {
		r, err := startReplica(o, exe, dir, ns, urls, i)
		if err != nil {
			return err
		}
		replicas = append(replicas, r)
		left.addReplica(r)
	}
	if err := waitReady(ctx, replicas); err != nil {
		return err
	}

	announce(o, dir, replicas, urls)

	// Stay up until interrupted or until a replica or a started redis-server dies.
	dead := make(chan *replica, len(replicas))
	for _, r := range replicas {
		go func() { <-r.done; dead <- r }()
	}
	tick := time.NewTicker(500 * time.Millisecond)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			fmt.Fprintln(errOut, "sandbox: stopping")
			return nil
		case r := <-dead:
			return fmt.Errorf("replica %d (pid %d) exited (%v); stopped the sandbox", r.index, r.cmd.Process.Pid, exitText(r.err))
		case <-tick.C:
			for _, s := range servers {
				if !s.Alive() {
					return fmt.Errorf("redis-server %s (pid %d) exited; stopped the sandbox", s.Addr, s.Pid())
				}
			}
		}
	}
}

func exitText(err error) string {
	if err == nil {
		return "exit status 0"
	}
	return err.Error()
}

// prepareDir returns the absolute state directory, creating it (a new temp dir when dir is "").
func prepareDir(dir string) (string, error) {
	if dir == "" {
		d, err := os.MkdirTemp("", "osctl-sandbox-")
		if err != nil {
			return "", fmt.Errorf("creating a state directory: %v", err)
		}
		return d, nil
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", err
	}
	if err := os.MkdirAll(abs, 0o755); err != nil {
		return "", fmt.Errorf("--dir %s: %v", dir, err)
	}
	return abs, nil
}

// pingAll checks every given Redis master answers before replicas are started.
func pingAll(ctx context.Context, urls []string, fl cmdutil.RedisFlags) error {
	cfg := redisconn.Config{URLs: urls, CAFile: fl.CAFile}
	if fl.PasswordFile != "" {
		b, err := os.ReadFile(fl.PasswordFile)
		if err != nil {
			return fmt.Errorf("reading --redis-password-file: %v", err)
		}
		cfg.Password = strings.TrimRight(string(b), "\r\n")
	}
	ms, err := redisconn.Connect(cfg)
	if err != nil {
		return &cmdutil.UsageError{Err: err}
	}
	defer redisconn.Close(ms)
	for _, m := range ms {
		if err := redisconn.Ping(ctx, m); err != nil {
			return redisconn.Explain(m, err)
		}
	}
	return nil
}

// startReplica opens replica i's listening socket here (so its port is known and never raced
// for) and starts `osctl sandbox serve` on it, in its own process group.
func startReplica(o *UpOptions, exe, dir, ns string, urls []string, i int) (*replica, error) {
	port := 0
	if o.PortBase != 0 {
		port = o.PortBase + i
	}
	l, err := net.Listen("tcp", net.JoinHostPort("127.0.0.1", strconv.Itoa(port)))
	if err != nil {
		return nil, fmt.Errorf("replica %d: listening on 127.0.0.1:%d: %v", i, port, err)
	}
	lf, err := l.(*net.TCPListener).File()
	l.Close()
	if err != nil {
		return nil, err
	}
	defer lf.Close()
	args := []string{"sandbox", "serve", "--replica", strconv.Itoa(i), "--replicas", strconv.Itoa(o.Replicas), "--dir", dir, "--namespace", ns, "--listen-fd", "3"}
	args = append(args, o.Mode.args()...)
	if o.RedisFlags.CAFile != "" {
		args = append(args, "--redis-ca", o.RedisFlags.CAFile)
	}
	if o.RedisFlags.PasswordFile != "" {
		args = append(args, "--redis-password-file", o.RedisFlags.PasswordFile)
	}
	cmd := exec.Command(exe, args...)
	// Redis URLs (with passwords) go through the environment, not the process list.
	// A cluster or Sentinel in the caller's environment is not the sandbox's: blank them.
	cmd.Env = append(append(os.Environ(), "OSCTL_REDIS="+strings.Join(urls, ","), "OSCTL_REDIS_CLUSTER=", "OSCTL_REDIS_SENTINEL="), o.Mode.Jobs.env()...)
	cmd.ExtraFiles = []*os.File{lf}
	cmd.Stdout = o.IO.ErrOut
	cmd.Stderr = o.IO.ErrOut
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("starting replica %d: %v", i, err)
	}
	r := &replica{index: i, url: "http://" + l.Addr().String(), cmd: cmd, done: make(chan struct{})}
	go func() { r.err = cmd.Wait(); close(r.done) }()
	return r, nil
}

// waitReady polls every replica's GET /status until it answers 200 as the sandbox.
func waitReady(ctx context.Context, replicas []*replica) error {
	client := &http.Client{Timeout: time.Second}
	deadline := time.Now().Add(readyTimeout)
	for _, r := range replicas {
		for {
			select {
			case <-r.done:
				return fmt.Errorf("replica %d exited at start (%v); its messages are above", r.index, exitText(r.err))
			case <-ctx.Done():
				return ctx.Err()
			default:
			}
			if statusOK(ctx, client, r.url) {
				break
			}
			if time.Now().After(deadline) {
				return fmt.Errorf("replica %d at %s did not answer GET /status within %v", r.index, r.url, readyTimeout)
			}
			time.Sleep(25 * time.Millisecond)
		}
	}
	return nil
}

func statusOK(ctx context.Context, c *http.Client, base string) bool {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, base+"/status", nil)
	if err != nil {
		return false
	}
	resp, err := c.Do(req)
	if err != nil {
		return false
	}
	defer resp.Body.Close()
	var st struct {
		Sandbox bool `json:"sandbox"`
	}
	return resp.StatusCode == http.StatusOK && json.NewDecoder(resp.Body).Decode(&st) == nil && st.Sandbox
}

// stopReplicas sends SIGTERM to every live replica (by pid), waits up to stopGrace, then
// SIGKILLs what is left and waits for it.
func stopReplicas(replicas []*replica) {
	for _, r := range replicas {
		select {
		case <-r.done:
		default:
			_ = r.cmd.Process.Signal(syscall.SIGTERM)
		}
	}
	deadline := time.NewTimer(stopGrace)
	defer deadline.Stop()
	expired := false
	for _, r := range replicas {
		if !expired {
			select {
			case <-r.done:
				continue
			case <-deadline.C:
				expired = true
			}
		}
		select {
		case <-r.done:
		default:
			_ = r.cmd.Process.Kill()
			<-r.done
		}
	}
}

func randomHex(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

// announce prints what is up: a summary on stderr, and the JSON line (sandbox.UpResult) scripts
// read on stdout, flushed at once.
func announce(o *UpOptions, dir string, replicas []*replica, urls []string) {
	errOut := o.IO.ErrOut
	res := sandbox.UpResult{StateDir: dir, Locking: o.Mode.Locking, Queue: o.Mode.Queue, Pid: os.Getpid(), Replicas: []string{}, Redis: []string{}}
	for _, r := range replicas {
		res.Replicas = append(res.Replicas, r.url)
	}
	for _, u := range urls {
		res.Redis = append(res.Redis, redact.URL(u))
	}
	fmt.Fprintf(errOut, "sandbox: %d replica(s) up, locking %s, queue %s, max-active %d%s, %s, background workers poll every %v%s, state dir %s\n",
		len(replicas), o.Mode.Locking, o.Mode.Queue, o.Mode.MaxActive, o.Mode.ceilingNote(len(replicas)), o.Mode.Jobs.summary(), o.Mode.BackgroundInterval, o.Mode.faultNote(), dir)
	for _, r := range replicas {
		fmt.Fprintf(errOut, "  replica %d  %s  (pid %d)\n", r.index, r.url, r.cmd.Process.Pid)
	}
	for _, u := range res.Redis {
		fmt.Fprintf(errOut, "  redis      %s\n", u)
	}
	fmt.Fprintln(errOut, "sandbox: press Ctrl-C to stop")
	line, _ := json.Marshal(res)
	fmt.Fprintln(o.IO.Out, string(line))
	if s, ok := o.IO.Out.(interface{ Sync() error }); ok {
		_ = s.Sync()
	}
}
