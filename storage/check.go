package storage

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/fnv"
	"io/fs"
	"os"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/gobotgo/gobot"
)

// ErrDamaged means the database file itself is damaged: its pages, not
// one record, are wrong. Open refuses such a file.
var ErrDamaged = errors.New("database file is damaged")

// DamagedError says which file is damaged and what is wrong with it; it
// wraps ErrDamaged.
type DamagedError struct {
	Path    string
	Problem string // what is wrong, in words: "the file is … bytes, but …: it was cut short"
}

func (e *DamagedError) Error() string {
	return fmt.Sprintf("%s: %v: %s", e.Path, ErrDamaged, e.Problem)
}

func (e *DamagedError) Unwrap() error { return ErrDamaged }

// ErrNotDatabase means the file is not a bbolt database at all (text, an
// SGF record, an image): neither meta page carries bbolt's magic number
// and no page looks like a bbolt page. It is not damage: nothing in it
// was ever gobot's. Open refuses such a file.
var ErrNotDatabase = errors.New("not a gobot database")

// NotDatabaseError says which file is not a database and, when it can
// tell, what the file looks like; it wraps ErrNotDatabase.
type NotDatabaseError struct {
	Path  string
	Looks string // "text", "a PNG image", …; "" when it cannot tell
}

func (e *NotDatabaseError) Error() string {
	if e.Looks == "" {
		return fmt.Sprintf("%s is %v (it is not a bbolt database file)", e.Path, ErrNotDatabase)
	}
	return fmt.Sprintf("%s is %v (it looks like %s, not a bbolt database file)", e.Path, ErrNotDatabase, e.Looks)
}

func (e *NotDatabaseError) Unwrap() error { return ErrNotDatabase }

// OpenCheckPages is how many pages of the B+tree Open's file check reads
// beyond the fixed ones (both meta pages, the freelist, the root bucket
// and each bucket's root page): 262,144 pages, 1 GiB with 4 KiB pages.
// Pages are read breadth-first, so in a bigger file the top levels of
// every bucket are still checked; `gobot check` reads them all.
const OpenCheckPages = 1 << 18

// FileReport is what the page check saw.
type FileReport struct {
	Size     int64  // bytes
	PageSize int    // bytes
	Pages    uint64 // the high-water mark: pages in use or free
	Txid     uint64 // the last committed transaction
	Free     int    // pages on the freelist
	Read     int    // tree pages read (overflow pages not counted)
	Complete bool   // every page of the tree was read
}

// bbolt's file format (go.etcd.io/bbolt v1.5.0, internal/common): every
// page starts with a 16-byte header; pages 0 and 1 are meta pages, the
// one with the higher transaction ID whose checksum holds is current.
// Integers are in the machine's byte order.
const (
	boltMagic   = 0xED0CDAED
	boltVersion = 2

	pageHeader = 16 // id u64, flags u16, count u16, overflow u32
	elemSize   = 16 // branch: pos u32, ksize u32, pgid u64; leaf: flags u32, pos u32, ksize u32, vsize u32
	bucketHdr  = 16 // an inline bucket value: root u64 (0), sequence u64, then a page

	branchPage   = 0x01
	leafPage     = 0x02
	metaPage     = 0x04
	freelistPage = 0x10

	bucketLeaf = 0x01 // a leaf element that is a nested bucket

	noFreelist = ^uint64(0)

	maxPageSize = 1 << 24 // bbolt looks for the second meta page up to 16 MiB
)

var ne = binary.NativeEndian

// meta is a decoded meta page.
type meta struct {
	page               uint64 // which slot, 0 or 1
	id, flags          uint64 // the page header's
	magic, version     uint32
	pageSize           uint32
	root, freelist     uint64
	hwm, txid          uint64
	checksum, computed uint64
}

