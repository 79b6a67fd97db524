// Command elb-openapi runs the real elb-openapi (third_party/elb-openapi-352a1f4) on loopback
// with faked kubectl, azcopy, az and elastic-blast, as osctl's tests do (internal/testenv/elbenv),
// for a person to point `osctl stress --profile jobs` at (docs/migration/jobs.md). It prints one
// JSON line, {"replicas":[URL,...],"dir":DIR}, then runs until interrupted, and stops every
// replica it started (by pid). The API token is the ELB_OPENAPI_API_TOKEN of its environment (it
// is never printed); without one the service runs unauthenticated.
//
//	make elb-openapi                                      # 2 replicas, each with a ceiling of 1
//	make elb-openapi ARGS='--max-active 2 --latency 800ms'
//
// (`make elb-openapi` builds it into bin/ and runs it. Under `go run`, a SIGTERM reaches go run,
// not this command: build it, or stop it with Ctrl-C.)
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/osctl/osctl/internal/testenv/elbenv"
)

func main() {
	var o elbenv.Options
	flag.IntVar(&o.Replicas, "replicas", 2, "uvicorn processes (each its own queue and ceiling, as upstream's pods)")
	flag.IntVar(&o.MaxActive, "max-active", 1, "ELB_OPENAPI_MAX_ACTIVE_SUBMISSIONS of each replica")
	flag.DurationVar(&o.JobDuration, "job-duration", time.Second, "how long each elastic-blast run stays active")
	flag.DurationVar(&o.Latency, "latency", 100*time.Millisecond, "how long every kubectl, azcopy, az and elastic-blast call takes")
	flag.DurationVar(&o.FirstUploadStall, "first-upload-stall", 0, "extra time the first upload to the storage account takes (the first submit's query upload stalls, its replay's does not)")
	flag.DurationVar(&o.DispatchInterval, "dispatch-interval", 5*time.Second, "ELB_OPENAPI_DISPATCH_INTERVAL_SECONDS (whole seconds)")
	flag.DurationVar(&o.WatchdogInterval, "watchdog-interval", 60*time.Second, "ELB_OPENAPI_WATCHDOG_INTERVAL_SECONDS (whole seconds, 5s or more)")
	flag.StringVar(&o.Dir, "dir", "", "directory for the fakes' state and the replicas' logs (default: a new temporary one, removed at exit)")
	flag.Parse()
	os.Exit(run(o))
}

func run(o elbenv.Options) int {
	o.Token = os.Getenv("ELB_OPENAPI_API_TOKEN")
	if o.Dir == "" {
		d, err := os.MkdirTemp("", "osctl-elb-openapi-")
		if err != nil {
			fmt.Fprintln(os.Stderr, "elb-openapi:", err)
			return 2
		}
		defer os.RemoveAll(d)
		o.Dir = d
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	s, err := elbenv.Up(ctx, o)
	if err != nil {
		fmt.Fprintln(os.Stderr, "elb-openapi:", err)
		return 2
	}
	defer s.Close()
	b, _ := json.Marshal(map[string]any{"replicas": s.Replicas, "dir": o.Dir})
	fmt.Println(string(b))
	if o.Token == "" {
		fmt.Fprintln(os.Stderr, "elb-openapi: no ELB_OPENAPI_API_TOKEN in the environment: the service runs unauthenticated")
	}
	fmt.Fprintf(os.Stderr, "elb-openapi: %d replica(s) of elb-openapi up; logs in %s; Ctrl-C stops them\n", len(s.Replicas), o.Dir)
	<-ctx.Done()
	return 0
}
