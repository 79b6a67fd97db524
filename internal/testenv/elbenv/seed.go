package elbenv

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
)

// Scripts are the keys of the elb-scripts ConfigMap that main.py's _ensure_elb_scripts_configmap
// checks before every submit (a working cluster has it; without it the service would build it
// from the elastic_blast package, which is not installed here).
var Scripts = []string{"blast-run-aks.sh", "elb-finalizer-aks.sh", "init-db-download-aks.sh", "query-download-ssd-aks.sh", "results-export-aks.sh"}

// Seed writes what a working cluster and storage account hold before the first job: the
// elb-scripts ConfigMap and DB's metadata blob (blast-db/<db>/<db>-nucl-metadata.json, which
// the service reads the database version from on every submit).
func Seed(state string) error {
	data := map[string]string{}
	for _, s := range Scripts {
		data[s] = "#!/bin/bash\n# " + s + " (seeded by osctl's elbenv)\n"
	}
	cm := map[string]any{"apiVersion": "v1", "kind": "ConfigMap", "data": data,
		"metadata": map[string]any{"name": "elb-scripts", "namespace": "default", "creationTimestamp": "2026-01-01T00:00:00Z"}}
	if err := writeJSON(filepath.Join(state, "configmaps", "elb-scripts.json"), cm); err != nil {
		return err
	}
	meta := map[string]any{"dbname": DB, "version": "1.1", "dbtype": "Nucleotide", "description": "16S ribosomal RNA (Bacteria and Archaea type strains)",
		"number-of-letters": 32435109, "number-of-sequences": 22311, "last-updated": "2026-06-01T00:00:00", "number-of-volumes": 1,
		"bytes-total": 45330230, "bytes-to-cache": 13000000,
		"files": []string{"gs://blast-db/2026-06-01-01-05-02/" + DB + ".ndb", "gs://blast-db/2026-06-01-01-05-02/" + DB + ".nsq"}}
	return writeJSON(filepath.Join(state, "blobs", "stgelb", "blast-db", DB, DB+"-nucl-metadata.json"), meta)
}

func writeJSON(path string, v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return os.WriteFile(path, b, 0o644)
}

// JobTmpDirs removes what the replicas left in this machine's /tmp/elb-jobs (main.py writes each
// dispatched job's config there; in a pod that /tmp is the pod's own): the directory of every
// job whose run the fakes recorded.
func JobTmpDirs(state string) {
	ents, err := os.ReadDir(filepath.Join(state, "runs"))
	if err != nil {
		return
	}
	for _, e := range ents {
		b, err := os.ReadFile(filepath.Join(state, "runs", e.Name()))
		if err != nil {
			continue
		}
		var r struct {
			Results string `json:"results"`
		}
		if json.Unmarshal(b, &r) != nil {
			continue
		}
		id := r.Results[strings.LastIndex(r.Results, "/")+1:]
		if id != "" && !strings.ContainsAny(id, "./") {
			_ = os.RemoveAll(filepath.Join("/tmp/elb-jobs", id))
		}
	}
}
