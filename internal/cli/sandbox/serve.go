package sandbox

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"sync"
	"time"

	"github.com/spf13/cobra"

	"github.com/osctl/osctl/internal/cli/cmdutil"
	"github.com/osctl/osctl/pkg/redisconn"
	"github.com/osctl/osctl/pkg/sandbox"
)

// ServeOptions configure one replica (`osctl sandbox serve`, which `up` starts N times).
type ServeOptions struct {
	IO      *cmdutil.IOStreams
	Masters func(ctx context.Context) ([]redisconn.Master, func(), error)

	Mode      modeFlags
	Replica   int
	Replicas  int
	Dir       string
	Namespace string
	Listen    string
	ListenFD  int
	// Pod says this replica is a pod's web container: --listen may be any address of the pod's
	// own network namespace.
	Pod bool
}

// NewCmdServe returns the hidden `osctl sandbox serve`, which runs one replica in the foreground.
func NewCmdServe(f *cmdutil.Factory, runF func(context.Context, *ServeOptions) error) *cobra.Command {
	opts := &ServeOptions{IO: f.IO, Masters: f.RedisMasters}
	d := sandbox.DefaultConfig()
	cmd := modeCommand(&cobra.Command{
		Use:    "serve --dir DIR",
		Short:  "Run one sandbox replica (started by 'osctl sandbox up')",
		Hidden: true,
	}, opts, &opts.Mode, opts.validate, runF, serveRun)
	cmd.Flags().IntVar(&opts.Replica, "replica", d.Replica, "this replica's index (shown by GET /status)")
	cmd.Flags().IntVar(&opts.Replicas, "replicas", d.Replicas, "how many replicas the sandbox runs (--queue split divides --max-active by it)")
	cmd.Flags().StringVar(&opts.Dir, "dir", d.StateDir, "shared state directory")
	cmd.Flags().StringVar(&opts.Namespace, "namespace", d.Namespace, "Redis key namespace of this sandbox run")
	cmd.Flags().StringVar(&opts.Listen, "listen", "127.0.0.1:0", "loopback address to listen on")
	cmd.Flags().IntVar(&opts.ListenFD, "listen-fd", 0, "serve on this inherited listening socket instead of --listen")
	cmd.Flags().BoolVar(&opts.Pod, "pod", false, "run as a pod's web container (a web tier on Kubernetes): --listen may be any address of the pod's own network namespace, such as :8080, for its Service and readiness probe; locks are held as $POD_NAME (refused outside a pod: no $KUBERNETES_SERVICE_HOST)")
	return cmd
}

// loopbackAddr accepts host:port on 127.0.0.0/8, ::1 or localhost only.
func loopbackAddr(addr string) error {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return cmdutil.Usage("--listen %q: use 127.0.0.1:PORT", addr)
	}
	if host == "localhost" {
		return nil
	}
	if ip := net.ParseIP(host); ip == nil || !ip.IsLoopback() {
		return cmdutil.Usage("--listen %q: the sandbox listens on loopback only (127.0.0.0/8 or ::1)", addr)
	}
	return nil
}

// validate checks the flags and arguments; it does no I/O.
func (o *ServeOptions) validate() error {
	if err := o.Mode.validate(); err != nil {
		return err
	}
	if o.Replicas < 1 || o.Replicas > maxReplicas || o.Replica < 0 || o.Replica >= o.Replicas {
		return cmdutil.Usage("--replica %d of --replicas %d: use a count of 1 to %d and an index below it", o.Replica, o.Replicas, maxReplicas)
	}
	if o.Dir == "" {
		return cmdutil.Usage("--dir is required: the shared state directory")
	}
	if o.Pod && os.Getenv("KUBERNETES_SERVICE_HOST") == "" {
		return cmdutil.Usage("--pod: this is not a pod (no $KUBERNETES_SERVICE_HOST): outside a pod the sandbox listens on loopback only")
	}
	if o.ListenFD == 0 && !o.Pod {
		if err := loopbackAddr(o.Listen); err != nil {
			return err
		}
	}
	return nil
}

func serveRun(ctx context.Context, o *ServeOptions) error {
	logger := &lineLogger{w: o.IO.ErrOut, prefix: fmt.Sprintf("replica %d: ", o.Replica)}
	cfg := o.Mode.config()
	cfg.StateDir, cfg.Replica, cfg.Replicas, cfg.Namespace, cfg.Logf = o.Dir, o.Replica, o.Replicas, o.Namespace, logger.printf
	cfg.Host = fmt.Sprintf("%s-sandbox-%d", hostName(), o.Replica)
	if o.Pod {
		// A pod's holder value names the pod, so that locks inspect can tell when it is gone.
		cfg.Host = cmp.Or(os.Getenv("POD_NAME"), hostName())
	}
	// Every mode needs Redis: the background worker takes its jobs from it.
	ms, closeMasters, err := o.Masters(ctx)
	if err != nil {
		return err
	}
	defer closeMasters()
	for _, m := range ms {
		if err := redisconn.Ping(ctx, m); err != nil {
			return err
		}
	}
	cfg.Masters = redisconn.Clients(ms)
	srvCtx, stopSrv := context.WithCancel(context.WithoutCancel(ctx))
	defer stopSrv()
	srv, err := sandbox.New(srvCtx, cfg)
	if err != nil {
		return err
	}
	var l net.Listener
	if o.ListenFD > 0 {
		f := os.NewFile(uintptr(o.ListenFD), "listener")
		l, err = net.FileListener(f)
		f.Close()
	} else {
		l, err = net.Listen("tcp", o.Listen)
	}
	if err != nil {
		return fmt.Errorf("listening: %v", err)
	}
	hs := &http.Server{Handler: srv.Handler(), ReadHeaderTimeout: 10 * time.Second}
	served := make(chan error, 1)
	go func() { served <- hs.Serve(l) }()
	logger.printf("serving http://%s (pid %d, locking %s, queue %s, background worker every %v)", l.Addr(), os.Getpid(), cfg.Locking, cfg.Queue, cfg.BackgroundInterval)
	select {
	case <-ctx.Done():
	case err := <-served:
		return fmt.Errorf("serving: %v", err)
	}
	sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
	defer cancel()
	_ = hs.Shutdown(sctx)
	stopSrv()
	if err := <-served; err != nil && !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

func hostName() string {
	h, err := os.Hostname()
	if err != nil || h == "" {
		return "localhost"
	}
	return h
}

// lineLogger writes one prefixed line per event, safe for concurrent use.
type lineLogger struct {
	mu     sync.Mutex
	w      io.Writer
	prefix string
}

func (l *lineLogger) printf(format string, a ...any) {
	l.mu.Lock()
	defer l.mu.Unlock()
	fmt.Fprintf(l.w, l.prefix+format+"\n", a...)
}
