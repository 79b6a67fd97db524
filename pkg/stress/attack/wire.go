package attack

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httputil"
	"net/textproto"
	"strconv"
	"strings"
	"sync"

	"golang.org/x/net/http/httpguts"
)

// The attacker's own HTTP/1.1 wire format: a request is serialised into one pooled buffer and
// written with one call, and an answer's head is parsed in place from the connection's read
// buffer, so a request costs its two system calls and a handful of small allocations (at 10,000
// requests in flight, http.Request.Write and http.ReadResponse cost more CPU than the kernel).
// Requests it does not handle (unknown body lengths, trailers, odd header bytes) go through
// http.Request.Write, which also gives them its errors.

// inlineBody is the largest body copied into the request's buffer; larger bodies are streamed
// after the head.
const inlineBody = 4 << 10

var wireBufs = sync.Pool{New: func() any { b := make([]byte, 0, 1<<10); return &b }}

// appendRequestHead appends req's request line and headers, ending with the empty line. ok is
// false when req needs http.Request.Write.
func appendRequestHead(dst []byte, req *http.Request) (_ []byte, ok bool) {
	body := req.Body != nil && req.Body != http.NoBody
	switch {
	case req.Method == http.MethodConnect, req.Close, req.Trailer != nil, len(req.TransferEncoding) > 0,
		req.ContentLength < 0, req.ContentLength == 0 && body, req.ContentLength > 0 && !body:
		return dst, false
	}
	host := req.Host
	if host == "" {
		host = req.URL.Host
	}
	method := req.Method
	if method == "" {
		method = http.MethodGet
	}
	if !httpguts.ValidHeaderFieldName(method) || !httpguts.ValidHostHeader(host) || strings.ContainsAny(host, " %") {
		return dst, false
	}
	uri := req.URL.RequestURI()
	for i := 0; i < len(uri); i++ {
		if uri[i] <= ' ' || uri[i] == 0x7f {
			return dst, false
		}
	}
	dst = append(dst, method...)
	dst = append(dst, ' ')
	dst = append(dst, uri...)
	dst = append(dst, " HTTP/1.1\r\nHost: "...)
	dst = append(dst, host...)
	dst = append(dst, "\r\n"...)
	// As http.Request.Write: Go's User-Agent unless the header is set; set but empty, none.
	ua := "Go-http-client/1.1"
	if vs, set := req.Header["User-Agent"]; set {
		ua = ""
		if len(vs) > 0 {
			ua = vs[0]
		}
	}
	if ua != "" {
		if !httpguts.ValidHeaderFieldValue(ua) {
			return dst, false
		}
		dst = append(dst, "User-Agent: "...)
		dst = append(dst, ua...)
		dst = append(dst, "\r\n"...)
	}
	switch {
	case req.ContentLength > 0:
		dst = append(dst, "Content-Length: "...)
		dst = strconv.AppendInt(dst, req.ContentLength, 10)
		dst = append(dst, "\r\n"...)
	case method == http.MethodPost || method == http.MethodPut || method == http.MethodPatch:
		dst = append(dst, "Content-Length: 0\r\n"...)
	}
	for k, vs := range req.Header {
		switch k {
		case "Host", "Content-Length", "Transfer-Encoding", "Trailer", "User-Agent":
			continue
		}
		if !httpguts.ValidHeaderFieldName(k) {
			return dst, false
		}
		for _, v := range vs {
			if !httpguts.ValidHeaderFieldValue(v) {
				return dst, false
			}
			dst = append(dst, k...)
			dst = append(dst, ": "...)
			dst = append(dst, v...)
			dst = append(dst, "\r\n"...)
		}
	}
	return append(dst, "\r\n"...), true
}

// writeRequest writes req to w (a connection) and closes its body. sent reports whether any
// byte reached w.
func writeRequest(w io.Writer, req *http.Request) (sent bool, err error) {
	bp := wireBufs.Get().(*[]byte)
	defer func() {
		if cap(*bp) <= 16<<10 {
			*bp = (*bp)[:0]
			wireBufs.Put(bp)
		}
	}()
	buf, ok := appendRequestHead((*bp)[:0], req)
	if !ok {
		cw := &countingWriter{w: w}
		bw := bufio.NewWriterSize(cw, 4<<10)
		err := req.Write(bw)
		if err == nil {
			err = bw.Flush()
		}
		return cw.n > 0, err
	}
	n := req.ContentLength
	if n > 0 {
		defer req.Body.Close()
	}
	if n > 0 && n <= inlineBody {
		head := len(buf)
		buf = append(buf, make([]byte, n)...)
		if _, err := io.ReadFull(req.Body, buf[head:]); err != nil {
			*bp = buf
			return false, fmt.Errorf("reading the request body: %w", err)
		}
	}
	*bp = buf
	m, err := w.Write(buf)
	if err != nil || n <= inlineBody {
		return m > 0, err
	}
	if _, err := io.CopyN(w, req.Body, n); err != nil {
		return true, err
	}
	return true, nil
}

