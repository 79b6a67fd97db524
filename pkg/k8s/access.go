package k8s

import (
	"context"
	"fmt"

	authorizationv1 "k8s.io/api/authorization/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
)

// Permission is one verb on one resource (group "" is the core group) in a namespace.
type Permission struct {
	Verb        string `json:"verb"`
	Group       string `json:"group"`
	Resource    string `json:"resource"`
	Subresource string `json:"subresource,omitempty"`
}

// String names the permission as RBAC rules do: "create pods/exec", "delete jobs.batch".
func (p Permission) String() string {
	res := p.Resource
	if p.Subresource != "" {
		res += "/" + p.Subresource
	}
	if p.Group != "" {
		res += "." + p.Group
	}
	return p.Verb + " " + res
}

// Missing asks the API server (SelfSubjectAccessReview) whether the caller may do each of perms
// in namespace ns, and returns those it may not, in order.
func Missing(ctx context.Context, c kubernetes.Interface, ns string, perms []Permission) ([]Permission, error) {
	var out []Permission
	for _, p := range perms {
		ssar := &authorizationv1.SelfSubjectAccessReview{Spec: authorizationv1.SelfSubjectAccessReviewSpec{
			ResourceAttributes: &authorizationv1.ResourceAttributes{Namespace: ns, Verb: p.Verb, Group: p.Group, Resource: p.Resource, Subresource: p.Subresource}}}
		res, err := c.AuthorizationV1().SelfSubjectAccessReviews().Create(ctx, ssar, metav1.CreateOptions{})
		if err != nil {
			return nil, fmt.Errorf("checking permissions (SelfSubjectAccessReview): %w", err)
		}
		if !res.Status.Allowed {
			out = append(out, p)
		}
	}
	return out, nil
}
