// Package elbenv runs the real elb-openapi (third_party/elb-openapi-352a1f4, unmodified) as N
// uvicorn processes on loopback, under Debian 12's /usr/bin/python3 with python3-fastapi 0.92,
// python3-uvicorn 0.17.6 and python3-pydantic 1.10 (scripts/test-deps.sh installs them). Only the
// four programs it shells out to are faked (elbfake: kubectl, azcopy, az, elastic-blast), and
// the replicas share the fakes' state directory as they would share one namespace and one
// storage account. The queue, the ceiling, the dispatcher and the watchdog are upstream's code.
//
// Start is the test harness; Up is the same for a person (`make elb-openapi`,
// internal/testenv/elbenv/cmd/elb-openapi, docs/migration/jobs.md).
package elbenv

import (
	"context"
	"errors"
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

	"github.com/osctl/osctl/pkg/elbopenapi"
	"github.com/osctl/osctl/pkg/proc"
)

// Python is the interpreter the service runs under: Debian's, whose dist-packages hold the
// FastAPI stack (another python3 on PATH, such as pyenv's, has none of it).
const Python = "/usr/bin/python3"

// AppDir is the vendored service, relative to the module root.
const AppDir = "third_party/elb-openapi-352a1f4/app"

// KeepAlive is the uvicorn keep-alive the replicas run with, in place of the Dockerfile's
// default 5 s: uvicorn 0.17.6 closes a kept-alive connection as its timer fires even when a
// request has just arrived on it (encode/uvicorn#1637), so a burst of submits over kept-alive
// connections gets "unexpected EOF" for some of them (22 of 120 here with the default).
const KeepAlive = 120 * time.Second

// DB is the database the fakes' storage account holds (the jobs profile's default).
const DB = "16S_ribosomal_RNA"

// Options configure one service.
type Options struct {
	// Replicas is how many uvicorn processes to run (default 1).
	Replicas int
	// MaxActive is ELB_OPENAPI_MAX_ACTIVE_SUBMISSIONS, per process (default 1).
	MaxActive int
	// Token is ELB_OPENAPI_API_TOKEN; empty runs with ELB_OPENAPI_ALLOW_UNAUTHENTICATED=1.
	Token string
	// Latency is how long every call of a faked program takes (a network round trip).
	Latency time.Duration
	// JobDuration is how long an elastic-blast run stays active (default 1s).
	JobDuration time.Duration
	// FirstUploadStall is added to the first upload to the storage account: the first submit's
	// query upload stalls, its replay's does not (ELB_FAKE_FIRST_UPLOAD_STALL).
	FirstUploadStall time.Duration
	// DispatchInterval is ELB_OPENAPI_DISPATCH_INTERVAL_SECONDS (whole seconds, at least 1;
	// default upstream's 5s). WatchdogInterval is ELB_OPENAPI_WATCHDOG_INTERVAL_SECONDS (at
	// least 5s; default upstream's 60s).
	DispatchInterval, WatchdogInterval time.Duration
	// Dir holds the fakes' state, their binaries and each replica's log; it must exist.
	Dir string
	// Root is the osctl module root (default: found with `go env GOMOD`).
	Root string
}

// Service is a running elb-openapi.
type Service struct {
	// Replicas are the replicas' base URLs, in order.
	Replicas []string
	// StateDir is the fakes' state: configmaps/, blobs/, runs/ and calls.log.
	StateDir string
	// Logs are the replicas' stdout and stderr files.
	Logs  []string
	procs []*proc.Group
}

// Up builds the fakes, seeds what a working cluster has, and starts the replicas; it returns
// once every replica answers GET /healthz. Close stops them.
func Up(ctx context.Context, o Options) (*Service, error) {
	o = o.withDefaults()
	if err := o.check(); err != nil {
		return nil, err
	}
	bin, err := buildFakes(ctx, o.Root, filepath.Join(o.Dir, "bin"))
	if err != nil {
		return nil, err
	}
	s := &Service{StateDir: filepath.Join(o.Dir, "state")}
	if err := Seed(s.StateDir); err != nil {
		return nil, err
	}
	for i := range o.Replicas {
		if err := s.startReplica(o, bin, i); err != nil {
			s.Close()
			return nil, err
		}
	}
	if err := s.waitHealthy(ctx, 60*time.Second); err != nil {
		s.Close()
		return nil, err
	}
	return s, nil
}