// maxEventLoopBody is the largest request body the event loop sends (it holds each request whole).
const maxEventLoopBody = 1 << 20

// appendRequest appends req whole, head and body, and closes its body; ok is false when req
// needs http.Request.Write (see appendRequestHead) or its body is larger than maxEventLoopBody.
func appendRequest(dst []byte, req *http.Request) (_ []byte, ok bool, err error) {
	if req.ContentLength > maxEventLoopBody {
		return dst, false, nil
	}
	dst, ok = appendRequestHead(dst, req)
	if !ok {
		return dst, false, nil
	}
	if n := req.ContentLength; n > 0 {
		defer req.Body.Close()
		head := len(dst)
		dst = append(dst, make([]byte, n)...)
		if _, err := io.ReadFull(req.Body, dst[head:]); err != nil {
			return dst[:head], true, fmt.Errorf("reading the request body: %w", err)
		}
	}
	return dst, true, nil
}

type countingWriter struct {
	w io.Writer
	n int64
}

func (c *countingWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += int64(n)
	return n, err
}

// maxHead bounds an answer's status line and headers.
const maxHead = 1 << 20

var errHeadTooLong = errors.New("malformed HTTP response: status line and headers longer than 1 MiB")

// readLine returns one line without its line ending. It points into br's buffer (valid until the
// next read) unless the line is longer than the buffer.
func readLine(br *bufio.Reader, total *int) ([]byte, error) {
	line, err := br.ReadSlice('\n')
	if errors.Is(err, bufio.ErrBufferFull) {
		long := append([]byte(nil), line...)
		for errors.Is(err, bufio.ErrBufferFull) {
			if len(long) > maxHead {
				return nil, errHeadTooLong
			}
			line, err = br.ReadSlice('\n')
			long = append(long, line...)
		}
		line = long
	}
	if err != nil {
		if errors.Is(err, io.EOF) {
			err = io.ErrUnexpectedEOF
		}
		return nil, err
	}
	if *total += len(line); *total > maxHead {
		return nil, errHeadTooLong
	}
	line = line[:len(line)-1]
	if n := len(line); n > 0 && line[n-1] == '\r' {
		line = line[:n-1]
	}
	return line, nil
}

// readResponseHead reads one answer's status line and headers into resp (its Header and Status
// reused) and sets up body to read the rest. Informational answers (1xx but 101) are skipped.
func readResponseHead(br *bufio.Reader, req *http.Request, resp *http.Response, body *connBody) error {
	total := 0
	for {
		line, err := readLine(br, &total)
		if err != nil {
			return err
		}
		if err := parseStatusLine(line, req, resp); err != nil {
			return err
		}
		beginHeaders(resp.Header)
		for {
			line, err := readLine(br, &total)
			if err != nil {
				return err
			}
			if len(line) == 0 {
				break
			}
			if err := addHeader(resp.Header, line); err != nil {
				return err
			}
		}
		endHeaders(resp.Header)
		if informational(resp.StatusCode) {
			continue
		}
		*body = connBody{wc: body.wc, keep: true}
		mode, n, err := framing(req, resp)
		if err != nil {
			return err
		}
		body.mode, body.n, body.keep = mode, n, !resp.Close
		switch mode {
		case bodyNone:
			body.eof = true
		case bodyLength:
			body.eof = n == 0
		case bodyChunked:
			body.cr = httputil.NewChunkedReader(br)
		}
		resp.Body = body
		return nil
	}
}

// informational reports whether an answer with this code is followed by the real one.
func informational(code int) bool {
	return code >= 100 && code < 200 && code != http.StatusSwitchingProtocols
}

