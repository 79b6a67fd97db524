//go:build !linux

package attack

import (
	"context"
	"errors"
	"net/http"
)

// EventLoopSupported reports whether this platform has the event loop (epoll): not this one,
// where closed-loop runs use a goroutine per request.
const EventLoopSupported = false

func eventLoopOK(*http.Request) bool { return false }

func (a *attacker) eventLoops(context.Context) error {
	return errors.New("the event-loop engine needs Linux")
}
