package k8s

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"strconv"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/util/httpstream" //nolint:staticcheck // client-go v0.37's portforward takes this package's Dialer, not k8s.io/streaming's
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/client-go/tools/portforward"
	"k8s.io/client-go/transport/spdy"
)

// Forward is a running port-forward to a pod behind a Service.
type Forward struct {
	LocalAddr string // 127.0.0.1:PORT
	Pod       string
	stop      chan struct{}
	done      chan struct{}
	err       error // why forwarding ended; read after done is closed
}

// Close stops the port-forward and waits for it to end.
func (f *Forward) Close() {
	select {
	case <-f.stop:
	default:
		close(f.stop)
	}
	<-f.done
}

// Err says why the port-forward ended (nil while it runs or after a clean Close).
func (f *Forward) Err() error {
	select {
	case <-f.done:
		return f.err
	default:
		return nil
	}
}

// ForwardService opens a port-forward from a free loopback port to a ready pod of Service svc,
// resolving the Service port to the pod's target port, as `kubectl port-forward svc/NAME` does.
func ForwardService(ctx context.Context, c *Clients, namespace, svc string, port int) (*Forward, error) {
	s, err := c.Clientset.CoreV1().Services(namespace).Get(ctx, svc, metav1.GetOptions{})
	if err != nil {
		return nil, fmt.Errorf("finding Service %s/%s: %v", namespace, svc, err)
	}
	var sp *corev1.ServicePort
	for i := range s.Spec.Ports {
		if port == 0 || int(s.Spec.Ports[i].Port) == port {
			sp = &s.Spec.Ports[i]
			break
		}
	}
	if sp == nil {
		return nil, fmt.Errorf("Service %s/%s has no port %d", namespace, svc, port)
	}
	if len(s.Spec.Selector) == 0 {
		return nil, fmt.Errorf("Service %s/%s has no selector: cannot pick a pod to forward to", namespace, svc)
	}
	pods, err := c.Clientset.CoreV1().Pods(namespace).List(ctx, metav1.ListOptions{LabelSelector: labels.SelectorFromSet(s.Spec.Selector).String()})
	if err != nil {
		return nil, fmt.Errorf("listing pods of Service %s/%s: %v", namespace, svc, err)
	}
	var pod *corev1.Pod
	for i := range pods.Items {
		if Ready(&pods.Items[i]) {
			pod = &pods.Items[i]
			break
		}
	}
	if pod == nil {
		return nil, fmt.Errorf("Service %s/%s has no ready pod to forward to", namespace, svc)
	}
	target, err := targetPort(pod, sp)
	if err != nil {
		return nil, err
	}
	return ForwardPod(ctx, c, namespace, pod.Name, target)
}

// ForwardPod opens a port-forward from a free loopback port to port of a pod, through the API
// server: WebSocket first, falling back to SPDY when the server or a proxy refuses the upgrade,
// as kubectl does (and as Executor does for exec).
func ForwardPod(ctx context.Context, c *Clients, namespace, pod string, port int) (*Forward, error) {
	dialer, err := forwardDialer(c, namespace, pod)
	if err != nil {
		return nil, fmt.Errorf("port-forward to pod %s/%s: %v", namespace, pod, err)
	}
	stop, ready := make(chan struct{}), make(chan struct{})
	pf, err := portforward.NewOnAddresses(dialer, []string{"127.0.0.1"}, []string{"0:" + strconv.Itoa(port)}, stop, ready, io.Discard, io.Discard)
	if err != nil {
		return nil, fmt.Errorf("port-forward to pod %s/%s: %v", namespace, pod, err)
	}
	f := &Forward{Pod: pod, stop: stop, done: make(chan struct{})}
	go func() { f.err = pf.ForwardPorts(); close(f.done) }()
	select {
	case <-ready:
	case <-f.done:
		return nil, fmt.Errorf("port-forward to pod %s/%s: %v", namespace, pod, f.err)
	case <-ctx.Done():
		f.Close()
		return nil, ctx.Err()
	}
	ports, err := pf.GetPorts()
	if err != nil || len(ports) == 0 {
		f.Close()
		return nil, fmt.Errorf("port-forward to pod %s/%s: no local port", namespace, pod)
	}
	f.LocalAddr = fmt.Sprintf("127.0.0.1:%d", ports[0].Local)
	return f, nil
}

// forwardDialer dials the portforward subresource of pod ns/name: SPDY over WebSocket, else SPDY.
func forwardDialer(c *Clients, ns, name string) (httpstream.Dialer, error) {
	u := c.Clientset.CoreV1().RESTClient().Post().Resource("pods").Namespace(ns).Name(name).SubResource("portforward").URL()
	rt, upgrader, err := spdy.RoundTripperFor(c.REST)
	if err != nil {
		return nil, err
	}
	spdyDialer := spdy.NewDialer(upgrader, &http.Client{Transport: rt}, http.MethodPost, u)
	ws, err := portforward.NewSPDYOverWebsocketDialer(u, c.REST)
	if err != nil {
		return nil, err
	}
	return portforward.NewFallbackDialer(ws, spdyDialer, func(err error) bool {
		return httpstream.IsUpgradeFailure(err) || httpstream.IsHTTPSProxyError(err)
	}), nil
}

func targetPort(pod *corev1.Pod, sp *corev1.ServicePort) (int, error) {
	tp := sp.TargetPort
	switch {
	case tp.Type == intstr.Int && tp.IntVal != 0:
		return int(tp.IntVal), nil
	case tp.Type == intstr.String && tp.StrVal != "":
		for _, c := range pod.Spec.Containers {
			for _, p := range c.Ports {
				if p.Name == tp.StrVal {
					return int(p.ContainerPort), nil
				}
			}
		}
		return 0, fmt.Errorf("pod %s has no container port named %q", pod.Name, tp.StrVal)
	}
	return int(sp.Port), nil
}
