package rollout

import (
	"net/http"
	"net/url"
)

// ServerOf is a URL as osctl names it in messages and the journal: its scheme and host, without
// a user, password, path or query string ("" when it does not parse).
func ServerOf(s string) string {
	u, err := url.Parse(s)
	if err != nil || u.Host == "" {
		return "(an invalid URL)"
	}
	return u.Scheme + "://" + u.Host
}

// locationOf is where a redirect points, for an error: its scheme, host and path, without a user,
// password or query string.
func locationOf(resp *http.Response) string {
	u, err := resp.Location()
	if err != nil {
		return "no Location"
	}
	return u.Scheme + "://" + u.Host + u.EscapedPath()
}

// isRedirect reports whether resp is a redirect (3xx other than 304 Not Modified).
func isRedirect(resp *http.Response) bool {
	return resp.StatusCode >= 300 && resp.StatusCode <= 399 && resp.StatusCode != http.StatusNotModified
}
