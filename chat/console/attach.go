package console

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"mime"
	"os"
	"path/filepath"
	"strings"
	"unicode/utf8"

	"github.com/gobotgo/gobot/chat/protocol"
)

// A line ending in " < PATH" attaches the file at PATH to its command
// (review < game.sgf), as a Discord attachment or a Matrix m.file does:
// the file reaches the bot as Request.File. PATH is read relative to the
// terminal's working directory; "~/" is the home directory, and quotes
// around it are dropped. The file is at most protocol.MaxRequestFile
// bytes, as on the platforms.

// splitAttachment cuts " < PATH" off the end of line. ok is false when
// the line attaches nothing.
func splitAttachment(line string) (command, path string, ok bool) {
	i := len(line)
	for {
		if i = strings.LastIndex(line[:i], "<"); i < 0 {
			return line, "", false
		}
		if i == 0 || line[i-1] == ' ' || line[i-1] == '\t' {
			break // a "<" that starts a word
		}
	}
	return strings.TrimSpace(line[:i]), unquote(strings.TrimSpace(line[i+1:])), true
}

func unquote(s string) string {
	if len(s) >= 2 && (s[0] == '"' || s[0] == '\'') && s[len(s)-1] == s[0] {
		return s[1 : len(s)-1]
	}
	return s
}

// readAttachment reads the file at path for a command; refused says,
// briefly, why it cannot be attached.
func readAttachment(path string) (f *protocol.File, refused string) {
	shown := clipPath(path)
	if rest, home := strings.CutPrefix(path, "~/"); home {
		dir, err := os.UserHomeDir()
		if err != nil {
			return nil, fmt.Sprintf("%s starts with ~/, but I cannot tell your home folder here; write the whole path.", shown)
		}
		path = filepath.Join(dir, rest)
	}
	info, err := os.Stat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, fmt.Sprintf("There is no file %s%s; check its name and folder.", shown, here(path))
	case errors.Is(err, fs.ErrPermission):
		return nil, fmt.Sprintf("%s cannot be read: you lack permission to it.", shown)
	case err != nil:
		return nil, fmt.Sprintf("%s cannot be read: %s.", shown, clipErr(err))
	case info.IsDir():
		return nil, fmt.Sprintf("%s is a folder; attach a file in it, like %s.", shown, clipPath(filepath.Join(path, "game.sgf")))
	case !info.Mode().IsRegular():
		// A pipe or a device could block or never end.
		return nil, fmt.Sprintf("%s is not a regular file; attach a file saved on disk.", shown)
	case info.Size() > protocol.MaxRequestFile:
		return nil, tooBig(shown, info.Size())
	}
	file, err := os.Open(path)
	if errors.Is(err, fs.ErrPermission) {
		return nil, fmt.Sprintf("%s cannot be read: you lack permission to it.", shown)
	} else if err != nil {
		return nil, fmt.Sprintf("%s cannot be read: %s.", shown, clipErr(err))
	}
	defer file.Close()
	// It may have grown since Stat: one byte over the limit at most.
	data, err := io.ReadAll(io.LimitReader(file, protocol.MaxRequestFile+1))
	if err != nil {
		return nil, fmt.Sprintf("%s cannot be read: %s.", shown, clipErr(err))
	}
	if len(data) > protocol.MaxRequestFile {
		return nil, tooBig(shown, int64(len(data)))
	}
	name := filepath.Base(path)
	return &protocol.File{Name: name, MIME: mime.TypeByExtension(filepath.Ext(name)), Data: data}, ""
}

func tooBig(shown string, size int64) string { return protocol.FileTooBig(shown, size) }

// here names the folder a relative path was looked for in.
func here(path string) string {
	if filepath.IsAbs(path) {
		return ""
	}
	wd, err := os.Getwd()
	if err != nil {
		return ""
	}
	return " in " + clipPath(wd)
}

// clipPath keeps a path short enough for an error line (at most
// maxShown bytes), its end kept: the file's name.
func clipPath(p string) string {
	if len(p) <= maxShown {
		return p
	}
	p = p[len(p)-maxShown+len("…"):]
	for len(p) > 0 && !utf8.RuneStart(p[0]) {
		p = p[1:]
	}
	return "…" + p
}

// maxShown bounds a path in an error line, so that one with two paths
// stays under protocol.MaxRefusal.
const maxShown = 70

// clipErr is an error's text without the path the error repeats.
func clipErr(err error) string {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		err = pe.Err
	}
	return clipPath(err.Error())
}
