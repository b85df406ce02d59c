package console

import (
	"bufio"
	"errors"
	"io"
)

// MaxLine is the longest input line the console reads: 1 MiB. A longer
// line is skipped with an error message and the console reads on; it is
// never held in memory whole.
const MaxLine = 1 << 20

// lineReader splits its input into lines like bufio.ScanLines ("\n" or
// "\r\n" ends a line; a last line needs no end), but a line longer than
// max is skipped instead of ending the input.
type lineReader struct {
	r   *bufio.Reader
	max int
	buf []byte
}

func newLineReader(r io.Reader, max int) *lineReader {
	return &lineReader{r: bufio.NewReaderSize(r, 64*1024), max: max}
}

// next returns the next line without its end. For a line longer than max
// it returns a nil line and the line's length (its end not counted),
// having read past it. At the end of the input it returns io.EOF.
func (lr *lineReader) next() (line []byte, long int64, err error) {
	lr.buf = lr.buf[:0]
	var (
		n    int64   // bytes of this line read so far, its end included
		tail [2]byte // its last two bytes, to find the end ("\r\n")
		over bool    // longer than max: not kept
	)
	for {
		frag, err := lr.r.ReadSlice('\n')
		n += int64(len(frag))
		if len(frag) >= 2 {
			tail = [2]byte{frag[len(frag)-2], frag[len(frag)-1]}
		} else if len(frag) == 1 {
			tail = [2]byte{tail[1], frag[0]}
		}
		// Keep up to max+2 bytes: the longest line with its "\r\n".
		if !over && len(lr.buf)+len(frag) <= lr.max+2 {
			lr.buf = append(lr.buf, frag...)
		} else {
			over = true
			lr.buf = lr.buf[:0]
		}
		switch {
		case err == nil:
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		case errors.Is(err, io.EOF):
			if n == 0 {
				return nil, 0, io.EOF
			}
		default:
			return nil, 0, err
		}
		end := 0
		switch {
		case tail[1] == '\n' && tail[0] == '\r' && n >= 2:
			end = 2
		case tail[1] == '\n', tail[1] == '\r':
			end = 1
		}
		if size := n - int64(end); over || size > int64(lr.max) {
			return nil, size, nil
		}
		return lr.buf[:len(lr.buf)-end], 0, nil
	}
}
