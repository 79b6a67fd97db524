package profile

import (
	"fmt"
	"strings"

	"github.com/osctl/osctl/pkg/stress/history"
)

// ProveJob says why a submit's record does not prove that run made job id (nil when it does).
// The record must carry the nonce the run gives that request (Nonce(run, seq)), and the id must
// hold that nonce, or be the id elb-openapi derives from an idempotency key that holds it: the
// key the record keeps, or, for a record that keeps none, the default body's key, the nonce
// itself. A history is a file anyone may have written: a job id is deleted on this proof, never
// on the record's word alone.
func ProveJob(run string, r *history.Record, id string) error {
	want := Nonce(run, r.Seq)
	switch {
	case !ValidRunID(run):
		return fmt.Errorf("the history's run id %q is not one osctl gives", run)
	case r.Nonce != want:
		return fmt.Errorf("its submit #%d does not carry the run's nonce %s", r.Seq, want)
	case id == "":
		return fmt.Errorf("its submit #%d names no job", r.Seq)
	case strings.Contains(id, want):
		return nil
	}
	key, source := r.Key, r.KeySource
	if key == "" {
		key, source = want, DefaultSubmissionSource // the default body is keyed by the nonce
	}
	if !strings.Contains(key, want) {
		return fmt.Errorf("the idempotency key of submit #%d does not hold the run's nonce %s, so its job cannot be told from another client's", r.Seq, want)
	}
	if derived, ok := JobIDFromKey(source, key); !ok || derived != id {
		return fmt.Errorf("job id %s is not the one the idempotency key of submit #%d names (%s): the run did not make it", id, r.Seq, derived)
	}
	return nil
}
