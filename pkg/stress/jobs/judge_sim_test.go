package jobs

import (
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/osctl/osctl/pkg/stress/history"
	"github.com/osctl/osctl/pkg/stress/verdict"
)

// A simulation of elb-openapi's dispatcher, in milliseconds, observed the way the jobs profile
// observes it: the real triggers (a claim on a submit, when a submit thread exits, and on each
// replica's tick), finished jobs noticed only by a status read or the watchdog, and requeues.
// The observer's reads are what notice finished jobs, as on the real service.

type simConfig struct {
	replicas     int
	shared       bool // one store and ceiling for every replica (the fixed service)
	limit        int  // active jobs each store admits
	tick         int  // dispatch interval, ms
	watchdog     int  // watchdog interval, ms
	poll         int  // observer's poll interval, ms
	jobs         int
	step         int // submit step, ms
	minDur       int // job run time range, ms
	maxDur       int
	skew         float64 // replica i's jobs run (1+skew*i) times longer
	requeueEvery int
	requeuePhase string
}

type simJob struct {
	id            string
	replica       int // accepted it (and is polled)
	store         int
	status, phase string
	created       int
	claimedBy     int
	stepEnd       int
	runUntil      int
	dead          bool
	requeue       string
	// observation
	nextPoll, readAt, endAt, pollStart int
	polling                            bool
	seen                               string
	seenPhase                          string
	line                               history.Record
}

type sim struct {
	c    simConfig
	rng  *rand.Rand
	t    int
	jobs []*simJob
	h    *history.History
}

func (s *sim) at(ms int) time.Time { return t0.Add(time.Duration(ms) * time.Millisecond) }

func (s *sim) storeOf(replica int) int {
	if s.c.shared {
		return 0
	}
	return replica
}

func (s *sim) dispatchOnce(replica int) bool {
	store := s.storeOf(replica)
	active := 0
	var best *simJob
	for _, j := range s.jobs {
		if j.store != store || j.status == "" {
			continue
		}
		if history.ActiveStates[j.status] {
			active++
		}
		if j.status == "queued" && (best == nil || j.created < best.created) {
			best = j
		}
	}
	if active >= s.c.limit || best == nil {
		return false
	}
	best.status, best.claimedBy, best.stepEnd = "dispatching", replica, s.t+s.c.step
	return true
}

func (s *sim) refresh(j *simJob) {
	switch {
	case j.status == "running" && s.t >= j.runUntil:
		j.status, j.phase = "completed", "completed"
	case j.status == "running":
		j.phase = "running"
	case history.ActiveStates[j.status]:
		j.phase = "submitting"
	}
}

func (s *sim) observe(j *simJob) {
	j.seen, j.seenPhase = j.status, ""
	if j.phase != "" && j.phase != j.status {
		j.seenPhase = j.phase
	}
}

func (s *sim) dur(replica int) int {
	d := s.c.minDur + s.rng.IntN(s.c.maxDur-s.c.minDur+1)
	return int(float64(d) * (1 + s.c.skew*float64(replica)))
}

// runSim submits every job at once (round-robin over the replicas) and runs until every job
// was seen ended.
func runSim(c simConfig, rng *rand.Rand) *history.History {
	s := &sim{c: c, rng: rng, h: &history.History{Header: history.Header{Schema: history.SchemaVersion, Profile: "jobs", Thresholds: verdict.Thresholds{MaxActive: c.limit},
		DispatchInterval: (time.Duration(c.tick) * time.Millisecond).String(), Poll: (time.Duration(c.poll) * time.Millisecond).String()}, Footer: &history.Footer{}}}
	if !c.shared {
		s.h.Header.MaxActive = c.limit // the service-wide ceiling the fixed service would hold
	}
	tickPhase := make([]int, c.replicas)
	wdPhase := make([]int, c.replicas)
	for r := range tickPhase {
		tickPhase[r], wdPhase[r] = rng.IntN(c.tick), rng.IntN(c.watchdog)
	}
	for i := range c.jobs {
		r := i % c.replicas
		s.jobs = append(s.jobs, &simJob{id: fmt.Sprintf("j%03d", i), replica: r, store: s.storeOf(r), created: 10 + i})
	}
	created := map[int]int{}
	for s.t = 0; s.t < 20*60*1000; s.t++ {
		done := true
		for _, j := range s.jobs {
			if j.created == s.t { // the submit: stored queued, then one claim
				j.status = "queued"
				created[j.store]++
				if c.requeueEvery > 0 && created[j.store]%c.requeueEvery == 0 {
					j.requeue = c.requeuePhase
				}
				s.dispatchOnce(j.replica)
				s.observe(j)
				sub := history.Record{Kind: history.KindRequest, Op: history.OpSubmitJob, Seq: int64(len(s.h.Records) + 1), Start: s.at(s.t - 1), End: s.at(s.t),
					Status: 202, Returned: j.id, Outcome: history.Acknowledged}
				s.h.Records = append(s.h.Records, sub)
				j.line = history.Record{Kind: history.KindJob, JobFollow: history.JobFollow{Job: j.id}}
				j.line.AddPoll(j.seen, j.seenPhase, sub.Start, sub.End)
				j.nextPoll = s.t + c.poll
			}
		}
		for _, j := range s.jobs { // submit threads
			switch {
			case j.status == "dispatching" && s.t == j.stepEnd-c.step+1:
				j.status = "submitting"
			case j.status == "submitting" && s.t == j.stepEnd && !j.dead:
				switch j.requeue {
				case "waiting_for_capacity":
					j.status, j.phase, j.requeue = "queued", "waiting_for_capacity", ""
					s.dispatchOnce(j.claimedBy)
				case "recovered":
					j.dead, j.requeue = true, ""
				default:
					j.status, j.phase, j.runUntil = "running", "submitted", s.t+s.dur(j.claimedBy)
					s.dispatchOnce(j.claimedBy)
				}
			}
		}
		for r := range c.replicas {
			if (s.t-tickPhase[r])%c.tick == 0 {
				for s.dispatchOnce(r) {
				}
			}
			if (s.t-wdPhase[r])%c.watchdog == 0 {
				for _, j := range s.jobs {
					if j.store != s.storeOf(r) || !history.ActiveStates[j.status] {
						continue
					}
					s.refresh(j)
					if j.dead && j.claimedBy == r {
						j.status, j.phase, j.dead = "queued", "recovered", false
					}
				}
			}
		}
		for _, j := range s.jobs { // the observer: one poll at a time per job
			if j.line.Done || j.status == "" {
				continue
			}
			done = false
			switch {
			case !j.polling && s.t >= j.nextPoll:
				j.polling, j.pollStart = true, s.t
				j.readAt = s.t + 1 + rng.IntN(30)
				j.endAt = j.readAt + 1 + rng.IntN(30)
			case j.polling && s.t == j.readAt:
				s.refresh(j)
				s.observe(j)
			case j.polling && s.t == j.endAt:
				j.polling = false
				j.line.AddPoll(j.seen, j.seenPhase, s.at(j.pollStart), s.at(s.t))
				if history.TerminalStates[j.seen] {
					j.line.Done = true
					s.h.Records = append(s.h.Records, j.line)
				}
				for j.nextPoll <= s.t {
					j.nextPoll += c.poll
				}
			}
		}
		if done && s.t > c.jobs+10 {
			return s.h
		}
	}
	panic("simulation did not end")
}
