//go:build linux

package realnode

import (
	"bufio"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/osctl/osctl/internal/testenv"
	"github.com/osctl/osctl/pkg/proc"
)

// echoServer answers each line with "NAME: line".
func echoServer(t *testing.T, ln net.Listener, name string) {
	t.Cleanup(func() { ln.Close() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go func() {
				defer c.Close()
				sc := bufio.NewScanner(c)
				for sc.Scan() {
					fmt.Fprintf(c, "%s: %s\n", name, sc.Text())
				}
			}()
		}
	}()
}

func ask(t *testing.T, c net.Conn, line string) string {
	t.Helper()
	_ = c.SetDeadline(time.Now().Add(10 * time.Second))
	fmt.Fprintln(c, line)
	got, err := bufio.NewReader(c).ReadString('\n')
	if err != nil {
		t.Fatalf("reading the answer to %q: %v", line, err)
	}
	return strings.TrimSpace(got)
}

// TestRelaysCrossTheNetworkNamespace: a listener made inside a network namespace is not on this
// machine's loopback; the egress proxy's CONNECT reaches it from here, and the API relay inside
// the namespace reaches a server on this machine's loopback.
func TestRelaysCrossTheNetworkNamespace(t *testing.T) {
	if os.Geteuid() != 0 {
		testenv.Require(t, false, "root (network namespaces)")
	}
	g, err := proc.Start(exec.Command("unshare", "--net", "--", "sleep", "infinity"), syscall.SIGKILL)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(g.Kill)
	host := nsInode(os.Getpid(), "net")
	testenv.Eventually(t, 10*time.Second, "the namespace's holder", func() bool { i := nsInode(g.Pid(), "net"); return i != 0 && i != host })
	ns := fmt.Sprintf("/proc/%d/ns/net", g.Pid())
	if out, err := exec.Command("nsenter", "--target", fmt.Sprint(g.Pid()), "--net", "--", "ip", "link", "set", "lo", "up").CombinedOutput(); err != nil {
		t.Fatalf("lo up: %v %s", err, out)
	}
	var inner net.Listener
	if err := inNetns(ns, func() (err error) { inner, err = net.Listen("tcp", "127.0.0.1:0"); return err }); err != nil {
		t.Fatal(err)
	}
	echoServer(t, inner, "inside")
	if nsInode(os.Getpid(), "net") != host {
		t.Fatal("this process's network namespace changed")
	}
	if c, err := net.DialTimeout("tcp", inner.Addr().String(), time.Second); err == nil {
		c.Close()
		t.Skipf("something on this machine's loopback listens on %s too", inner.Addr())
	}
	sock := t.TempDir() + "/egress.sock"
	p, err := startEgressProxy(ns, sock)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(p.Close)
	c, err := net.Dial("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	fmt.Fprintf(c, "CONNECT %s HTTP/1.1\r\nHost: %s\r\n\r\n", inner.Addr(), inner.Addr())
	br := bufio.NewReader(c)
	resp, err := http.ReadResponse(br, nil)
	if err != nil || resp.StatusCode != 200 {
		t.Fatalf("CONNECT: %v %v", resp, err)
	}
	fmt.Fprintln(c, "hello")
	if got, _ := br.ReadString('\n'); strings.TrimSpace(got) != "inside: hello" {
		t.Fatalf("through the egress proxy: %q", got)
	}

	outer, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	echoServer(t, outer, "outside")
	_, port, _ := net.SplitHostPort(outer.Addr().String())
	f, err := startAPIForward(ns, "0.0.0.0:"+port, outer.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(f.Close)
	var up net.Conn
	if err := inNetns(ns, func() (err error) { up, err = net.Dial("tcp", "127.0.0.1:"+port); return err }); err != nil {
		t.Fatal(err)
	}
	defer up.Close()
	if got := ask(t, up, "hi"); got != "outside: hi" {
		t.Fatalf("through the relay in the namespace: %q", got)
	}
}
