package snapshot

import (
	"bufio"
	"bytes"
	"context"
	"encoding/base64"
	"fmt"
	"io"
	"path"
	"strconv"
	"strings"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/client-go/kubernetes/scheme"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/remotecommand"

	"github.com/osctl/osctl/pkg/k8s"
)

// Pod reads the state through one exec in a pod that mounts the volume (when osctl runs outside
// the cluster). The directories go in on stdin; the pod needs sh, find, wc and sha256sum.
type Pod struct {
	REST      *rest.Config
	Clientset k8s.Interface
	Namespace string
	Name      string
	Container string // empty: the pod's default container (k8s.DefaultContainer)
	Mount     string // the volume's mount path in the pod, e.g. /mnt/openstudio
}

// podScript reads one directory per line on stdin, up to the line endOfDirs, and prints, for each
// directory that exists, "D <dir>", and for each regular file under it "F <size> <sha256> <path>"
// (a file that vanished or cannot be read prints "E <path>"). A .zip file is sent whole instead,
// as "Z <path>", its base64 lines and the line endOfZip, so that its entries can be read here (a
// server may rewrite a zip with the same entries). The end line, not end of input, ends the list:
// some exec implementations (kwok, some proxies) never pass on stdin's EOF.
const podScript = `cd "$1" || exit 3
b64=; command -v base64 >/dev/null 2>&1 && b64=1
while IFS= read -r d; do
  [ "$d" = "` + endOfDirs + `" ] && break
  [ -d "$d" ] || continue
  printf 'D %s\n' "$d"
  find "$d" -type f | while IFS= read -r f; do
    case "$f" in *.zip) if [ -n "$b64" ]; then
      printf 'Z %s\n' "$f"; base64 < "$f" 2>/dev/null || printf '!\n'; printf '%s\n' "` + endOfZip + `"; continue
    fi;; esac
    s=$(wc -c < "$f" 2>/dev/null) && h=$(sha256sum "$f" 2>/dev/null) && printf 'F %s %s %s\n' "$s" "${h%% *}" "$f" || printf 'E %s\n' "$f"
  done
done`

// endOfZip ends the base64 lines of one zip in the pod listing.
const endOfZip = "::osctl-end-of-zip::"

// endOfDirs ends the directory list sent to podScript.
const endOfDirs = "::osctl-end-of-dirs::"

// Read implements Reader.
// An exec without a container is refused in a pod of several, so the pod's default container
// (its default-container annotation, else its first) is named when Container is empty.
func (p Pod) Read(ctx context.Context, dirs []string) (*State, error) {
	if err := CheckDirs(dirs); err != nil {
		return nil, err
	}
	container, err := k8s.ContainerFor(ctx, p.Clientset, p.Namespace, p.Name, p.Container)
	if err != nil {
		return nil, err
	}
	req := p.Clientset.CoreV1().RESTClient().Post().Resource("pods").Name(p.Name).Namespace(p.Namespace).SubResource("exec")
	req.VersionedParams(&corev1.PodExecOptions{
		Container: container,
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
			st.Files[path.Clean(parts[2])] = File{Size: size, Hash: parts[1], ZipErr: zipNotSent(parts[2])}
		case "E":
			st.Files[path.Clean(rest)] = File{Size: -1, Err: "could not be read in the pod"}
		case "Z":
			var b64 strings.Builder
			failed, ended := false, false
			for sc.Scan() {
				n++
				l := sc.Text()
				if l == endOfZip {
					ended = true
					break
				}
				if l == "!" {
					failed = true
					continue
				}
				b64.WriteString(l)
			}
			if !ended {
				return nil, fmt.Errorf("pod listing: zip %s is cut short (no end line)", rest)
			}
			b, err := base64.StdEncoding.DecodeString(b64.String())
			switch {
			case failed:
				st.Files[path.Clean(rest)] = File{Size: -1, Err: "could not be read in the pod"}
			case err != nil:
				return nil, fmt.Errorf("pod listing: zip %s: bad base64: %v", rest, err)
			default:
				st.Files[path.Clean(rest)] = ZipFile(b)
			}
		default:
			return nil, fmt.Errorf("pod listing line %d: %q", n, line)
		}
	}
	return st, sc.Err()
}

// zipNotSent explains, for a .zip listed by its hash only, why its entries are missing.
func zipNotSent(p string) string {
	if strings.HasSuffix(p, ".zip") {
		return "entries not read: the pod has no base64"
	}
	return ""
}

// Fingerprint reads the state through one exec and returns a digest of it: how the settle step
// tells, through a pod, whether the run's files are still changing.
func (p Pod) Fingerprint(ctx context.Context, dirs []string) (string, error) {
	st, err := p.Read(ctx, dirs)
	if err != nil {
		return "", err
	}
	return st.Digest(), nil
}
