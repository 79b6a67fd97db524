package profile

import (
	"bytes"
	"fmt"
	"maps"
	"mime/multipart"
	"net/textproto"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/osctl/osctl/pkg/setting"
)

// Mix gives the relative weights of the load operations of the openstudio profile.
type Mix struct {
	Upload     int `json:"upload"`
	Start      int `json:"start"`
	DataPoint  int `json:"data_point"`
	UploadFile int `json:"upload_file"`
}

// DefaultMix is the default openstudio mix: mostly zip uploads, then starts (extraction), then
// result file uploads and data point creations.
var DefaultMix = Mix{Upload: 5, Start: 2, DataPoint: 1, UploadFile: 2}

// String is the mix as ParseMix reads it.
func (m Mix) String() string {
	return fmt.Sprintf("upload=%d,start=%d,data_point=%d,upload_file=%d", m.Upload, m.Start, m.DataPoint, m.UploadFile)
}

// ParseMix parses "upload=5,start=2,data_point=1,upload_file=2"; missing names weigh 0. Its
// errors are *setting.Error about Mix.
func ParseMix(s string) (Mix, error) {
	var m Mix
	for _, kv := range strings.Split(s, ",") {
		kv = strings.TrimSpace(kv)
		if kv == "" {
			continue
		}
		k, v, ok := strings.Cut(kv, "=")
		n, err := strconv.Atoi(v)
		if !ok || err != nil || n < 0 {
			return m, setting.Errorf("Mix", "%q: each item is NAME=WEIGHT with a whole weight >= 0, e.g. %s", kv, DefaultMix)
		}
		switch k {
		case "upload":
			m.Upload = n
		case "start":
			m.Start = n
		case "data_point", "datapoint", "data_points":
			m.DataPoint = n
		case "upload_file", "result", "result_file":
			m.UploadFile = n
		default:
			return m, setting.Errorf("Mix", ": unknown operation %q: use upload, start, data_point, upload_file", k)
		}
	}
	if m.Upload+m.Start+m.DataPoint+m.UploadFile == 0 {
		return m, setting.Errorf("Mix", "%q gives every operation weight 0", s)
	}
	return m, nil
}

// SetupState is what the setup created, for the load workers that send the same run's load
// (osctl stress --workers): the project, the analyses, the seeds that were acknowledged, and the
// last seq the setup used.
type SetupState struct {
	Project    string              `json:"project"`
	Analyses   []string            `json:"analyses"`
	Uploaded   []string            `json:"uploaded,omitempty"`
	DataPoints map[string][]string `json:"data_points,omitempty"`
	Seq        int64               `json:"seq"`
}

// Multipart builds a multipart/form-data body: the fields (in name order), then one file part of
// the given content type under field (none when field is empty). It returns the body and its
// Content-Type.
func Multipart(fields map[string]string, field, filename, ctype string, content []byte) ([]byte, string) {
	var buf bytes.Buffer
	mw := multipart.NewWriter(&buf)
	keys := slices.Sorted(maps.Keys(fields))
	for _, k := range keys {
		_ = mw.WriteField(k, fields[k])
	}
	if field != "" {
		h := make(textproto.MIMEHeader)
		h.Set("Content-Disposition", fmt.Sprintf(`form-data; name=%q; filename=%q`, field, filename))
		h.Set("Content-Type", ctype)
		w, _ := mw.CreatePart(h)
		_, _ = w.Write(content)
	}
	_ = mw.Close()
	return buf.Bytes(), mw.FormDataContentType()
}

// Request implements attack.Op.

// The openstudio profile holds back the last part of its load for the target's background
// workers (pkg/stress/openstudio, overlap.go): these are its defaults.
const (
	// DefaultTailFraction is the part of the load held back for the workers.
	DefaultTailFraction = 1.0 / 3
	// DefaultTailParts is how many parts it is released in.
	DefaultTailParts = 3
	// DefaultTailWait bounds how long one part waits for a worker.
	DefaultTailWait = 15 * time.Second
)
