package jobs

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"time"

	"github.com/osctl/osctl/pkg/stress/profile"
)

// Check asks every target's GET /v1/jobs?limit=1 with the run's headers before anything is
// submitted: the service answers it from memory (no kubectl), and it needs the token like every
// /v1 route. It returns an *profile.AuthError when the token is missing or refused.
func (p *Submitter) Check(ctx context.Context) error {
	for _, t := range p.Targets {
		if err := p.checkOne(ctx, t); err != nil {
			return err
		}
	}
	return nil
}

func (p *Submitter) checkOne(ctx context.Context, t profile.Target) error {
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	u := profile.JoinPath(t.URL, "/v1/jobs?limit=1")
	a, err := profile.Exchange(ctx, p.Client, http.MethodGet, u, p.Header, nil, 1<<20)
	if err != nil {
		return fmt.Errorf("GET %s/v1/jobs: %v", t.URL.Redacted(), err)
	}
	var ans struct {
		Detail any   `json:"detail"`
		Jobs   []any `json:"jobs"`
	}
	_ = json.Unmarshal(a.Body, &ans)
	switch a.Status {
	case http.StatusOK:
		if ans.Jobs == nil {
			return fmt.Errorf("GET %s/v1/jobs answered 200 without a jobs list: not elb-openapi's job API", t.URL.Redacted())
		}
		return nil
	case http.StatusUnauthorized, http.StatusForbidden:
		return &profile.AuthError{Method: http.MethodGet, URL: t.URL.Redacted() + "/v1/jobs", Status: a.Status, Detail: profile.DetailText(ans.Detail)}
	case http.StatusNotFound:
		return fmt.Errorf("GET %s/v1/jobs answered 404: no job API at that URL (give the service's base URL, without /v1)", t.URL.Redacted())
	}
	msg := fmt.Sprintf("GET %s/v1/jobs answered %d", t.URL.Redacted(), a.Status)
	if d := profile.DetailText(ans.Detail); d != "" {
		msg += ": " + d
	}
	return fmt.Errorf("%s", msg)
}
