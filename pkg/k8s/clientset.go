package k8s

import (
	"fmt"
	"net/http"

	appsv1 "k8s.io/client-go/kubernetes/typed/apps/v1"
	authenticationv1 "k8s.io/client-go/kubernetes/typed/authentication/v1"
	authorizationv1 "k8s.io/client-go/kubernetes/typed/authorization/v1"
	autoscalingv2 "k8s.io/client-go/kubernetes/typed/autoscaling/v2"
	batchv1 "k8s.io/client-go/kubernetes/typed/batch/v1"
	coordinationv1 "k8s.io/client-go/kubernetes/typed/coordination/v1"
	corev1 "k8s.io/client-go/kubernetes/typed/core/v1"
	rbacv1 "k8s.io/client-go/kubernetes/typed/rbac/v1"
	storagev1 "k8s.io/client-go/kubernetes/typed/storage/v1"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/util/flowcontrol"
)

// Interface is the part of client-go's kubernetes.Interface that osctl uses: the typed clients of
// the API groups it reads and writes, under the same method names. client-go's full clientset
// links the typed client of every API group (some sixty) into the binary; this one links nine.
// A *kubernetes.Clientset satisfies it too.
type Interface interface {
	CoreV1() corev1.CoreV1Interface
	AppsV1() appsv1.AppsV1Interface
	AuthenticationV1() authenticationv1.AuthenticationV1Interface
	AuthorizationV1() authorizationv1.AuthorizationV1Interface
	AutoscalingV2() autoscalingv2.AutoscalingV2Interface
	BatchV1() batchv1.BatchV1Interface
	CoordinationV1() coordinationv1.CoordinationV1Interface
	RbacV1() rbacv1.RbacV1Interface
	StorageV1() storagev1.StorageV1Interface
}

// Clientset is Interface's implementation: one typed client per API group, sharing one HTTP
// client and one rate limiter, as client-go's kubernetes.NewForConfig builds them.
type Clientset struct {
	core           *corev1.CoreV1Client
	apps           *appsv1.AppsV1Client
	authentication *authenticationv1.AuthenticationV1Client
	authorization  *authorizationv1.AuthorizationV1Client
	autoscaling    *autoscalingv2.AutoscalingV2Client
	batch          *batchv1.BatchV1Client
	coordination   *coordinationv1.CoordinationV1Client
	rbac           *rbacv1.RbacV1Client
	storage        *storagev1.StorageV1Client
}

var _ Interface = (*Clientset)(nil)

// NewForConfig builds a Clientset from c, as kubernetes.NewForConfig does: client-go's user
// agent unless c names one, one transport for every group, and a token-bucket rate limiter of
// c.QPS and c.Burst unless c has a rate limiter. It does no network I/O.
func NewForConfig(c *rest.Config) (*Clientset, error) {
	cfg := *c
	if cfg.UserAgent == "" {
		cfg.UserAgent = rest.DefaultKubernetesUserAgent()
	}
	httpClient, err := rest.HTTPClientFor(&cfg)
	if err != nil {
		return nil, err
	}
	if cfg.RateLimiter == nil && cfg.QPS > 0 {
		if cfg.Burst <= 0 {
			return nil, fmt.Errorf("kubernetes client: burst must be above 0 when QPS is set (QPS %v, burst %d)", cfg.QPS, cfg.Burst)
		}
		cfg.RateLimiter = flowcontrol.NewTokenBucketRateLimiter(cfg.QPS, cfg.Burst)
	}
	return newClientset(&cfg, httpClient)
}

// newClientset builds each group's typed client on the shared config and HTTP client.
func newClientset(c *rest.Config, h *http.Client) (*Clientset, error) {
	var cs Clientset
	var err error
	if cs.core, err = corev1.NewForConfigAndClient(c, h); err != nil {
		return nil, err
	}
	if cs.apps, err = appsv1.NewForConfigAndClient(c, h); err != nil {
		return nil, err
	}
	if cs.authentication, err = authenticationv1.NewForConfigAndClient(c, h); err != nil {
		return nil, err
	}
	if cs.authorization, err = authorizationv1.NewForConfigAndClient(c, h); err != nil {
		return nil, err
	}
	if cs.autoscaling, err = autoscalingv2.NewForConfigAndClient(c, h); err != nil {
		return nil, err
	}
	if cs.batch, err = batchv1.NewForConfigAndClient(c, h); err != nil {
		return nil, err
	}
	if cs.coordination, err = coordinationv1.NewForConfigAndClient(c, h); err != nil {
		return nil, err
	}
	if cs.rbac, err = rbacv1.NewForConfigAndClient(c, h); err != nil {
		return nil, err
	}
	if cs.storage, err = storagev1.NewForConfigAndClient(c, h); err != nil {
		return nil, err
	}
	return &cs, nil
}

// CoreV1 is the core/v1 client: pods, secrets, services, events, namespaces, nodes.
func (c *Clientset) CoreV1() corev1.CoreV1Interface { return c.core }

// AppsV1 is the apps/v1 client: deployments, statefulsets, replicasets, daemonsets.
func (c *Clientset) AppsV1() appsv1.AppsV1Interface { return c.apps }

// AuthenticationV1 is the authentication.k8s.io/v1 client (SelfSubjectReview: who am I).
func (c *Clientset) AuthenticationV1() authenticationv1.AuthenticationV1Interface {
	return c.authentication
}

// AuthorizationV1 is the authorization.k8s.io/v1 client (SelfSubjectAccessReview: may I).
func (c *Clientset) AuthorizationV1() authorizationv1.AuthorizationV1Interface {
	return c.authorization
}

// AutoscalingV2 is the autoscaling/v2 client (HorizontalPodAutoscalers).
func (c *Clientset) AutoscalingV2() autoscalingv2.AutoscalingV2Interface { return c.autoscaling }

// BatchV1 is the batch/v1 client (Jobs).
func (c *Clientset) BatchV1() batchv1.BatchV1Interface { return c.batch }

// CoordinationV1 is the coordination.k8s.io/v1 client (Leases).
func (c *Clientset) CoordinationV1() coordinationv1.CoordinationV1Interface { return c.coordination }

// RbacV1 is the rbac.authorization.k8s.io/v1 client.
func (c *Clientset) RbacV1() rbacv1.RbacV1Interface { return c.rbac }

// StorageV1 is the storage.k8s.io/v1 client (StorageClasses).
func (c *Clientset) StorageV1() storagev1.StorageV1Interface { return c.storage }
