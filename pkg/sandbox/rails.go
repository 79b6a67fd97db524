package sandbox

import (
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
)

// railsStatusText is Rack's reason phrase for the statuses the OpenStudio routes answer.
var railsStatusText = map[int]string{
	http.StatusBadRequest:            "Bad Request",
	http.StatusNotFound:              "Not Found",
	http.StatusRequestEntityTooLarge: "Payload Too Large",
	http.StatusUnprocessableEntity:   "Unprocessable Entity",
	http.StatusInternalServerError:   "Internal Server Error",
}

// errorHeader carries the sandbox's own explanation of an error answer: the body is what Rails
// renders for an exception in production, which says nothing more than the status.
const errorHeader = "X-Osctl-Sandbox-Error"

// writeRails answers err as Rails' public exceptions app does for a JSON request:
// {"status":S,"error":"<reason>"}. An *apiError gives the status, a too-large body 413, anything
// else 500 (an exception in the app).
func writeRails(w http.ResponseWriter, err error) {
	status := http.StatusInternalServerError
	var ae *apiError
	var mbe *http.MaxBytesError
	switch {
	case errors.As(err, &ae):
		status = ae.Status
	case errors.As(err, &mbe):
		status = http.StatusRequestEntityTooLarge
	}
	text, ok := railsStatusText[status]
	if !ok {
		text = http.StatusText(status)
	}
	w.Header().Set(errorHeader, strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f {
			return ' '
		}
		return r
	}, err.Error()))
	writeJSON(w, status, map[string]any{"status": status, "error": text})
}

// crash is an exception in the app (HTTP 500), with what raised it.
func crash(format string, a ...any) *apiError {
	return &apiError{Status: http.StatusInternalServerError, Msg: fmt.Sprintf(format, a...)}
}

// nilRecord is the NoMethodError a controller raises when it uses a record that
// Model.find did not find (raise_not_found_error: false makes find answer nil).
func nilRecord(kind, id, method string) *apiError {
	return crash("undefined method `%s' for nil:NilClass (%s %q does not exist)", method, kind, id)
}

// invalid is Mongoid::Errors::Validations, which Rails answers with 422.
func invalid(format string, a ...any) *apiError {
	return &apiError{Status: http.StatusUnprocessableEntity, Msg: fmt.Sprintf(format, a...)}
}

// location is the absolute URL Rails' url_for gives a record in a Location header.
func location(r *http.Request, collection, id string) string {
	return "http://" + r.Host + "/" + collection + "/" + url.PathEscape(id)
}

// wantsJSON reports whether Rails would pick the JSON format: a .json path or an Accept header
// naming application/json.
func wantsJSON(r *http.Request) bool {
	return strings.HasSuffix(r.URL.Path, ".json") || strings.Contains(r.Header.Get("Accept"), "application/json")
}
