package sandbox

import "context"

// NewWithClock is New with the job dispatcher on clk.
func NewWithClock(ctx context.Context, cfg Config, clk *FakeClock) (*Server, error) {
	return newServer(ctx, cfg, clk)
}

// SubmitThreads returns how many of the replica's submit threads have not returned yet (the
// claim at their exit included).
func (s *Server) SubmitThreads() int { return int(s.jobs.live.Load()) }
