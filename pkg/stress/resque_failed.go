package stress

import "github.com/redis/go-redis/v9"

// ResqueFailed is the app's Redis that holds Resque's failed list: a real OpenStudio Server
// keeps its failed background jobs there (resque:failed) and serves them over no HTTP API.
type ResqueFailed struct {
	// Client reads the list (LLEN and LRANGE only: nothing is removed).
	Client redis.Cmdable
	// Key is the list (profile.ResqueFailedKey; default resque:failed).
	Key string
	// Name is how notices name the Redis: its URL with the password masked.
	Name string
}
