package sandbox

import (
	"errors"
	"io"
	"mime"
	"net/http"
)

// filePart is one uploaded file of a multipart body.
type filePart struct {
	// name is the file name as Rack gives it to Rails (the raw filename parameter,
	// percent-decoded; not cut to its base name as Go's Part.FileName does).
	name  string
	ctype string
	body  []byte
}

// readMultipart reads a multipart/form-data body: plain fields and files, by field name. A part
// whose filename parameter is empty is no file and no field (Rack: nothing was selected).
func readMultipart(r *http.Request) (map[string]string, map[string]filePart, error) {
	mt, _, err := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if err != nil || mt != "multipart/form-data" {
		return nil, nil, badRequest("send the file as multipart/form-data (Content-Type was %q)", r.Header.Get("Content-Type"))
	}
	mr, err := r.MultipartReader()
	if err != nil {
		return nil, nil, badRequest("bad multipart body: %v", err)
	}
	fields, files := map[string]string{}, map[string]filePart{}
	for {
		part, err := mr.NextPart()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, nil, multipartError(err)
		}
		b, err := io.ReadAll(part)
		if err != nil {
			return nil, nil, multipartError(err)
		}
		_, params, perr := mime.ParseMediaType(part.Header.Get("Content-Disposition"))
		fn, isFile := params["filename"]
		if perr != nil {
			fn = part.FileName()
			isFile = fn != ""
		}
		switch {
		case !isFile:
			fields[part.FormName()] = string(b)
		case fn != "":
			files[part.FormName()] = filePart{name: rackFileName(fn), ctype: part.Header.Get("Content-Type"), body: b}
		}
	}
	return fields, files, nil
}

func multipartError(err error) error {
	var mbe *http.MaxBytesError
	if errors.As(err, &mbe) {
		return err
	}
	return badRequest("bad multipart body: %v", err)
}