func readMeta(b []byte, slot uint64) meta {
	m := meta{page: slot, id: ne.Uint64(b[0:]), flags: uint64(ne.Uint16(b[8:]))}
	b = b[pageHeader:]
	m.magic, m.version, m.pageSize = ne.Uint32(b[0:]), ne.Uint32(b[4:]), ne.Uint32(b[8:])
	m.root = ne.Uint64(b[16:])
	m.freelist, m.hwm, m.txid, m.checksum = ne.Uint64(b[32:]), ne.Uint64(b[40:]), ne.Uint64(b[48:]), ne.Uint64(b[56:])
	h := fnv.New64a()
	h.Write(b[:56])
	m.computed = h.Sum64()
	return m
}

// problem says what is wrong with m, "" if nothing.
func (m meta) problem() string {
	switch {
	case m.magic != boltMagic:
		return fmt.Sprintf("meta page %d is not a bbolt meta page (magic %#x)", m.page, m.magic)
	case m.version != boltVersion:
		return fmt.Sprintf("meta page %d has format version %d, not %d", m.page, m.version, boltVersion)
	case m.checksum != m.computed:
		return fmt.Sprintf("meta page %d fails its checksum", m.page)
	case m.flags != metaPage || m.id != m.page:
		return fmt.Sprintf("meta page %d has a wrong page header (page %d, type %#x)", m.page, m.id, m.flags)
	case m.pageSize < 1024 || m.pageSize > maxPageSize || m.pageSize&(m.pageSize-1) != 0:
		return fmt.Sprintf("meta page %d gives an impossible page size, %d bytes", m.page, m.pageSize)
	}
	return ""
}

// checkFile reads the file's structure without bbolt: both meta pages,
// the file size against the high-water mark, the freelist, and the
// B+tree breadth-first (each page's header, type and element bounds,
// keys in order and within the parent's range; no page used twice, none
// both used and free) up to budget tree pages (< 0: all). A file of zero
// bytes is new and passes. A file that is no bbolt file at all is a
// *NotDatabaseError; problems are a *DamagedError; an I/O error is
// returned as it is.
func checkFile(path string, budget int) (FileReport, error) {
	f, err := os.Open(path)
	if err != nil {
		return FileReport{}, err
	}
	defer f.Close()
	return checkOpened(f, path, budget)
}

func checkOpened(f *os.File, path string, budget int) (FileReport, error) {
	st, err := f.Stat()
	if err != nil {
		return FileReport{}, err
	}
	c := &checker{f: f, rep: FileReport{Size: st.Size()}}
	if c.rep.Size == 0 {
		return c.rep, nil
	}
	problem := c.run(budget)
	if c.notDB {
		return c.rep, &NotDatabaseError{Path: path, Looks: c.looks()}
	}
	if problem != "" {
		return c.rep, &DamagedError{Path: path, Problem: problem}
	}
	if c.err != nil {
		return c.rep, fmt.Errorf("checking %s: %w", path, c.err)
	}
	return c.rep, nil
}

type checker struct {
	f     *os.File
	rep   FileReport
	err   error // an I/O error (not damage)
	notDB bool  // the file is no bbolt file at all
	ps    uint64
	hwm   uint64
	used  []uint64 // bitmap: page reachable (or meta, or freelist)
	free  []uint64 // bitmap: page on the freelist
	buf   []byte
}

func bit(m []uint64, i uint64) bool { return m[i/64]&(1<<(i%64)) != 0 }
func set(m []uint64, i uint64)      { m[i/64] |= 1 << (i % 64) }

// read returns n bytes at off; short reads are damage the caller has
// ruled out by the size check, so they are reported as I/O errors.
func (c *checker) read(off int64, n int) []byte {
	if cap(c.buf) < n {
		c.buf = make([]byte, n)
	}
	b := c.buf[:n]
	if _, err := c.f.ReadAt(b, off); err != nil {
		if c.err == nil {
			c.err = err
		}
		return nil
	}
	return b
}

