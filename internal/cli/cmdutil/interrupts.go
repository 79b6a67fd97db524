package cmdutil

import "sync"

// ExitInterrupted is the exit code of a second Ctrl-C (or SIGTERM) that ends osctl at once:
// 128 + SIGINT, as shells report it.
const ExitInterrupted = 130

// Interrupts is what a command tells Run about being interrupted twice. The first Ctrl-C cancels
// the command's context and the command stops gracefully (a partial report, a rollback); a second
// one makes Run exit at once with ExitInterrupted, printing what the command said it leaves
// undone, unless the command refuses to be cut short (a rollback), in which case Run prints the
// refusal and waits. A nil *Interrupts ignores everything (commands built in tests).
type Interrupts struct {
	mu       sync.Mutex
	undone   func() string
	refusals []*string
}

// SetUndone registers fn, which says what exiting now leaves undone ("the report was not
// written"); Run calls it when the second interrupt arrives, so it can describe that moment. The
// returned func restores the previous one.
func (in *Interrupts) SetUndone(fn func() string) (restore func()) {
	if in == nil {
		return func() {}
	}
	in.mu.Lock()
	prev := in.undone
	in.undone = fn
	in.mu.Unlock()
	return func() {
		in.mu.Lock()
		in.undone = prev
		in.mu.Unlock()
	}
}

// Refuse makes a second interrupt print msg and be ignored until release is called. Refusals nest;
// the newest one's message is printed.
func (in *Interrupts) Refuse(msg string) (release func()) {
	if in == nil {
		return func() {}
	}
	p := &msg
	in.mu.Lock()
	in.refusals = append(in.refusals, p)
	in.mu.Unlock()
	var once sync.Once
	return func() {
		once.Do(func() {
			in.mu.Lock()
			defer in.mu.Unlock()
			for i := len(in.refusals) - 1; i >= 0; i-- {
				if in.refusals[i] == p {
					in.refusals = append(in.refusals[:i], in.refusals[i+1:]...)
					break
				}
			}
		})
	}
}

// Again decides what a second (or later) interrupt does: refused says it is refused, with msg
// the refusal to print; otherwise msg is what exiting now leaves undone ("" when the command
// registered nothing).
func (in *Interrupts) Again() (msg string, refused bool) {
	if in == nil {
		return "", false
	}
	in.mu.Lock()
	if n := len(in.refusals); n > 0 {
		msg := *in.refusals[n-1]
		in.mu.Unlock()
		return msg, true
	}
	fn := in.undone
	in.mu.Unlock()
	if fn == nil {
		return "", false
	}
	return fn(), false
}
