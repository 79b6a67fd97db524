package testenv

import (
	"fmt"
	"path/filepath"
)

// ControlPlane says how StartControlPlane sets up the control plane beyond what every test
// cluster has (etcd, kube-apiserver, kube-controller-manager, kube-scheduler on loopback).
type ControlPlane struct {
	// Kwok adds kwok and its two fake nodes (what SharedKube runs).
	Kwok bool
	// AdvertiseAddress is the apiserver's address in the kubernetes Service's endpoints, where
	// pods reach it (a real node's address); empty: 127.0.0.1, and no endpoints.
	AdvertiseAddress string
	// APIServerFlags and ControllerManagerFlags are added to those components' own.
	APIServerFlags, ControllerManagerFlags []string
	// Controllers replaces the controller manager's list of controllers (e.g. "*").
	Controllers string

	// freePort, when set, gives the port a component (by name) is started on, for the test of a
	// port another process took first.
	freePort func(component string) (int, error)
}

func (o ControlPlane) apiserverFlags() []string {
	var f []string
	if o.AdvertiseAddress == "" {
		f = append(f, "--advertise-address=127.0.0.1", "--endpoint-reconciler-type=none")
	} else {
		f = append(f, "--advertise-address="+o.AdvertiseAddress)
	}
	return append(f, o.APIServerFlags...)
}

// StartControlPlane starts a control plane of its own in dir (an empty directory), with the
// binaries of KubeBinDir; Stop ends it. Its PKI is in dir/pki (ca.crt, ca.key: IssueCert signs
// with it).
func StartControlPlane(dir string, o ControlPlane) (*Kube, error) {
	bin, ok := KubeBinDir()
	if !ok {
		return nil, fmt.Errorf("Kubernetes control plane binaries missing in %s (run scripts/k8s-build.sh)", bin)
	}
	return startKube(dir, bin, o)
}

// PKI is the directory of the control plane's CA and certificates.
func (k *Kube) PKI() string { return filepath.Join(k.Dir, "pki") }

// Port is the apiserver's port on 127.0.0.1.
func (k *Kube) Port() string { return k.Server[len("https://127.0.0.1:"):] }