func (o Options) withDefaults() Options {
	if o.Replicas == 0 {
		o.Replicas = 1
	}
	if o.MaxActive == 0 {
		o.MaxActive = 1
	}
	if o.JobDuration == 0 {
		o.JobDuration = time.Second
	}
	if o.DispatchInterval == 0 {
		o.DispatchInterval = elbopenapi.DefaultDispatchInterval
	}
	if o.WatchdogInterval == 0 {
		o.WatchdogInterval = 60 * time.Second
	}
	return o
}

func (o *Options) check() error {
	switch {
	case o.Replicas < 1 || o.Replicas > 16:
		return fmt.Errorf("replicas %d: use 1 to 16", o.Replicas)
	case o.MaxActive < 1:
		return fmt.Errorf("max active %d: use 1 or more", o.MaxActive)
	case o.DispatchInterval < time.Second || o.DispatchInterval%time.Second != 0:
		return fmt.Errorf("dispatch interval %v: the service takes whole seconds, at least 1s", o.DispatchInterval)
	case o.WatchdogInterval < 5*time.Second || o.WatchdogInterval%time.Second != 0:
		return fmt.Errorf("watchdog interval %v: the service takes whole seconds, at least 5s", o.WatchdogInterval)
	case o.Dir == "":
		return errors.New("no directory for the state and logs")
	}
	if o.Root == "" {
		out, err := exec.Command("go", "env", "GOMOD").Output()
		if err != nil || strings.TrimSpace(string(out)) == "" {
			return fmt.Errorf("finding the osctl module (go env GOMOD): %v", err)
		}
		o.Root = filepath.Dir(strings.TrimSpace(string(out)))
	}
	if _, err := os.Stat(filepath.Join(o.Root, AppDir, "main.py")); err != nil {
		return fmt.Errorf("the vendored elb-openapi is missing (%v): run this from a checkout of osctl", err)
	}
	probe := exec.Command(Python, "-c", "import fastapi, uvicorn, pydantic, starlette, requests")
	if out, err := probe.CombinedOutput(); err != nil {
		return fmt.Errorf("%s cannot import the FastAPI stack (%v: %s): run scripts/test-deps.sh, which installs Debian's python3-fastapi, python3-uvicorn and python3-pydantic",
			Python, err, strings.TrimSpace(string(out)))
	}
	return nil
}

// buildFakes builds elbfake into dir and links it there as kubectl, azcopy, az and elastic-blast.
func buildFakes(ctx context.Context, root, dir string) (string, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	cmd := exec.CommandContext(ctx, "go", "build", "-o", filepath.Join(dir, "elbfake"), "./internal/testenv/elbenv/elbfake")
	cmd.Dir = root
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("building elbfake: %v: %s", err, out)
	}
	for _, name := range []string{"kubectl", "azcopy", "az", "elastic-blast"} {
		link := filepath.Join(dir, name)
		_ = os.Remove(link)
		if err := os.Symlink("elbfake", link); err != nil {
			return "", err
		}
	}
	return dir, nil
}

// env is a replica's environment: only what the service and the fakes need (no credentials of
// this machine, a PATH whose kubectl, azcopy, az and elastic-blast are the fakes).
func (o Options) env(bin, state string) []string {
	e := []string{
		"PATH=" + bin + ":/usr/bin:/bin",
		"HOME=" + state,
		"LANG=C.UTF-8",
		"PYTHONDONTWRITEBYTECODE=1", // no __pycache__ in the vendored tree
		"ELB_FAKE_STATE=" + state,
		"ELB_FAKE_LATENCY=" + o.Latency.String(),
		"ELB_FAKE_RUN=" + o.JobDuration.String(),
		"ELB_FAKE_FIRST_UPLOAD_STALL=" + o.FirstUploadStall.String(),
		"ELB_OPENAPI_MAX_ACTIVE_SUBMISSIONS=" + strconv.Itoa(o.MaxActive),
		"ELB_OPENAPI_DISPATCH_INTERVAL_SECONDS=" + strconv.Itoa(int(o.DispatchInterval/time.Second)),
		"ELB_OPENAPI_WATCHDOG_INTERVAL_SECONDS=" + strconv.Itoa(int(o.WatchdogInterval/time.Second)),
		"ELB_OPENAPI_DISABLE_WARMUP=1", // the database warmup calls Azure's REST API directly
		"AZCOPY_AUTO_LOGIN_TYPE=AZCLI", // the Dockerfile's WORKLOAD needs Workload Identity
		"ELB_STORAGE_ACCOUNT=stgelb",   // upstream's default, named here so that Seed agrees
		"ELB_OPENAPI_ETA_ENABLED=",     // off, as upstream's default (its samples go to Azure Tables)
	}
	if o.Token != "" {
		return append(e, "ELB_OPENAPI_API_TOKEN="+o.Token)
	}
	return append(e, "ELB_OPENAPI_ALLOW_UNAUTHENTICATED=1")
}

