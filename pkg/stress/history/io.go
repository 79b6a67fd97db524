package history

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"sync"
)

// Writer appends records as JSON lines. It is safe for concurrent use; Close flushes.
type Writer struct {
	mu  sync.Mutex
	bw  *bufio.Writer
	enc *json.Encoder
	err error
}

// NewWriter returns a Writer on w.
func NewWriter(w io.Writer) *Writer {
	bw := bufio.NewWriterSize(w, 1<<16)
	return &Writer{bw: bw, enc: json.NewEncoder(bw)}
}

// Write appends one record. The first error is kept and returned by every later call.
func (w *Writer) Write(r *Record) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.err != nil {
		return w.err
	}
	w.err = w.enc.Encode(r)
	return w.err
}

// Flush writes buffered lines to the underlying writer.
func (w *Writer) Flush() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.err != nil {
		return w.err
	}
	w.err = w.bw.Flush()
	return w.err
}

// History is a parsed history file.
type History struct {
	Header  Header
	Footer  *Footer // nil when the run did not end cleanly (the file was cut)
	Records []Record
	// Cut counts the partial lines ignored at its end: a last line without its newline that is not
	// a whole record (the run was killed while writing it). A cut history has no footer, so the run
	// reads as partial, as an interrupted one does.
	Cut int
}

// CutNotice is what to tell the user about a history whose last line was cut ("" when none was).
func (h *History) CutNotice() string {
	switch h.Cut {
	case 0:
		return ""
	case 1:
		return "history ends mid-record: 1 partial line ignored (the run is read as partial)"
	}
	return fmt.Sprintf("history ends mid-record: %d partial lines ignored (the run is read as partial)", h.Cut)
}

// MaxLine is the longest line Read accepts (a zip manifest can be long).
const MaxLine = 16 << 20

// Read parses a history. The first line must be a header of a schema this version knows; blank
// lines are skipped; a last line without its newline that is not a whole record (a crash while
// writing it) is ignored and counted in Cut; any other malformed line is an error naming its line
// number.
func Read(r io.Reader) (*History, error) { return Scan(r, nil) }

// Scan parses a history as Read does, handing each record (not the header or footer) to take,
// once the header has been read: the records take returns true for are taken (not kept in the
// History's Records), the others kept. A nil take keeps every record.
func Scan(r io.Reader, take func(h *Header, rec *Record) bool) (*History, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), MaxLine)
	unterminated := false // the token just scanned is the last one, and no newline ends it
	sc.Split(func(data []byte, atEOF bool) (int, []byte, error) {
		adv, tok, err := bufio.ScanLines(data, atEOF)
		if atEOF && adv == len(data) && len(data) > 0 && data[len(data)-1] != '\n' {
			unterminated = true
		}
		return adv, tok, err
	})
	h := &History{}
	line := 0
	sawHeader := false
	for sc.Scan() {
		line++
		b := sc.Bytes()
		if len(trimSpace(b)) == 0 {
			continue
		}
		var rec Record
		if err := json.Unmarshal(b, &rec); err != nil {
			if unterminated {
				h.Cut++ // the write of the last record was cut: what came before stands
				continue
			}
			return nil, fmt.Errorf("history line %d: %v", line, err)
		}
		switch rec.Kind {
		case KindHeader:
			if sawHeader {
				return nil, fmt.Errorf("history line %d: a second header", line)
			}
			if rec.Header == nil {
				return nil, fmt.Errorf("history line %d: header line without header", line)
			}
			if rec.Header.Schema != SchemaVersion {
				return nil, fmt.Errorf("history line %d: schema %d, this osctl reads schema %d", line, rec.Header.Schema, SchemaVersion)
			}
			h.Header = *rec.Header
			sawHeader = true
			continue
		case KindFooter:
			if rec.Footer == nil {
				return nil, fmt.Errorf("history line %d: footer line without footer", line)
			}
			h.Footer = rec.Footer
			continue
		case KindRequest, KindReadback, KindJob:
		default:
			return nil, fmt.Errorf("history line %d: unknown kind %q", line, rec.Kind)
		}
		if !sawHeader {
			return nil, fmt.Errorf("history line %d: records before the header line", line)
		}
		switch rec.Outcome {
		case "", Acknowledged, Rejected, Ambiguous:
		default:
			return nil, fmt.Errorf("history line %d: unknown outcome %q", line, rec.Outcome)
		}
		if take == nil || !take(&h.Header, &rec) {
			h.Records = append(h.Records, rec)
		}
	}
	if err := sc.Err(); err != nil {
		if errors.Is(err, bufio.ErrTooLong) {
			return nil, fmt.Errorf("history line %d: longer than %d bytes", line+1, MaxLine)
		}
		return nil, fmt.Errorf("reading history: %v", err)
	}
	if !sawHeader {
		return nil, errors.New("history has no header line: is this an osctl stress {History} file?")
	}
	return h, nil
}

func trimSpace(b []byte) []byte {
	for len(b) > 0 && (b[0] == ' ' || b[0] == '\t' || b[0] == '\r') {
		b = b[1:]
	}
	for len(b) > 0 && (b[len(b)-1] == ' ' || b[len(b)-1] == '\t' || b[len(b)-1] == '\r') {
		b = b[:len(b)-1]
	}
	return b
}

// ReadFile reads a history file (osctl stress --history). Its errors name the file.
func ReadFile(path string) (*History, error) { return ScanFile(path, nil) }

// ScanFile scans a history file as Scan does. Its errors name the file.
func ScanFile(path string, take func(h *Header, rec *Record) bool) (*History, error) {
	fh, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("cannot read {History}: %v", err)
	}
	defer fh.Close()
	h, err := Scan(fh, take)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	return h, nil
}
