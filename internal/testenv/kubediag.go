package testenv

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// Diagnose says what a test whose pods do not come needs to know: whether each component of the
// control plane still runs, whether the scheduler answers and how many pods it holds back, each
// node's Ready condition, heartbeat, taints and cordon, and the end of the log of the scheduler,
// of kwok and of any component that has exited.
func (k *Kube) Diagnose() string {
	k.mu.Lock()
	procs := slices.Clone(k.procs)
	k.mu.Unlock()
	var b strings.Builder
	b.WriteString("control plane:")
	logs := []string{"kube-scheduler", "kwok"}
	for _, c := range procs {
		if c.g.Exited() {
			fmt.Fprintf(&b, " %s EXITED (%v);", c.name, c.g.Err())
			if !slices.Contains(logs, c.name) {
				logs = append(logs, c.name)
			}
		} else {
			fmt.Fprintf(&b, " %s running (pid %d);", c.name, c.g.Pid())
		}
	}
	fmt.Fprintf(&b, "\nkube-scheduler: %s\n", k.schedulerState())
	b.WriteString(k.nodesState())
	for _, name := range logs {
		fmt.Fprintf(&b, "--- end of %s.log:\n%s\n", name, logTail(filepath.Join(k.Dir, "logs", name+".log")))
	}
	return b.String()
}

// nodesState is one line per node: Ready condition, age of its heartbeat, cordon and taints.
func (k *Kube) nodesState() string {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	nodes, err := k.Clients.Clientset.CoreV1().Nodes().List(ctx, metav1.ListOptions{})
	if err != nil {
		return fmt.Sprintf("nodes: listing them: %v\n", err)
	}
	var b strings.Builder
	for _, n := range nodes.Items {
		fmt.Fprintf(&b, "node %s:", n.Name)
		for _, c := range n.Status.Conditions {
			if c.Type == "Ready" {
				fmt.Fprintf(&b, " Ready=%s (%s, heartbeat %s ago)", c.Status, c.Reason, time.Since(c.LastHeartbeatTime.Time).Round(time.Second))
			}
		}
		if n.Spec.Unschedulable {
			b.WriteString(" cordoned")
		}
		for _, t := range n.Spec.Taints {
			fmt.Fprintf(&b, " taint %s=%s:%s", t.Key, t.Value, t.Effect)
		}
		b.WriteString("\n")
	}
	if len(nodes.Items) == 0 {
		b.WriteString("nodes: none\n")
	}
	return b.String()
}

// schedulerState is whether the scheduler's /healthz answers ok, and its pending-pods gauges
// (pods it has in its queues but has not placed), read from its /metrics as the cluster admin.
func (k *Kube) schedulerState() string {
	if k.ports.sched == 0 {
		return "no port known"
	}
	c, err := k.adminHTTP()
	if err != nil {
		return err.Error()
	}
	base := fmt.Sprintf("https://127.0.0.1:%d", k.ports.sched)
	health := "healthz: "
	if resp, err := c.Get(base + "/healthz"); err != nil {
		health += err.Error()
	} else {
		body, _ := io.ReadAll(io.LimitReader(resp.Body, 200))
		resp.Body.Close()
		health += fmt.Sprintf("%d %s", resp.StatusCode, strings.TrimSpace(string(body)))
	}
	resp, err := c.Get(base + "/metrics")
	if err != nil {
		return health + "; metrics: " + err.Error()
	}
	defer resp.Body.Close()
	var pending []string
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(make([]byte, 64*1024), 1024*1024)
	for sc.Scan() {
		if l := sc.Text(); strings.HasPrefix(l, "scheduler_pending_pods{") || strings.HasPrefix(l, "scheduler_schedule_attempts_total{") {
			pending = append(pending, strings.TrimPrefix(strings.TrimPrefix(l, "scheduler_"), "pending_pods"))
		}
	}
	return health + "; pending pods " + strings.Join(pending, " ")
}

// logTail is the last 20 lines of a component's log (each cut at 400 bytes), without its echo
// of its flags and the lines every delegating component logs again and again because this
// apiserver has no front-proxy CA.
func logTail(path string) string {
	b, err := os.ReadFile(path)
	if err != nil {
		return err.Error()
	}
	var keep []string
	for _, l := range strings.Split(strings.TrimRight(string(b), "\n"), "\n") {
		if strings.Contains(l, "requestheader-client-ca-file") || strings.Contains(l, "] FLAG: --") {
			continue
		}
		if len(l) > 400 {
			l = l[:400] + "..."
		}
		keep = append(keep, l)
	}
	return strings.Join(keep[max(0, len(keep)-20):], "\n")
}
