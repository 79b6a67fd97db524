package nfscheck

import (
	"bytes"
	"context"
	"fmt"
	"strings"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/client-go/tools/remotecommand"

	"github.com/osctl/osctl/pkg/k8s"
)

// maxExecOutput bounds what one exec may return (a mountinfo of a busy node is ~100 KiB).
const maxExecOutput = 8 << 20

// execInPod runs cmd in one container and returns its stdout. It tries WebSocket first and
// falls back to SPDY, as kubectl does.
func execInPod(ctx context.Context, c *k8s.Clients, ns, pod, container string, cmd []string) (string, error) {
	ex, err := k8s.Executor(c, ns, pod, &corev1.PodExecOptions{Container: container, Command: cmd, Stdout: true, Stderr: true})
	if err != nil {
		return "", err
	}
	var stdout, stderr limitedBuffer
	stdout.max, stderr.max = maxExecOutput, 4096
	err = ex.StreamWithContext(ctx, remotecommand.StreamOptions{Stdout: &stdout, Stderr: &stderr})
	if err != nil {
		msg := strings.TrimSpace(stderr.String())
		if msg != "" {
			return stdout.String(), fmt.Errorf("%v: %s", err, oneLine(msg))
		}
		return stdout.String(), err
	}
	if stdout.over {
		return "", fmt.Errorf("output larger than %d bytes", maxExecOutput)
	}
	return stdout.String(), nil
}

type limitedBuffer struct {
	bytes.Buffer
	max  int
	over bool
}

func (b *limitedBuffer) Write(p []byte) (int, error) {
	if b.Len()+len(p) > b.max {
		b.over = true
		return len(p), nil
	}
	return b.Buffer.Write(p)
}

func oneLine(s string) string {
	s = strings.ReplaceAll(strings.TrimSpace(s), "\n", " | ")
	return clip(s)
}

// readMountinfoCmds are tried in order: cat, then the shell (images without cat). printf, not
// echo: dash's echo would turn the \040 escapes of mount points into spaces.
var readMountinfoCmds = [][]string{
	{"cat", "/proc/self/mountinfo"},
	{"sh", "-c", `while IFS= read -r l || [ -n "$l" ]; do printf '%s\n' "$l"; done </proc/self/mountinfo`},
}

// readPodMountinfo reads /proc/self/mountinfo in the container, with cat or else sh.
func readPodMountinfo(ctx context.Context, c *k8s.Clients, ns, pod, container string) (text, via string, err error) {
	var errs []string
	for _, cmd := range readMountinfoCmds {
		out, err := execInPod(ctx, c, ns, pod, container, cmd)
		if err == nil && strings.TrimSpace(out) != "" {
			return out, cmd[0], nil
		}
		if err == nil {
			err = fmt.Errorf("empty output")
		}
		errs = append(errs, cmd[0]+": "+oneLine(err.Error()))
		if ctx.Err() != nil {
			break
		}
	}
	return "", "", fmt.Errorf("reading /proc/self/mountinfo in pod %s container %s failed (%s)", pod, container, strings.Join(errs, "; "))
}
