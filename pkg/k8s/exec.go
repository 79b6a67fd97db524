package k8s

import (
	"context"
	"fmt"
	"io"
	"strings"
	"sync"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/client-go/kubernetes/scheme"
	"k8s.io/client-go/tools/remotecommand"
	"k8s.io/streaming/pkg/httpstream"
)

// Proc is a command running in a pod's container through exec (through the API server, so it
// works from behind NAT), with its stdin and stdout as streams.
type Proc struct {
	stdinR  *io.PipeReader
	stdinW  *io.PipeWriter
	stdoutR *io.PipeReader
	stdoutW *io.PipeWriter
	stderr  tailBuffer
	cancel  context.CancelFunc
	done    chan struct{}
	err     error
}

// Exec starts cmd in container (empty: the pod's DefaultContainer) of pod ns/name. The command
// runs until it exits, ctx ends or Close is called; Done is then closed and Err says how it ended.
func Exec(ctx context.Context, c *Clients, ns, name, container string, cmd []string) (*Proc, error) {
	container, err := ContainerFor(ctx, c.Clientset, ns, name, container)
	if err != nil {
		return nil, err
	}
	ex, err := Executor(c, ns, name, &corev1.PodExecOptions{Container: container, Command: cmd, Stdin: true, Stdout: true, Stderr: true})
	if err != nil {
		return nil, fmt.Errorf("exec in pod %s/%s: %v", ns, name, err)
	}
	ctx, cancel := context.WithCancel(ctx)
	p := &Proc{cancel: cancel, done: make(chan struct{})}
	p.stdinR, p.stdinW = io.Pipe()
	p.stdoutR, p.stdoutW = io.Pipe()
	go func() {
		err := ex.StreamWithContext(ctx, remotecommand.StreamOptions{Stdin: p.stdinR, Stdout: p.stdoutW, Stderr: &p.stderr})
		if err != nil {
			err = fmt.Errorf("exec in pod %s/%s: %v", ns, name, err)
		}
		p.err = err
		_ = p.stdoutW.CloseWithError(io.EOF)
		// Writes fail from now on; the stream's stdin copy, if still reading, ends at EOF.
		_ = p.stdinW.Close()
		close(p.done)
	}()
	return p, nil
}

// Stdin is the command's standard input.
func (p *Proc) Stdin() io.Writer { return p.stdinW }

// Stdout is the command's standard output.
func (p *Proc) Stdout() io.Reader { return p.stdoutR }

// Done is closed when the command has ended.
func (p *Proc) Done() <-chan struct{} { return p.done }

// Err says how the command ended (after Done): nil for exit 0.
func (p *Proc) Err() error {
	select {
	case <-p.done:
		return p.err
	default:
		return nil
	}
}

// Stderr is the last few kilobytes the command wrote to its standard error.
func (p *Proc) Stderr() string { return p.stderr.String() }

// Close ends the exec stream (and so the command, where the runtime ends it with its stream).
func (p *Proc) Close() {
	p.cancel()
	_ = p.stdinW.Close()
	select {
	case <-p.done:
	case <-time.After(10 * time.Second):
	}
}

// tailBuffer keeps the last 8 KiB written to it.
type tailBuffer struct {
	mu sync.Mutex
	b  []byte
}

func (t *tailBuffer) Write(b []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.b = append(t.b, b...)
	if len(t.b) > 8<<10 {
		t.b = append([]byte(nil), t.b[len(t.b)-8<<10:]...)
	}
	return len(b), nil
}

func (t *tailBuffer) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return strings.ToValidUTF8(string(t.b), "?")
}

// Executor is an exec of opts in pod ns/name through the API server: WebSocket first, falling
// back to SPDY when the server or a proxy refuses the upgrade, as kubectl does.
func Executor(c *Clients, ns, name string, opts *corev1.PodExecOptions) (remotecommand.Executor, error) {
	req := c.Clientset.CoreV1().RESTClient().Post().Resource("pods").Namespace(ns).Name(name).SubResource("exec").
		VersionedParams(opts, scheme.ParameterCodec)
	ws, err := remotecommand.NewWebSocketExecutor(c.REST, "GET", req.URL().String())
	if err != nil {
		return nil, err
	}
	spdy, err := remotecommand.NewSPDYExecutor(c.REST, "POST", req.URL())
	if err != nil {
		return nil, err
	}
	return remotecommand.NewFallbackExecutor(ws, spdy, func(err error) bool {
		return httpstream.IsUpgradeFailure(err) || httpstream.IsHTTPSProxyError(err)
	})
}
