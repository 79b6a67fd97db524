package ops

import (
	"context"
	"fmt"
	"time"

	"github.com/osctl/osctl/pkg/lock"
	"github.com/osctl/osctl/pkg/redact"
	"github.com/osctl/osctl/pkg/redisconn"
)

// DefaultRetryWindow is how long inspect waits before re-reading a key held on fewer masters
// than a quorum: an acquisition in progress finishes (or gives up and releases) within it.
const DefaultRetryWindow = 2 * time.Second

// DefaultBatch is how many keys one SCAN asks for and one pipeline reads.
const DefaultBatch = 1000

// Options configure Inspect.
type Options struct {
	// Patterns are SCAN MATCH globs. The default is DefaultPatterns.
	Patterns []string
	// Keys, when set, are read directly instead of scanning Patterns.
	Keys []string
	// RetryWindow is the wait before the second read of a minority key. The default is
	// DefaultRetryWindow.
	RetryWindow time.Duration
	// MaxTTL is passed to Classify. The default is lock.MaxTTL.
	MaxTTL time.Duration
	// Pods, when set, checks whether the pod named by an osctl holder value is gone from the
	// namespace the value records (values without one are never judged gone).
	Pods PodChecker
	// Batch is the SCAN COUNT and pipeline size. The default is DefaultBatch.
	Batch int
	// Explain turns a master's error into one redacted line. The default names the master and
	// the error text.
	Explain func(redisconn.Master, error) string
	// Now is the clock. The default is time.Now.
	Now func() time.Time
}

// MasterStatus is whether one master could be read.
type MasterStatus struct {
	Name string `json:"name"`
	// Kind is standalone, cluster or sentinel.
	Kind  redisconn.Kind `json:"kind"`
	Error string         `json:"error,omitempty"`
	// Nodes are the servers read: the master itself, a cluster's primary shards, or the master
	// the sentinels named (host:port), each with its error when it did not answer.
	Nodes []NodeStatus `json:"nodes,omitempty"`
	// RTT is the slowest round trip of the PINGs that opened the inspection (0 when they failed).
	RTT time.Duration `json:"-"`
}

// Partial reports whether some but not all of the master's servers could be read (a cluster
// with a shard down).
func (m MasterStatus) Partial() bool {
	if m.Error != "" {
		return false
	}
	for _, n := range m.Nodes {
		if n.Error != "" {
			return true
		}
	}
	return false
}

// Summary is what Inspect found besides the views it emitted.
type Summary struct {
	Masters  []MasterStatus `json:"masters"`
	Keys     int            `json:"keys"`
	Stale    int            `json:"stale"`
	Warnings []string       `json:"warnings,omitempty"`
}

// Down counts the masters that could not be read, wholly or in part (a cluster's shard).
func (s Summary) Down() int {
	n := 0
	for _, m := range s.Masters {
		if m.Error != "" || m.Partial() {
			n++
		}
	}
	return n
}

// NoMasterError is returned when no master answered: Inspect could not do its job.
type NoMasterError struct{ Errors []string }

func (e *NoMasterError) Error() string {
	if len(e.Errors) == 1 {
		return e.Errors[0]
	}
	return fmt.Sprintf("none of the %d Redis masters answered; first: %s", len(e.Errors), e.Errors[0])
}

// Inspect reads every key matching the patterns (or the given keys) on every master and calls
// emit with one classified view per key. Memory stays flat: keys are scanned in batches, each
// batch is read from every master and emitted before the next is scanned; only keys held on
// fewer masters than a quorum wait (key and value) for their second read. A key seen on several
// masters is emitted once, by the first master that holds it. Inspect fails only when no
// master answers or emit fails; a master that is down is reported in the Summary and in every
// view's holdings.
func Inspect(ctx context.Context, masters []redisconn.Master, o Options, emit func(View) error) (Summary, error) {
	in := newInspection(masters, o)
	return in.run(ctx, emit)
}

type pending struct {
	key, value string
}

type inspection struct {
	o       Options
	r       *reader
	pods    map[string]bool // namespace/pod -> known gone
	sum     Summary
	pending []pending
	lastAt  time.Time
	podWarn map[string]bool // namespaces already warned about
}

