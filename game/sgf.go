package game

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
)

// This file reads and writes SGF FF[4] (https://www.red-bean.com/sgf/) in
// two layers: a syntax layer (ParseSGF, WriteSGFTree) that knows game trees,
// nodes and properties and nothing of Go, and a Go layer (DecodeSGF,
// SGFRecord.Replay, WriteSGF) that turns the main line of a tree into
// setup stones and moves and back.

// SGFProperty is one property of an SGF node: its identifier ("B", "AB",
// "C") and its values with the escapes and soft line breaks removed.
type SGFProperty struct {
	ID     string
	Values []string
}

// SGFNode is a node of an SGF game tree. Children[0] continues the main
// line; further children are the variations.
type SGFNode struct {
	Props    []SGFProperty
	Children []*SGFNode
}

// Values returns the values of property id, or nil.
func (n *SGFNode) Values(id string) []string {
	for i := range n.Props {
		if n.Props[i].ID == id {
			return n.Props[i].Values
		}
	}
	return nil
}

// Get returns the first value of property id, and whether the node has it.
func (n *SGFNode) Get(id string) (string, bool) {
	for i := range n.Props {
		if n.Props[i].ID == id {
			if len(n.Props[i].Values) == 0 {
				return "", true
			}
			return n.Props[i].Values[0], true
		}
	}
	return "", false
}

// Set replaces the values of property id, or adds the property.
func (n *SGFNode) Set(id string, values ...string) {
	for i := range n.Props {
		if n.Props[i].ID == id {
			n.Props[i].Values = values
			return
		}
	}
	n.Props = append(n.Props, SGFProperty{ID: id, Values: values})
}

// MainLine returns n and the first child of each node after it.
func (n *SGFNode) MainLine() []*SGFNode {
	var out []*SGFNode
	for m := n; m != nil; {
		out = append(out, m)
		if len(m.Children) == 0 {
			break
		}
		m = m.Children[0]
	}
	return out
}

// ErrSGF is wrapped by every syntax error ParseSGF returns.
var ErrSGF = errors.New("malformed SGF")

// SGFError is a syntax error in SGF input, with where it happened.
type SGFError struct {
	Offset int // bytes from the start of the input
	Line   int // from 1
	Column int // from 1, in bytes
	Msg    string
	NotSGF bool // the input is no SGF record at all (ErrNotSGF); the position says little
}

// ErrNotSGF is wrapped (beside ErrSGF) by the error for input that is no
// SGF record at all (an image, a text without a game tree): it does not
// start with "(", and no game tree "(;" starts where ParseSGF looked for
// one.
var ErrNotSGF = errors.New("not an SGF file")

func (e *SGFError) Error() string {
	if e.NotSGF {
		return fmt.Sprintf("%v (%s)", ErrNotSGF, e.Msg)
	}
	return fmt.Sprintf("SGF line %d, column %d (byte %d): %s", e.Line, e.Column, e.Offset, e.Msg)
}

// Unwrap makes errors.Is(err, ErrSGF) true, and errors.Is(err, ErrNotSGF)
// when NotSGF.
func (e *SGFError) Unwrap() []error {
	if e.NotSGF {
		return []error{ErrSGF, ErrNotSGF}
	}
	return []error{ErrSGF}
}

// ParseSGF reads an SGF collection: one root node per game tree. Text
// before the first "(" and between game trees is skipped (mail headers,
// stray line ends); anything else malformed is an *SGFError. Property
// identifiers written FF[3]-style with lower-case letters ("AddBlack")
// keep their capitals ("AB"); a property repeated in one node has its
// values merged.
func ParseSGF(data []byte) ([]*SGFNode, error) { return parseSGF(data, false, 0) }

