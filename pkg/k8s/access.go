package k8s

import (
	"context"
	"fmt"

	authorizationv1 "k8s.io/api/authorization/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// Permission is one verb on one resource (group "" is the core group), in Namespace or, when
// Namespace is "", cluster-wide.
type Permission struct {
	Verb        string `json:"verb"`
	Group       string `json:"group"`
	Resource    string `json:"resource"`
	Subresource string `json:"subresource,omitempty"`
	Namespace   string `json:"namespace,omitempty"`
}

// String names the permission as RBAC rules do: "create pods/exec", "delete jobs.batch",
// "get persistentvolumes (cluster-wide)".
func (p Permission) String() string {
	res := p.Resource
	if p.Subresource != "" {
		res += "/" + p.Subresource
	}
	if p.Group != "" {
		res += "." + p.Group
	}
	if p.Namespace == "" {
		return p.Verb + " " + res + " (cluster-wide)"
	}
	return p.Verb + " " + res
}

// InNamespace returns perms, each in namespace ns.
func InNamespace(ns string, perms []Permission) []Permission {
	out := make([]Permission, len(perms))
	for i, p := range perms {
		p.Namespace = ns
		out[i] = p
	}
	return out
}

// Missing asks the API server (SelfSubjectAccessReview) whether the caller may do each of perms,
// and returns those it may not, in order.
func Missing(ctx context.Context, c Interface, perms []Permission) ([]Permission, error) {
	var out []Permission
	for _, p := range perms {
		ssar := &authorizationv1.SelfSubjectAccessReview{Spec: authorizationv1.SelfSubjectAccessReviewSpec{
			ResourceAttributes: &authorizationv1.ResourceAttributes{Namespace: p.Namespace, Verb: p.Verb, Group: p.Group, Resource: p.Resource, Subresource: p.Subresource}}}
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
