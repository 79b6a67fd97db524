//go:build linux

package realnode

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
)

// The images every node imports; pods name them with imagePullPolicy: Never.
const (
	PauseImage   = "osctl.test/pause:1"   // the pod sandbox: busybox's sleep
	BusyboxImage = "osctl.test/busybox:1" // a shell and the usual tools (sh, find, sha256sum, httpd, nc)
	OsctlImage   = "osctl.test/osctl:1"   // osctl's release image (tools/release) of Options.Osctl: user 65532, no shell
	RedisImage   = "osctl.test/redis:1"   // Debian's redis-server and its shared libraries
)

func busyboxPath() (string, error) {
	for _, p := range []string{"/bin/busybox", "/usr/bin/busybox"} {
		if _, err := os.Stat(p); err == nil {
			return p, nil
		}
	}
	return "", fmt.Errorf("busybox not found (apt-get install busybox-static; scripts/test-deps.sh does)")
}

// pauseImage is the sandbox image: a sleep that the runtime kills when the pod goes.
func pauseImage(busybox string) Image {
	return Image{Name: PauseImage, Entrypoint: []string{"/bin/sleep", "2147483647"}, Files: []File{
		{Path: "/bin/busybox", Src: busybox, Mode: 0o755}, {Path: "/bin/sleep", Link: "busybox"},
	}}
}

// busyboxImage has busybox with a link for each of its applets, root and nobody users, and /tmp.
func busyboxImage(busybox string) (Image, error) {
	out, err := exec.Command(busybox, "--list").Output()
	if err != nil {
		return Image{}, fmt.Errorf("%s --list: %w", busybox, err)
	}
	files := []File{
		{Path: "/bin/busybox", Src: busybox, Mode: 0o755},
		{Path: "/etc/passwd", Data: []byte("root:x:0:0:root:/root:/bin/sh\nnobody:x:65534:65534:nobody:/:/bin/false\n")},
		{Path: "/etc/group", Data: []byte("root:x:0:\nnogroup:x:65534:\n")},
		{Path: "/tmp", Dir: true, Mode: 0o1777}, {Path: "/root", Dir: true, Mode: 0o700},
	}
	for _, a := range strings.Fields(string(out)) {
		if a != "busybox" && !strings.ContainsAny(a, "[/") {
			files = append(files, File{Path: "/bin/" + a, Link: "busybox"})
		}
	}
	files = append(files, File{Path: "/bin/[", Link: "busybox"}, File{Path: "/bin/[[", Link: "busybox"})
	return Image{Name: BusyboxImage, Cmd: []string{"/bin/sh"}, Env: []string{"PATH=/bin"}, Files: files}, nil
}

// lddLine is one library line of ldd's output: "libx.so.1 => /lib/.../libx.so.1 (0x...)" or the
// loader's "/lib64/ld-linux-x86-64.so.2 (0x...)".
var lddLine = regexp.MustCompile(`(?m)^\s*(?:\S+ => )?(/\S+) \(0x[0-9a-f]+\)$`)

// redisImage holds redis-server and the shared libraries ldd names for it, listening on 6379
// with no persistence, as user nobody.
func redisImage(server string) (Image, error) {
	out, err := exec.Command("ldd", server).Output()
	if err != nil {
		return Image{}, fmt.Errorf("ldd %s: %w", server, err)
	}
	files := []File{
		{Path: "/usr/bin/redis-server", Src: server, Mode: 0o755},
		{Path: "/etc/passwd", Data: []byte("root:x:0:0:root:/root:/sbin/nologin\nnobody:x:65534:65534:nobody:/data:/sbin/nologin\n")},
		{Path: "/data", Dir: true, Mode: 0o1777}, {Path: "/tmp", Dir: true, Mode: 0o1777},
	}
	for _, m := range lddLine.FindAllStringSubmatch(string(out), -1) {
		real, err := filepath.EvalSymlinks(m[1])
		if err != nil {
			return Image{}, err
		}
		files = append(files, File{Path: m[1], Src: real, Mode: 0o755})
	}
	return Image{Name: RedisImage, User: "65534", WorkingDir: "/data",
		Entrypoint: []string{"/usr/bin/redis-server"},
		Cmd:        []string{"--port", "6379", "--protected-mode", "no", "--save", "", "--appendonly", "no"}, Files: files}, nil
}