func (c *checker) run(budget int) string {
	m, problem := c.metas()
	if problem != "" {
		return problem
	}
	c.ps, c.hwm = uint64(m.pageSize), m.hwm
	c.rep.PageSize, c.rep.Pages, c.rep.Txid = int(m.pageSize), m.hwm, m.txid
	if m.hwm < 4 || m.hwm > uint64(c.rep.Size)/c.ps {
		return fmt.Sprintf("the file is %d bytes, but its last transaction (%d) uses %d pages of %d bytes (%d bytes): it was cut short",
			c.rep.Size, m.txid, m.hwm, c.ps, m.hwm*c.ps)
	}
	if m.root < 2 || m.root >= m.hwm {
		return fmt.Sprintf("meta page %d points to root page %d, outside the file's %d pages", m.page, m.root, m.hwm)
	}
	c.used = make([]uint64, (m.hwm+63)/64)
	c.free = make([]uint64, (m.hwm+63)/64)
	set(c.used, 0)
	set(c.used, 1)
	if m.freelist != noFreelist {
		if problem := c.freelist(m.freelist); problem != "" {
			return problem
		}
	}
	if c.err != nil {
		return ""
	}
	return c.tree(m.root, budget)
}

// metas reads both meta pages and returns the current one.
func (c *checker) metas() (meta, string) {
	first := c.read(0, pageHeader+64)
	if first == nil {
		c.err = nil
		c.notDB = !c.boltPrefix()
		return meta{}, fmt.Sprintf("the file is %d bytes, too short for a database", c.rep.Size)
	}
	m0 := readMeta(first, 0)
	ps := int64(m0.pageSize)
	if m0.problem() != "" {
		// Find the page size from the second meta page, as bbolt does.
		ps = 0
		magic := m0.magic == boltMagic
		for try := int64(1024); try <= maxPageSize && try+pageHeader+64 <= c.rep.Size; try *= 2 {
			if b := c.read(try, pageHeader+64); b != nil {
				m1 := readMeta(b, 1)
				magic = magic || m1.magic == boltMagic
				if m1.problem() == "" {
					ps = try
					break
				}
			}
		}
		c.err = nil
		if ps == 0 && !magic && !(m0.id == 0 && m0.flags == metaPage) && !c.paged() {
			c.notDB = true
			return meta{}, "no bbolt meta page"
		}
		if ps == 0 {
			// Say what is wrong with meta page 1 where it should be.
			guess := int64(m0.pageSize)
			if guess < 1024 || guess > maxPageSize || guess&(guess-1) != 0 {
				guess = int64(os.Getpagesize())
			}
			p1 := "meta page 1 is missing"
			if b := c.read(guess, pageHeader+64); b != nil {
				p1 = readMeta(b, 1).problem()
			}
			c.err = nil
			return meta{}, fmt.Sprintf("both meta pages are damaged (%s; %s)", m0.problem(), p1)
		}
	}
	if ps+pageHeader+64 > c.rep.Size {
		return meta{}, fmt.Sprintf("the file is %d bytes, too short for its second meta page", c.rep.Size)
	}
	b := c.read(ps, pageHeader+64)
	if b == nil {
		return meta{}, ""
	}
	m1 := readMeta(b, 1)
	p0, p1 := m0.problem(), m1.problem()
	switch {
	case p0 != "" && p1 != "":
		return meta{}, fmt.Sprintf("both meta pages are damaged (%s; %s)", p0, p1)
	case p0 != "":
		return meta{}, fmt.Sprintf("%s; meta page 1 is intact (transaction %d)", p0, m1.txid)
	case p1 != "":
		return meta{}, fmt.Sprintf("%s; meta page 0 is intact (transaction %d)", p1, m0.txid)
	case m0.pageSize != m1.pageSize:
		return meta{}, fmt.Sprintf("the meta pages disagree on the page size (%d and %d bytes)", m0.pageSize, m1.pageSize)
	}
	if m1.txid > m0.txid {
		return m1, ""
	}
	return m0, ""
}

