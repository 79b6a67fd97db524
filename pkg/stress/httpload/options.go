package httpload

import (
	"net/http"

	"github.com/osctl/osctl/pkg/stress"
)

// Options are the http profile's own settings (stress.Config.Options): the request sent to each
// route ({{nonce}} and {{seq}} in Body are replaced).
type Options struct {
	Method string
	Body   string
}

// DefaultOptions are the options osctl stress starts from (its flags' defaults), and those of a
// Config without any.
func DefaultOptions() Options { return Options{Method: http.MethodGet} }

// OptionsOf returns c's http options: DefaultOptions when it has none.
func OptionsOf(c stress.Config) Options { return stress.OptionsAs(c, DefaultOptions()) }

// Profile implements stress.Options.
func (Options) Profile() string { return stress.ProfileHTTP }

// DecodeOptions implements stress.OptionsDecoder.
func (Profile) DecodeOptions(data []byte) (stress.Options, error) {
	return stress.DecodeOptionsAs[Options](data)
}
