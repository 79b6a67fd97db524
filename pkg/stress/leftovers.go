package stress

import (
	"context"
	"slices"

	"github.com/osctl/osctl/pkg/nemesis"
	"github.com/osctl/osctl/pkg/stress/history"
)

// readLeftovers records in the footer what a dead holder may have left, once the state the
// verdict judges was read: only after a run in which a fault was injected, of a profile whose
// objects are files.
func (r *runner) readLeftovers(ctx context.Context, f *history.Footer) {
	injected := slices.ContainsFunc(f.Faults, func(f nemesis.Fault) bool { return f.Outcome == nemesis.Done })
	if r.d.Leftovers == nil || !injected || !r.cfg.Kind().Files {
		return
	}
	h := &history.History{Header: r.hdr, Records: r.rec.records()}
	if dirs, ok := stateDirs(h); ok {
		f.Leftovers = r.d.Leftovers(ctx, dirs)
	}
}