// boltPrefix reports whether a file too short for a meta page starts as
// a bbolt file does: page 0's header (ID 0, the meta type) and the magic
// number, as far as the file goes. A bbolt file cut that short is damaged;
// anything else is not a database.
func (c *checker) boltPrefix() bool {
	b := make([]byte, c.rep.Size)
	if _, err := c.f.ReadAt(b, 0); err != nil {
		return true // cannot tell: call it damaged
	}
	want := make([]byte, pageHeader+4)
	ne.PutUint16(want[8:], metaPage)
	ne.PutUint32(want[pageHeader:], boltMagic)
	for i := range min(len(b), len(want)) {
		if (i < 10 || i >= pageHeader) && b[i] != want[i] {
			return false
		}
	}
	return true
}

// paged reports whether, at some page size bbolt could use, one of the
// first pages after the meta pages has a bbolt page header (its own ID
// and a tree or freelist type): the file is bbolt's with both meta pages
// destroyed, not some other file.
func (c *checker) paged() bool {
	defer func() { c.err = nil }()
	for ps := int64(1024); ps <= maxPageSize; ps *= 2 {
		for id := int64(2); id < 10 && (id+1)*ps <= c.rep.Size; id++ {
			h := c.read(id*ps, pageHeader)
			if h == nil {
				break
			}
			switch ne.Uint16(h[8:]) {
			case branchPage, leafPage, freelistPage:
				if ne.Uint64(h) == uint64(id) {
					return true
				}
			}
		}
	}
	return false
}

// looks says what a file that is not a database looks like, from its
// first bytes: "a PNG image", "an SGF game record", "text"; "" when it
// cannot tell.
func (c *checker) looks() string {
	b := make([]byte, min(c.rep.Size, 512))
	n, _ := c.f.ReadAt(b, 0)
	b = b[:n]
	t := bytes.TrimLeft(bytes.TrimPrefix(b, []byte("\xef\xbb\xbf")), " \t\r\n")
	switch {
	case len(b) == 0:
		return ""
	case bytes.HasPrefix(b, []byte("\x89PNG\r\n\x1a\n")):
		return "a PNG image"
	case bytes.HasPrefix(b, []byte("GIF87a")) || bytes.HasPrefix(b, []byte("GIF89a")):
		return "a GIF image"
	case bytes.HasPrefix(b, []byte("SQLite format 3\x00")):
		return "an SQLite database"
	case bytes.HasPrefix(t, []byte("(")) && bytes.Contains(t, []byte(";")):
		return "an SGF game record"
	case len(bytes.Trim(b, "\x00")) == 0:
		return "nothing but zero bytes"
	case utf8.Valid(b[:len(b)-min(len(b), 3)]) && !bytes.ContainsRune(b, 0):
		return "text"
	}
	return ""
}

// span checks that pages id … id+overflow lie below the high-water mark.
func (c *checker) span(id uint64, overflow uint32) bool {
	return id < c.hwm && uint64(overflow) < c.hwm-id
}

// freelist reads the freelist page and marks its pages free.
func (c *checker) freelist(id uint64) string {
	if id < 2 || id >= c.hwm {
		return fmt.Sprintf("the freelist is said to be at page %d, outside the file's %d pages", id, c.hwm)
	}
	h := c.read(int64(id*c.ps), pageHeader)
	if h == nil {
		return ""
	}
	hid, flags, count, overflow := ne.Uint64(h), ne.Uint16(h[8:]), uint64(ne.Uint16(h[10:])), ne.Uint32(h[12:])
	if hid != id || flags != freelistPage || !c.span(id, overflow) {
		return fmt.Sprintf("the freelist (page %d) is damaged: its header says page %d, type %#x, %d more pages", id, hid, flags, overflow)
	}
	size := (uint64(overflow) + 1) * c.ps
	b := c.read(int64(id*c.ps), int(size))
	if b == nil {
		return ""
	}
	start := uint64(pageHeader)
	if count == 0xFFFF { // the count is the first element
		count, start = ne.Uint64(b[pageHeader:]), pageHeader+8
	}
	if count > (size-start)/8 {
		return fmt.Sprintf("the freelist (page %d) is damaged: it lists %d pages, more than fit in it", id, count)
	}
	for i := range uint64(overflow) + 1 {
		set(c.used, id+i)
	}
	for i := range count {
		p := ne.Uint64(b[start+8*i:])
		switch {
		case p < 2 || p >= c.hwm:
			return fmt.Sprintf("the freelist (page %d) is damaged: it lists page %d, outside the file's %d pages", id, p, c.hwm)
		case bit(c.free, p):
			return fmt.Sprintf("the freelist (page %d) is damaged: it lists page %d twice", id, p)
		case bit(c.used, p):
			return fmt.Sprintf("the freelist (page %d) is damaged: it lists itself (page %d) as free", id, p)
		}
		set(c.free, p)
	}
	c.rep.Free = int(count)
	return ""
}

