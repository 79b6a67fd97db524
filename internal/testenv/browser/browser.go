// Package browser opens pages in headless Chromium (Debian's chromium, which scripts/test-deps.sh
// installs) for tests, through the DevTools protocol (chromedp): it records the console's errors
// and every request the page makes, evaluates expressions in it and takes screenshots. Chromium
// runs with a fresh profile and the flags that keep it off the network.
package browser

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	cdplog "github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
	"github.com/osctl/osctl/internal/testenv"
)

// Page is one page open in headless Chromium.
type Page struct {
	t   testing.TB
	ctx context.Context

	mu       sync.Mutex
	errors   []string
	requests []string
}

// Timeout bounds everything one Page does.
const Timeout = 90 * time.Second

// Binary finds Chromium. A machine without it fails the test: the browser tests must not be
// skipped silently (make test installs it).
func Binary(t testing.TB) string {
	t.Helper()
	testenv.SkipIfShort(t, "Chromium")
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	t.Fatalf("no chromium on PATH: the browser tests need it (scripts/test-deps.sh installs it: apt-get install -y chromium)")
	return ""
}

// Open starts headless Chromium, opens the file at path and waits until it has loaded. Chromium is
// stopped when the test ends.
func Open(t testing.TB, path string) *Page {
	t.Helper()
	testenv.SkipIfShort(t, "Chromium")
	abs, err := filepath.Abs(path)
	if err != nil {
		t.Fatal(err)
	}
	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(Binary(t)),
		chromedp.UserDataDir(t.TempDir()),
		chromedp.Headless, chromedp.NoSandbox, chromedp.DisableGPU, chromedp.NoFirstRun, chromedp.NoDefaultBrowserCheck,
		chromedp.Flag("disable-background-networking", true), chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true), chromedp.Flag("disable-extensions", true), chromedp.Flag("hide-scrollbars", true),
		chromedp.WindowSize(1400, 1000),
	}
	base, cancelTimeout := context.WithTimeout(context.Background(), Timeout)
	alloc, cancelAlloc := chromedp.NewExecAllocator(base, opts...)
	ctx, cancelCtx := chromedp.NewContext(alloc)
	t.Cleanup(func() { cancelCtx(); cancelAlloc(); cancelTimeout() })
	p := &Page{t: t, ctx: ctx}
	if err := chromedp.Listen(ctx, p.listen); err != nil {
		t.Fatalf("starting headless Chromium: %v", err)
	}
	if _, err := chromedp.Call(ctx, network.Enable, network.EnableParams{}); err != nil {
		t.Fatalf("headless Chromium: %v", err)
	}
	if _, err := chromedp.Call(ctx, runtime.Enable, cdp.Empty{}); err != nil {
		t.Fatalf("headless Chromium: %v", err)
	}
	if _, err := chromedp.Call(ctx, cdplog.Enable, cdp.Empty{}); err != nil {
		t.Fatalf("headless Chromium: %v", err)
	}
	if err := chromedp.Do(ctx, chromedp.Navigate("file://"+abs)); err != nil {
		t.Fatalf("opening %s in headless Chromium: %v", path, err)
	}
	return p
}

func (p *Page) listen(ev any) {
	p.mu.Lock()
	defer p.mu.Unlock()
	switch e := ev.(type) {
	case *runtime.EventConsoleAPICalled:
		if e.Type == runtime.ConsoleAPICalledTypeError || e.Type == runtime.ConsoleAPICalledTypeWarning || e.Type == runtime.ConsoleAPICalledTypeAssert {
			var args []string
			for _, a := range e.Args {
				args = append(args, a.Description+fmt.Sprint(a.Value))
			}
			p.errors = append(p.errors, fmt.Sprintf("console.%s: %s", e.Type, strings.Join(args, " ")))
		}
	case *runtime.EventExceptionThrown:
		d := e.ExceptionDetails
		text := d.Text
		if d.Exception != nil {
			text += " " + d.Exception.Description
		}
		p.errors = append(p.errors, fmt.Sprintf("exception: %s at %s:%d", text, d.URL, d.LineNumber))
	case *cdplog.EventEntryAdded:
		if e.Entry.Level == cdplog.EntryLevelError || e.Entry.Level == cdplog.EntryLevelWarning {
			p.errors = append(p.errors, fmt.Sprintf("%s %s: %s %s", e.Entry.Source, e.Entry.Level, e.Entry.Text, e.Entry.URL))
		}
	case *network.EventRequestWillBeSent:
		p.requests = append(p.requests, e.Request.URL)
	}
}

// Errors are the console's errors and warnings, uncaught exceptions and the browser's own error
// log entries (a resource that failed to load, a blocked request) so far.
func (p *Page) Errors() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]string(nil), p.errors...)
}

// Requests are the URLs the page requested, the page itself first.
func (p *Page) Requests() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]string(nil), p.requests...)
}

// Eval evaluates a JavaScript expression in the page and returns its JSON value.
func Eval[T any](p *Page, expr string) T {
	p.t.Helper()
	v, err := chromedp.Run(p.ctx, chromedp.Evaluate[T](expr))
	if err != nil {
		p.t.Fatalf("evaluating in the page: %v", err)
	}
	return v
}

// Screenshot writes a PNG of the top of the page, height CSS pixels of it at the window's width
// (1400).
func (p *Page) Screenshot(path string, height int) {
	p.t.Helper()
	beyond := true
	r, err := chromedp.Call(p.ctx, page.CaptureScreenshot, page.CaptureScreenshotParams{Format: page.CaptureScreenshotFormatPng,
		CaptureBeyondViewport: &beyond, Clip: &page.Viewport{Width: 1400, Height: float64(height), Scale: 1}})
	if err != nil {
		p.t.Fatalf("screenshot: %v", err)
	}
	if err := os.WriteFile(path, r.Data, 0o644); err != nil {
		p.t.Fatal(err)
	}
}
