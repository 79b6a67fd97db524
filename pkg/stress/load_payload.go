package stress

import (
	"encoding/json"
	"fmt"
)

// PayloadOf reads what a profile's load saw from l.Payload into a T (the zero T when there is
// none): the profile's stage reads back what its Loader.Finish wrote.
func PayloadOf[T any](l *Load) (T, error) {
	var v T
	if l == nil || len(l.Payload) == 0 {
		return v, nil
	}
	err := json.Unmarshal(l.Payload, &v)
	return v, err
}

// MergePayloads is a LoadMerger's body: it reads each load worker's part as a T and folds it into
// one with add, in the workers' order. what names the payload in the error of a part that does
// not read.
func MergePayloads[T any](parts []json.RawMessage, what string, add func(all *T, part T)) (json.RawMessage, error) {
	var all T
	for _, b := range parts {
		var part T
		if err := json.Unmarshal(b, &part); err != nil {
			return nil, fmt.Errorf("%s: %v", what, err)
		}
		add(&all, part)
	}
	return json.Marshal(all)
}