// task is a tree page to read and the bucket it belongs to.
type task struct {
	id     uint64
	bucket string // for messages: "games", "(root)"
	root   bool   // a page of the root bucket, whose leaves list the buckets
	fixed  bool   // read whatever the budget: the root bucket's pages and each bucket's root page
	lo, hi []byte // its keys must be >= lo and < hi (nil: no bound), from the parent branch
}

// tree reads the B+tree from the root bucket's page breadth-first; past
// budget pages (not counting fixed ones) it reads only fixed pages.
func (c *checker) tree(root uint64, budget int) string {
	queue := []task{{id: root, bucket: "(root)", root: true, fixed: true}}
	read, skipped := 0, false
	for len(queue) > 0 {
		t := queue[0]
		queue[0] = task{}
		queue = queue[1:]
		if !t.fixed && budget >= 0 && read >= budget {
			skipped = true
			continue
		}
		kids, problem := c.page(t)
		if problem != "" || c.err != nil {
			return problem
		}
		c.rep.Read++
		if !t.fixed {
			read++
		}
		queue = append(queue, kids...)
	}
	c.rep.Complete = !skipped
	return ""
}

// page checks one tree page and returns the pages it points to.
func (c *checker) page(t task) ([]task, string) {
	id := t.id
	where := fmt.Sprintf("page %d (bucket %s)", id, t.bucket)
	if t.root {
		where = fmt.Sprintf("page %d (the root bucket, which lists the buckets)", id)
	}
	if id < 2 || id >= c.hwm {
		return nil, fmt.Sprintf("%s is outside the file's %d pages", where, c.hwm)
	}
	off := int64(id * c.ps)
	b := c.read(off, int(c.ps))
	if b == nil {
		return nil, ""
	}
	hid, flags, count, overflow := ne.Uint64(b), ne.Uint16(b[8:]), int(ne.Uint16(b[10:])), ne.Uint32(b[12:])
	switch {
	case hid != id:
		return nil, fmt.Sprintf("%s is damaged: its header says it is page %d (type %#x)", where, hid, flags)
	case flags != branchPage && flags != leafPage:
		return nil, fmt.Sprintf("%s is damaged: it should be a branch or leaf page, its type is %#x", where, flags)
	case !c.span(id, overflow):
		return nil, fmt.Sprintf("%s is damaged: it says it runs %d pages on, past the file's %d pages", where, overflow, c.hwm)
	}
	for i := range uint64(overflow) + 1 {
		switch {
		case bit(c.free, id+i):
			return nil, fmt.Sprintf("%s is in use but also on the freelist", where)
		case bit(c.used, id+i):
			return nil, fmt.Sprintf("%s is used twice", where)
		}
		set(c.used, id+i)
	}
	size := (int(overflow) + 1) * int(c.ps)
	if pageHeader+count*elemSize > size {
		return nil, fmt.Sprintf("%s is damaged: it says it holds %d elements, more than fit in it", where, count)
	}
	if flags == branchPage && count == 0 {
		return nil, fmt.Sprintf("%s is damaged: a branch page with no elements", where)
	}
	// The first page holds the header, the elements and most keys; the
	// root bucket's leaves and leaves holding a bucket are read whole
	// (bucket values), and a page whose elements do not fit in its
	// first page.
	whole := t.root || pageHeader+count*elemSize > len(b)
	for i := 0; i < count && !whole && flags == leafPage; i++ {
		whole = ne.Uint32(b[pageHeader+i*elemSize:])&bucketLeaf != 0
	}
	if whole && size > len(b) {
		if b = c.read(off, size); b == nil {
			return nil, ""
		}
	}
	p := &pageView{c: c, b: b, off: off, size: size, where: where}
	if flags == leafPage {
		return p.leaf(count, t)
	}
	kids := make([]task, count)
	for i := range count {
		e := pageHeader + i*elemSize
		pos, ksize, child := uint64(ne.Uint32(b[e:])), uint64(ne.Uint32(b[e+4:])), ne.Uint64(b[e+8:])
		key, problem := p.key(i, uint64(e)+pos, ksize, true)
		if problem != "" {
			return nil, problem
		}
		kids[i] = task{id: child, bucket: t.bucket, root: t.root, fixed: t.root, lo: key}
	}
	for i := range kids {
		kids[i].hi = t.hi
		if i+1 < len(kids) {
			kids[i].hi = kids[i+1].lo
		}
	}
	if problem := p.order(kids[0].lo, kids[len(kids)-1].lo, t); problem != "" {
		return nil, problem
	}
	for i := 1; i < len(kids); i++ {
		if bytes.Compare(kids[i-1].lo, kids[i].lo) >= 0 {
			return nil, fmt.Sprintf("%s is damaged: its keys are out of order at element %d", where, i)
		}
	}
	return kids, ""
}

