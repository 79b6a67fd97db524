package k8s

import (
	"context"
	"fmt"
	"strings"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// SecretRef names one key of a Secret: NAMESPACE/NAME:KEY.
type SecretRef struct{ Namespace, Name, Key string }

// ParseSecretRef parses NAMESPACE/NAME:KEY.
func ParseSecretRef(s string) (SecretRef, error) {
	nsName, key, ok := strings.Cut(s, ":")
	ns, name, ok2 := strings.Cut(nsName, "/")
	if !ok || !ok2 || ns == "" || name == "" || key == "" {
		return SecretRef{}, fmt.Errorf("bad secret reference %q: use NAMESPACE/NAME:KEY, for example openstudio/redis:password", s)
	}
	return SecretRef{Namespace: ns, Name: name, Key: key}, nil
}

// SecretValue reads one key of a Secret. The value is never part of an error message.
func SecretValue(ctx context.Context, cs Interface, ref SecretRef) (string, error) {
	sec, err := cs.CoreV1().Secrets(ref.Namespace).Get(ctx, ref.Name, metav1.GetOptions{})
	if err != nil {
		return "", fmt.Errorf("reading Secret %s/%s: %v", ref.Namespace, ref.Name, err)
	}
	v, ok := sec.Data[ref.Key]
	if !ok {
		keys := make([]string, 0, len(sec.Data))
		for k := range sec.Data {
			keys = append(keys, k)
		}
		return "", fmt.Errorf("Secret %s/%s has no key %q (keys: %s)", ref.Namespace, ref.Name, ref.Key, strings.Join(keys, ", "))
	}
	return strings.TrimRight(string(v), "\r\n"), nil
}
