//go:build ignore

// binsize lists what weighs what in a Go binary built with its symbol table (no -s): the bytes of
// code and data each package's symbols hold in the file (zero-filled .bss does not count), largest
// first. The runtime's shared tables (pclntab, go:func.*, typelinks) are listed under their own
// names. Symbols are grouped by package path, or by its first -depth elements.
//
//	CGO_ENABLED=0 go build -trimpath -o /tmp/osctl.sym ./cmd/osctl
//	go run scripts/binsize.go -n 30 /tmp/osctl.sym
//	go run scripts/binsize.go -depth 3 -n 20 /tmp/osctl.sym   # by module-ish prefix
package main

import (
	"cmp"
	"debug/elf"
	"flag"
	"fmt"
	"os"
	"slices"
	"strings"
)

func main() {
	n := flag.Int("n", 40, "how many groups to print")
	depth := flag.Int("depth", 0, "group by the first DEPTH elements of the package path (0: the whole path)")
	flag.Parse()
	if flag.NArg() != 1 {
		fmt.Fprintln(os.Stderr, "usage: go run scripts/binsize.go [-n N] [-depth D] BINARY (built without -ldflags -s)")
		os.Exit(2)
	}
	f, err := elf.Open(flag.Arg(0))
	if err != nil {
		fmt.Fprintln(os.Stderr, "binsize:", err)
		os.Exit(2)
	}
	defer f.Close()
	syms, err := f.Symbols()
	if err != nil {
		fmt.Fprintln(os.Stderr, "binsize: no symbol table (built with -ldflags -s?):", err)
		os.Exit(2)
	}
	sizes := map[string]uint64{}
	var total uint64
	for _, s := range syms {
		if int(s.Section) >= len(f.Sections) || s.Section == elf.SHN_UNDEF {
			continue
		}
		if f.Sections[s.Section].Type == elf.SHT_NOBITS {
			continue // .bss, .noptrbss: not in the file
		}
		g := group(pkgOf(s.Name), *depth)
		sizes[g] += s.Size
		total += s.Size
	}
	type row struct {
		name string
		size uint64
	}
	rows := make([]row, 0, len(sizes))
	for k, v := range sizes {
		rows = append(rows, row{k, v})
	}
	slices.SortFunc(rows, func(a, b row) int { return cmp.Compare(b.size, a.size) })
	info, _ := os.Stat(flag.Arg(0))
	fmt.Printf("%s: %d bytes on disk, %d bytes in sized symbols\n", flag.Arg(0), info.Size(), total)
	for i, r := range rows {
		if i == *n {
			break
		}
		fmt.Printf("%10d  %5.1f%%  %s\n", r.size, 100*float64(r.size)/float64(total), r.name)
	}
}

// pkgOf returns the package path of a Go symbol name: "k8s.io/api/core/v1.(*Pod).Marshal",
// "type:*k8s.io/api/core/v1.Pod" and "go:itab.*k8s.io/api/core/v1.Pod,fmt.Stringer" are all
// k8s.io/api/core/v1's.
func pkgOf(name string) string {
	s := strings.TrimPrefix(name, "go:itab.")
	s = strings.TrimPrefix(s, "type:")
	s = strings.TrimPrefix(s, ".eq.")
	s = strings.TrimLeft(s, "*[]")
	if s == "" || strings.HasPrefix(s, "go:") || strings.HasPrefix(s, "runtime.") && !strings.Contains(name, "(") {
		if strings.HasPrefix(s, "runtime.") {
			return "runtime"
		}
		return name
	}
	head := s
	if i := strings.IndexAny(head, "([,{ "); i >= 0 {
		head = head[:i]
	}
	slash := strings.LastIndex(head, "/")
	dot := strings.Index(s[slash+1:], ".")
	if dot < 0 {
		return name
	}
	return s[:slash+1+dot]
}

// group cuts a package path to its first depth elements (all of it when depth is 0).
func group(pkg string, depth int) string {
	if depth <= 0 {
		return pkg
	}
	parts := strings.Split(pkg, "/")
	if len(parts) > depth {
		parts = parts[:depth]
	}
	return strings.Join(parts, "/")
}
