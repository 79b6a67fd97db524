package lock_test

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net/http"
	"net/url"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/osctl/osctl/pkg/lock"
)

// Environment of a safety-test worker process (the test binary re-executed by TestMain).
const (
	workerEnv         = "OSCTL_LOCK_TEST_WORKER"   // worker number; set only in workers
	workerMastersEnv  = "OSCTL_LOCK_TEST_MASTERS"  // comma-separated redis:// URLs
	workerResourceEnv = "OSCTL_LOCK_TEST_RESOURCE" // base URL of the fenced resource
	workerKeyEnv      = "OSCTL_LOCK_TEST_KEY"
	workerRunEnv      = "OSCTL_LOCK_TEST_RUN"    // how long to contend, a Go duration
	workerZombieEnv   = "OSCTL_LOCK_TEST_ZOMBIE" // every Nth acquisition ignores its lease (0: never)
	workerSemEnv      = "OSCTL_LOCK_TEST_SEM"    // semaphore limit: run the semaphore worker instead
	workerTTL         = time.Second
)

// workerSummary is what a worker prints on stdout when it is done.
type workerSummary struct {
	Worker            int      `json:"worker"`
	Acquired          int      `json:"acquired"`
	NotAcquired       int      `json:"not_acquired"`
	Lost              int      `json:"lost"`    // leases whose context was cancelled inside the section
	Zombies           int      `json:"zombies"` // sections that deliberately kept writing after their lease ended
	Accepted          int      `json:"accepted"`
	Rejected          int      `json:"rejected"`
	RejectedWhileLive int      `json:"rejected_while_live"` // rejected although the lease said it was held
	LostCauses        []string `json:"lost_causes,omitempty"`
	ReleaseLost       int      `json:"release_lost"`
}

// runWorker contends for one key until its run time is over. Each critical section writes
// begin, mid and end to the resource with its fencing token. A zombie section cancels its
// acquisition context right after begin (which stops renewal, as a paused or buggy process
// would), ignores that, sleeps past the TTL, and writes again: the resource must reject those
// writes once someone else has written with a newer token.
func runWorker() int {
	if os.Getenv(workerSemEnv) != "" {
		return runSemWorker()
	}
	id, _ := strconv.Atoi(os.Getenv(workerEnv))
	zombieEvery, _ := strconv.Atoi(os.Getenv(workerZombieEnv))
	run, masters, err := workerSetup()
	if err != nil {
		fmt.Fprintln(os.Stderr, "worker:", err)
		return 2
	}
	l, err := lock.New(masters, lock.WithTTL(workerTTL), lock.WithAnyTTL(), lock.WithRenewEvery(250*time.Millisecond),
		lock.WithHost(fmt.Sprintf("worker-%d", id)), lock.WithRetryDelay(20*time.Millisecond))
	if err != nil {
		fmt.Fprintln(os.Stderr, "worker:", err)
		return 2
	}
	res := os.Getenv(workerResourceEnv)
	key := os.Getenv(workerKeyEnv)
	hc := &http.Client{Timeout: 5 * time.Second}
	sum := workerSummary{Worker: id}
	write := func(lease *lock.Lease, phase string, zombie bool) {
		live := lease.Err() == nil
		resp, err := hc.PostForm(res+"/write", url.Values{
			"holder": {lease.Value()}, "token": {strconv.FormatInt(lease.Token(), 10)},
			"phase": {phase}, "zombie": {strconv.FormatBool(zombie)}, "live": {strconv.FormatBool(live)},
		})
		if err != nil {
			fmt.Fprintln(os.Stderr, "worker: write:", err)
			return
		}
		resp.Body.Close()
		if phase == "abandon" {
			return
		}
		if resp.StatusCode == http.StatusOK {
			sum.Accepted++
			return
		}
		sum.Rejected++
		if live {
			sum.RejectedWhileLive++
		}
	}
	deadline := time.Now().Add(run)
	for iter := 0; time.Now().Before(deadline); iter++ {
		actx, cancel := context.WithDeadline(context.Background(), deadline)
		lease, err := l.Acquire(actx, key)
		if err != nil {
			cancel()
			sum.NotAcquired++
			continue
		}
		sum.Acquired++
		if zombieEvery > 0 && iter%zombieEvery == zombieEvery-1 {
			sum.Zombies++
			write(lease, "begin", true)
			cancel() // renewal stops; the lease context ends; the zombie does not look
			time.Sleep(workerTTL + 300*time.Millisecond)
			write(lease, "mid", true)
			write(lease, "end", true)
			_ = lease.Release(context.Background())
			continue
		}
		write(lease, "begin", false)
		lost := false
		for _, phase := range []string{"mid", "end"} {
			time.Sleep(time.Duration(rand.IntN(15)) * time.Millisecond)
			if lease.Context().Err() != nil {
				lost = true
				break
			}
			write(lease, phase, false)
		}
		if lost {
			sum.Lost++
			sum.LostCauses = append(sum.LostCauses, lease.Err().Error())
			// Tell the resource this section is over: it stopped writing when told.
			write(lease, "abandon", false)
		}
		if err := lease.Release(context.Background()); err != nil && !lost {
			sum.ReleaseLost++
		}
		cancel()
	}
	_ = json.NewEncoder(os.Stdout).Encode(sum)
	return 0
}

