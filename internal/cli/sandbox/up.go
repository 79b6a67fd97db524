package sandbox

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
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
	Restart      bool
}

// NewCmdUp returns `osctl sandbox up`.
func NewCmdUp(f *cmdutil.Factory, runF func(context.Context, *UpOptions) error) *cobra.Command {
	opts := &UpOptions{IO: f.IO, Interrupts: f.Interrupts, RedisURLs: f.RedisURLs, Executable: os.Executable}
	cmd := modeCommand(&cobra.Command{
		Use:   "up",
		Short: "Start N sandbox replicas over one state directory (and Redis), in the foreground",
		Long: `Start N sandbox replicas as separate processes on loopback ports, sharing one state directory
(server/ laid out like /mnt/openstudio; records under db/), and Redis masters: the --redis
URLs if given, else --redis-masters redis-server processes on free ports. Every mode needs
Redis: each replica's background worker takes InitializeAnalysis jobs from its Resque queues
there (--locking redlock and redlock-nofence lock on every master, --queue shared keeps its
jobs on the first).
When every replica answers GET /status, up prints one
JSON line on stdout for scripts (replica URLs, state dir, Redis URLs with passwords redacted,
modes, its pid) and stays in the foreground. Ctrl-C or SIGTERM stops every replica and
redis-server it started; the state directory is kept. A replica that dies is started again on
the same port, and a redis-server it started on the same port without its data, as a
Deployment would (five deaths of one process within a minute stop the sandbox); up says so and
rewrites sandbox-processes.json in the state directory, which names every process for
'osctl stress --nemesis'. With --restart=false, a death stops the rest and up exits 2.`,
		Example: `  # the real app's behaviour on three replicas: races appear under load
  osctl sandbox up --replicas 3

  # the fixed app: Redlock around each critical section, jobs admitted through Redis
  osctl sandbox up --replicas 3 --locking redlock --queue shared --dir /tmp/os-state

  # redlock-rb alone (no renewal, no fencing, writes in place): clean until a holder stalls
  # past the TTL (osctl stress --nemesis pause-replica@2s+4s finds its late write; see
  # docs/lock-fencing.md)
  osctl sandbox up --replicas 3 --locking redlock-nofence --lock-ttl 2s --dir /tmp/os-state

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
	}, opts, &opts.Mode, func() error {
		opts.RedisFlags = f.Redis
		return opts.validate()
	}, runF, upRun)
	d := sandbox.DefaultSupervisorConfig()
	cmd.Flags().IntVar(&opts.Replicas, "replicas", d.Replicas, "number of replicas (separate processes)")
	cmd.Flags().IntVar(&opts.RedisMasters, "redis-masters", d.RedisMasters, "redis-server processes to start when no --redis URL is given")
	cmd.Flags().StringVar(&opts.Dir, "dir", d.Dir, "shared state directory (default a new temporary directory, printed)")
	cmd.Flags().IntVar(&opts.PortBase, "port-base", d.PortBase, "first replica's port; replica i listens on port-base+i (0: free ports)")
	cmd.Flags().BoolVar(&opts.Restart, "restart", d.Restart, "start a replica or redis-server that dies again on the same port, as a Deployment would (false: stop the sandbox and exit 2)")
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

func upRun(ctx context.Context, o *UpOptions) error {
	errOut := o.IO.ErrOut
	dir, err := prepareDir(o.Dir)
	if err != nil {
		return err
	}
	exe, err := o.Executable()
	if err != nil {
		return fmt.Errorf("finding the osctl executable to run replicas: %v", err)
	}
	// Redis: given (and checked here), or started by the supervisor.
	urls := o.RedisURLs()
	if len(urls) > 0 {
		if err := pingAll(ctx, urls, o.RedisFlags); err != nil {
			return err
		}
	}
	sup := sandbox.NewSupervisor(sandbox.SupervisorConfig{
		Replicas: o.Replicas, Dir: dir, PortBase: o.PortBase, RedisURLs: urls, RedisMasters: o.RedisMasters, Restart: o.Restart,
		Locking: o.Mode.Locking, LockTTL: o.Mode.LockTTL,
		Command: o.replicaCommand(exe),
		Logf:    func(format string, a ...any) { fmt.Fprintf(errOut, "sandbox: "+format+"\n", a...) },
	})
	defer o.Interrupts.SetUndone(func() string { return undone(sup) })()
	if err := sup.Start(ctx); err != nil {
		return explainStart(err)
	}
	defer sup.Stop()
	announce(o, sup)
	// Stay up until interrupted, or until a process dies (without --restart) or crash-loops.
	select {
	case <-ctx.Done():
		fmt.Fprintln(errOut, "sandbox: stopping")
		return nil
	case <-sup.Done():
		return fmt.Errorf("%v; stopped the sandbox", sup.Wait())
	}
}

// explainStart adds to a failed start what the user can do about it.
func explainStart(err error) error {
	var exit *sandbox.ExitError
	switch {
	case errors.Is(err, redisproc.ErrNotInstalled):
		return fmt.Errorf("%v; or pass --redis URL", err)
	case errors.As(err, &exit) && exit.AtStart:
		return fmt.Errorf("%v; its messages are above", err)
	}
	return err
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

// replicaCommand returns how the supervisor runs replica i: `osctl sandbox serve` on the
// listening socket it inherits, with the mode flags and the Redis URLs (with their passwords)
// in its environment, not in the process list.
func (o *UpOptions) replicaCommand(exe string) func(sandbox.ReplicaSpec) *exec.Cmd {
	return func(r sandbox.ReplicaSpec) *exec.Cmd {
		args := []string{"sandbox", "serve", "--replica", strconv.Itoa(r.Index), "--replicas", strconv.Itoa(r.Replicas),
			"--dir", r.Dir, "--namespace", r.Namespace, "--listen-fd", strconv.Itoa(r.ListenFD)}
		args = append(args, o.Mode.args()...)
		if o.RedisFlags.CAFile != "" {
			args = append(args, "--redis-ca", o.RedisFlags.CAFile)
		}
		if o.RedisFlags.PasswordFile != "" {
			args = append(args, "--redis-password-file", o.RedisFlags.PasswordFile)
		}
		cmd := exec.Command(exe, args...)
		// A cluster or Sentinel in the caller's environment is not the sandbox's: blank them.
		cmd.Env = append(append(os.Environ(), "OSCTL_REDIS="+strings.Join(r.RedisURLs, ","), "OSCTL_REDIS_CLUSTER=", "OSCTL_REDIS_SENTINEL="), jobEnv(o.Mode.Jobs)...)
		cmd.Stdout = o.IO.ErrOut
		cmd.Stderr = o.IO.ErrOut
		return cmd
	}
}

// announce prints what is up: a summary on stderr, and the JSON line (sandbox.UpResult) scripts
// read on stdout, flushed at once.
func announce(o *UpOptions, sup *sandbox.Supervisor) {
	errOut := o.IO.ErrOut
	replicas := sup.Replicas()
	res := sandbox.UpResult{StateDir: sup.Dir(), Locking: string(o.Mode.Locking), Queue: string(o.Mode.Queue), Pid: os.Getpid(), Replicas: []string{}, Redis: []string{}}
	for _, r := range replicas {
		res.Replicas = append(res.Replicas, r.Addr)
	}
	for _, u := range sup.RedisURLs() {
		res.Redis = append(res.Redis, redact.URL(u))
	}
	fmt.Fprintf(errOut, "sandbox: %d replica(s) up, locking %s, queue %s, max-active %d%s, %s, background workers poll every %v%s, state dir %s\n",
		len(replicas), o.Mode.Locking, o.Mode.Queue, o.Mode.MaxActive, o.Mode.ceilingNote(len(replicas)), jobSummary(o.Mode.Jobs), o.Mode.BackgroundInterval, o.Mode.faultNote(), sup.Dir())
	for _, r := range replicas {
		fmt.Fprintf(errOut, "  replica %d  %s  (pid %d)\n", r.Index, r.Addr, r.Pid)
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
