package profile

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
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