func newInspection(masters []redisconn.Master, o Options) *inspection {
	if len(o.Patterns) == 0 {
		o.Patterns = DefaultPatterns
	}
	if o.RetryWindow <= 0 {
		o.RetryWindow = DefaultRetryWindow
	}
	if o.MaxTTL <= 0 {
		o.MaxTTL = lock.MaxTTL
	}
	if o.Batch <= 0 {
		o.Batch = DefaultBatch
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	return &inspection{o: o, r: newReader(masters, o.Explain, o.Now), pods: map[string]bool{}, podWarn: map[string]bool{}}
}

func (in *inspection) run(ctx context.Context, emit func(View) error) (Summary, error) {
	in.r.ping(ctx)
	if err := in.checkUp(ctx); err != nil {
		return in.summary(), err
	}
	handle := func(v View) error { return in.handle(ctx, v, emit) }
	var err error
	if len(in.o.Keys) > 0 {
		err = in.readKeys(ctx, in.o.Keys, handle)
	} else {
		err = in.scan(ctx, handle)
	}
	if err == nil {
		err = in.secondRead(ctx, emit)
	}
	if err == nil {
		err = in.checkUp(ctx)
	}
	return in.summary(), err
}

func (in *inspection) checkUp(ctx context.Context) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if in.r.up() > 0 {
		return nil
	}
	return &NoMasterError{Errors: in.r.down}
}

func (in *inspection) summary() Summary {
	s := in.sum
	s.Masters = make([]MasterStatus, len(in.r.masters))
	for i, m := range in.r.masters {
		s.Masters[i] = MasterStatus{Name: m.Name, Kind: m.KindOf(), Error: in.r.down[i], RTT: in.r.rtt[i]}
		for _, n := range in.r.nodes[i] {
			s.Masters[i].Nodes = append(s.Masters[i].Nodes, n.NodeStatus)
		}
	}
	return s
}

func (in *inspection) readKeys(ctx context.Context, keys []string, handle func(View) error) error {
	for start := 0; start < len(keys); start += in.o.Batch {
		batch := keys[start:min(start+in.o.Batch, len(keys))]
		for _, v := range in.r.fetch(ctx, batch) {
			if !v.present() {
				continue
			}
			if err := handle(v); err != nil {
				return err
			}
		}
		if err := ctx.Err(); err != nil {
			return err
		}
	}
	return nil
}

