package rollout

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"strings"
)

// GateRecord is what the journal keeps of a rollout's gates: their names, for status, and a
// digest of every setting (see GateConfig.Digest). It holds no command, URL, query, file path or
// other argument value: resume never acts on what the HPA's annotation says, it runs the gates the
// operator gives again, once their digest matches.
type GateRecord struct {
	Names  []string `json:"names,omitempty"`
	Digest string   `json:"digest,omitempty"`

	// legacy is what an osctl before journal version 2 stored instead: the settings themselves.
	// They are compared with the gates given, never run, and never written back.
	legacy *legacyGates
}

// Record returns what the journal keeps of g.
func (g GateConfig) Record() GateRecord {
	return GateRecord{Names: g.Names(), Digest: g.Digest()}
}

// canonicalGates is the encoding the digest is taken over: every setting, normalized so that
// settings without effect (the NFS path without the nfs gate, the latency without an HTTP gate,
// the default "no data fails") do not count.
type canonicalGates struct {
	V           int      `json:"v"`
	NFS         bool     `json:"nfs"`
	NFSPath     string   `json:"nfsPath"`
	Locks       bool     `json:"locks"`
	Pods        bool     `json:"pods"`
	HTTP        string   `json:"http"`
	HTTPLatency int64    `json:"httpLatencyNs"`
	Cmd         string   `json:"cmd"`
	Queries     []string `json:"queries"`
	PromURL     string   `json:"promURL"`
	CAFile      string   `json:"caFile"`
	BearerFile  string   `json:"bearerFile"`
	NoDataPass  bool     `json:"noDataPass"`
}

// Digest is "sha256:" and the hex SHA-256 of the canonical JSON encoding of every gate setting:
// the built-in gates, the NFS path, the HTTP gate's URL and latency bound, the command, the
// PromQL queries, the Prometheus URL, CA and bearer file paths, and what no data does.
func (g GateConfig) Digest() string {
	c := canonicalGates{V: 1, NFS: g.NFS, Locks: g.Locks, Pods: g.Pods, HTTP: g.HTTP, Cmd: g.Cmd}
	if g.NFS {
		c.NFSPath = g.NFSPath
		if c.NFSPath == "" {
			c.NFSPath = DefaultNFSPath
		}
	}
	if g.HTTP != "" {
		c.HTTPLatency = int64(g.HTTPLatency.Duration)
	}
	if len(g.Prom.Queries) > 0 {
		c.Queries = g.Prom.Queries
		c.PromURL, c.CAFile, c.BearerFile = g.Prom.URL, g.Prom.CAFile, g.Prom.BearerFile
		c.NoDataPass = g.Prom.NoData == NoDataPass
	}
	b, _ := json.Marshal(c)
	sum := sha256.Sum256(b)
	return "sha256:" + hex.EncodeToString(sum[:])
}

// GatesDifferError is resume's refusal: the gates given are not the ones the rollout started
// with. It names the gates on each side, never a setting's value.
type GatesDifferError struct {
	Started []string // the gates the rollout started with
	Given   []string // the gates given now
}

func (e *GatesDifferError) Error() string {
	return "the gates given differ from the ones the rollout started with (" + e.Detail() + "): give the same gate settings as the original run"
}

// Detail says how they differ, by name only.
func (e *GatesDifferError) Detail() string {
	s, g := strings.Join(e.Started, ", "), strings.Join(e.Given, ", ")
	if s == g {
		return fmt.Sprintf("the same gates [%s], with other settings", s)
	}
	return fmt.Sprintf("it started with [%s]; the settings given make [%s]", s, g)
}

// UncheckedGatesError is resume's refusal of a journal written by an older osctl, which kept
// the gates' settings with a credential masked: osctl cannot check those against the ones given.
type UncheckedGatesError struct {
	Masked []string // the gates whose setting the journal keeps masked (http, cmd, prom)
}

func (e *UncheckedGatesError) Error() string {
	return fmt.Sprintf("the rollout's journal was written by an older osctl, which kept the %s gate's settings with a credential masked: osctl cannot check that the ones given are the rollout's; give the same gate settings as the original run and confirm that they are", strings.Join(e.Masked, ", "))
}

// Check verifies that given is the gate config the rollout started with: its digest is the
// recorded one. A journal of an older osctl is checked against the settings it stored (which are
// never run): when it kept one masked, that one cannot be checked, and accept (the operator's
// explicit word that the gates given are the rollout's) is needed as well. accept changes
// nothing for a journal that records a digest.
func (r GateRecord) Check(given GateConfig, accept bool) error {
	if r.legacy != nil {
		return r.legacy.check(given, accept)
	}
	if r.Digest != "" && r.Digest == given.Digest() {
		return nil
	}
	return &GatesDifferError{Started: r.Names, Given: given.Names()}
}

// Legacy reports whether the record comes from a journal of an older osctl (stored settings).
func (r GateRecord) Legacy() bool { return r.legacy != nil }

// UnmarshalJSON reads a record, or the settings an older osctl stored in its place.
func (r *GateRecord) UnmarshalJSON(b []byte) error {
	var cur struct {
		Names  []string `json:"names"`
		Digest string   `json:"digest"`
	}
	if err := json.Unmarshal(b, &cur); err != nil {
		return err
	}
	*r = GateRecord{Names: cur.Names, Digest: cur.Digest}
	if cur.Digest != "" {
		return nil
	}
	var old legacyGates
	if err := json.Unmarshal(b, &old); err != nil {
		return err
	}
	r.legacy = &old
	r.Names = old.config().Names()
	return nil
}