// workerSetup reads the worker's run time and connects to the masters named in the environment.
func workerSetup() (time.Duration, []redis.UniversalClient, error) {
	run, err := time.ParseDuration(os.Getenv(workerRunEnv))
	if err != nil {
		return 0, nil, fmt.Errorf("bad run time: %v", err)
	}
	var masters []redis.UniversalClient
	for _, u := range strings.Split(os.Getenv(workerMastersEnv), ",") {
		o, err := redis.ParseURL(u)
		if err != nil {
			return 0, nil, fmt.Errorf("bad master URL: %v", err)
		}
		// As docs/locking.md recommends: give up on a dead master at once.
		o.DialTimeout, o.DialerRetries, o.MaxRetries, o.ContextTimeoutEnabled = 200*time.Millisecond, 1, -1, true
		masters = append(masters, redis.NewClient(o))
	}
	return run, masters, nil
}

// semSummary is what a semaphore worker prints when it is done.
type semSummary struct {
	Admitted int `json:"admitted"`
	Errors   int `json:"errors"`
}

// runSemWorker takes permits of one semaphore in two goroutines until its run time is over and
// tells the resource when it enters and leaves, so that the test process counts holders.
func runSemWorker() int {
	limit, _ := strconv.Atoi(os.Getenv(workerSemEnv))
	run, masters, err := workerSetup()
	if err != nil {
		fmt.Fprintln(os.Stderr, "worker:", err)
		return 2
	}
	sem, err := lock.NewSemaphore(masters, "safety", limit, lock.WithRetryDelay(20*time.Millisecond))
	if err != nil {
		fmt.Fprintln(os.Stderr, "worker:", err)
		return 2
	}
	res := os.Getenv(workerResourceEnv)
	hc := &http.Client{Timeout: 5 * time.Second}
	ctx, cancel := context.WithTimeout(context.Background(), run)
	defer cancel()
	var mu sync.Mutex
	var sum semSummary
	var wg sync.WaitGroup
	for range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for ctx.Err() == nil {
				p, err := sem.Acquire(ctx)
				if err != nil {
					if ctx.Err() == nil {
						mu.Lock()
						sum.Errors++
						mu.Unlock()
					}
					continue
				}
				mu.Lock()
				sum.Admitted++
				mu.Unlock()
				post(hc, res+"/enter", p.ID())
				time.Sleep(time.Duration(rand.IntN(15)) * time.Millisecond)
				post(hc, res+"/leave", p.ID())
				_ = p.Release(context.Background())
			}
		}()
	}
	wg.Wait()
	_ = json.NewEncoder(os.Stdout).Encode(sum)
	return 0
}

func post(hc *http.Client, u, id string) {
	resp, err := hc.PostForm(u, url.Values{"id": {id}})
	if err != nil {
		fmt.Fprintln(os.Stderr, "worker:", err)
		return
	}
	resp.Body.Close()
}
