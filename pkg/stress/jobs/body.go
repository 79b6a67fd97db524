package jobs

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/osctl/osctl/pkg/stress/profile"
)

// renderBody returns the submit body of the seq-th request, and its idempotency key ("" when the
// body has none, or is not a JSON object).
func (p *Submitter) renderBody(seq int64, nonce string) ([]byte, string) {
	b, k, _, _ := p.renderSubmit(seq, nonce)
	return b, k
}

// renderSubmit is renderBody with the body's submission_source ("" when it names none) and the
// job id the service derives from the key ("" without one).
func (p *Submitter) renderSubmit(seq int64, nonce string) (body []byte, key, source, keyJob string) {
	if p.Body == "" {
		body, key = profile.DefaultJobBody(nonce), nonce
		keyJob, _ = profile.JobIDFromKey(profile.DefaultSubmissionSource, key)
		return body, key, "", keyJob
	}
	s := strings.ReplaceAll(p.Body, "{{nonce}}", nonce)
	body = []byte(strings.ReplaceAll(s, "{{seq}}", strconv.FormatInt(seq, 10)))
	var m map[string]any
	if json.Unmarshal(body, &m) != nil {
		return body, "", "", ""
	}
	key, _ = m["idempotency_key"].(string)
	source, _ = m["submission_source"].(string)
	keyJob, _ = profile.JobIDFromKey(source, key)
	return body, key, source, keyJob
}

// Prepare checks the body template: it must be a JSON object once {{nonce}} and {{seq}} are
// replaced, and an idempotency key in it must differ from one request to the next (the service
// returns the same job for the same key). It reports whether the body has a key (without one a
// submit that gets no answer cannot be replayed and stays ambiguous).
func (p *Submitter) Prepare() (hasKey bool, err error) {
	if p.Body == "" {
		return true, nil
	}
	b1, k1 := p.renderBody(1, profile.Nonce(p.Run, 1))
	var m map[string]any
	if err := json.Unmarshal(b1, &m); err != nil {
		return false, fmt.Errorf("the body is not a JSON object once {{nonce}} and {{seq}} are replaced: %v", err)
	}
	if _, has := m["idempotency_key"]; has && k1 == "" {
		return false, fmt.Errorf("the body's idempotency_key is not a string of 1 to 256 characters")
	}
	if k1 == "" {
		return false, nil
	}
	if _, k2 := p.renderBody(2, profile.Nonce(p.Run, 2)); k1 == k2 {
		return false, fmt.Errorf("the body gives every submit the same idempotency_key %q, so the service would return one job for all: put {{nonce}} in it", k1)
	}
	return true, nil
}
