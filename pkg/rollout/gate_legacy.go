package rollout

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// legacyGates is the gate config as an osctl before journal version 2 stored it in the journal:
// the settings themselves, a credential masked ("xxxxx") and marked. It is read only to compare
// with the gates the operator gives on resume: nothing in it is ever run, asked or read.
type legacyGates struct {
	NFS         bool            `json:"nfs"`
	NFSPath     string          `json:"nfsPath"`
	Locks       bool            `json:"locks"`
	Pods        bool            `json:"pods"`
	HTTP        string          `json:"http"`
	HTTPLatency metav1.Duration `json:"httpLatency"`
	Cmd         string          `json:"cmd"`
	HTTPMasked  bool            `json:"httpMasked"`
	CmdMasked   bool            `json:"cmdMasked"`
	Prom        struct {
		Queries    []string `json:"queries"`
		URL        string   `json:"url"`
		CAFile     string   `json:"caFile"`
		BearerFile string   `json:"bearerFile"`
		NoData     string   `json:"noData"`
		URLMasked  bool     `json:"urlMasked"`
	} `json:"prom"`
}

// config is the stored settings as a GateConfig, for names and the digest.
func (l *legacyGates) config() GateConfig {
	return GateConfig{NFS: l.NFS, NFSPath: l.NFSPath, Locks: l.Locks, Pods: l.Pods, HTTP: l.HTTP, HTTPLatency: l.HTTPLatency, Cmd: l.Cmd,
		Prom: PromGates{Queries: l.Prom.Queries, URL: l.Prom.URL, CAFile: l.Prom.CAFile, BearerFile: l.Prom.BearerFile, NoData: l.Prom.NoData}}
}

// check compares the gates given with the stored ones by digest. A setting the older osctl kept
// masked cannot be compared: it only has to be given (an HTTP gate, a command, a Prometheus URL
// where the rollout had one), everything else must match, and accept must confirm it.
func (l *legacyGates) check(given GateConfig, accept bool) error {
	stored, givenNames := l.config(), given.Names()
	var masked []string
	blank := func(name string, isMasked bool, s, g *string) {
		if isMasked && *g != "" {
			masked = append(masked, name)
			*s, *g = "(masked)", "(masked)" // equal, and still there: the settings that go with it count
		}
	}
	blank("http", l.HTTPMasked, &stored.HTTP, &given.HTTP)
	blank("cmd", l.CmdMasked, &stored.Cmd, &given.Cmd)
	if len(stored.Prom.Queries) > 0 {
		blank("prom", l.Prom.URLMasked, &stored.Prom.URL, &given.Prom.URL)
	}
	if stored.Digest() != given.Digest() {
		return &GatesDifferError{Started: l.config().Names(), Given: givenNames}
	}
	if len(masked) > 0 && !accept {
		return &UncheckedGatesError{Masked: masked}
	}
	return nil
}
