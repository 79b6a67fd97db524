// Command osctl-release writes osctl's release artefacts for make dist and make image:
// reproducible archives, the krew manifest and the multi-arch image (no Docker).
//
//	osctl-release archive -version V -epoch T -os linux -arch amd64 -bin PATH -out DIR FILE...
//	osctl-release krew -version V -out dist/krew/osctl.yaml ARCHIVE...
//	osctl-release image -version V -epoch T -bin linux/amd64=PATH ... [-layout DIR] [-tar FILE] [-push REF]
package main

import (
	"fmt"
	"os"
	"strconv"
	"time"
)

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: osctl-release archive|krew|image [flags]")
		os.Exit(2)
	}
	var err error
	switch os.Args[1] {
	case "archive":
		err = runArchive(os.Args[2:])
	case "krew":
		err = runKrew(os.Args[2:])
	case "image":
		err = runImage(os.Args[2:])
	default:
		err = fmt.Errorf("unknown command %q: want archive, krew or image", os.Args[1])
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "osctl-release: "+err.Error())
		os.Exit(2)
	}
}

// epochTime reads a SOURCE_DATE_EPOCH-style time (seconds since 1970, the commit time).
func epochTime(s string) (time.Time, error) {
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil || n < 0 {
		return time.Time{}, fmt.Errorf("-epoch %q: want seconds since 1970 (git log -1 --format=%%ct)", s)
	}
	return time.Unix(n, 0).UTC(), nil
}
