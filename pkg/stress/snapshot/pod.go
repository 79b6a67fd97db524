package snapshot

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"path"
	"strconv"
	"strings"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/kubernetes/scheme"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/remotecommand"
)

// Pod reads the state through one exec in a pod that mounts the volume (when osctl runs outside
// the cluster). The directories go in on stdin; the pod needs sh, find, wc and sha256sum.
type Pod struct {
	REST      *rest.Config
	Clientset kubernetes.Interface
	Namespace string
	Name      string
	Container string // empty: the pod's first container
	Mount     string // the volume's mount path in the pod, e.g. /mnt/openstudio
}

// podScript reads one directory per line on stdin, up to the line endOfDirs, and prints, for each
// directory that exists, "D <dir>", and for each regular file under it "F <size> <sha256> <path>"
// (a file that vanished or cannot be read prints "E <path>"). The end line, not end of input,
// ends the list: some exec implementations (kwok, some proxies) never pass on stdin's EOF.
const podScript = `cd "$1" || exit 3
while IFS= read -r d; do
  [ "$d" = "` + endOfDirs + `" ] && break
  [ -d "$d" ] || continue
  printf 'D %s\n' "$d"
  find "$d" -type f | while IFS= read -r f; do
    s=$(wc -c < "$f" 2>/dev/null) && h=$(sha256sum "$f" 2>/dev/null) && printf 'F %s %s %s\n' "$s" "${h%% *}" "$f" || printf 'E %s\n' "$f"
  done
done`

// endOfDirs ends the directory list sent to podScript.
const endOfDirs = "::osctl-end-of-dirs::"

// Read implements Reader.
func (p Pod) Read(ctx context.Context, dirs []string) (*State, error) {
	req := p.Clientset.CoreV1().RESTClient().Post().Resource("pods").Name(p.Name).Namespace(p.Namespace).SubResource("exec")
	req.VersionedParams(&corev1.PodExecOptions{
		Container: p.Container,
		Command:   []string{"sh", "-c", podScript, "osctl-snapshot", p.Mount},
		Stdin:     true, Stdout: true, Stderr: true,
	}, scheme.ParameterCodec)
	exec, err := remotecommand.NewSPDYExecutor(p.REST, "POST", req.URL())
	if err != nil {
		return nil, fmt.Errorf("exec in pod %s/%s: %v", p.Namespace, p.Name, err)
	}
	var stdout, stderr bytes.Buffer
	in := strings.Join(dirs, "\n") + "\n" + endOfDirs + "\n"
	err = exec.StreamWithContext(ctx, remotecommand.StreamOptions{Stdin: strings.NewReader(in), Stdout: &stdout, Stderr: &stderr})
	if err != nil {
		return nil, fmt.Errorf("exec in pod %s/%s: %v: %s", p.Namespace, p.Name, err, strings.TrimSpace(stderr.String()))
	}
	return ParsePodListing(&stdout)
}

// ParsePodListing parses the output of the pod script.
func ParsePodListing(r io.Reader) (*State, error) {
	st := NewState()
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	n := 0
	for sc.Scan() {
		n++
		line := sc.Text()
		if line == "" {
			continue
		}
		kind, rest, _ := strings.Cut(line, " ")
		switch kind {
		case "D":
			st.Dirs[path.Clean(rest)] = true
		case "F":
			parts := strings.SplitN(rest, " ", 3)
			if len(parts) != 3 {
				return nil, fmt.Errorf("pod listing line %d: %q", n, line)
			}
			size, err := strconv.ParseInt(strings.TrimSpace(parts[0]), 10, 64)
			if err != nil {
				return nil, fmt.Errorf("pod listing line %d: bad size %q", n, parts[0])
			}
			st.Files[path.Clean(parts[2])] = File{Size: size, Hash: parts[1]}
		case "E":
			st.Files[path.Clean(rest)] = File{Size: -1, Err: "could not be read in the pod"}
		default:
			return nil, fmt.Errorf("pod listing line %d: %q", n, line)
		}
	}
	return st, sc.Err()
}
