package sandbox

import (
	"math"
	"strings"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
)

func TestReplicaMaxActiveAndJobDuration(t *testing.T) {
	cases := []struct {
		cfg      Config
		limit    int
		duration time.Duration
	}{
		{Config{Queue: QueueLocal, MaxActive: 2, Replicas: 2, Replica: 1}, 2, time.Second},
		{Config{Queue: QueueSplit, MaxActive: 2, Replicas: 2, Replica: 1, JobDuration: 300 * time.Millisecond, JobDurationSkew: 1}, 1, 600 * time.Millisecond},
		{Config{Queue: QueueSplit, MaxActive: 5, Replicas: 2}, 2, time.Second},
		{Config{Queue: QueueSplit, MaxActive: 3, Replicas: 2, Replica: 0, JobDurationSkew: 4}, 1, time.Second},
		// More replicas than the ceiling: each still admits one (the naive fix overshoots).
		{Config{Queue: QueueSplit, MaxActive: 2, Replicas: 3, Replica: 2, JobDurationSkew: 0.5}, 1, 2 * time.Second},
		{Config{Queue: QueueSplit, MaxActive: 2}, 2, time.Second},
		{Config{Queue: QueueShared, MaxActive: 2, Replicas: 2, Replica: 1, JobDurationSkew: 2}, 0, 3 * time.Second},
	}
	for _, c := range cases {
		cfg := c.cfg.withDefaults()
		if got := cfg.replicaMaxActive(); got != c.limit {
			t.Errorf("queue %s, max active %d, %d replicas: replica admits %d, want %d", cfg.Queue, cfg.MaxActive, cfg.Replicas, got, c.limit)
		}
		if got := cfg.replicaJobDuration(); got != c.duration {
			t.Errorf("replica %d, skew %v: jobs run %v, want %v", cfg.Replica, cfg.JobDurationSkew, got, c.duration)
		}
	}
}

func TestValidateReplicaCountAndSkew(t *testing.T) {
	cases := []struct {
		cfg  Config
		want string
	}{
		{Config{StateDir: "x", Queue: "global"}, `queue mode "global" is not local, split or shared`},
		{Config{StateDir: "x", Locking: "fenced"}, `locking mode "fenced" is not none, local, redlock or redlock-nofence`},
		{Config{StateDir: "x", Replica: 1}, "replica index 1 must be at least 0 and below the replica count 1"},
		{Config{StateDir: "x", Replica: 2, Replicas: 2}, "replica index 2"},
		{Config{StateDir: "x", Replicas: -1}, "replica count -1"},
		{Config{StateDir: "x", JobDurationSkew: -0.5}, "job duration skew -0.5"},
		{Config{StateDir: "x", JobDurationSkew: 101}, "job duration skew 101"},
	}
	for _, c := range cases {
		if err := c.cfg.Validate(); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: %v, want %q", c.cfg, err, c.want)
		}
	}
	master := []redis.UniversalClient{redis.NewClient(&redis.Options{Addr: "127.0.0.1:1"})} // never dialled by Validate
	if err := (Config{StateDir: "x", Queue: QueueSplit, Replica: 1, Replicas: 2, JobDurationSkew: 3, Masters: master}).Validate(); err != nil {
		t.Errorf("a split queue replica: %v", err)
	}
	if err := (Config{StateDir: "x", Locking: LockingRedlockNoFence, Masters: master}).Validate(); err != nil {
		t.Errorf("a redlock-nofence replica: %v", err)
	}
	for _, c := range []struct {
		cfg  Config
		want string
	}{
		{Config{StateDir: "x"}, "no Redis master given: the background worker takes InitializeAnalysis jobs from Redis"},
		{Config{StateDir: "x", Masters: master, DropCreates: 1.5}, "drop fraction 1.5 must be 0 to 1"},
		{Config{StateDir: "x", Masters: master, DropCreates: math.NaN()}, "drop fraction NaN"},
		{Config{StateDir: "x", Masters: master, BackgroundInterval: -time.Second}, "background interval -1s must not be negative"},
	} {
		if err := c.cfg.Validate(); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: %v, want %q", c.cfg, err, c.want)
		}
	}
}
