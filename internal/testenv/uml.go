package testenv

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/osctl/osctl/pkg/proc"
)

// UMLModules is where Debian's user-mode-linux package keeps the UML kernel's modules.
const UMLModules = "/usr/lib/uml/modules"

// UMLInstallHint installs what the UML NFS lab needs on Debian.
const UMLInstallHint = "apt-get install -y --no-install-recommends user-mode-linux nfs-kernel-server nfs-common rpcbind kmod iproute2"

// UMLAvailable reports whether User-Mode Linux and the NFS tools it runs are installed; why
// names what is missing.
func UMLAvailable() (ok bool, why string) {
	var missing []string
	for _, b := range []string{"linux.uml", "rpc.nfsd", "rpc.mountd", "rpc.statd", "rpcbind", "exportfs", "mount.nfs", "modprobe", "ip"} {
		if _, err := exec.LookPath(b); err != nil {
			if _, err2 := os.Stat(filepath.Join("/usr/sbin", b)); err2 != nil {
				missing = append(missing, b)
			}
		}
	}
	if _, err := os.Stat(UMLModules); err != nil {
		missing = append(missing, UMLModules)
	}
	if len(missing) > 0 {
		return false, "User-Mode Linux NFS lab: missing " + strings.Join(missing, ", ") + " (" + UMLInstallHint + ")"
	}
	return true, ""
}

// UMLRun is the outcome of one UML boot: the program's stdout, stderr and exit code, and the
// directory holding everything it wrote ($UML_OUT inside UML).
type UMLRun struct {
	OutDir   string
	Stdout   string
	Stderr   string
	ExitCode int
	// Mountinfo is /proc/self/mountinfo inside UML after both client mounts were up.
	Mountinfo string
	// Boot is how long the whole boot took.
	Boot time.Duration
}

