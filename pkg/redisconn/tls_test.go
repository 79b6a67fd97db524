package redisconn

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"math/big"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/osctl/osctl/internal/testenv"
	"github.com/osctl/osctl/pkg/redisproc"
)

// writeCert creates a key pair signed by parent (self-signed when parent is nil) and writes
// name.pem and name.key into dir.
func writeCert(t *testing.T, dir, name string, tmpl *x509.Certificate, parent *x509.Certificate, parentKey *ecdsa.PrivateKey) (*x509.Certificate, *ecdsa.PrivateKey) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	if parent == nil {
		parent, parentKey = tmpl, key
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, parent, &key.PublicKey, parentKey)
	if err != nil {
		t.Fatal(err)
	}
	kder, err := x509.MarshalECPrivateKey(key)
	if err != nil {
		t.Fatal(err)
	}
	must := func(err error) {
		if err != nil {
			t.Fatal(err)
		}
	}
	must(os.WriteFile(filepath.Join(dir, name+".pem"), pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), 0o600))
	must(os.WriteFile(filepath.Join(dir, name+".key"), pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: kder}), 0o600))
	cert, err := x509.ParseCertificate(der)
	must(err)
	return cert, key
}

// TestTLSWithCA connects to a real redis-server over TLS: verified with --redis-ca, refused
// with a one-line hint without it.
func TestTLSWithCA(t *testing.T) {
	dir := t.TempDir()
	now := time.Now()
	ca, caKey := writeCert(t, dir, "ca", &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "osctl test CA"},
		NotBefore: now.Add(-time.Hour), NotAfter: now.Add(time.Hour), IsCA: true, BasicConstraintsValid: true,
		KeyUsage: x509.KeyUsageCertSign}, nil, nil)
	writeCert(t, dir, "server", &x509.Certificate{SerialNumber: big.NewInt(2), Subject: pkix.Name{CommonName: "127.0.0.1"},
		NotBefore: now.Add(-time.Hour), NotAfter: now.Add(time.Hour), IPAddresses: []net.IP{net.IPv4(127, 0, 0, 1)},
		ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth}, KeyUsage: x509.KeyUsageDigitalSignature}, ca, caKey)
	port, err := redisproc.FreePort()
	if err != nil {
		t.Fatal(err)
	}
	testenv.StartRedis(t, testenv.WithArgs("--tls-port", strconv.Itoa(port), "--tls-auth-clients", "no",
		"--tls-cert-file", filepath.Join(dir, "server.pem"), "--tls-key-file", filepath.Join(dir, "server.key"),
		"--tls-ca-cert-file", filepath.Join(dir, "ca.pem")), testenv.WithPassword(pw))
	url := "rediss://:" + pw + "@127.0.0.1:" + strconv.Itoa(port)
	ctx := context.Background()

	ms, err := Connect(Config{URLs: []string{url}, CAFile: filepath.Join(dir, "ca.pem")})
	if err != nil {
		t.Fatal(err)
	}
	if err := Ping(ctx, ms[0]); err != nil {
		t.Errorf("with --redis-ca: %v", err)
	}
	Close(ms)

	ms, err = Connect(Config{URLs: []string{url}})
	if err != nil {
		t.Fatal(err)
	}
	err = Ping(ctx, ms[0])
	Close(ms)
	if err == nil || !strings.Contains(err.Error(), "--redis-ca") || strings.Contains(err.Error(), pw) {
		t.Errorf("without --redis-ca: %v", err)
	}
	if _, err := Connect(Config{URLs: []string{"redis://127.0.0.1:1"}, CAFile: filepath.Join(dir, "ca.pem")}); err == nil || !strings.Contains(err.Error(), "not rediss://") {
		t.Errorf("--redis-ca with redis://: %v", err)
	}
}
