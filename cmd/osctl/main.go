// Command osctl takes a stateful web tier from one replica to many without corrupting shared state.
package main

import (
	"os"

	"github.com/osctl/osctl/internal/cli"
)

func main() {
	os.Exit(cli.Main())
}
