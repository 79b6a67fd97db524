package nfscheck

import (
	"context"
	"fmt"
	"path"
	"strings"
	"time"

	"github.com/osctl/osctl/pkg/setting"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/osctl/osctl/pkg/k8s"
	"github.com/osctl/osctl/pkg/preflight"
	"github.com/osctl/osctl/pkg/preflight/workload"
)

// PodProbeTarget names one pod of the cluster probe and, optionally, its container.
type PodProbeTarget struct {
	Pod       string `json:"pod"`
	Container string `json:"container,omitempty"`
}

// ProbePods runs the empirical probe between two pods by exec: the writer changes files with
// sh (printf, touch) in a fresh subdirectory .osctl-probe-<random> of path, the reader looks
// them up with stat -c, after its lookups were primed, and is polled up to o.Timeout for the
// fresh state; both directions run, and the subdirectory is removed at the end. container ""
// picks the container that mounts the volume holding path (as CheckWorkload does). Two pods on
// one node share one NFS client cache and prove nothing: that is a WARN and no test runs.
// flock exclusion is not run across pods (INFO). An error means the probe could not run (a pod
// is missing or not running, exec failed, the two pods do not see one directory).
func ProbePods(ctx context.Context, c *k8s.Clients, namespace, podA, podB, container, dir string, o ProbeOptions) ([]preflight.Result, error) {
	o.defaults()
	if namespace == "" {
		namespace = c.Namespace
	}
	if namespace == "" {
		namespace = "default"
	}
	dir = path.Clean("/" + dir)
	var sides [2]podSide
	for i, name := range []string{podA, podB} {
		s, err := lookupProbePod(ctx, c, namespace, name, container, dir)
		if err != nil {
			return nil, err
		}
		sides[i] = s
	}
	a, b := sides[0], sides[1]
	pair := "pod/" + a.pod + " and pod/" + b.pod
	if a.node == b.node {
		return []preflight.Result{{ID: RuleProbeClients, Status: preflight.Warn, Subject: pair,
			Message: fmt.Sprintf("both pods run on node %s: they share one NFS client cache, so the probe would look coherent and prove nothing", a.node),
			Fix:     "name two pods on two different nodes (spread the web pods with pod anti-affinity or topology spread constraints)"}}, nil
	}
	id := randomID()
	work := path.Join(dir, ".osctl-probe-"+id)
	if _, err := a.run(ctx, `mkdir -p "$1"`, work); err != nil {
		return nil, fmt.Errorf("probe: cannot create %s in pod %s: %v", work, a.pod, err)
	}
	defer func() {
		cctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), execTimeout)
		defer cancel()
		_, _ = a.run(cctx, `rm -rf "$1"`, work)
	}()
	if err := sameExportPods(ctx, a, b, work, o); err != nil {
		return nil, err
	}
	rs := []preflight.Result{{ID: RuleProbeClients, Status: preflight.Pass, Subject: pair,
		Message: fmt.Sprintf("pods on two nodes (%s and %s) see the same directory %s", a.node, b.node, dir)}}
	for i, d := range [][2]podSide{{a, b}, {b, a}} {
		r, err := probePodDirection(ctx, d[0], d[1], path.Join(work, fmt.Sprintf("d%d", i+1)), o)
		if err != nil {
			return nil, err
		}
		rs = append(rs, r...)
	}
	rs = append(rs, preflight.Result{ID: RuleProbeFlock, Status: preflight.Info, Subject: pair,
		Message: "flock exclusion is not run across pods (probe two client mounts by directory for it)"})
	return rs, nil
}

// podSide is one pod of the probe.
type podSide struct {
	c                  *k8s.Clients
	ns, pod, container string
	node               string
}

// run executes script with sh -c in the pod, with args as $1...
func (s podSide) run(ctx context.Context, script string, args ...string) (string, error) {
	ectx, cancel := context.WithTimeout(ctx, execTimeout)
	defer cancel()
	out, err := execInPod(ectx, s.c, s.ns, s.pod, s.container, append([]string{"sh", "-c", script, "sh"}, args...))
	if err != nil {
		return out, fmt.Errorf("%s", oneLine(err.Error()))
	}
	return out, nil
}

func lookupProbePod(ctx context.Context, c *k8s.Clients, ns, name, container, dir string) (podSide, error) {
	p, err := c.Clientset.CoreV1().Pods(ns).Get(ctx, name, metav1.GetOptions{})
	if err != nil {
		if apierrors.IsNotFound(err) {
			return podSide{}, setting.Errorf("ProbePods", ": pod %s/%s not found: name two running pods", ns, name)
		}
		return podSide{}, fmt.Errorf("reading pod %s/%s: %v", ns, name, explainAPI(err))
	}
	if p.Status.Phase != corev1.PodRunning {
		return podSide{}, fmt.Errorf("pod %s/%s is %s, not Running: name two running pods", ns, name, p.Status.Phase)
	}
	if container == "" {
		if at, ok := workload.FindVolume(&p.Spec, dir); ok {
			container = at.Container
		} else if len(p.Spec.Containers) == 1 {
			container = p.Spec.Containers[0].Name
		} else {
			return podSide{}, setting.Errorf("Container", ": no container of pod %s/%s mounts a volume at or above %s: name the container, or check {Path}", ns, name, dir)
		}
	}
	return podSide{c: c, ns: ns, pod: name, container: container, node: p.Spec.NodeName}, nil
}