// pageView is a page (or an inline bucket's page) being checked: b holds
// its first bytes, or all size of them.
type pageView struct {
	c     *checker
	b     []byte
	off   int64 // where the page starts in the file (inline pages: -1)
	size  int
	where string
}

// key returns the ksize bytes at offset at of the page (element i's key),
// from b or, past it, from the file; copied when keep.
func (p *pageView) key(i int, at, ksize uint64, keep bool) ([]byte, string) {
	if at+ksize > uint64(p.size) {
		return nil, fmt.Sprintf("%s is damaged: element %d lies outside the page", p.where, i)
	}
	if at+ksize <= uint64(len(p.b)) {
		k := p.b[at : at+ksize]
		if keep {
			k = bytes.Clone(k)
		}
		return k, ""
	}
	k := make([]byte, ksize)
	if _, err := p.c.f.ReadAt(k, p.off+int64(at)); err != nil && p.c.err == nil {
		p.c.err = err
	}
	return k, ""
}

// order checks a page's first and last keys against its parent's bounds.
func (p *pageView) order(first, last []byte, t task) string {
	if t.lo != nil && bytes.Compare(first, t.lo) < 0 || t.hi != nil && bytes.Compare(last, t.hi) >= 0 {
		return fmt.Sprintf("%s is damaged: its keys are outside the range its parent gives", p.where)
	}
	return ""
}

