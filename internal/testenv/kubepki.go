package testenv

import (
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"errors"
	"fmt"
	"math/big"
	"net"
	"os"
	"path/filepath"
	"time"
)

// writePKI writes a CA, the apiserver's serving cert, client certs and the service-account key
// pair into dir (the files kube-up needs), with Go's crypto instead of openssl. The CA's key stays
// in dir (IssueCert signs further certs with it, e.g. a real node's).
func writePKI(dir string) error {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	caKey, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		return err
	}
	now := time.Now().Add(-time.Hour)
	caTmpl := &x509.Certificate{
		SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "osctl-test-ca"},
		NotBefore: now, NotAfter: now.Add(10 * 365 * 24 * time.Hour),
		IsCA: true, BasicConstraintsValid: true,
		KeyUsage: x509.KeyUsageCertSign | x509.KeyUsageDigitalSignature,
	}
	caDER, err := x509.CreateCertificate(rand.Reader, caTmpl, caTmpl, &caKey.PublicKey, caKey)
	if err != nil {
		return err
	}
	if err := writePEM(filepath.Join(dir, "ca.crt"), "CERTIFICATE", caDER); err != nil {
		return err
	}
	if err := writePEM(filepath.Join(dir, "ca.key"), "RSA PRIVATE KEY", x509.MarshalPKCS1PrivateKey(caKey)); err != nil {
		return err
	}
	certs := []struct {
		name   string
		subj   pkix.Name
		server bool
	}{
		{"apiserver", pkix.Name{CommonName: "kube-apiserver"}, true},
		{"admin", pkix.Name{CommonName: "admin", Organization: []string{"system:masters"}}, false},
		{"kube-controller-manager", pkix.Name{CommonName: "system:kube-controller-manager"}, false},
		{"kube-scheduler", pkix.Name{CommonName: "system:kube-scheduler"}, false},
	}
	for _, c := range certs {
		var ips []net.IP
		var dns []string
		if c.server {
			ips = []net.IP{net.ParseIP("127.0.0.1"), net.ParseIP("10.0.0.1")}
			dns = []string{"localhost", "kubernetes", "kubernetes.default", "kubernetes.default.svc", "kubernetes.default.svc.cluster.local"}
		}
		if err := IssueCert(dir, c.name, c.subj, ips, dns); err != nil {
			return err
		}
	}
	sa, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		return err
	}
	if err := writePEM(filepath.Join(dir, "sa.key"), "RSA PRIVATE KEY", x509.MarshalPKCS1PrivateKey(sa)); err != nil {
		return err
	}
	pub, err := x509.MarshalPKIXPublicKey(&sa.PublicKey)
	if err != nil {
		return err
	}
	return writePEM(filepath.Join(dir, "sa.pub"), "PUBLIC KEY", pub)
}

// IssueCert writes dir/name.crt and dir/name.key, signed by the CA in dir (ca.crt, ca.key): a
// client certificate for subj, or a serving one as well when ips or dns are given.
func IssueCert(dir, name string, subj pkix.Name, ips []net.IP, dns []string) error {
	ca, caKey, err := loadCA(dir)
	if err != nil {
		return err
	}
	key, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		return err
	}
	serial, err := rand.Int(rand.Reader, new(big.Int).Lsh(big.NewInt(1), 62))
	if err != nil {
		return err
	}
	now := time.Now().Add(-time.Hour)
	t := &x509.Certificate{
		SerialNumber: serial, Subject: subj,
		NotBefore: now, NotAfter: now.Add(10 * 365 * 24 * time.Hour),
		KeyUsage:    x509.KeyUsageDigitalSignature | x509.KeyUsageKeyEncipherment,
		ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageClientAuth},
		IPAddresses: ips, DNSNames: dns,
	}
	if len(ips) > 0 || len(dns) > 0 {
		t.ExtKeyUsage = append(t.ExtKeyUsage, x509.ExtKeyUsageServerAuth)
	}
	der, err := x509.CreateCertificate(rand.Reader, t, ca, &key.PublicKey, caKey)
	if err != nil {
		return err
	}
	if err := writePEM(filepath.Join(dir, name+".crt"), "CERTIFICATE", der); err != nil {
		return err
	}
	return writePEM(filepath.Join(dir, name+".key"), "RSA PRIVATE KEY", x509.MarshalPKCS1PrivateKey(key))
}

func loadCA(dir string) (*x509.Certificate, *rsa.PrivateKey, error) {
	read := func(name string) ([]byte, error) {
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			return nil, err
		}
		blk, _ := pem.Decode(b)
		if blk == nil {
			return nil, fmt.Errorf("%s: no PEM block", name)
		}
		return blk.Bytes, nil
	}
	crt, err := read("ca.crt")
	if err != nil {
		return nil, nil, err
	}
	ca, err := x509.ParseCertificate(crt)
	if err != nil {
		return nil, nil, err
	}
	k, err := read("ca.key")
	if err != nil {
		return nil, nil, errors.Join(errors.New("the CA's key"), err)
	}
	key, err := x509.ParsePKCS1PrivateKey(k)
	return ca, key, err
}

func writePEM(path, typ string, der []byte) error {
	return os.WriteFile(path, pem.EncodeToMemory(&pem.Block{Type: typ, Bytes: der}), 0o600)
}
