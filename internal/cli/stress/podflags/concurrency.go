package podflags

import (
	"fmt"
	"strconv"
	"strings"

	pstress "github.com/osctl/osctl/pkg/stress"
)

// concurrencyFlag is --concurrency: a number, or auto for the tier's capacity.
type concurrencyFlag struct{ c *pstress.Config }

func (f concurrencyFlag) String() string {
	if f.c.ConcurrencyAuto {
		return "auto"
	}
	return strconv.Itoa(f.c.Concurrency)
}

func (f concurrencyFlag) Set(s string) error {
	if strings.EqualFold(strings.TrimSpace(s), "auto") {
		f.c.Concurrency, f.c.ConcurrencyAuto = 0, true
		return nil
	}
	n, err := strconv.Atoi(strings.TrimSpace(s))
	if err != nil {
		return fmt.Errorf("%q: give a number of requests, or auto (the capacity of the --deployment's ready pods)", s)
	}
	f.c.Concurrency, f.c.ConcurrencyAuto = n, false
	return nil
}

func (f concurrencyFlag) Type() string { return "int|auto" }