// leaf checks the elements of a leaf page, or of an inline bucket's page,
// and returns the root pages of the buckets it holds.
func (p *pageView) leaf(count int, t task) ([]task, string) {
	var kids []task
	var prev, first []byte
	for i := range count {
		e := pageHeader + i*elemSize
		if e+elemSize > len(p.b) {
			return nil, fmt.Sprintf("%s is damaged: element %d lies outside the page", p.where, i)
		}
		flags, pos, ksize, vsize := ne.Uint32(p.b[e:]), uint64(ne.Uint32(p.b[e+4:])), uint64(ne.Uint32(p.b[e+8:])), uint64(ne.Uint32(p.b[e+12:]))
		k := uint64(e) + pos
		if k+ksize+vsize > uint64(p.size) {
			return nil, fmt.Sprintf("%s is damaged: element %d lies outside the page", p.where, i)
		}
		key, problem := p.key(i, k, ksize, false) // valid while this page is checked
		if problem != "" {
			return nil, problem
		}
		if i == 0 {
			first = key
		} else if bytes.Compare(prev, key) >= 0 {
			return nil, fmt.Sprintf("%s is damaged: its keys are out of order at element %d", p.where, i)
		}
		prev = key
		if flags&bucketLeaf == 0 {
			if t.root {
				return nil, fmt.Sprintf("%s is damaged: it holds a value where only buckets belong", p.where)
			}
			continue
		}
		name := clip(string(key))
		if !t.root {
			name = t.bucket + "/" + name
		}
		v := p.b[k+ksize : k+ksize+vsize] // read whole: this leaf holds a bucket
		if len(v) < bucketHdr {
			return nil, fmt.Sprintf("%s is damaged: bucket %s has a %d-byte header", p.where, name, len(v))
		}
		if r := ne.Uint64(v); r != 0 {
			kids = append(kids, task{id: r, bucket: name, fixed: true})
			continue
		}
		// An inline bucket: its one leaf page is in the value.
		in := v[bucketHdr:]
		if len(in) < pageHeader || ne.Uint16(in[8:]) != leafPage {
			return nil, fmt.Sprintf("%s is damaged: bucket %s is inline but holds no leaf page", p.where, name)
		}
		inline := &pageView{c: p.c, b: in, off: -1, size: len(in), where: fmt.Sprintf("bucket %s (inline in %s)", name, p.where)}
		more, problem := inline.leaf(int(ne.Uint16(in[10:])), task{bucket: name})
		if problem != "" {
			return nil, problem
		}
		kids = append(kids, more...)
	}
	if count > 0 {
		if problem := p.order(first, prev, t); problem != "" {
			return nil, problem
		}
	}
	return kids, ""
}

var errLocked = errors.New("locked")

// checkAtOpen is Open's check of an existing file: under a shared lock
// (so a running gobot's writes are not read half-done), with the page
// budget OpenCheckPages.
func checkAtOpen(path string, timeout time.Duration) error {
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil // Open creates it
	}
	if err != nil {
		return fmt.Errorf("opening database %s: %w", path, err)
	}
	defer f.Close()
	if err := lockShared(f, timeout); err != nil {
		if errors.Is(err, errLocked) {
			return fmt.Errorf("%w (%s)", gobot.ErrInUse, path)
		}
		return fmt.Errorf("opening database %s: %w", path, err)
	}
	_, err = checkOpened(f, path, OpenCheckPages)
	return err
}

// Verify is the full check of the file at path (`gobot check`): every
// page of the B+tree, as Open's check reads them but without its budget,
// then, in a read-only open, bbolt's own consistency check (Tx.Check:
// key order, every page reachable or free) and gobot's index invariants
// (DB.Check). It returns what the page check saw; a file found damaged
// is a *DamagedError (ErrDamaged). Another gobot holding the file makes
// it fail with ErrInUse.
func Verify(path string) (FileReport, error) {
	f, err := os.Open(path)
	if err != nil {
		return FileReport{}, err
	}
	defer f.Close()
	if err := lockShared(f, time.Second); err != nil {
		if errors.Is(err, errLocked) {
			return FileReport{}, fmt.Errorf("%w (%s)", gobot.ErrInUse, path)
		}
		return FileReport{}, err
	}
	rep, err := checkOpened(f, path, -1)
	if err != nil || rep.Size == 0 {
		return rep, err
	}
	db, err := Open(path, Options{ReadOnly: true})
	if err != nil {
		return rep, err
	}
	defer db.Close()
	if err := db.Check(); err != nil {
		lines := strings.Split(err.Error(), "\n")
		if len(lines) > 10 {
			lines = append(lines[:10], fmt.Sprintf("and %d more", len(lines)-10))
		}
		return rep, &DamagedError{Path: path, Problem: "the full check found: " + strings.Join(lines, "; ")}
	}
	return rep, nil
}
