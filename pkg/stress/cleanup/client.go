package cleanup

import (
	"fmt"
	"net/http"
	"time"

	"github.com/osctl/osctl/pkg/redact"
)

// Client is the HTTP client cleanup sends its requests with: each bounded by timeout, and no
// redirect followed. A redirect is an error naming its Location, so that a DELETE, and the token
// that goes with it, never reach a host the operator did not name (Go strips only Authorization
// and Cookie when it follows one to another host).
func Client(timeout time.Duration) *http.Client {
	return &http.Client{Timeout: timeout, CheckRedirect: refuseRedirect}
}

// refuseRedirect names the Location (without a password in it); http.Client puts the method and
// the URL that was redirected before it.
func refuseRedirect(req *http.Request, _ []*http.Request) error {
	return fmt.Errorf("redirected to %s: cleanup follows no redirect (pass the server's own URL)", redact.Text(req.URL.Redacted()))
}
