// Package realserver holds the tests that run `osctl stress` against the real OpenStudio Server
// v3.7.0 (internal/testenv/openstudioenv: upstream's server/ app from third_party/, Passenger,
// Resque, FerretDB), unpatched and with contrib/rails's lock, and check osctl's verdict on it
// independently of osctl's judge. It has no code of its own; see its _test.go files and
// docs/migration/real-server.md.
package realserver
