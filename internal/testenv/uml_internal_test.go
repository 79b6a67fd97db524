package testenv

import (
	"strings"
	"testing"
)

func TestUMLHostUnsupported(t *testing.T) {
	panicked := "Checking host MADV_REMOVE support...OK\nuserspace - ptrace set fp regs failed, errno = 14\nfatal_sigsegv\n"
	why := umlHostUnsupported(panicked)
	if !strings.Contains(why, "errno = 14") || !strings.Contains(why, "XSAVE") {
		t.Fatalf("umlHostUnsupported = %q, want the panic line and the reason", why)
	}
	booted := "mconsole (version 2) initialized\nsysrq: Power Off\nreboot: Power down\n"
	if why := umlHostUnsupported(booted); why != "" {
		t.Fatalf("a clean boot was called unsupported: %q", why)
	}
}