// parseSGF is ParseSGF; when first, it reads the first game tree only
// (what follows it is not read), and when maxNodes > 0 it stops with
// ErrTreeFull at node maxNodes+1.
func parseSGF(data []byte, first bool, maxNodes int) ([]*SGFNode, error) {
	src := string(data)
	chunk := func(n int) int { return min(max(n, 16), 4096) }
	p := &sgfParser{src: src, first: first, maxNodes: maxNodes}
	brackets := chunk(strings.Count(src, "["))
	p.props.chunk = brackets
	p.values.chunk = brackets
	p.kids.chunk = chunk(strings.Count(src, ";"))
	p.nodeChunk = p.kids.chunk
	roots, err := p.parse()
	if errors.Is(err, ErrTreeFull) {
		return nil, err
	}
	if err != nil && notSGF(src) {
		var se *SGFError
		errors.As(err, &se)
		return nil, &SGFError{Offset: se.Offset, Line: se.Line, Column: se.Column, NotSGF: true, Msg: notSGFMsg}
	}
	return roots, err
}

const notSGFMsg = `no game tree: an SGF record starts with "(;"`

// opensTree reports whether the "(" at src[i] opens a game tree: ";"
// follows, maybe after white space.
func opensTree(src string, i int) bool {
	return strings.HasPrefix(strings.TrimLeft(src[i+1:], " \t\r\n\v\f"), ";")
}

// nextTree returns the index of the first "(" at or after from that
// opens a game tree, or -1.
func nextTree(src string, from int) int {
	for j := from; j < len(src); j++ {
		if src[j] == '(' && opensTree(src, j) {
			return j
		}
	}
	return -1
}

// notSGF reports whether src, which failed to parse, is no SGF record at
// all rather than one with a mistake: it does not start with "(" (after
// white space and a byte-order mark), and either holds no "(" or the
// text before its first "(" is binary (control bytes: an image, an
// archive) or that "(" does not open a game tree "(;". Text before the
// first "(" such as mail headers is allowed, so a real record after it
// keeps its precise error.
func notSGF(src string) bool {
	t := strings.TrimLeft(strings.TrimPrefix(src, "\uFEFF"), " \t\r\n\v\f")
	if strings.HasPrefix(t, "(") {
		return false
	}
	// The first "(" that opens a game tree ("(;", maybe with white space
	// between): text before it (a mail header, "(Alice)") is no reason to
	// call the file something else than SGF.
	i := nextTree(src, 0)
	if i < 0 {
		return true
	}
	for _, c := range []byte(src[:i]) {
		if c < ' ' && !strings.ContainsRune("\t\r\n\v\f", rune(c)) || c == 0x7f {
			return true
		}
	}
	return false
}

type sgfParser struct {
	src       string
	pos       int
	nodes     []SGFNode
	nodeChunk int
	first     bool // stop after the first game tree
	maxNodes  int  // stop at node maxNodes+1 (0: read them all)
	count     int  // nodes read
	// index finds the properties of the node being read by ID when it
	// has many (findProp); nil otherwise.
	index     map[string]int
	props     arena[SGFProperty]
	values    arena[string]
	kids      arena[*SGFNode]
	curProps  []SGFProperty
	curValues []string
	buf       []byte
	// lead is the lead-byte table of the current game tree's charset when
	// it has two-byte characters ending in "\" or "]" (see sgfcharset.go).
	lead *[256]bool
}

// arena hands out sub-slices of large blocks so that a parse makes a few
// big allocations instead of several per node.
type arena[T any] struct {
	buf   []T
	chunk int
}

// take copies items into the arena and returns the copy, capped so that
// appending to it never writes into the arena.
func (a *arena[T]) take(items ...T) []T {
	if len(items) == 0 {
		return nil
	}
	if cap(a.buf)-len(a.buf) < len(items) {
		a.buf = make([]T, 0, max(a.chunk, len(items)))
	}
	n := len(a.buf)
	a.buf = append(a.buf, items...)
	return a.buf[n:len(a.buf):len(a.buf)]
}

func (p *sgfParser) newNode() *SGFNode {
	if len(p.nodes) == cap(p.nodes) {
		p.nodes = make([]SGFNode, 0, p.nodeChunk)
	}
	p.nodes = p.nodes[:len(p.nodes)+1]
	return &p.nodes[len(p.nodes)-1]
}

