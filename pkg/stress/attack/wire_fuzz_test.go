package attack

import (
	"bufio"
	"bytes"
	"io"
	"net/http"
	"testing"
)

func addAnswerSeeds(f *testing.F) {
	for _, a := range rawAnswers {
		var b bytes.Buffer
		for _, p := range a.pieces {
			b.WriteString(p)
		}
		f.Add(b.Bytes())
	}
	f.Add([]byte("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nfffffffffffffff\r\n"))
	f.Add([]byte("HTTP/1.0 301 Moved\nLocation: /x\n\n"))
}

// FuzzResponseHead: any bytes from a server give an answer or an error, never a panic, and a
// body that ends.
func FuzzResponseHead(f *testing.F) {
	addAnswerSeeds(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		wc := &wconn{br: bufio.NewReaderSize(bytes.NewReader(data), 64)}
		wc.body.wc = wc
		req, _ := http.NewRequest(http.MethodGet, "http://example.test/", nil)
		if err := readResponseHead(wc.br, req, &wc.resp, &wc.body); err != nil {
			return
		}
		if c := wc.resp.StatusCode; c < 100 || c > 999 {
			t.Fatalf("status %d", c)
		}
		n, _ := io.Copy(io.Discard, io.LimitReader(wc.resp.Body, int64(len(data))+1))
		if n > int64(len(data)) {
			t.Fatalf("body of %d bytes from %d bytes of input", n, len(data))
		}
	})
}

// FuzzChunked: the chunked body's end does not depend on how its bytes are split.
func FuzzChunked(f *testing.F) {
	f.Add([]byte("5\r\nhello\r\n0\r\n\r\n"), 3)
	f.Add([]byte("1A;x=y\r\nabcdefghijklmnopqrstuvwxyz\r\n0\r\nT: 1\r\n\r\nrest"), 30)
	f.Fuzz(func(t *testing.T, data []byte, cut int) {
		var whole chunkState
		usedW, doneW, errW := whole.consume(data)
		if usedW > len(data) {
			t.Fatalf("used %d of %d", usedW, len(data))
		}
		if len(data) == 0 {
			return
		}
		cut = (cut%len(data) + len(data)) % len(data)
		var split chunkState
		used, done, err := split.consume(data[:cut])
		if err == nil && !done {
			u2, d2, e2 := split.consume(data[cut:])
			used, done, err = used+u2, d2, e2
		}
		if (err == nil) != (errW == nil) || err == nil && (done != doneW || done && used != usedW) {
			t.Fatalf("split at %d: used %d done %v err %v; whole: used %d done %v err %v", cut, used, done, err, usedW, doneW, errW)
		}
	})
}
