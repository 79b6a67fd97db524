package setting_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/osctl/osctl/pkg/setting"
)

func TestErrorNamesSettingsAsTheReaderKnowsThem(t *testing.T) {
	e := setting.Errorf("Requests", "0 needs {Profile} http and a {Duration} to bound the run")
	if got, want := e.Error(), "Requests 0 needs Profile http and a Duration to bound the run"; got != want {
		t.Fatalf("Error() = %q, want %q", got, want)
	}
	flags := map[string]string{"Requests": "--requests", "Profile": "--profile", "Duration": "--duration"}
	got := e.Render(func(n string) string { return flags[n] })
	if want := "--requests 0 needs --profile http and a --duration to bound the run"; got != want {
		t.Fatalf("Render = %q, want %q", got, want)
	}
	if got := setting.Errorf("Steps", ": is empty").Error(); got != "Steps: is empty" {
		t.Fatalf("a reason starting with a colon: %q", got)
	}
	wrapped := fmt.Errorf("the plan: %w", e)
	if se, ok := setting.As(wrapped); !ok || se != e {
		t.Fatal("As does not find the *Error in a wrapped chain")
	}
	if strings.Contains(setting.Errorf("Rate", "{not a ref} or {lower}").Error(), "not a ref}") == false {
		t.Fatal("braces that are not a setting name must stay as they are")
	}
}

func TestRefsInFreeText(t *testing.T) {
	got := setting.Refs("not stale (live): held; use {Force} to break it anyway, {lower} stays", func(n string) string { return "--" + strings.ToLower(n) })
	if want := "not stale (live): held; use --force to break it anyway, {lower} stays"; got != want {
		t.Fatalf("Refs = %q, want %q", got, want)
	}
}
