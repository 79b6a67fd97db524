package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"strings"

	"github.com/google/go-containerregistry/pkg/authn"
	"github.com/google/go-containerregistry/pkg/name"
	v1 "github.com/google/go-containerregistry/pkg/v1"
	"github.com/google/go-containerregistry/pkg/v1/layout"
	"github.com/google/go-containerregistry/pkg/v1/remote"
	"github.com/google/go-containerregistry/pkg/v1/tarball"
)

// platformBin is one -bin OS/ARCH=PATH: the static osctl of that platform.
type platformBin struct {
	Platform v1.Platform
	Data     []byte
}

type imageFlags struct {
	version, epoch, ca, layoutDir, tarFile, tag, push string
	bins                                              []platformBin
}

func parseImageFlags(args []string) (*imageFlags, error) {
	f := &imageFlags{}
	fs := flag.NewFlagSet("image", flag.ContinueOnError)
	fs.StringVar(&f.version, "version", "", "release version (the image's label)")
	fs.StringVar(&f.epoch, "epoch", "", "creation time of the image and mtime of its files, seconds since 1970")
	fs.StringVar(&f.ca, "ca", "/etc/ssl/certs/ca-certificates.crt", "the CA bundle (Debian's ca-certificates)")
	fs.StringVar(&f.layoutDir, "layout", "", "write the multi-arch image as an OCI layout into this directory")
	fs.StringVar(&f.tarFile, "tar", "", "write the linux/amd64 image as a docker-save tarball (docker load, ctr images import)")
	fs.StringVar(&f.tag, "tag", "", "the tarball's image name (default ghcr.io/osctl/osctl:VERSION)")
	fs.StringVar(&f.push, "push", "", "push the multi-arch image to this reference (REGISTRY/osctl:TAG)")
	fs.Func("bin", "OS/ARCH=PATH of a static osctl (repeat per platform)", func(s string) error {
		plat, path, ok := strings.Cut(s, "=")
		p, err := v1.ParsePlatform(plat)
		if !ok || err != nil {
			return fmt.Errorf("%q: want OS/ARCH=PATH, e.g. linux/amd64=dist/build/linux_amd64/osctl", s)
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		f.bins = append(f.bins, platformBin{Platform: *p, Data: data})
		return nil
	})
	if err := fs.Parse(args); err != nil {
		return nil, err
	}
	if f.version == "" || len(f.bins) == 0 {
		return nil, fmt.Errorf("image needs -version and at least one -bin")
	}
	if f.tag == "" {
		f.tag = "ghcr.io/osctl/osctl:" + strings.ReplaceAll(f.version, "+", "-")
	}
	return f, nil
}

// runImage builds the multi-arch image and writes or pushes it as asked.
func runImage(args []string) error {
	f, err := parseImageFlags(args)
	if err != nil {
		return err
	}
	at, err := epochTime(f.epoch)
	if err != nil {
		return err
	}
	ca, err := os.ReadFile(f.ca)
	if err != nil {
		return fmt.Errorf("CA bundle: %w (install Debian's ca-certificates, or give -ca)", err)
	}
	idx, images, err := imageIndex(imageSpec{Version: f.version, Created: at, CABundle: ca}, f.bins)
	if err != nil {
		return err
	}
	if f.layoutDir != "" {
		if err := os.RemoveAll(f.layoutDir); err != nil {
			return err
		}
		if _, err := layout.Write(f.layoutDir, idx); err != nil {
			return fmt.Errorf("OCI layout %s: %w", f.layoutDir, err)
		}
		fmt.Println(f.layoutDir)
	}
	if f.tarFile != "" {
		if err := writeImageTar(f.tarFile, f.tag, images["linux/amd64"]); err != nil {
			return err
		}
		fmt.Println(f.tarFile)
	}
	if f.push != "" {
		return pushIndex(f.push, idx)
	}
	return nil
}

func writeImageTar(path, tag string, img v1.Image) error {
	if img == nil {
		return fmt.Errorf("-tar %s: no -bin linux/amd64 to write", path)
	}
	ref, err := name.NewTag(tag)
	if err != nil {
		return fmt.Errorf("-tag %q: %w", tag, err)
	}
	return tarball.WriteToFile(path, ref, img)
}

// pushIndex pushes the index with the credentials of ~/.docker/config.json (plain HTTP for a
// registry on localhost or 127.0.0.1, as go-containerregistry does).
func pushIndex(refStr string, idx v1.ImageIndex) error {
	ref, err := name.ParseReference(refStr)
	if err != nil {
		return fmt.Errorf("IMAGE %q: %w (want REGISTRY/osctl:TAG)", refStr, err)
	}
	if err := remote.WriteIndex(ref, idx, remote.WithAuthFromKeychain(authn.DefaultKeychain),
		remote.WithContext(context.Background())); err != nil {
		return fmt.Errorf("push %s: %w", ref, err)
	}
	d, err := idx.Digest()
	if err != nil {
		return err
	}
	fmt.Printf("pushed %s@%s\n", ref.Context(), d)
	return nil
}
