package stress

import (
	"errors"
	"fmt"
	"net/http"

	"github.com/osctl/osctl/pkg/redact"
	"github.com/osctl/osctl/pkg/stress/profile"
)

// TokenHeader carries elb-openapi's API token.
const TokenHeader = "X-ELB-API-Token"

// JobsError turns a refused token into the message that says what to do; header values are masked
// in whatever the service answered.
func JobsError(err error, hdrs http.Header) error {
	sec := &redact.Secrets{}
	for _, vs := range hdrs {
		for _, v := range vs {
			sec.Add(v)
		}
	}
	var ae *profile.AuthError
	if !errors.As(err, &ae) {
		return errors.New(sec.String(err.Error()))
	}
	// (Worded so that no "Token: value" appears: error output masks whatever follows one.)
	hint := "pass the service's token (its ELB_OPENAPI_API_TOKEN) in the " + TokenHeader + " header, with {Header}"
	if hdrs.Get(TokenHeader) != "" {
		hint = "the " + TokenHeader + " header given with {Header} was refused: check it against the service's ELB_OPENAPI_API_TOKEN"
	}
	return fmt.Errorf("%s; %s", sec.String(ae.Error()), hint)
}
