package cmdutil

import "testing"

// TestInterrupts: a refusal wins over what is left undone, refusals nest (the newest speaks) and
// release in any order, SetUndone restores the previous text, and a nil *Interrupts ignores all.
func TestInterrupts(t *testing.T) {
	in := &Interrupts{}
	if msg, refused := in.Again(); msg != "" || refused {
		t.Fatalf("nothing registered: %q %v", msg, refused)
	}
	restore := in.SetUndone(func() string { return "the report was not written" })
	inner := in.SetUndone(func() string { return "the state was not read" })
	if msg, _ := in.Again(); msg != "the state was not read" {
		t.Fatalf("undone %q", msg)
	}
	inner()
	if msg, _ := in.Again(); msg != "the report was not written" {
		t.Fatalf("undone after restore %q", msg)
	}
	outer := in.Refuse("rollback in progress")
	newer := in.Refuse("still rolling back")
	if msg, refused := in.Again(); !refused || msg != "still rolling back" {
		t.Fatalf("refusal %q %v", msg, refused)
	}
	outer()
	outer() // a second release is a no-op
	if msg, refused := in.Again(); !refused || msg != "still rolling back" {
		t.Fatalf("after releasing the older refusal: %q %v", msg, refused)
	}
	newer()
	if msg, refused := in.Again(); refused || msg != "the report was not written" {
		t.Fatalf("after releasing every refusal: %q %v", msg, refused)
	}
	restore()
	if msg, _ := in.Again(); msg != "" {
		t.Fatalf("after restoring: %q", msg)
	}
	var none *Interrupts
	none.SetUndone(func() string { return "x" })()
	none.Refuse("y")()
	if msg, refused := none.Again(); msg != "" || refused {
		t.Fatalf("nil Interrupts: %q %v", msg, refused)
	}
}
