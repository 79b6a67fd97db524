package main

import (
	"bytes"
	"fmt"
	"io"
	"time"

	v1 "github.com/google/go-containerregistry/pkg/v1"
	"github.com/google/go-containerregistry/pkg/v1/empty"
	"github.com/google/go-containerregistry/pkg/v1/mutate"
	"github.com/google/go-containerregistry/pkg/v1/tarball"
	"github.com/google/go-containerregistry/pkg/v1/types"
)

// nonroot is the user the image runs as (distroless's nonroot).
const nonroot = 65532

const (
	passwd = "root:x:0:0:root:/root:/sbin/nologin\n" +
		"nobody:x:65534:65534:nobody:/nonexistent:/sbin/nologin\n" +
		"nonroot:x:65532:65532:nonroot:/home/nonroot:/sbin/nologin\n"
	group    = "root:x:0:\nnobody:x:65534:\nnonroot:x:65532:\n"
	nsswitch = "hosts: files dns\n"
	binPath  = "usr/local/bin/osctl"
)

// imageSpec is what every platform's image shares.
type imageSpec struct {
	Version  string
	Created  time.Time
	CABundle []byte // Debian's /etc/ssl/certs/ca-certificates.crt
}

// baseEntries is the image's base, built from scratch: the CA bundle, passwd and group with
// nonroot (65532), its home, /tmp; no shell and no package manager.
func baseEntries(ca []byte) []entry {
	dir := func(name string, mode int64, uid int) entry {
		return entry{Name: name, Mode: mode, Dir: true, UID: uid}
	}
	return []entry{
		dir("etc", 0o755, 0), dir("etc/ssl", 0o755, 0), dir("etc/ssl/certs", 0o755, 0),
		{Name: "etc/ssl/certs/ca-certificates.crt", Mode: 0o644, Data: ca},
		{Name: "etc/passwd", Mode: 0o644, Data: []byte(passwd)},
		{Name: "etc/group", Mode: 0o644, Data: []byte(group)},
		{Name: "etc/nsswitch.conf", Mode: 0o644, Data: []byte(nsswitch)},
		dir("home", 0o755, 0), dir("home/nonroot", 0o700, nonroot),
		dir("tmp", 0o1777, 0),
	}
}

// binEntries is the layer holding osctl at /usr/local/bin/osctl.
func binEntries(bin []byte) []entry {
	return []entry{
		{Name: "usr", Mode: 0o755, Dir: true}, {Name: "usr/local", Mode: 0o755, Dir: true},
		{Name: "usr/local/bin", Mode: 0o755, Dir: true},
		{Name: binPath, Mode: 0o755, Data: bin},
	}
}

// layer is a reproducible OCI layer of entries (mtimes at, gzip without a timestamp).
func layer(entries []entry, at time.Time) (v1.Layer, error) {
	var buf bytes.Buffer
	if err := writeTar(&buf, entries, at); err != nil {
		return nil, err
	}
	data := buf.Bytes()
	return tarball.LayerFromOpener(func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(data)), nil },
		tarball.WithMediaType(types.OCILayer))
}

// platformImage is osctl's image for one platform: base layer, binary layer, config run as
// 65532 with entrypoint osctl.
func platformImage(spec imageSpec, p v1.Platform, bin []byte) (v1.Image, error) {
	img := mutate.ConfigMediaType(mutate.MediaType(empty.Image, types.OCIManifestSchema1), types.OCIConfigJSON)
	for _, l := range []struct {
		entries []entry
		by      string
	}{{baseEntries(spec.CABundle), "osctl-release: base (CA bundle, passwd, group)"}, {binEntries(bin), "osctl-release: /" + binPath}} {
		lay, err := layer(l.entries, spec.Created)
		if err != nil {
			return nil, err
		}
		img, err = mutate.Append(img, mutate.Addendum{Layer: lay, MediaType: types.OCILayer,
			History: v1.History{Created: v1.Time{Time: spec.Created}, CreatedBy: l.by}})
		if err != nil {
			return nil, err
		}
	}
	cfg, err := img.ConfigFile()
	if err != nil {
		return nil, err
	}
	cfg = cfg.DeepCopy()
	cfg.OS, cfg.Architecture, cfg.Variant = p.OS, p.Architecture, p.Variant
	cfg.Created = v1.Time{Time: spec.Created}
	cfg.Config = v1.Config{
		User:       fmt.Sprint(nonroot),
		Entrypoint: []string{"osctl"},
		WorkingDir: "/home/nonroot",
		Env: []string{"PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
			"SSL_CERT_FILE=/etc/ssl/certs/ca-certificates.crt"},
		Labels: map[string]string{
			"org.opencontainers.image.title":   "osctl",
			"org.opencontainers.image.version": spec.Version,
			"org.opencontainers.image.source":  "https://github.com/osctl/osctl",
		},
	}
	return mutate.ConfigFile(img, cfg)
}

// imageIndex is the multi-arch index of the platforms' images, in the order given.
func imageIndex(spec imageSpec, bins []platformBin) (v1.ImageIndex, map[string]v1.Image, error) {
	idx := mutate.IndexMediaType(empty.Index, types.OCIImageIndex)
	images := map[string]v1.Image{}
	for _, b := range bins {
		img, err := platformImage(spec, b.Platform, b.Data)
		if err != nil {
			return nil, nil, fmt.Errorf("%s: %w", b.Platform, err)
		}
		images[b.Platform.String()] = img
		p := b.Platform
		idx = mutate.AppendManifests(idx, mutate.IndexAddendum{Add: img, Descriptor: v1.Descriptor{Platform: &p}})
	}
	return idx, images, nil
}