// RunUMLNFS boots User-Mode Linux (the host's / is its root through hostfs, so binaries built
// on the host run inside it) with a kernel NFS server on loopback and two NFSv3 client mounts
// of one export from two addresses, so they are two client instances with two caches:
// $UML_A from 127.0.0.1 with actimeo=60 and $UML_B from 127.0.0.2 with noac. It runs program
// (a POSIX shell script) inside UML with $UML_A, $UML_B, $UML_EXPORT and $UML_OUT (a host
// directory for results) set, then powers off. The boot is bounded by timeout. Where UML
// cannot start the test fails in CI and skips loudly elsewhere (Require).
func RunUMLNFS(t testing.TB, program string, timeout time.Duration) *UMLRun {
	t.Helper()
	SkipIfShort(t, "the UML NFS harness")
	ok, why := UMLAvailable()
	Require(t, ok, why)
	root, err := ModuleRoot()
	if err != nil {
		t.Fatalf("module root: %v", err)
	}
	initScript := filepath.Join(root, "internal", "testenv", "umlnfs", "init.sh")
	// The run directory must be reachable inside UML at the same path: a plain host directory.
	dir, err := os.MkdirTemp("", "osctl-uml-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = os.RemoveAll(dir) })
	for _, d := range []string{"out", "nfs", "mods/lib", "tmp"} {
		if err := os.MkdirAll(filepath.Join(dir, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink(UMLModules, filepath.Join(dir, "mods", "lib", "modules")); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "program.sh"), []byte(program), 0o755); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	start := time.Now()
	console, err := os.Create(filepath.Join(dir, "console.log"))
	if err != nil {
		t.Fatal(err)
	}
	defer console.Close()
	cmd := exec.Command("linux.uml", "mem=512M", "root=/dev/root", "rootfstype=hostfs", "hostfs=/", "rw", "quiet",
		"init="+initScript, "OSCTL_UML_DIR="+dir, "con0=fd:0,fd:1", "con=null")
	cmd.Stdin = nil
	cmd.Stdout, cmd.Stderr = console, console
	// UML maps its memory from a file in TMPDIR, which must allow exec.
	cmd.Env = append(os.Environ(), "TMPDIR="+umlTmpDir(filepath.Join(dir, "tmp")))
	g, err := proc.Start(cmd, syscall.SIGKILL)
	if err != nil {
		t.Fatalf("starting linux.uml: %v", err)
	}
	select {
	case <-g.Done():
	case <-ctx.Done():
		// Kill the process group this harness started (UML runs one host process per guest
		// address space), by its pid.
		g.Kill()
		t.Fatalf("UML did not power off within %v; init log:\n%s\nconsole:\n%s", timeout, readTail(filepath.Join(dir, "out", "init.log")), readTail(console.Name()))
	}
	// Stray guest processes (if any) belong to our process group.
	_ = g.Signal(syscall.SIGKILL)
	run := &UMLRun{OutDir: filepath.Join(dir, "out"), Boot: time.Since(start)}
	if why := umlHostUnsupported(readAll(console.Name())); why != "" {
		t.Skipf("SKIPPED, THIS HOST CANNOT RUN THE UML NFS LAB: %s; nothing ran, so nothing was checked", why)
	}
	if b, err := os.ReadFile(filepath.Join(run.OutDir, "setup.err")); err == nil {
		t.Fatalf("UML NFS setup failed: %s\ninit log:\n%s\nconsole:\n%s", strings.TrimSpace(string(b)), readTail(filepath.Join(run.OutDir, "init.log")), readTail(console.Name()))
	}
	rc, err := os.ReadFile(filepath.Join(run.OutDir, "program.rc"))
	if err != nil {
		t.Fatalf("the program did not finish inside UML; init log:\n%s\nconsole:\n%s", readTail(filepath.Join(run.OutDir, "init.log")), readTail(console.Name()))
	}
	run.ExitCode, _ = strconv.Atoi(strings.TrimSpace(string(rc)))
	run.Stdout = readAll(filepath.Join(run.OutDir, "program.out"))
	run.Stderr = readAll(filepath.Join(run.OutDir, "program.err"))
	run.Mountinfo = readAll(filepath.Join(run.OutDir, "mountinfo.txt"))
	t.Logf("UML NFS boot took %v", run.Boot.Round(time.Millisecond))
	return run
}

// umlHostUnsupported names why UML's kernel died before init on this host, from its console,
// or returns "". Debian's UML 6.1 saves a guest's FPU state with a fixed-size
// PTRACE_SETREGSET NT_X86_XSTATE; hosts whose XSAVE area is larger than it handles (AMX and
// newer) refuse that with EFAULT, and UML panics at its first guest process. That is the
// host's CPU and kernel against Debian's UML build, not the NFS behaviour under test, and no
// setting of ours changes it (answering the probe so that UML falls back to the FXSAVE regset
// boots, but then every module load fails with EINVAL), so it is a loud skip, in CI too.
func umlHostUnsupported(console string) string {
	const sig = "ptrace set fp regs failed"
	i := strings.Index(console, sig)
	if i < 0 {
		return ""
	}
	line := console[i:]
	if j := strings.IndexByte(line, '\n'); j >= 0 {
		line = line[:j]
	}
	return "UML panicked at its first guest process (" + strings.TrimSpace(line) + "): the host's XSAVE area is larger than Debian's UML 6.1 kernel handles"
}

// umlTmpDir picks a TMPDIR with exec permission: /dev/shm when it allows exec, else fallback.
func umlTmpDir(fallback string) string {
	if d := os.Getenv("OSCTL_UML_TMPDIR"); d != "" {
		return d
	}
	if canExec("/dev/shm") {
		return "/dev/shm"
	}
	return fallback
}

func canExec(dir string) bool {
	f, err := os.CreateTemp(dir, "osctl-exec-*")
	if err != nil {
		return false
	}
	name := f.Name()
	_, _ = f.WriteString("#!/bin/sh\nexit 0\n")
	f.Close()
	defer os.Remove(name)
	if err := os.Chmod(name, 0o755); err != nil {
		return false
	}
	err = exec.Command(name).Run()
	var ee *exec.ExitError
	return err == nil || errors.As(err, &ee)
}

func readAll(p string) string {
	b, _ := os.ReadFile(p)
	return string(b)
}

func readTail(p string) string {
	s := readAll(p)
	if len(s) > 3000 {
		s = "..." + s[len(s)-3000:]
	}
	if s == "" {
		return fmt.Sprintf("(%s is empty)", p)
	}
	return s
}
