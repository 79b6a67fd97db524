package profile

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"
)

// DefaultSubmissionSource is the submission_source of a body that names none (elb-openapi's
// default for an external client).
const DefaultSubmissionSource = "external_api"

// JobIDFromKey is the job id elb-openapi derives from a submit's idempotency key (main.py's
// _job_id_from_idempotency_key): the first 12 hex digits of the sha256 of
// "<submission_source>:<key>" with surrounding blanks removed. ok is false for a key the service
// refuses (empty, or more than 256 characters with its source).
func JobIDFromKey(source, key string) (id string, ok bool) {
	if key == "" {
		return "", false
	}
	if source == "" {
		source = DefaultSubmissionSource
	}
	c := strings.TrimSpace(strings.ToLower(strings.TrimSpace(source)) + ":" + key)
	if utf8.RuneCountInString(c) > 256 {
		return "", false
	}
	sum := sha256.Sum256([]byte(c))
	return hex.EncodeToString(sum[:])[:12], true
}

// DefaultJobDB is the database of the default submit: the small 16S database of elb-openapi's
// own examples.
const DefaultJobDB = "16S_ribosomal_RNA"

// jobQuery is the default query: the first line of E. coli K-12 16S rRNA (NCBI NR_024570.1),
// the service's own example.
const jobQuery = "AAATTGAAGAGTTTGATCATGGCTCAGATTGAACGCTGGCGGCAGGCCTAACACATGCAA"

// DefaultJobBody is the default submit: a "Mode B" job (inline FASTA and a short database name)
// whose FASTA header and idempotency key are the request's nonce.
func DefaultJobBody(nonce string) []byte {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false) // the FASTA header's '>' as itself
	_ = enc.Encode(map[string]any{"program": "blastn", "db": DefaultJobDB,
		"query_fasta": ">" + nonce + " osctl stress\n" + jobQuery + "\n", "idempotency_key": nonce})
	return bytes.TrimRight(buf.Bytes(), "\n")
}

// renderBody returns the submit body of the seq-th request, and its idempotency key ("" when the
// body has none, or is not a JSON object).
func (p *Jobs) renderBody(seq int64, nonce string) ([]byte, string) {
	b, k, _, _ := p.renderSubmit(seq, nonce)
	return b, k
}

// renderSubmit is renderBody with the body's submission_source ("" when it names none) and the
// job id the service derives from the key ("" without one).
func (p *Jobs) renderSubmit(seq int64, nonce string) (body []byte, key, source, keyJob string) {
	if p.Body == "" {
		body, key = DefaultJobBody(nonce), nonce
		keyJob, _ = JobIDFromKey(DefaultSubmissionSource, key)
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
	keyJob, _ = JobIDFromKey(source, key)
	return body, key, source, keyJob
}

// Prepare checks the body template: it must be a JSON object once {{nonce}} and {{seq}} are
// replaced, and an idempotency key in it must differ from one request to the next (the service
// returns the same job for the same key). It reports whether the body has a key (without one a
// submit that gets no answer cannot be replayed and stays ambiguous).
func (p *Jobs) Prepare() (hasKey bool, err error) {
	if p.Body == "" {
		return true, nil
	}
	b1, k1 := p.renderBody(1, Nonce(p.Run, 1))
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
	if _, k2 := p.renderBody(2, Nonce(p.Run, 2)); k1 == k2 {
		return false, fmt.Errorf("the body gives every submit the same idempotency_key %q, so the service would return one job for all: put {{nonce}} in it", k1)
	}
	return true, nil
}