func (p *sgfParser) errAt(off int, format string, args ...any) error {
	off = min(max(off, 0), len(p.src))
	before := p.src[:off]
	line := 1 + strings.Count(before, "\n")
	col := off - strings.LastIndexByte(before, '\n')
	return &SGFError{Offset: off, Line: line, Column: col, Msg: fmt.Sprintf(format, args...)}
}

func (p *sgfParser) skipSpace() {
	for p.pos < len(p.src) && p.src[p.pos] <= ' ' {
		p.pos++
	}
}

// describe names the byte at p.pos for error messages.
func (p *sgfParser) describe() string {
	if p.pos >= len(p.src) {
		return "the end of the input"
	}
	return fmt.Sprintf("%q", p.src[p.pos])
}

func (p *sgfParser) parse() ([]*SGFNode, error) {
	type frame struct {
		parent    *SGFNode // the node the tree's first node hangs from
		open      int      // offset of its "("
		variation bool     // a sub-tree has been closed inside it
	}
	var (
		roots []*SGFNode
		stack []frame
		cur   *SGFNode
	)
	src := p.src
	for {
		if len(stack) == 0 {
			i := strings.IndexByte(src[p.pos:], '(')
			if i < 0 {
				break
			}
			p.pos += i
			if !opensTree(src, p.pos) {
				// "(Alice)" in a mail header: the record is the next "(;".
				if j := nextTree(src, p.pos+1); j >= 0 {
					p.pos = j
				}
			}
		}
		p.skipSpace()
		if p.pos >= len(src) {
			return nil, p.errAt(stack[len(stack)-1].open, "game tree \"(\" opened here is never closed with \")\"")
		}
		switch src[p.pos] {
		case '(':
			stack = append(stack, frame{parent: cur, open: p.pos})
			p.pos++
			p.skipSpace()
			if p.pos < len(src) && src[p.pos] == ')' {
				return nil, p.errAt(p.pos, "empty game tree \"()\": a game tree holds at least one node \";\"")
			}
			if p.pos >= len(src) || src[p.pos] != ';' {
				return nil, p.errAt(p.pos, "a game tree starts with a node \";\" after \"(\", not %s", p.describe())
			}
		case ';':
			top := &stack[len(stack)-1]
			if top.variation {
				return nil, p.errAt(p.pos, "a node \";\" cannot follow variations; put it inside its own \"( )\"")
			}
			if p.count++; p.maxNodes > 0 && p.count > p.maxNodes {
				return nil, fmt.Errorf("%w: the SGF has more than %d nodes", ErrTreeFull, p.maxNodes)
			}
			n := p.newNode()
			isRoot := false
			switch {
			case cur == top.parent && top.parent == nil:
				roots = append(roots, n)
				isRoot = true
			case len(cur.Children) == 0:
				cur.Children = p.kids.take(n)
			default:
				cur.Children = append(cur.Children, n)
			}
			p.pos++
			if isRoot {
				if err := p.parseRoot(n); err != nil {
					return nil, err
				}
			} else if err := p.parseProps(n); err != nil {
				return nil, err
			}
			cur = n
		case ')':
			cur = stack[len(stack)-1].parent
			stack = stack[:len(stack)-1]
			if len(stack) > 0 {
				stack[len(stack)-1].variation = true
			}
			p.pos++
			if len(stack) == 0 && p.first {
				return roots, nil
			}
		default:
			return nil, p.errAt(p.pos, "unexpected %s: expected a node \";\", a variation \"(\" or the end of the game tree \")\"", p.describe())
		}
	}
	if len(roots) == 0 {
		return nil, p.errAt(p.pos, notSGFMsg)
	}
	return roots, nil
}