// sameExportPods writes a marker in a and reads it in b with cat (open+read is fresh on any
// NFS client by close-to-open).
func sameExportPods(ctx context.Context, a, b podSide, work string, o ProbeOptions) error {
	f := path.Join(work, "same")
	want := "osctl probe " + path.Base(work)
	if _, err := a.run(ctx, `printf '%s' "$2" >"$1"`, f, want); err != nil {
		return fmt.Errorf("probe: %s is not writable in pod %s: %v", path.Dir(work), a.pod, err)
	}
	deadline := time.Now().Add(min(o.Timeout, 5*time.Second))
	for {
		got, err := b.run(ctx, `cat "$1" 2>/dev/null || true`, f)
		if err == nil && got == want {
			return nil
		}
		if time.Now().After(deadline) || ctx.Err() != nil {
			return fmt.Errorf("probe: a file written in pod %s does not appear in pod %s under %s: they do not mount the same directory of one export", a.pod, b.pod, path.Dir(work))
		}
		sleep(ctx, o.Poll)
	}
}

// readerStatScript prints "SIZE MTIME" or ENOENT for each of its arguments, one line each.
const readerStatScript = `for f in "$@"; do stat -c '%s %Y' "$f" 2>/dev/null || echo ENOENT; done`

func probePodDirection(ctx context.Context, w, r podSide, d string, o ProbeOptions) ([]preflight.Result, error) {
	subject := fmt.Sprintf("reader pod/%s (writer pod/%s)", r.pod, w.pod)
	size, newf, mtime := path.Join(d, "size"), path.Join(d, "new"), path.Join(d, "mtime")
	if _, err := w.run(ctx, `mkdir -p "$1" && printf a >"$2" && printf q >"$3"`, d, size, mtime); err != nil {
		return nil, fmt.Errorf("probe: writing in pod %s: %v", w.pod, err)
	}
	// Prime the reader: look everything up twice, as the local probe does.
	for i := 0; i < 2; i++ {
		if _, err := r.run(ctx, readerStatScript, size, mtime, newf); err != nil {
			return nil, fmt.Errorf("probe: stat in pod %s: %v", r.pod, err)
		}
		sleep(ctx, 300*time.Millisecond)
	}
	sleep(ctx, o.Settle)
	if ctx.Err() != nil {
		return nil, ctx.Err()
	}
	// The writer's changes; it reports the mtime it set.
	out, err := w.run(ctx, `printf bbbb >>"$1" && TZ=UTC0 touch -t 200109090146.40 "$2" && printf xyz >"$3" && stat -c %Y "$2"`, size, mtime, newf)
	if err != nil {
		return nil, fmt.Errorf("probe: changing files in pod %s: %v", w.pod, err)
	}
	wantMtime := strings.TrimSpace(out)
	start := time.Now()
	var last []string
	look := func() error {
		out, err := r.run(ctx, readerStatScript, size, newf, mtime)
		if err != nil {
			return fmt.Errorf("probe: stat in pod %s: %v", r.pod, err)
		}
		last = strings.Split(strings.TrimRight(out, "\n"), "\n")
		if len(last) != 3 {
			return fmt.Errorf("probe: unexpected stat output in pod %s: %q", r.pod, clip(out))
		}
		return nil
	}
	field := func(i int, f int) string {
		if last[i] == "ENOENT" {
			return "ENOENT"
		}
		parts := strings.Fields(last[i])
		if len(parts) != 2 {
			return last[i]
		}
		return parts[f]
	}
	obs := []*observation{
		{id: RuleProbeSize, what: "the new size (5) after the writer appended and closed", check: func() (string, bool) {
			v := field(0, 0)
			return sizeSeen(v), v == "5"
		}},
		{id: RuleProbeNewFile, what: "a file the writer created after the reader's lookup failed", check: func() (string, bool) {
			v := field(1, 0)
			return sizeSeen(v), v == "3"
		}},
		{id: RuleProbeMtime, what: "the new mtime after the writer touched the file", check: func() (string, bool) {
			v := field(2, 1)
			if v == "ENOENT" {
				return v, false
			}
			return "mtime " + v, v == wantMtime
		}},
	}
	if err := converge(ctx, obs, start, o, look); err != nil {
		return nil, err
	}
	rs := make([]preflight.Result, 0, len(obs))
	for _, ob := range obs {
		rs = append(rs, ob.result(subject, o.Timeout))
	}
	return rs, nil
}
