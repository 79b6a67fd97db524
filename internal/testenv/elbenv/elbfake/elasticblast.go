package main

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"os"
	"strings"
	"time"
)

// elasticBlast is `elastic-blast submit --cfg FILE`, which starts a run whose Kubernetes Jobs
// are active for ELB_FAKE_RUN and prints its job-<32 hex> id, and `elastic-blast delete --cfg
// FILE`, which removes the Jobs of every run of that configuration's results URL.
func elasticBlast(st *state, args []string) error {
	if len(args) < 3 || args[1] != "--cfg" {
		return fail("usage: elastic-blast submit|delete --cfg FILE (got %q)", strings.Join(args, " "))
	}
	cfg, err := readINI(args[2])
	if err != nil {
		return fail("reading %s: %v", args[2], err)
	}
	results := cfg["blast.results"]
	if results == "" {
		return fail("%s: no [blast] results", args[2])
	}
	switch args[0] {
	case "submit":
		b := make([]byte, 16)
		_, _ = rand.Read(b)
		now := time.Now()
		r := blastRun{ID: "job-" + hex.EncodeToString(b), Results: results, DB: lastSegment(cfg["blast.db"]), Program: cfg["blast.program"],
			Start: now, End: now.Add(envDuration("ELB_FAKE_RUN", time.Second))}
		if err := st.saveRun(r); err != nil {
			return err
		}
		fmt.Printf("Submitted ElasticBLAST search %s; results will be at %s/%s\n", r.ID, results, r.ID)
		return nil
	case "delete":
		rs, err := st.runs()
		if err != nil {
			return err
		}
		for _, r := range rs {
			if r.Results == results && !r.Deleted {
				r.Deleted = true
				if err := st.saveRun(r); err != nil {
					return err
				}
				fmt.Printf("Deleted the Kubernetes jobs of %s\n", r.ID)
			}
		}
		return nil
	}
	return fail("elastic-blast %s: not faked (only submit and delete)", args[0])
}

// readINI reads the sections' keys of an INI file as "section.key".
func readINI(path string) (map[string]string, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	out := map[string]string{}
	section := ""
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		switch {
		case line == "" || strings.HasPrefix(line, "#") || strings.HasPrefix(line, ";"):
		case strings.HasPrefix(line, "[") && strings.HasSuffix(line, "]"):
			section = strings.TrimSpace(line[1 : len(line)-1])
		default:
			if k, v, ok := strings.Cut(line, "="); ok {
				out[section+"."+strings.TrimSpace(k)] = strings.TrimSpace(v)
			}
		}
	}
	return out, sc.Err()
}

func lastSegment(u string) string {
	u = strings.TrimRight(u, "/")
	if i := strings.LastIndex(u, "/"); i >= 0 {
		return u[i+1:]
	}
	return u
}

// resultXML is the start of a BLAST XML result (what the service reads its version from).
func resultXML(r blastRun) string {
	return `<?xml version="1.0"?>
<BlastOutput>
  <BlastOutput_program>` + r.Program + `</BlastOutput_program>
  <BlastOutput_version>BLASTN 2.17.0+</BlastOutput_version>
  <BlastOutput_db>` + r.DB + `</BlastOutput_db>
  <BlastOutput_iterations></BlastOutput_iterations>
</BlastOutput>
`
}

func gzipped(s string) []byte {
	var buf bytes.Buffer
	w := gzip.NewWriter(&buf)
	_, _ = w.Write([]byte(s))
	_ = w.Close()
	return buf.Bytes()
}