// parseRoot reads the properties of a game tree's root node. Its CA says
// how the escapes of the whole tree are read (see valueMB), its own values
// included. A first look for "CA[" (rootCA) guesses it; when the CA read
// with that guess names another way of reading, or the node does not
// parse, the node is read again: with the CA's way, then each other way,
// until the CA read agrees with the way it was read. When the first look
// found a CA, a reading with a CA is preferred to one without.
func (p *sgfParser) parseRoot(n *SGFNode) error {
	start := p.pos
	var (
		tried    [4]*[256]bool
		ntried   int
		firstErr error
		noCA     = -1 // a way that reads the node without CA
	)
	hint := rootCA(p.src, start)
	next := []*[256]bool{leadTable(hint), nil, &sjisLead, &cjkLead}
	for len(next) > 0 {
		lead := next[0]
		next = next[1:]
		if slices.Contains(tried[:ntried], lead) {
			continue
		}
		tried[ntried] = lead
		ntried++
		p.lead, p.pos = lead, start
		err := p.parseProps(n)
		if p.skipSpace(); err == nil && p.pos < len(p.src) && strings.IndexByte(";()", p.src[p.pos]) < 0 {
			err = p.errAt(p.pos, "unexpected %s: expected a node \";\", a variation \"(\" or the end of the game tree \")\"", p.describe())
		}
		if err != nil {
			if firstErr == nil {
				firstErr = err
			}
			continue
		}
		ca, hasCA := n.Get("CA")
		named := leadTable(ca)
		if named == lead {
			if hasCA || hint == "" {
				return nil
			}
			if noCA < 0 {
				noCA = ntried - 1
			}
			continue
		}
		next = append([]*[256]bool{named}, next...)
	}
	if noCA >= 0 {
		p.lead, p.pos = tried[noCA], start
		return p.parseProps(n)
	}
	if firstErr == nil {
		firstErr = p.errAt(start, "the root's CA reads differently in its own charset")
	}
	return firstErr
}

func isUpper(c byte) bool { return c >= 'A' && c <= 'Z' }

// parseProps reads the properties of a node up to the next ";", "(" or ")".
func (p *sgfParser) parseProps(n *SGFNode) error {
	src := p.src
	props := p.curProps[:0]
	for {
		p.skipSpace()
		if p.pos >= len(src) || !(isUpper(src[p.pos]) || isLower(src[p.pos])) {
			break
		}
		start := p.pos
		lower := false
		for p.pos < len(src) && (isUpper(src[p.pos]) || isLower(src[p.pos])) {
			lower = lower || isLower(src[p.pos])
			p.pos++
		}
		id := src[start:p.pos]
		if lower {
			id = strings.Map(func(r rune) rune {
				if r >= 'a' && r <= 'z' {
					return -1
				}
				return r
			}, id)
			if id == "" {
				return p.errAt(start, "property name %q has no capital letters", src[start:p.pos])
			}
		}
		p.skipSpace()
		if p.pos >= len(src) || src[p.pos] != '[' {
			return p.errAt(p.pos, "property %s has no value: expected \"[\" after it, found %s", id, p.describe())
		}
		vals := p.curValues[:0]
		for p.pos < len(src) && src[p.pos] == '[' {
			v, err := p.value()
			if err != nil {
				return err
			}
			if len(vals) == cap(vals) {
				// Doubled, not the quarter append adds to a long slice:
				// a property of many values then costs twice its slice
				// in all rather than five times.
				vals = slices.Grow(vals, max(len(vals), 8))
			}
			vals = append(vals, v)
			p.skipSpace()
		}
		p.curValues = vals
		if i := p.findProp(props, id); i >= 0 {
			old := props[i].Values
			if len(old)+len(vals) > cap(old) {
				// Doubled (see above): a property repeated many times
				// costs twice its values in all.
				old = slices.Grow(old, max(len(old), len(vals)))
			}
			props[i].Values = append(old, vals...)
		} else {
			if len(props) == cap(props) {
				props = slices.Grow(props, max(len(props), 8)) // doubled (see above)
			}
			props = append(props, SGFProperty{ID: id, Values: p.values.take(vals...)})
			if p.index != nil {
				p.index[id] = len(props) - 1
			}
		}
	}
	p.curProps = props
	p.index = nil
	n.Props = p.props.take(props...)
	return nil
}

