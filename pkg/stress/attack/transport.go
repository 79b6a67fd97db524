package attack

import (
	"fmt"
	"net"
	"net/http"
	"syscall"
	"time"
)

// NewClient returns an HTTP client tuned to hold concurrency requests in flight on reused
// connections: one Transport whose idle pool per host is at least the concurrency, no cap on
// connections per host, keep-alives on, no compression, HTTP/1.1. timeout bounds each request.
func NewClient(concurrency int, timeout time.Duration) *http.Client {
	d := &net.Dialer{Timeout: 30 * time.Second, KeepAlive: 30 * time.Second}
	tr := &http.Transport{
		Proxy:               nil, // the targets are given explicitly; never a proxy
		DialContext:         d.DialContext,
		MaxIdleConns:        0, // no global cap
		MaxIdleConnsPerHost: max(concurrency, 2),
		MaxConnsPerHost:     0,
		// Close idle connections before a server's own idle or header timeout can (Go's default
		// ReadHeaderTimeout-as-idle servers use 10 s and more): a POST written on a connection the
		// server is closing fails, and cannot be retried safely.
		IdleConnTimeout:       4 * time.Second,
		DisableCompression:    true,
		ForceAttemptHTTP2:     false,
		ResponseHeaderTimeout: timeout,
		ExpectContinueTimeout: 0,
		WriteBufferSize:       4 << 10,
		ReadBufferSize:        4 << 10,
	}
	return &http.Client{Transport: tr, Timeout: timeout, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
}

// RaiseFileLimit raises the soft RLIMIT_NOFILE to at least want (up to the hard limit, and the
// hard limit too when the process may). It returns the limit in force and, when that is below
// want, an error saying so.
func RaiseFileLimit(want uint64) (uint64, error) {
	var lim syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &lim); err != nil {
		return 0, fmt.Errorf("reading the open-files limit: %v", err)
	}
	if lim.Cur >= want {
		return lim.Cur, nil
	}
	next := lim
	if next.Max < want {
		next.Max = want
	}
	next.Cur = want
	if err := syscall.Setrlimit(syscall.RLIMIT_NOFILE, &next); err != nil {
		// Not allowed to raise the hard limit: take what the hard limit allows.
		next = syscall.Rlimit{Cur: lim.Max, Max: lim.Max}
		if err2 := syscall.Setrlimit(syscall.RLIMIT_NOFILE, &next); err2 != nil {
			return lim.Cur, fmt.Errorf("open-files limit is %d and could not be raised to %d: %v", lim.Cur, want, err)
		}
		return lim.Max, fmt.Errorf("open-files limit raised to its hard limit %d, below the %d wanted (raise it with ulimit -Hn as root)", lim.Max, want)
	}
	return want, nil
}
