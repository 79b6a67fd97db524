package rails_test

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/osctl/osctl/internal/testenv"
	"github.com/osctl/osctl/pkg/lock"
)

// section is one critical section, by either language.
type section struct {
	lang, who   string
	token       int64
	enter, exit int64 // CLOCK_MONOTONIC ns
	alone       bool  // the SET NX inside marker succeeded: nobody else was inside
}

// TestCrossLanguageMutualExclusion has a Ruby process (two threads on osctl_lock.rb) and this Go
// process (two goroutines on pkg/lock) hammer one key over three masters, each section doing a
// slow read-modify-write of a shared counter. No two sections overlap (by the inside marker and
// by their times), no update is lost, and the fencing tokens, in the order the sections ran, rise
// strictly across both languages.
func TestCrossLanguageMutualExclusion(t *testing.T) {
	t.Parallel()
	const rounds, threads = 30, 2
	masters := testenv.StartRedisMasters(t, 3)
	state := testenv.StartRedis(t)
	urls := testenv.URLs(masters)
	key := lock.Key("xlang-"+strconv.FormatInt(time.Now().UnixNano(), 36), "analysis_zip")

	rb := startDriver(t, "contend", "OSCTL_URLS="+strings.Join(urls, ","), "STATE_URL="+state.URL(),
		"KEY="+key, fmt.Sprintf("ROUNDS=%d", rounds), fmt.Sprintf("THREADS=%d", threads))
	rb.waitFor("ready", 30*time.Second)

	// Bounds the Go side: a broken lock (one that never excludes, or never frees) fails the test
	// in minutes instead of retrying for longer.
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	var mu sync.Mutex
	var sections []section
	var goErrs []error
	var wg sync.WaitGroup
	start := make(chan struct{})
	for g := range threads {
		l, err := lock.New(testenv.Clients(masters), lock.WithTTL(lock.MinTTL), lock.WithTries(2000), lock.WithRetryDelay(10*time.Millisecond))
		if err != nil {
			t.Fatal(err)
		}
		st := state.Client()
		who := fmt.Sprintf("go-%d", g)
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			for range rounds {
				lease, err := l.Acquire(ctx, key)
				if err != nil {
					mu.Lock()
					goErrs = append(goErrs, err)
					mu.Unlock()
					continue
				}
				s := section{lang: "go", who: who, token: lease.Token(), enter: monoNow(t)}
				alone, err1 := st.SetNX(ctx, "inside", who, 0).Result()
				v, err2 := st.Get(ctx, "counter").Int64()
				if errors.Is(err2, redis.Nil) {
					err2 = nil
				}
				time.Sleep(time.Duration(time.Now().UnixNano()%4) * time.Millisecond)
				err3 := st.Set(ctx, "counter", v+1, 0).Err()
				if alone {
					_ = st.Del(ctx, "inside").Err()
				}
				s.exit, s.alone = monoNow(t), alone
				rerr := lease.Release(ctx)
				mu.Lock()
				sections = append(sections, s)
				if err := errors.Join(err1, err2, err3, rerr); err != nil {
					goErrs = append(goErrs, err)
				}
				mu.Unlock()
				time.Sleep(2*time.Millisecond + time.Duration(time.Now().UnixNano()%8)*time.Millisecond)
			}
		}()
	}
	if _, err := rb.stdin.Write([]byte("go\n")); err != nil {
		t.Fatal(err)
	}
	close(start)
	wg.Wait()

	var rubyErrs []string
	deadline := time.Now().Add(3 * time.Minute) // the Ruby side's bound, as ctx is the Go side's
	for done := false; !done; {
		e := rb.next(time.Until(deadline))
		switch {
		case e.str("event") == "done":
			done = true
		case e.str("error") != "":
			rubyErrs = append(rubyErrs, e.str("error"))
		case e.str("lang") == "ruby":
			alone, _ := e["alone"].(bool)
			sections = append(sections, section{lang: "ruby", who: e.str("who"), token: e.num("token"), enter: e.num("enter"), exit: e.num("exit"), alone: alone})
		default:
			t.Fatalf("unexpected event from driver.rb: %v", e)
		}
	}
	if len(goErrs) > 0 || len(rubyErrs) > 0 {
		t.Fatalf("errors: go %v; ruby %v", goErrs, rubyErrs)
	}

	want := 2 * rounds * threads
	if len(sections) != want {
		t.Fatalf("%d sections ran, want %d", len(sections), want)
	}
	counter, err := state.Client().Get(context.Background(), "counter").Int()
	if err != nil {
		t.Fatal(err)
	}
	if counter != want {
		t.Errorf("shared counter is %d after %d read-modify-write sections: %d updates lost", counter, want, want-counter)
	}
	sort.Slice(sections, func(i, j int) bool { return sections[i].enter < sections[j].enter })
	switches := 0
	for i, s := range sections {
		if !s.alone {
			t.Errorf("section %d (%s, token %d) found another holder inside", i, s.who, s.token)
		}
		if i == 0 {
			continue
		}
		p := sections[i-1]
		if s.enter < p.exit {
			t.Errorf("sections overlap: %s (token %d) entered %v before %s (token %d) left", s.who, s.token, time.Duration(p.exit-s.enter), p.who, p.token)
		}
		if s.token <= p.token {
			t.Errorf("fencing tokens not increasing: %s got %d after %s's %d", s.who, s.token, p.who, p.token)
		}
		if s.lang != p.lang {
			switches++
		}
	}
	t.Logf("redis gem %s: %d sections (%d per language), the lock passed between Ruby and Go %d times, tokens %d..%d, counter %d",
		version, len(sections), want/2, switches, sections[0].token, sections[len(sections)-1].token, counter)
	if switches < 4 {
		t.Errorf("the lock passed between the languages only %d times: the contention was not real", switches)
	}
}

// TestRubyRunsPkgLockScripts checks that the module's Lua scripts are pkg/lock's, byte for byte:
// after pkg/lock acquired (fencing), renewed and released on fresh masters, each master's script
// cache holds the SHA1 of every script the Ruby module sends.
func TestRubyRunsPkgLockScripts(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	masters := testenv.StartRedisMasters(t, 3)
	clients := testenv.Clients(masters)
	for _, c := range clients {
		if err := c.ScriptFlush(ctx).Err(); err != nil {
			t.Fatal(err)
		}
	}
	l, err := lock.New(clients, lock.WithTTL(lock.MinTTL), lock.WithRenewEvery(100*time.Millisecond))
	if err != nil {
		t.Fatal(err)
	}
	lease, err := l.Acquire(ctx, lock.Key("scripts", "analysis_zip"))
	if err != nil {
		t.Fatal(err)
	}
	old := lease.Validity()
	testenv.WaitFor(t, 10*time.Second, "a pkg/lock renewal", func() (bool, error) { return lease.Validity().After(old), lease.Err() })
	if err := lease.Release(ctx); err != nil {
		t.Fatal(err)
	}
	shas := driverEvents(t, 30*time.Second, "shas")[0]
	for _, name := range []string{"del_if_value", "set_if_greater", "touch"} {
		sha := shas.str(name)
		for i, c := range clients {
			// Release returns on a quorum; the last master may get its delete a moment later.
			testenv.WaitFor(t, 5*time.Second, fmt.Sprintf("script %s (%s) on master %d", name, sha, i), func() (bool, error) {
				ok, err := c.ScriptExists(ctx, sha).Result()
				return err == nil && ok[0], err
			})
		}
	}
}
