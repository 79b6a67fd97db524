package ops

import (
	"encoding/json"
	"strconv"
	"unicode/utf8"
)

// MarshalJSON encodes v exactly as its json tags say, without reflection: inspect streams one
// view per key, and at a million keys encoding is most of its CPU time.
func (v View) MarshalJSON() ([]byte, error) {
	return v.AppendJSON(make([]byte, 0, 512)), nil
}

// AppendJSON appends v's JSON encoding to dst.
func (v View) AppendJSON(dst []byte) []byte {
	dst = append(dst, `{"key":`...)
	dst = appendString(dst, v.Key)
	dst = appendNonEmpty(dst, `,"keyQuoted":`, v.KeyQuoted)
	dst = append(dst, `,"type":`...)
	dst = appendString(dst, v.Type)
	dst = appendNonEmpty(dst, `,"value":`, v.Value)
	dst = appendNonEmpty(dst, `,"valueQuoted":`, v.ValueQuoted)
	dst = appendNonEmpty(dst, `,"flavour":`, string(v.Flavour))
	if v.Holder != nil {
		dst = append(dst, `,"holder":{"host":`...)
		dst = appendString(dst, v.Holder.Host)
		dst = append(dst, `,"pid":`...)
		dst = strconv.AppendInt(dst, int64(v.Holder.PID), 10)
		dst = append(dst, `,"random":`...)
		dst = appendString(dst, v.Holder.Random)
		dst = appendNonEmpty(dst, `,"namespace":`, v.Holder.Namespace)
		dst = append(dst, '}')
	}
	dst = appendNonEmpty(dst, `,"analysisId":`, v.AnalysisID)
	dst = appendNonEmpty(dst, `,"step":`, v.Step)
	dst = append(dst, `,"held":`...)
	dst = strconv.AppendInt(dst, int64(v.Held), 10)
	dst = append(dst, `,"masters":`...)
	dst = strconv.AppendInt(dst, int64(v.Masters), 10)
	dst = append(dst, `,"quorum":`...)
	dst = strconv.AppendBool(dst, v.Quorum)
	dst = append(dst, `,"holdings":`...)
	if v.Holdings == nil {
		dst = append(dst, "null"...)
	} else {
		dst = append(dst, '[')
		for i, h := range v.Holdings {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = h.appendJSON(dst)
		}
		dst = append(dst, ']')
	}
	dst = append(dst, `,"verdict":{"status":`...)
	dst = appendString(dst, string(v.Verdict.Status))
	dst = append(dst, `,"rule":`...)
	dst = appendString(dst, string(v.Verdict.Rule))
	dst = append(dst, `,"reason":`...)
	dst = appendString(dst, v.Verdict.Reason)
	dst = append(dst, `},"readAtUnixMs":`...)
	dst = strconv.AppendInt(dst, v.ReadAtUnixMs, 10)
	return append(dst, '}')
}

func (h Holding) appendJSON(dst []byte) []byte {
	dst = append(dst, `{"master":`...)
	dst = appendString(dst, h.Master)
	dst = appendNonEmpty(dst, `,"node":`, h.Node)
	dst = append(dst, `,"present":`...)
	dst = strconv.AppendBool(dst, h.Present)
	dst = appendNonEmpty(dst, `,"type":`, h.Type)
	dst = appendNonEmpty(dst, `,"value":`, h.Value)
	dst = append(dst, `,"ttlMs":`...)
	dst = strconv.AppendInt(dst, h.TTLMillis, 10)
	dst = appendNonEmpty(dst, `,"error":`, h.Error)
	return append(dst, '}')
}

// appendNonEmpty appends the member name (`,"name":`) and s as a JSON string, unless s is empty
// (the field's omitempty).
func appendNonEmpty(dst []byte, name, s string) []byte {
	if s == "" {
		return dst
	}
	return appendString(append(dst, name...), s)
}

// appendString appends s as a JSON string. Plain printable ASCII (the usual key and value) is
// copied as is; anything else goes through encoding/json, so escaping is exactly its own.
func appendString(dst []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= utf8.RuneSelf || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&' {
			b, _ := json.Marshal(s)
			return append(dst, b...)
		}
	}
	dst = append(dst, '"')
	dst = append(dst, s...)
	return append(dst, '"')
}
