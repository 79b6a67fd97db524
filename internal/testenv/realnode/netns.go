//go:build linux

package realnode

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"runtime"
	"sync"
	"time"

	"golang.org/x/sys/unix"
)

// inNetns runs f on an OS thread that has joined the network namespace nsPath (a
// /proc/PID/ns/net): a socket that f creates stays in that namespace. The thread goes back to
// this process's namespace afterwards; if it cannot, it stays locked and ends with the goroutine.
func inNetns(nsPath string, f func() error) error {
	target, err := os.Open(nsPath)
	if err != nil {
		return err
	}
	defer target.Close()
	runtime.LockOSThread()
	orig, err := os.Open(fmt.Sprintf("/proc/self/task/%d/ns/net", unix.Gettid()))
	if err != nil {
		runtime.UnlockOSThread()
		return err
	}
	defer orig.Close()
	if err := unix.Setns(int(target.Fd()), unix.CLONE_NEWNET); err != nil {
		runtime.UnlockOSThread()
		return fmt.Errorf("entering network namespace %s: %w", nsPath, err)
	}
	ferr := f()
	if err := unix.Setns(int(orig.Fd()), unix.CLONE_NEWNET); err != nil {
		return fmt.Errorf("leaving network namespace %s: %w", nsPath, err)
	}
	runtime.UnlockOSThread()
	return ferr
}

// relay copies between a and b until either side ends, then closes both.
func relay(a, b net.Conn) {
	var once sync.Once
	done := func() { once.Do(func() { a.Close(); b.Close() }) }
	go func() { _, _ = io.Copy(a, b); done() }()
	_, _ = io.Copy(b, a)
	done()
}

// apiForward listens on addr inside the nodes' network namespace and relays each connection to
// the apiserver on this machine's loopback (target): how the kubelets, kube-proxy and pods (through
// the kubernetes Service) reach it.
type apiForward struct {
	ln     net.Listener
	target string
	wg     sync.WaitGroup
}

func startAPIForward(nsPath, addr, target string) (*apiForward, error) {
	f := &apiForward{target: target}
	err := inNetns(nsPath, func() error {
		var err error
		f.ln, err = net.Listen("tcp", addr)
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("listening on %s in the nodes' network namespace: %w", addr, err)
	}
	f.wg.Add(1)
	go func() {
		defer f.wg.Done()
		for {
			c, err := f.ln.Accept()
			if err != nil {
				return
			}
			go func() {
				up, err := net.DialTimeout("tcp", f.target, 10*time.Second)
				if err != nil {
					c.Close()
					return
				}
				relay(c, up)
			}()
		}
	}()
	return f, nil
}

func (f *apiForward) Close() {
	f.ln.Close()
	f.wg.Wait()
}

// egressProxy is the apiserver's way into the nodes' network namespace (its egress selector's
// "cluster" traffic: exec, logs, port-forward, proxy to kubelets and pods): an HTTP CONNECT proxy
// on a Unix socket that dials the target from inside the namespace.
type egressProxy struct {
	ln     net.Listener
	nsPath string
	srv    *http.Server
}

func startEgressProxy(nsPath, socket string) (*egressProxy, error) {
	ln, err := net.Listen("unix", socket)
	if err != nil {
		return nil, err
	}
	p := &egressProxy{ln: ln, nsPath: nsPath}
	p.srv = &http.Server{Handler: http.HandlerFunc(p.connect), ReadHeaderTimeout: 10 * time.Second}
	go func() { _ = p.srv.Serve(ln) }()
	return p, nil
}

func (p *egressProxy) connect(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodConnect {
		http.Error(w, "CONNECT only", http.StatusMethodNotAllowed)
		return
	}
	var up net.Conn
	err := inNetns(p.nsPath, func() error {
		var err error
		up, err = (&net.Dialer{Timeout: 10 * time.Second}).DialContext(context.Background(), "tcp", r.Host)
		return err
	})
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadGateway)
		return
	}
	hj, ok := w.(http.Hijacker)
	if !ok {
		up.Close()
		http.Error(w, "no hijack", http.StatusInternalServerError)
		return
	}
	c, buf, err := hj.Hijack()
	if err != nil {
		up.Close()
		return
	}
	if _, err := io.WriteString(c, "HTTP/1.1 200 Connection established\r\n\r\n"); err != nil {
		c.Close()
		up.Close()
		return
	}
	relay(&bufferedConn{Conn: c, r: buf.Reader}, up)
}

func (p *egressProxy) Close() {
	_ = p.srv.Close()
	_ = os.Remove(p.ln.Addr().String())
}

// bufferedConn reads what the HTTP server had buffered before the connection was hijacked.
type bufferedConn struct {
	net.Conn
	r *bufio.Reader
}

func (c *bufferedConn) Read(b []byte) (int, error) { return c.r.Read(b) }