// findProp returns the index in props (the node's so far) of property
// id, or -1. A node of many properties is searched through an index,
// so that reading one costs no more than a look-up a property.
func (p *sgfParser) findProp(props []SGFProperty, id string) int {
	if p.index == nil && len(props) > 16 {
		p.index = make(map[string]int, len(props))
		for i := range props {
			p.index[props[i].ID] = i
		}
	}
	if p.index != nil {
		if i, ok := p.index[id]; ok {
			return i
		}
		return -1
	}
	for i := range props {
		if props[i].ID == id {
			return i
		}
	}
	return -1
}

// value reads one property value starting at the "[" at p.pos.
func (p *sgfParser) value() (string, error) {
	if p.lead != nil {
		return p.valueMB()
	}
	src := p.src
	open := p.pos
	start := open + 1
	end := strings.IndexByte(src[start:], ']')
	if end < 0 {
		return "", p.errAt(open, "property value \"[\" opened here is never closed with \"]\"")
	}
	if strings.IndexByte(src[start:start+end], '\\') < 0 {
		p.pos = start + end + 1
		return src[start : start+end], nil
	}
	buf := p.buf[:0]
	for i := start; i < len(src); {
		c := src[i]
		switch c {
		case ']':
			p.pos = i + 1
			p.buf = buf
			return string(buf), nil
		case '\\':
			i++
			if i >= len(src) {
				break
			}
			c = src[i]
			i++
			if c == '\n' || c == '\r' { // a soft line break: removed
				if i < len(src) && (src[i] == '\n' || src[i] == '\r') && src[i] != c {
					i++
				}
				continue
			}
			buf = append(buf, c)
		default:
			buf = append(buf, c)
			i++
		}
	}
	return "", p.errAt(open, "property value \"[\" opened here is never closed with \"]\"")
}

// valueMB is value for a charset whose two-byte characters can end in
// "\\" or "]" (Shift_JIS, GBK, GB18030, Big5). The SGF escapes work on
// characters, so such a byte after a lead byte belongs to the character
// and escapes or ends nothing. Writers that escape byte by byte are read
// as they meant too (see mbChar): a character ending in "\\" written with
// that byte doubled, and one ending in "]" written as lead byte, "\\", "]".
// Where the two readings differ, what follows a "]" decides: a value can
// only be followed by a value, a property, a node or a game tree.
func (p *sgfParser) valueMB() (string, error) {
	src, lead := p.src, p.lead
	open := p.pos
	buf := p.buf[:0]
	for i := open + 1; i < len(src); {
		c := src[i]
		if lead[c] && i+1 < len(src) && src[i+1] >= 0x40 {
			var n int
			buf, n = mbChar(buf, src, i)
			i += n
			continue
		}
		switch c {
		case ']':
			p.pos = i + 1
			p.buf = buf
			return string(buf), nil
		case '\\':
			i++
			if i >= len(src) {
				break
			}
			c = src[i]
			if lead[c] && i+1 < len(src) && src[i+1] >= 0x40 {
				var n int
				buf, n = mbChar(buf, src, i)
				i += n
				continue
			}
			i++
			if c == '\n' || c == '\r' {
				if i < len(src) && (src[i] == '\n' || src[i] == '\r') && src[i] != c {
					i++
				}
				continue
			}
			buf = append(buf, c)
		default:
			buf = append(buf, c)
			i++
		}
	}
	return "", p.errAt(open, "property value \"[\" opened here is never closed with \"]\"")
}

// mbChar appends the two-byte character at src[i] (a lead byte and a
// byte ≥ 0x40) to buf and returns how many bytes of src it took.
func mbChar(buf []byte, src string, i int) ([]byte, int) {
	c, t := src[i], src[i+1]
	if t == '\\' && i+2 < len(src) {
		switch src[i+2] {
		case '\\':
			// Doubled by a byte-escaping writer, unless it is a character
			// followed by an escaped "]" that does not end the value.
			if i+3 < len(src) && src[i+3] == ']' && !endsValue(src, i+4) {
				return append(buf, c, t), 2
			}
			return append(buf, c, t), 3
		case ']':
			if !endsValue(src, i+3) { // a "]" byte escaped by such a writer
				return append(buf, c, ']'), 3
			}
		}
	}
	return append(buf, c, t), 2
}