func (s *Service) startReplica(o Options, bin string, i int) error {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	f, err := ln.(*net.TCPListener).File()
	ln.Close() // the child holds the socket through f
	if err != nil {
		return err
	}
	defer f.Close()
	logPath := filepath.Join(o.Dir, fmt.Sprintf("replica-%d.log", i))
	logf, err := os.Create(logPath)
	if err != nil {
		return err
	}
	defer logf.Close()
	// --fd 3: the socket bound above, so that no other process can take the port in between.
	cmd := exec.Command(Python, "-m", "uvicorn", "--app-dir", filepath.Join(o.Root, AppDir), "--fd", "3",
		"--timeout-keep-alive", strconv.Itoa(int(KeepAlive/time.Second)), "--no-access-log", "main:app")
	cmd.Dir = s.StateDir
	cmd.Env = o.env(bin, s.StateDir)
	cmd.ExtraFiles = []*os.File{f}
	cmd.Stdout, cmd.Stderr = logf, logf
	// Its own process group (Close signals it and the fake calls it has running), ended with the
	// test binary.
	g, err := proc.Start(cmd, syscall.SIGKILL)
	if err != nil {
		return fmt.Errorf("starting replica %d: %v", i, err)
	}
	s.procs, s.Logs = append(s.procs, g), append(s.Logs, logPath)
	s.Replicas = append(s.Replicas, "http://"+ln.Addr().String())
	return nil
}

func (s *Service) waitHealthy(ctx context.Context, timeout time.Duration) error {
	deadline := time.Now().Add(timeout)
	c := &http.Client{Timeout: 2 * time.Second}
	for i, u := range s.Replicas {
		for {
			select {
			case <-s.procs[i].Done():
				b, _ := os.ReadFile(s.Logs[i])
				return fmt.Errorf("replica %d exited before it answered /healthz:\n%s", i, b)
			default:
			}
			req, _ := http.NewRequestWithContext(ctx, http.MethodGet, u+"/healthz", nil)
			if resp, err := c.Do(req); err == nil {
				resp.Body.Close()
				if resp.StatusCode == http.StatusOK {
					break
				}
			}
			if time.Now().After(deadline) || ctx.Err() != nil {
				b, _ := os.ReadFile(s.Logs[i])
				return fmt.Errorf("replica %d did not answer /healthz within %v:\n%s", i, timeout, b)
			}
			time.Sleep(50 * time.Millisecond)
		}
	}
	return nil
}

// Close stops every replica: SIGTERM to its process group (uvicorn's own and the fake calls it
// runs), then SIGKILL after 5 s; then the fake calls that outlived it, which elb-openapi starts
// in sessions of their own (util.run_cancellable's start_new_session) and so the group's signal
// misses, the same way; then it removes the job directories they left under /tmp (JobTmpDirs).
// It waits for them all, so that nothing writes to StateDir once it returns, and is safe to call
// more than once.
func (s *Service) Close() {
	defer JobTmpDirs(s.StateDir)
	var calls []int
	for _, g := range s.procs {
		if !g.Exited() {
			kids, _ := proc.Children(g.Pid())
			calls = append(calls, kids...)
		}
		g.Stop(5 * time.Second)
	}
	endStrays(calls, 5*time.Second)
}

// endStrays sends SIGTERM to the process group of each pid still alive (a session leader's is
// its own; to the process alone when it leads none), then SIGKILL after grace, and waits until they are gone (init reaps them).
func endStrays(pids []int, grace time.Duration) {
	for _, sig := range []syscall.Signal{syscall.SIGTERM, syscall.SIGKILL} {
		deadline := time.Now().Add(grace)
		left := pids[:0]
		for _, p := range pids {
			if proc.Alive(p) {
				if syscall.Kill(-p, sig) != nil {
					_ = syscall.Kill(p, sig)
				}
				left = append(left, p)
			}
		}
		for pids = left; len(pids) > 0 && time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
			if !proc.Alive(pids[0]) {
				pids = pids[1:]
			}
		}
		if len(pids) == 0 {
			return
		}
	}
}
