package cmdutil

import (
	"bufio"
	"errors"
	"fmt"
	"strings"
)

// ErrNotConfirmed is returned when the user answers no; the command changes nothing (exit 2).
var ErrNotConfirmed = errors.New("not confirmed: nothing was changed")

// Confirm asks a yes/no question before a destructive action. With yes set it returns nil at
// once. Without a terminal to ask on it refuses, telling the user to pass --yes.
func Confirm(io *IOStreams, yes bool, question string) error {
	if yes {
		return nil
	}
	if !io.CanPrompt() {
		return Usage("refusing to act without confirmation: no terminal to ask on; pass --yes (or --dry-run to see what would change)")
	}
	fmt.Fprintf(io.ErrOut, "%s [y/N] ", question)
	line, _ := bufio.NewReader(io.In).ReadString('\n')
	switch strings.ToLower(strings.TrimSpace(line)) {
	case "y", "yes":
		return nil
	}
	return ErrNotConfirmed
}
