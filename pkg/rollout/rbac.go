package rollout

import (
	"context"
	"fmt"
	"strings"

	authenticationv1 "k8s.io/api/authentication/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/osctl/osctl/pkg/k8s"
)

// RBACDoc is where the minimal Role and ClusterRole for osctl rollout are documented.
const RBACDoc = "docs/migration/rbac-rollout.yaml"

// Permission is one verb on one resource, in a namespace or ("" namespace) cluster-wide.
type Permission = k8s.Permission

// Needs says which parts of a rollout a permission check covers.
type Needs struct {
	Change   bool // run, resume, undo: patch the HPA, hold the Lease, record Events
	Watch    bool // wait for the Deployment and watch the HPA
	PodsGate bool
	NFSGate  bool // the NFS preflight, live: pods/exec, PVCs, and cluster-scoped PVs and StorageClasses
}

// RequiredPermissions lists what osctl rollout needs in namespace ns for the given needs. The
// same rules, and no more, are in RBACDoc.
func RequiredPermissions(ns string, n Needs) []Permission {
	var out []Permission
	add := func(group, resource, sub, namespace string, verbs ...string) {
		for _, v := range verbs {
			out = append(out, Permission{Verb: v, Group: group, Resource: resource, Subresource: sub, Namespace: namespace})
		}
	}
	add("autoscaling", "horizontalpodautoscalers", "", ns, "get")
	add("apps", "deployments", "", ns, "get")
	add("coordination.k8s.io", "leases", "", ns, "get")
	if n.Change {
		add("autoscaling", "horizontalpodautoscalers", "", ns, "patch")
		add("coordination.k8s.io", "leases", "", ns, "create", "update")
		add("", "events", "", ns, "create")
	}
	if n.Watch {
		add("autoscaling", "horizontalpodautoscalers", "", ns, "list", "watch")
		add("apps", "deployments", "", ns, "list", "watch")
	}
	if n.PodsGate || n.NFSGate {
		add("", "pods", "", ns, "get", "list")
	}
	if n.NFSGate {
		add("apps", "replicasets", "", ns, "list")
		add("autoscaling", "horizontalpodautoscalers", "", ns, "list")
		add("", "pods", "exec", ns, "create", "get")
		add("", "persistentvolumeclaims", "", ns, "get")
		add("", "persistentvolumes", "", "", "get")
		add("storage.k8s.io", "storageclasses", "", "", "get")
	}
	return out
}

// PermissionError lists the permissions the caller lacks.
type PermissionError struct {
	User      string
	Namespace string
	Missing   []Permission
}

func (e *PermissionError) Error() string {
	var ns, cluster []string
	for _, p := range e.Missing {
		if p.Namespace == "" {
			cluster = append(cluster, p.String())
		} else {
			ns = append(ns, p.String())
		}
	}
	who := "you lack"
	if e.User != "" {
		who = e.User + " lacks"
	}
	msg := fmt.Sprintf("%s Kubernetes permissions osctl rollout needs", who)
	if len(ns) > 0 {
		msg += fmt.Sprintf(" in namespace %s: %s", e.Namespace, strings.Join(ns, ", "))
	}
	if len(cluster) > 0 {
		if len(ns) > 0 {
			msg += ";"
		}
		msg += " cluster-wide (for the NFS gate): " + strings.Join(cluster, ", ")
	}
	return msg + ". Nothing was changed. Bind the Role (and, for the NFS gate, the ClusterRole) in " + RBACDoc
}

// CheckPermissions asks the API server (SelfSubjectAccessReview) whether the caller may do each
// of perms and returns a *PermissionError listing those it may not.
func CheckPermissions(ctx context.Context, c k8s.Interface, ns string, perms []Permission) error {
	missing, err := k8s.Missing(ctx, c, perms)
	if err != nil {
		return err
	}
	if len(missing) > 0 {
		return &PermissionError{User: WhoAmI(ctx, c), Namespace: ns, Missing: missing}
	}
	return nil
}

// WhoAmI returns the caller's user name (SelfSubjectReview), or "" when the server does not say.
func WhoAmI(ctx context.Context, c k8s.Interface) string {
	r, err := c.AuthenticationV1().SelfSubjectReviews().Create(ctx, &authenticationv1.SelfSubjectReview{}, metav1.CreateOptions{})
	if err != nil {
		return ""
	}
	return r.Status.UserInfo.Username
}