// scan walks every pattern on every master (on a cluster, on every primary shard: a SCAN sees
// only its own node's keys). A key is handled by the first pattern that matches it and by the
// first master that holds it, so no set of seen keys is kept. The next SCAN batch is fetched
// while the current one is read from the masters.
func (in *inspection) scan(ctx context.Context, handle func(View) error) error {
	seen := make(map[string]struct{}, in.o.Batch)
	for pi, pat := range in.o.Patterns {
		for mi, m := range in.r.masters {
			if in.r.down[mi] != "" {
				continue
			}
			if m.KindOf() != redisconn.Cluster {
				s := scanner{
					step: func(ctx context.Context, cursor uint64) ([]string, uint64, []View, error) {
						return in.r.scanRead(ctx, mi, cursor, pat, in.o.Batch)
					},
					fail:    func(err error) { in.r.down[mi] = in.r.explain(m, err) },
					stopped: func() bool { return in.r.down[mi] != "" },
				}
				if err := in.scanMaster(ctx, pi, mi, s, seen, handle); err != nil {
					return err
				}
				continue
			}
			for ni := range in.r.nodes[mi] {
				n := &in.r.nodes[mi][ni]
				if n.Error != "" {
					continue
				}
				s := scanner{
					step: func(ctx context.Context, cursor uint64) ([]string, uint64, []View, error) {
						keys, next, err := n.client.Scan(ctx, cursor, pat, int64(in.o.Batch)).Result()
						return keys, next, nil, err
					},
					fail:    func(err error) { n.Error = in.r.nodeError(m, n.Addr, err) },
					stopped: func() bool { return n.Error != "" },
				}
				if err := in.scanMaster(ctx, pi, mi, s, seen, handle); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

type readBatch struct {
	views []View
	err   error // ctx error only; a failed master is recorded in the reader
}

// scanner is one SCAN over one server: step returns the keys of one step (and, where the
// server read them in the same round trip, their holdings on it), fail records that the
// server failed, stopped says it did.
type scanner struct {
	step    func(ctx context.Context, cursor uint64) (keys []string, next uint64, read []View, err error)
	fail    func(error)
	stopped func() bool
}

// scanMaster scans one pattern on one server of master mi. A goroutine scans and reads batch
// N+1 from the masters while batch N is classified and emitted; at most two batches are in
// memory.
func (in *inspection) scanMaster(ctx context.Context, pi, mi int, s scanner, seen map[string]struct{}, handle func(View) error) error {
	sctx, cancel := context.WithCancel(ctx)
	defer cancel()
	batches := make(chan readBatch, 1)
	go func() {
		defer close(batches)
		var cursor uint64
		for {
			keys, next, read, err := s.step(sctx, cursor)
			if err != nil {
				if sctx.Err() != nil {
					batches <- readBatch{err: sctx.Err()}
					return
				}
				s.fail(err)
				return
			}
			clear(seen)
			batch := keys[:0]
			var pre []View // master mi's holdings already read by the step
			for k, key := range keys {
				if _, dup := seen[key]; dup || matchesEarlier(in.o.Patterns[:pi], key) {
					continue
				}
				seen[key] = struct{}{}
				batch = append(batch, key)
				if read != nil {
					pre = append(pre, read[k])
				}
			}
			var views []View
			switch {
			case len(batch) == 0:
			case read != nil:
				views = in.r.fetchExcept(sctx, batch, mi, pre)
			default:
				views = in.r.fetch(sctx, batch)
			}
			select {
			case batches <- readBatch{views: views, err: sctx.Err()}:
			case <-sctx.Done():
				return
			}
			if next == 0 || s.stopped() || sctx.Err() != nil {
				return
			}
			cursor = next
		}
	}()
	for b := range batches {
		if b.err != nil {
			cancel()
			for range batches { // let the goroutine finish before the reader is used again
			}
			return b.err
		}
		for _, v := range b.views {
			if !v.present() || heldEarlier(v, mi) {
				continue
			}
			if err := handle(v); err != nil {
				cancel()
				for range batches {
				}
				return err
			}
		}
	}
	return nil
}

func matchesEarlier(patterns []string, key string) bool {
	for _, p := range patterns {
		if Match(p, key) {
			return true
		}
	}
	return false
}

func heldEarlier(v View, mi int) bool {
	for j := 0; j < mi; j++ {
		if v.Holdings[j].Present {
			return true
		}
	}
	return false
}

// handle classifies a first read; a minority key waits for its second read.
func (in *inspection) handle(ctx context.Context, v View, emit func(View) error) error {
	if Minority(v) && !in.noTTL(v) && in.holderGone(ctx, v) == "" && v.Type == "string" {
		in.pending = append(in.pending, pending{key: v.Key, value: v.Value})
		in.lastAt = time.UnixMilli(v.ReadAtUnixMs)
		return nil
	}
	v.Verdict = Classify(v, Conditions{MaxTTL: in.o.MaxTTL, HolderGone: in.holderGone(ctx, v)})
	return in.emit(v, emit)
}

func (in *inspection) noTTL(v View) bool {
	for _, h := range v.Holdings {
		if h.Present && h.TTLMillis == NoTTL {
			return true
		}
	}
	return false
}

func (in *inspection) emit(v View, emit func(View) error) error {
	in.sum.Keys++
	if v.Verdict.Status == StatusStale {
		in.sum.Stale++
	}
	return emit(v)
}

// secondRead re-reads the minority keys once the retry window has passed since the last of
// them was first read.
func (in *inspection) secondRead(ctx context.Context, emit func(View) error) error {
	if len(in.pending) == 0 {
		return nil
	}
	if wait := in.lastAt.Add(in.o.RetryWindow).Sub(in.o.Now()); wait > 0 {
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			t.Stop()
			return ctx.Err()
		case <-t.C:
		}
	}
	first := make(map[string]string, len(in.pending))
	keys := make([]string, len(in.pending))
	for i, p := range in.pending {
		first[p.key] = p.value
		keys[i] = p.key
	}
	in.pending = nil
	return in.readKeys(ctx, keys, func(v View) error {
		c := Conditions{MaxTTL: in.o.MaxTTL, SecondRead: true, Window: in.o.RetryWindow, HolderGone: in.holderGone(ctx, v)}
		c.MinorityConfirmed = Minority(v) && v.Value == first[v.Key]
		v.Verdict = Classify(v, c)
		return in.emit(v, emit)
	})
}

// holderGone returns "<pod> in namespace <ns>" when v's value is an osctl holder that records
// its namespace, names a pod, and that pod is known gone from that namespace. Every other holder
// (a host name, a value without a namespace, a namespace that is not there or cannot be read, a
// failed lookup) is unknown, never gone. Lookups are cached for the run; a failed one is a
// warning, once per namespace.
func (in *inspection) holderGone(ctx context.Context, v View) string {
	if in.o.Pods == nil || v.Holder == nil || v.Holder.Namespace == "" || !lock.IsPodName(v.Holder.Host) {
		return ""
	}
	ns, name := v.Holder.Namespace, v.Holder.Host
	id := ns + "/" + name
	gone, ok := in.pods[id]
	if !ok {
		var err error
		gone, err = in.o.Pods.PodGone(ctx, ns, name)
		if err != nil {
			if !in.podWarn[ns] && len(in.podWarn) < maxPodWarnings {
				in.sum.Warnings = append(in.sum.Warnings, "cannot check holder pods in namespace "+ns+" ("+redact.Text(err.Error())+"): their locks wait for their TTL")
				in.podWarn[ns] = true
			}
			gone = false
		}
		in.pods[id] = gone
	}
	if !gone {
		return ""
	}
	return name + " in namespace " + ns
}

// maxPodWarnings bounds the warnings about namespaces whose pods could not be checked.
const maxPodWarnings = 10
