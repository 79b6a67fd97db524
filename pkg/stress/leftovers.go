package stress

import (
	"context"

	"github.com/osctl/osctl/pkg/stress/detect"
	"github.com/osctl/osctl/pkg/stress/history"
)

// readLeftovers records in the footer what a dead holder may have left, once the state the
// verdict judges was read: only after a run with faults, of a profile whose objects are files.
func (r *runner) readLeftovers(ctx context.Context, f *history.Footer) {
	if r.d.Leftovers == nil || len(f.Faults) == 0 || !r.cfg.Kind().Files {
		return
	}
	h := &history.History{Header: r.hdr, Records: r.rec.records()}
	f.Leftovers = r.d.Leftovers(ctx, detect.Dirs(h))
}
