package sandbox

import (
	"strings"
)

// paperclipRestricted are the characters of Paperclip's default :restricted_characters
// (/[&$+,\/:;=?@<>\[\]\{\}\|\\\^~%# ]/ in Paperclip::Attachment.default_options): each becomes '_'
// in the stored file name.
const paperclipRestricted = "&$+,/:;=?@<>[]{}|\\^~%# "

// cleanFileName is the <attachment>_file_name Paperclip records for an upload's file name.
func cleanFileName(name string) string {
	return strings.Map(func(r rune) rune {
		if strings.ContainsRune(paperclipRestricted, r) {
			return '_'
		}
		return r
	}, name)
}

// storedName is the file name Paperclip's ":basename.:extension" path gives a cleaned name:
// Ruby's File.basename(name, ".*") + "." + File.extname(name) without its leading dots. Ruby
// finds no extension when no dot follows the name's leading dots, so that name gains a trailing
// dot ("out" is stored as "out.", ".x" as ".x."); every other name is stored as it is ("a.zip",
// "a.", "a..b": Ruby 2.7 and later give "a." the extension ".").
func storedName(clean string) string {
	if strings.Contains(strings.TrimLeft(clean, "."), ".") {
		return clean
	}
	return clean + "."
}

// uploadNames are an upload's cleaned file name (cleanFileName) and the name it is stored under
// (storedName); a stored name the sandbox cannot use as a path is 422.
func uploadNames(name string) (clean, stored string, err error) {
	clean = cleanFileName(name)
	stored = storedName(clean)
	if err := checkID("file", stored); err != nil {
		return "", "", unprocessable("uploaded file name %q is stored as %q, which the sandbox cannot use as a path: %v", name, stored, err)
	}
	return clean, stored, nil
}

// rackFileName is the file name Rack's multipart parser (2.2) hands Rails: percent-decoded when
// every '%' in it starts a %XX escape, with invalid UTF-8 replaced.
func rackFileName(raw string) string {
	if n := strings.Count(raw, "%"); n > 0 {
		ok := true
		for i := 0; i < len(raw) && ok; i++ {
			if raw[i] == '%' {
				ok = i+2 < len(raw) && isHex(raw[i+1]) && isHex(raw[i+2])
			}
		}
		if ok {
			var b strings.Builder
			for i := 0; i < len(raw); i++ {
				if raw[i] == '%' {
					b.WriteByte(unhex(raw[i+1])<<4 | unhex(raw[i+2]))
					i += 2
					continue
				}
				b.WriteByte(raw[i])
			}
			raw = b.String()
		}
	}
	return strings.ToValidUTF8(raw, "\uFFFD")
}

func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

func unhex(c byte) byte {
	switch {
	case c >= 'a':
		return c - 'a' + 10
	case c >= 'A':
		return c - 'A' + 10
	}
	return c - '0'
}