// parseStatusLine starts resp from its status line. resp's Header (to be refilled) and Status
// (when it repeats) are kept.
func parseStatusLine(line []byte, req *http.Request, resp *http.Response) error {
	if len(line) < 12 || !bytes.HasPrefix(line, []byte("HTTP/1.")) || line[7] != '0' && line[7] != '1' || line[8] != ' ' || len(line) > 12 && line[12] != ' ' {
		return fmt.Errorf("malformed HTTP status line %q", truncate(line))
	}
	code := 0
	for _, c := range line[9:12] {
		if c < '0' || c > '9' {
			return fmt.Errorf("malformed HTTP status code in %q", truncate(line))
		}
		code = code*10 + int(c-'0')
	}
	if code < 100 {
		return fmt.Errorf("malformed HTTP status code in %q", truncate(line))
	}
	h, status := resp.Header, resp.Status
	if h == nil {
		h = make(http.Header, 4)
	}
	if string(line[9:]) != status {
		status = string(line[9:])
	}
	*resp = http.Response{StatusCode: code, Status: status, Proto: "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1, Header: h, Request: req}
	if line[7] == '0' {
		resp.Proto, resp.ProtoMinor = "HTTP/1.0", 0
	}
	return nil
}

// beginHeaders empties h for the next answer's headers but keeps their values at hand: addHeader
// reuses a value when it repeats (most do, from one answer to the next), so that reading headers
// allocates next to nothing. endHeaders drops the names that did not come again.
func beginHeaders(h http.Header) {
	for k, vs := range h {
		h[k] = vs[:0]
	}
}

// addHeader adds one header line ("Name: value") to h.
func addHeader(h http.Header, line []byte) error {
	i := bytes.IndexByte(line, ':')
	if i <= 0 || line[0] == ' ' || line[0] == '\t' {
		return fmt.Errorf("malformed HTTP header line %q", truncate(line))
	}
	key := canonicalKey(line[:i])
	val := bytes.Trim(line[i+1:], " \t")
	vs := h[key]
	if n := len(vs); n < cap(vs) && vs[:n+1][n] == string(val) {
		vs = vs[:n+1]
	} else {
		vs = append(vs, string(val))
	}
	h[key] = vs
	return nil
}

func endHeaders(h http.Header) {
	for k, vs := range h {
		if len(vs) == 0 {
			delete(h, k)
		}
	}
}

// canonicalKey returns the canonical form of a header name, without allocating for the common
// ones.
func canonicalKey(k []byte) string {
	for _, c := range commonKeys {
		if len(c) == len(k) && bytes.EqualFold([]byte(c), k) {
			return c
		}
	}
	return textproto.CanonicalMIMEHeaderKey(string(k))
}

var commonKeys = []string{"Content-Length", "Content-Type", "Date", "Connection", "Transfer-Encoding", "Server",
	"Location", "Keep-Alive", "Cache-Control", "Vary", "Etag", "Last-Modified", "X-Request-Id", "Set-Cookie"}

func truncate(b []byte) []byte {
	if len(b) > 80 {
		return b[:80]
	}
	return b
}

// Body modes.
const (
	bodyNone = iota
	bodyLength
	bodyChunked
	bodyToEOF
)

// framing says how resp's body is delimited (and its length for bodyLength), and sets resp's
// ContentLength, TransferEncoding and Close.
func framing(req *http.Request, resp *http.Response) (mode int, length int64, err error) {
	h := resp.Header
	resp.Close = resp.ProtoMinor == 0 && !hasToken(h["Connection"], "keep-alive") || hasToken(h["Connection"], "close")
	resp.ContentLength = -1
	chunked := false
	if te := h["Transfer-Encoding"]; len(te) > 0 {
		if len(te) != 1 || !asciiEqualFold(te[0], "chunked") {
			return 0, 0, fmt.Errorf("unsupported Transfer-Encoding %q", te)
		}
		chunked = true
		resp.TransferEncoding = []string{"chunked"}
		delete(h, "Content-Length")
	}
	length = -1
	if cl := h["Content-Length"]; len(cl) > 0 && !chunked {
		for _, v := range cl[1:] {
			if v != cl[0] {
				return 0, 0, fmt.Errorf("conflicting Content-Length headers %q", cl)
			}
		}
		n, err := strconv.ParseInt(cl[0], 10, 64)
		if err != nil || n < 0 {
			return 0, 0, fmt.Errorf("bad Content-Length %q", cl[0])
		}
		length = n
	}
	code := resp.StatusCode
	switch {
	case req.Method == http.MethodHead || code == http.StatusNoContent || code == http.StatusNotModified || code < 200:
		if req.Method == http.MethodHead {
			resp.ContentLength = length
		} else {
			resp.ContentLength = 0
		}
		return bodyNone, 0, nil
	case chunked:
		return bodyChunked, 0, nil
	case length >= 0:
		resp.ContentLength = length
		return bodyLength, length, nil
	default:
		resp.Close = true
		return bodyToEOF, 0, nil
	}
}

func hasToken(vs []string, tok string) bool {
	for _, v := range vs {
		for len(v) > 0 {
			var f string
			if i := bytes.IndexByte([]byte(v), ','); i >= 0 {
				f, v = v[:i], v[i+1:]
			} else {
				f, v = v, ""
			}
			if asciiEqualFold(trimSpace(f), tok) {
				return true
			}
		}
	}
	return false
}

func trimSpace(s string) string {
	for len(s) > 0 && (s[0] == ' ' || s[0] == '\t') {
		s = s[1:]
	}
	for len(s) > 0 && (s[len(s)-1] == ' ' || s[len(s)-1] == '\t') {
		s = s[:len(s)-1]
	}
	return s
}

func asciiEqualFold(a, b string) bool {
	return len(a) == len(b) && bytes.EqualFold([]byte(a), []byte(b))
}
