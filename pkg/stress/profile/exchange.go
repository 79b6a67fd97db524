package profile

import (
	"bytes"
	"context"
	"io"
	"net/http"
)

// JSONRequest is a request that asks for JSON and sends body as JSON (nil: no body), with the
// fields of header added (a token).
func JSONRequest(ctx context.Context, method, u string, header http.Header, body []byte) (*http.Request, error) {
	var rd io.Reader = http.NoBody
	if body != nil {
		rd = bytes.NewReader(body)
	}
	req, err := http.NewRequestWithContext(ctx, method, u, rd)
	if err != nil {
		return nil, err
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	req.Header.Set("Accept", "application/json")
	for k, v := range header {
		req.Header[k] = v
	}
	return req, nil
}

// Answer is what one Exchange got back.
type Answer struct {
	Status int
	// Body is the start of the body, at most the exchange's limit.
	Body []byte
	// ReadErr cut the read of the body short (nil: it was read whole, or up to the limit).
	ReadErr error
}

// Exchange sends one JSONRequest through c and reads at most limit bytes of the answer's body;
// the error is the request's or the transport's.
func Exchange(ctx context.Context, c Doer, method, u string, header http.Header, body []byte, limit int64) (Answer, error) {
	req, err := JSONRequest(ctx, method, u, header, body)
	if err != nil {
		return Answer{}, err
	}
	resp, err := c.Do(req)
	if err != nil {
		return Answer{}, err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(io.LimitReader(resp.Body, limit))
	return Answer{Status: resp.StatusCode, Body: b, ReadErr: err}, nil
}
