package profile

import (
	"net/url"
	"testing"
)

func TestPoolRoundRobinOverLiveTargets(t *testing.T) {
	mk := func(s string, sandbox bool) Target {
		u, _ := url.Parse(s)
		return Target{URL: u, Status: ServerStatus{Sandbox: sandbox}}
	}
	var p Pool
	if p.Pick(0, false) != nil {
		t.Fatal("an empty pool picked a target")
	}
	p.Set([]Target{mk("http://a", true), mk("http://b", false), mk("http://c", true)})
	got := map[string]int{}
	for i := int64(0); i < 30; i++ {
		got[p.Pick(i, false).String()]++
	}
	if got["http://a"] != 10 || got["http://b"] != 10 || got["http://c"] != 10 {
		t.Fatalf("round-robin over 3 targets: %v", got)
	}
	for i := int64(0); i < 10; i++ {
		if u := p.Pick(i, true).String(); u == "http://b" {
			t.Fatalf("a start went to a target that is not the sandbox without AllowStart")
		}
	}
	if !p.Remove("http://a") || p.Remove("http://a") {
		t.Fatal("Remove: want true once, then false")
	}
	p.Add(mk("http://d", true))
	got = map[string]int{}
	for i := int64(0); i < 30; i++ {
		got[p.Pick(i, false).String()]++
	}
	if got["http://a"] != 0 || got["http://d"] != 10 {
		t.Fatalf("after removing a and adding d: %v", got)
	}
}
