package sandbox

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
)

// apiError is an answer other than success: its status and a JSON body like the real API's.
type apiError struct {
	Status int
	Msg    string
	// Detail uses FastAPI's {"detail": ...} shape (the job API) instead of Rails' {"error": ...}.
	Detail bool
}

func (e *apiError) Error() string { return e.Msg }

func badRequest(format string, a ...any) *apiError {
	return &apiError{Status: http.StatusBadRequest, Msg: fmt.Sprintf(format, a...)}
}

func unprocessable(format string, a ...any) *apiError {
	return &apiError{Status: http.StatusUnprocessableEntity, Msg: fmt.Sprintf(format, a...)}
}

// writeJSON answers status with v as JSON.
func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

// writeError answers err: an *apiError as itself, a too-large body as 413, anything else as 500.
func writeError(w http.ResponseWriter, err error) {
	var ae *apiError
	if !errors.As(err, &ae) {
		var mbe *http.MaxBytesError
		if errors.As(err, &mbe) {
			ae = &apiError{Status: http.StatusRequestEntityTooLarge, Msg: fmt.Sprintf("request body larger than %d bytes", mbe.Limit)}
		} else {
			ae = &apiError{Status: http.StatusInternalServerError, Msg: err.Error()}
		}
	}
	if ae.Detail {
		writeJSON(w, ae.Status, map[string]any{"detail": ae.Msg})
		return
	}
	writeJSON(w, ae.Status, map[string]any{"error": ae.Msg, "status": ae.Status})
}

// decodeJSON reads a JSON object body into v: 413 when too large, 400 when it is not JSON.
func decodeJSON(r *http.Request, v any) error {
	b, err := io.ReadAll(r.Body)
	if err != nil {
		var mbe *http.MaxBytesError
		if errors.As(err, &mbe) {
			return err
		}
		return badRequest("reading the request body: %v", err)
	}
	if len(b) == 0 {
		return badRequest("empty request body: send a JSON object")
	}
	if err := json.Unmarshal(b, v); err != nil {
		return badRequest("request body is not valid JSON: %v", err)
	}
	return nil
}