// endsValue reports whether src[i:] can follow the "]" closing a value:
// another value, a property ("AB["), a node (";" and a property, node or
// tree), a variation ("(;"), a game tree's end (")" and another ")", a
// "(" or the end of the input), or the end of the input.
func endsValue(src string, i int) bool {
	next := func(i int) int {
		for i < len(src) && src[i] <= ' ' {
			i++
		}
		return i
	}
	i = next(i)
	if i >= len(src) {
		return true
	}
	switch c := src[i]; {
	case c == '[':
		return true
	case c == '(':
		i = next(i + 1)
		return i < len(src) && src[i] == ';'
	case c == ')':
		i = next(i + 1)
		return i >= len(src) || src[i] == ')' || src[i] == '('
	case c == ';':
		i = next(i + 1)
		return i >= len(src) || strings.IndexByte(";()", src[i]) >= 0 || isUpper(src[i]) || isLower(src[i])
	case isUpper(c) || isLower(c):
		for i < len(src) && (isUpper(src[i]) || isLower(src[i])) {
			i++
		}
		i = next(i)
		return i < len(src) && src[i] == '['
	}
	return false
}

// WriteSGFTree writes game trees as an SGF collection, escaping "]" and
// "\" in values and breaking lines between nodes to keep them short.
// Values are written as bytes in the charset of the root's CA: in
// Shift_JIS, GBK, GB18030 and Big5 a two-byte character is never split by
// an escape (its second byte "\" is doubled, which both character- and
// byte-oriented readers take back as one "\"). Parsing the output gives
// the same trees back (in those charsets: unless a value ends in a lone
// lead byte, which no text in them does).
func WriteSGFTree(w io.Writer, roots ...*SGFNode) error {
	sw := &sgfWriter{w: bufio.NewWriter(w)}
	for _, r := range roots {
		sw.lead = nil
		if ca, ok := r.Get("CA"); ok {
			sw.lead = leadTable(ca)
		}
		sw.tree(r)
		sw.w.WriteByte('\n')
		sw.col = 0
	}
	return sw.w.Flush()
}

type sgfWriter struct {
	w    *bufio.Writer
	col  int
	lead *[256]bool // as sgfParser.lead
}

func (sw *sgfWriter) tree(n *SGFNode) {
	sw.w.WriteByte('(')
	sw.col++
	for {
		sw.node(n)
		if len(n.Children) != 1 {
			break
		}
		n = n.Children[0]
	}
	for _, c := range n.Children {
		sw.w.WriteByte('\n')
		sw.col = 0
		sw.tree(c)
	}
	sw.w.WriteByte(')')
	sw.col++
}

func (sw *sgfWriter) node(n *SGFNode) {
	if sw.col >= 72 {
		sw.w.WriteByte('\n')
		sw.col = 0
	}
	sw.w.WriteByte(';')
	sw.col++
	for _, p := range n.Props {
		sw.w.WriteString(p.ID)
		sw.col += len(p.ID)
		if len(p.Values) == 0 {
			sw.w.WriteString("[]")
			sw.col += 2
		}
		for i, v := range p.Values {
			if i > 0 && sw.col >= 72 {
				sw.w.WriteByte('\n')
				sw.col = 0
			}
			sw.w.WriteByte('[')
			for j := 0; j < len(v); j++ {
				if sw.lead != nil && sw.lead[v[j]] && j+1 < len(v) && v[j+1] >= 0x40 {
					sw.w.WriteByte(v[j])
					sw.w.WriteByte(v[j+1])
					if v[j+1] == '\\' {
						sw.w.WriteByte('\\')
					}
					j++
					continue
				}
				switch c := v[j]; c {
				case ']', '\\':
					sw.w.WriteByte('\\')
					sw.w.WriteByte(c)
				case '\n':
					sw.w.WriteByte(c)
					sw.col = 0
				default:
					sw.w.WriteByte(c)
				}
			}
			sw.w.WriteByte(']')
			sw.col += len(v) + 2
		}
	}
}
