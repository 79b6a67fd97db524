// Command countserver is the benchmarks' loopback HTTP server (scripts/bench): it answers every
// request with a small 200 and counts, server-side, the requests and the new connections, so that
// throughput is what the server saw, not what a tool claims. GET /__stats returns both (and is not
// counted). It listens on a free loopback port and prints the address on its first line.
package main

import (
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"os"
	"sync/atomic"
)

func main() {
	var reqs, conns atomic.Int64
	body := []byte("ok\n")
	srv := &http.Server{
		Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.URL.Path == "/__stats" {
				_ = json.NewEncoder(w).Encode(map[string]int64{"requests": reqs.Load(), "conns": conns.Load()})
				return
			}
			reqs.Add(1)
			w.Header().Set("Content-Type", "text/plain")
			_, _ = w.Write(body)
		}),
		ConnState: func(_ net.Conn, s http.ConnState) {
			if s == http.StateNew {
				conns.Add(1)
			}
		},
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	fmt.Println(ln.Addr().String())
	_ = srv.Serve(ln)
}
