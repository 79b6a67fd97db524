package sandbox_test

import (
	"context"
	"errors"
	"syscall"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/osctl/osctl/internal/testenv"
	"github.com/osctl/osctl/pkg/sandbox"
)

func restarting(c *sandbox.SupervisorConfig) { c.Restart = true }

// replicaAgain waits until replica i is a process other than old, and returns it.
func replicaAgain(t *testing.T, sup *sandbox.Supervisor, i int, old sandbox.Process) sandbox.Process {
	t.Helper()
	var now sandbox.Process
	testenv.Eventually(t, 20*time.Second, "replica started again", func() bool {
		now = sup.Replicas()[i]
		return now.Pid != old.Pid
	})
	return now
}

// TestSupervisorRestartsAKilledReplicaOnItsPort: with Restart, a SIGKILLed replica is started
// again on its own port, the processes file names its new pid, and the supervisor stays up.
func TestSupervisorRestartsAKilledReplicaOnItsPort(t *testing.T) {
	sup := startSupervisor(t, 2, "serve", restarting)
	victim := sup.Replicas()[1]
	if err := syscall.Kill(victim.Pid, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	again := replicaAgain(t, sup, 1, victim)
	if again.Addr != victim.Addr {
		t.Fatalf("replica 1 came back on %s, want its port %s", again.Addr, victim.Addr)
	}
	if st := getStatus(t, again.Addr); st.Replica != 1 {
		t.Errorf("GET /status on the old port answers replica %d", st.Replica)
	}
	var procs sandbox.Processes
	testenv.Eventually(t, 10*time.Second, "the processes file names the new pid", func() bool {
		var err error
		procs, err = sandbox.ReadProcesses(sup.Dir())
		return err == nil && len(procs.Replicas) == 2 && procs.Replicas[1].Pid == again.Pid
	})
	if procs.Restarts != 1 || procs.Replicas[0] != sup.Replicas()[0] || len(procs.Redis) != 1 {
		t.Errorf("processes file: %+v", procs)
	}
	select {
	case <-sup.Done():
		t.Fatalf("the supervisor ended: %v", sup.Wait())
	default:
	}
	started := sup.Running()
	sup.Stop()
	assertGone(t, append(started, victim))
	if _, err := sandbox.ReadProcesses(sup.Dir()); err == nil {
		t.Error("the processes file is still there after Stop")
	}
}

// TestSupervisorRestartsRedisWithoutItsData: a started redis-server that is killed comes back
// on its port, empty.
func TestSupervisorRestartsRedisWithoutItsData(t *testing.T) {
	sup := startSupervisor(t, 1, "serve", restarting)
	opt, err := redis.ParseURL(sup.RedisURLs()[0])
	if err != nil {
		t.Fatal(err)
	}
	c := redis.NewClient(opt)
	defer c.Close()
	ctx := context.Background()
	if err := c.Set(ctx, "osctl:test:restart", "1", 0).Err(); err != nil {
		t.Fatal(err)
	}
	var old sandbox.Process
	for _, p := range sup.Running() {
		if p.Kind == "redis-server" {
			old = p
		}
	}
	if err := syscall.Kill(old.Pid, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	testenv.Eventually(t, 20*time.Second, "redis-server started again", func() bool {
		procs, err := sandbox.ReadProcesses(sup.Dir())
		return err == nil && len(procs.Redis) == 1 && procs.Redis[0].Pid != old.Pid && procs.Redis[0].Addr == old.Addr
	})
	if n, err := c.Exists(ctx, "osctl:test:restart").Result(); err != nil || n != 0 {
		t.Errorf("after the restart EXISTS says %d (%v), want 0: the data must be gone", n, err)
	}
	select {
	case <-sup.Done():
		t.Fatalf("the supervisor ended: %v", sup.Wait())
	default:
	}
}

// TestSupervisorGivesUpOnACrashLoop: the sixth death of one replica within a minute ends the
// supervisor, naming it.
func TestSupervisorGivesUpOnACrashLoop(t *testing.T) {
	sup := startSupervisor(t, 1, "serve", restarting)
	for i := 0; i < 6; i++ {
		victim := sup.Replicas()[0]
		if err := syscall.Kill(victim.Pid, syscall.SIGKILL); err != nil {
			t.Fatal(err)
		}
		if i < 5 {
			replicaAgain(t, sup, 0, victim)
		}
	}
	select {
	case <-sup.Done():
	case <-time.After(20 * time.Second):
		t.Fatal("the supervisor did not give up on a replica killed six times")
	}
	var exit *sandbox.ExitError
	if err := sup.Wait(); err == nil || !errors.As(err, &exit) || exit.Process.Index != 0 {
		t.Fatalf("Wait: %v, want replica 0", err)
	}
	if sup.Restarts() != 5 {
		t.Errorf("Restarts() = %d, want 5 (the sixth death is not restarted)", sup.Restarts())
	}
}
