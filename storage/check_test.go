package storage

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/gobotgo/gobot"
	bolt "go.etcd.io/bbolt"
)

// writeTestFile writes a file with gobot's buckets and schema key and
// about n records of random sizes (some spanning several pages), some of
// them deleted again so the freelist is not empty, in several
// transactions. Records are opaque bytes: the page check does not read
// them.
func writeTestFile(t testing.TB, path string, n int) {
	t.Helper()
	bdb, err := bolt.Open(path, 0o600, &bolt.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	defer bdb.Close()
	rng := rand.New(rand.NewPCG(uint64(n), 3))
	err = bdb.Update(func(btx *bolt.Tx) error {
		for _, name := range allBuckets {
			if _, err := btx.CreateBucket(name); err != nil {
				return err
			}
		}
		return btx.Bucket(bMeta).Put(keySchema, binary.BigEndian.AppendUint32(nil, SchemaVersion))
	})
	if err != nil {
		t.Fatal(err)
	}
	for start := 0; start < n; start += 1000 {
		err := bdb.Update(func(btx *bolt.Tx) error {
			for i := start; i < min(start+1000, n); i++ {
				size := 50 + rng.IntN(600)
				if rng.IntN(50) == 0 {
					size = 5000 + rng.IntN(10000) // an overflow page or two
				}
				v := bytes.Repeat([]byte{'g'}, size)
				if err := btx.Bucket(bGames).Put(idKey(uint64(i+1)), v); err != nil {
					return err
				}
				k := fmt.Appendf(nil, "t:player%d\x00%d", i%300, i)
				if err := btx.Bucket(bPlayerGames).Put(k, nil); err != nil {
					return err
				}
				if err := btx.Bucket(bEvents).Put(fmt.Appendf(nil, "t:event:%d", i), idKey(uint64(i))); err != nil {
					return err
				}
			}
			for i := start; i < min(start+1000, n); i += 7 {
				if err := btx.Bucket(bGames).Delete(idKey(uint64(i + 1))); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
}

// testFile is a healthy file of 3,000 records, written once per test
// binary run and copied for each damage.
func testFile(t *testing.T) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "healthy.db")
	writeTestFile(t, path, 3000)
	return path
}

// pages describes a healthy file's pages as bbolt sees them: the page
// size, the current meta's freelist and root pages, and the ID of every
// page by type ("leaf", "branch", "free", …), overflow pages excluded.
type pages struct {
	size     int
	hwm      int // bytes in use: the high-water mark
	freelist int
	root     int
	byType   map[string][]int
	games    int // the games bucket's root page
}

func pagesOf(t *testing.T, path string) pages {
	t.Helper()
	bdb, err := bolt.Open(path, 0o600, &bolt.Options{ReadOnly: true, PreLoadFreelist: true})
	if err != nil {
		t.Fatal(err)
	}
	defer bdb.Close()
	ps := pages{size: bdb.Info().PageSize, byType: map[string][]int{}}
	bdb.View(func(btx *bolt.Tx) error {
		ps.games = int(btx.Bucket(bGames).RootPage())
		ps.hwm = int(btx.Size())
		for id := 2; ; id++ {
			p, err := btx.Page(id)
			if err != nil {
				t.Fatal(err)
			}
			if p == nil {
				break
			}
			ps.byType[p.Type] = append(ps.byType[p.Type], id)
			if p.Type != "free" {
				id += p.OverflowCount
			}
		}
		return nil
	})
	if len(ps.byType["freelist"]) != 1 {
		t.Fatalf("freelist pages: %v", ps.byType["freelist"])
	}
	ps.freelist = ps.byType["freelist"][0]
	// The root bucket's page: the one that lists gobot's buckets.
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, id := range ps.byType["leaf"] {
		if bytes.Contains(raw[id*ps.size:(id+1)*ps.size], []byte("idx_events_by_time")) {
			ps.root = id
		}
	}
	if ps.root == 0 {
		t.Fatal("no root bucket page found")
	}
	return ps
}

// damaged copies the file at src to a new file and lets damage change its
// bytes.
func damaged(t *testing.T, src string, damage func(b []byte) []byte) string {
	t.Helper()
	raw, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "damaged.db")
	if err := os.WriteFile(path, damage(raw), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

func garbage(seed uint64, n int) []byte {
	rng := rand.New(rand.NewPCG(seed, 5))
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(rng.Uint32())
	}
	return b
}

// overwrite puts 4 KiB of garbage over page id.
func overwrite(ps pages, id int) func([]byte) []byte {
	return func(b []byte) []byte {
		copy(b[id*ps.size:], garbage(uint64(id), 4096))
		return b
	}
}

// TestOpenRefusesDamagedFiles: each kind of damage the hostile test found
// (a file cut in half, garbage over a page, both meta pages broken,
// garbage over the freelist) and a few more are refused at Open with
// ErrDamaged and a message naming the file and what is wrong. Before the
// check, a truncated file opened and every write failed, and garbage over
// a page made every command panic.
func TestOpenRefusesDamagedFiles(t *testing.T) {
	src := testFile(t)
	ps := pagesOf(t, src)
	var leaves []int // the root bucket's page is the last leaf written
	for _, id := range ps.byType["leaf"] {
		if id != ps.root {
			leaves = append(leaves, id)
		}
	}
	if len(leaves) < 20 || len(ps.byType["branch"]) == 0 || len(ps.byType["free"]) == 0 {
		t.Fatalf("the test file is too simple: %d leaves, %d branches, %d free pages", len(leaves), len(ps.byType["branch"]), len(ps.byType["free"]))
	}
	breakMeta := func(page int) func([]byte) []byte {
		return func(b []byte) []byte {
			b[page*ps.size+pageHeader+60] ^= 0xff // in the checksum
			return b
		}
	}
	for _, tc := range []struct {
		name   string
		damage func([]byte) []byte
		want   string
	}{
		{"truncated to half", func(b []byte) []byte { return b[:len(b)/2] }, "it was cut short"},
		{"one page short", func(b []byte) []byte { return b[:ps.hwm-ps.size] }, "it was cut short"},
		{"too short for a meta page", func(b []byte) []byte { return b[:40] }, "too short for a database"},
		{"zeros over both meta pages", func(b []byte) []byte { clear(b[:2*ps.size]); return b }, "both meta pages are damaged"},
		{"cut to its first 12 bytes", func(b []byte) []byte { return b[:12] }, "too short for a database"},
		{"garbage over a leaf", overwrite(ps, leaves[len(leaves)/2]), fmt.Sprintf("page %d (bucket ", leaves[len(leaves)/2])},
		{"garbage over the last leaf", overwrite(ps, leaves[len(leaves)-1]), fmt.Sprintf("page %d (bucket ", leaves[len(leaves)-1])},
		{"garbage over a branch", overwrite(ps, ps.byType["branch"][0]), fmt.Sprintf("page %d (bucket ", ps.byType["branch"][0])},
		{"garbage over the games bucket's root", overwrite(ps, ps.games), fmt.Sprintf("page %d (bucket games)", ps.games)},
		{"garbage over the root bucket", overwrite(ps, ps.root), fmt.Sprintf("page %d (the root bucket", ps.root)},
		{"garbage over the freelist", overwrite(ps, ps.freelist), fmt.Sprintf("the freelist (page %d) is damaged", ps.freelist)},
		{"both meta pages broken", func(b []byte) []byte { return breakMeta(1)(breakMeta(0)(b)) }, "both meta pages are damaged (meta page 0 fails its checksum; meta page 1 fails its checksum)"},
		{"meta page 0 broken", breakMeta(0), "meta page 0 fails its checksum; meta page 1 is intact"},
		{"meta page 1 broken", breakMeta(1), "meta page 1 fails its checksum; meta page 0 is intact"},
		{"zeros over page 0", func(b []byte) []byte { clear(b[:ps.size]); return b }, "meta page 0 is not a bbolt meta page"},
		{"a free page listed as used", func(b []byte) []byte {
			// A leaf's ID on the freelist: bbolt would hand it out and
			// overwrite live records.
			free := ps.byType["free"][0]
			off := ps.freelist*ps.size + pageHeader
			for i := 0; ; i += 8 {
				if int(binary.NativeEndian.Uint64(b[off+i:])) == free {
					binary.NativeEndian.PutUint64(b[off+i:], uint64(leaves[3]))
					return b
				}
			}
		}, "is in use but also on the freelist"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := damaged(t, src, tc.damage)
			db, err := Open(path, Options{})
			if err == nil {
				db.Close()
				t.Fatal("a damaged file was opened")
			}
			var de *DamagedError
			if !errors.Is(err, ErrDamaged) || !errors.As(err, &de) || de.Path != path {
				t.Fatalf("got %v, want a DamagedError for %s", err, path)
			}
			if msg := err.Error(); !strings.HasPrefix(msg, path+": database file is damaged: ") || !strings.Contains(msg, tc.want) {
				t.Errorf("message %q\nwant the path and %q", msg, tc.want)
			}
			// The full check says the same.
			if _, err := Verify(path); !errors.Is(err, ErrDamaged) {
				t.Errorf("Verify: %v", err)
			}
		})
	}
}

// TestOpenRefusesFilesThatAreNotDatabases: a file that was never a bbolt
// file (text, an SGF record, a PNG, zeros) is refused with
// ErrNotDatabase, naming the file and what it looks like, not reported
// as a damaged database (whose advice, restore a backup, makes no sense
// for it). Before, each said "both meta pages are damaged" or "too short
// for a database".
func TestOpenRefusesFilesThatAreNotDatabases(t *testing.T) {
	sgf, err := os.ReadFile(filepath.Join("..", "game", "testdata", "ff4_ex.sgf"))
	if err != nil {
		t.Fatal(err)
	}
	png := append([]byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR"), garbage(7, 9000)...)
	for _, tc := range []struct {
		name    string
		content []byte
		looks   string
	}{
		{"an SGF record", sgf, "it looks like an SGF game record"},
		{"an SGF record with a BOM", append([]byte("\xef\xbb\xbf\n"), sgf...), "it looks like an SGF game record"},
		{"a PNG image", png, "it looks like a PNG image"},
		{"a long text", []byte(strings.Repeat("hello\n", 5000)), "it looks like text"},
		{"a short text", []byte("hello\n"), "it looks like text"},
		{"a config file", []byte("storage:\n  path: /srv/gobot.db\n"), "it looks like text"},
		{"zeros", make([]byte, 64<<10), "it looks like nothing but zero bytes"},
		{"random bytes", garbage(3, 20000), "it is not a bbolt database file"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "file.db")
			if err := os.WriteFile(path, tc.content, 0o600); err != nil {
				t.Fatal(err)
			}
			for _, op := range []struct {
				name string
				do   func() error
			}{
				{"Open", func() error {
					db, err := Open(path, Options{})
					if err == nil {
						db.Close()
					}
					return err
				}},
				{"Verify", func() error { _, err := Verify(path); return err }},
			} {
				err := op.do()
				var nd *NotDatabaseError
				if !errors.Is(err, ErrNotDatabase) || errors.Is(err, ErrDamaged) || !errors.As(err, &nd) || nd.Path != path {
					t.Fatalf("%s: got %v, want a NotDatabaseError for %s", op.name, err, path)
				}
				if msg := err.Error(); !strings.HasPrefix(msg, path+" is not a gobot database (") || !strings.Contains(msg, tc.looks) {
					t.Errorf("%s: message %q\nwant the path and %q", op.name, msg, tc.looks)
				}
			}
			after, err := os.ReadFile(path)
			if err != nil || !bytes.Equal(after, tc.content) {
				t.Errorf("the file changed (%v)", err)
			}
		})
	}
}

// TestOpenCheckAgreesWithBbolt puts garbage (and zeros) over each page of
// a file in turn, and a few bytes of garbage at random places: either
// Open refuses the file, or bbolt's own full check finds nothing wrong
// with it (the bytes were free, or in a value).
func TestOpenCheckAgreesWithBbolt(t *testing.T) {
	src := filepath.Join(t.TempDir(), "small.db")
	writeTestFile(t, src, 400)
	ps := pagesOf(t, src)
	type damage struct{ at, n int } // n bytes of garbage at at; n < 0: -n zeros
	var damages []damage
	for id := range ps.hwm / ps.size {
		damages = append(damages, damage{id * ps.size, ps.size}, damage{id * ps.size, -ps.size})
	}
	// And a few bytes here and there, in headers and elements.
	rng := rand.New(rand.NewPCG(1, 2))
	for range 150 {
		damages = append(damages, damage{rng.IntN(ps.hwm - 64), 1 + rng.IntN(48)})
	}
	healthy, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "damaged.db")
	b := make([]byte, len(healthy))
	refused, opened := 0, 0
	for i, d := range damages {
		id := d.at / ps.size
		copy(b, healthy)
		if d.n < 0 {
			clear(b[d.at : d.at-d.n])
		} else {
			copy(b[d.at:], garbage(uint64(i), d.n))
		}
		if err := os.WriteFile(path, b, 0o600); err != nil {
			t.Fatal(err)
		}
		db, err := Open(path, Options{ReadOnly: true})
		if errors.Is(err, ErrDamaged) || errors.Is(err, gobot.ErrCorrupt) { // ErrCorrupt: the schema key's value
			refused++
			continue
		}
		if err != nil {
			t.Fatalf("page %d (%+v): %v", id, d, err)
		}
		db.Close()
		opened++
		bdb, err := bolt.Open(path, 0o600, &bolt.Options{ReadOnly: true})
		if err != nil {
			t.Fatalf("page %d (%+v): the check passed, bbolt fails: %v", id, d, err)
		}
		bdb.View(func(btx *bolt.Tx) error {
			for err := range btx.Check() {
				t.Errorf("page %d (%+v): the check passed, bbolt finds: %v", id, d, err)
			}
			return nil
		})
		bdb.Close()
	}
	if refused == 0 || opened == 0 {
		t.Fatalf("%d refused, %d opened: the file should have used and unused pages", refused, opened)
	}
	t.Logf("%d damaged copies refused, %d opened (bbolt's check agreed)", refused, opened)
}

// TestOpenCheckOfHealthyFiles: new, small and bigger files pass, and the
// check reads every tree page of them.
func TestOpenCheckOfHealthyFiles(t *testing.T) {
	dir := t.TempDir()
	empty := filepath.Join(dir, "empty.db")
	os.WriteFile(empty, nil, 0o600)
	fresh := filepath.Join(dir, "fresh.db")
	db, err := Open(fresh, Options{})
	if err != nil {
		t.Fatal(err)
	}
	db.Close()
	for _, path := range []string{empty, fresh, testFile(t)} {
		rep, err := checkFile(path, OpenCheckPages)
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		if rep.Size > 0 && (!rep.Complete || rep.Read < 1 || rep.PageSize == 0) {
			t.Errorf("%s: %+v", path, rep)
		}
		db, err := Open(path, Options{})
		if err != nil {
			t.Fatal(err)
		}
		db.Close()
	}
}

// TestOpenCheckBudget: past its page budget the check still reads the
// root bucket and every bucket's root page, and says it did not read all.
func TestOpenCheckBudget(t *testing.T) {
	src := testFile(t)
	ps := pagesOf(t, src)
	full, err := checkFile(src, -1)
	if err != nil || !full.Complete {
		t.Fatalf("%+v, %v", full, err)
	}
	part, err := checkFile(src, 3)
	if err != nil || part.Complete || part.Read >= full.Read {
		t.Fatalf("budget 3: %+v, %v (full: %+v)", part, err, full)
	}
	// Garbage over the games bucket's root page is found within any
	// budget; over its last leaf only by a full read.
	path := damaged(t, src, overwrite(ps, ps.games))
	if _, err := checkFile(path, 0); !errors.Is(err, ErrDamaged) {
		t.Errorf("budget 0, garbage over a bucket root: %v", err)
	}
	leaves := ps.byType["leaf"]
	path = damaged(t, src, overwrite(ps, leaves[0]))
	if _, err := checkFile(path, 0); err != nil {
		t.Errorf("budget 0 reads no leaf of a bucket, yet: %v", err)
	}
	if _, err := checkFile(path, -1); !errors.Is(err, ErrDamaged) {
		t.Errorf("a full read: %v", err)
	}
}

// BenchmarkOpenCheck100k times Open's page check, and Open itself, on a
// file of 100,000 games (156 MB, 35,000 tree pages).
func BenchmarkOpenCheck100k(b *testing.B) {
	db := fixture100k(b)
	path := db.Path()
	db.Close()
	st, _ := os.Stat(path)
	b.Run("check", func(b *testing.B) {
		var rep FileReport
		cpu := cpuTime()
		for b.Loop() {
			var err error
			if rep, err = checkFile(path, OpenCheckPages); err != nil {
				b.Fatal(err)
			}
		}
		if !rep.Complete {
			b.Fatalf("the check did not read every page: %+v", rep)
		}
		b.ReportMetric(float64(cpuTime()-cpu)/float64(time.Millisecond)/float64(b.N), "cpu-ms/op")
		b.ReportMetric(float64(rep.Read), "pages")
		b.ReportMetric(float64(st.Size())/1e6, "MB")
	})
	b.Run("Open", func(b *testing.B) {
		cpu := cpuTime()
		for b.Loop() {
			db, err := Open(path, Options{})
			if err != nil {
				b.Fatal(err)
			}
			db.Close()
		}
		b.ReportMetric(float64(cpuTime()-cpu)/float64(time.Millisecond)/float64(b.N), "cpu-ms/op")
	})
}

// cpuTime is the process's CPU time so far (user and system): on a
// shared machine it says more about the work than the wall clock.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// FuzzCheckFile feeds the page check arbitrary files, seeded with small
// healthy ones: it must not panic, and a file it passes must pass bbolt's
// own full check too.
func FuzzCheckFile(f *testing.F) {
	for _, n := range []int{0, 30} {
		path := filepath.Join(f.TempDir(), fmt.Sprintf("seed%d.db", n))
		writeTestFile(f, path, n)
		raw, err := os.ReadFile(path)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(raw)
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		path := filepath.Join(t.TempDir(), "fuzz.db")
		if err := os.WriteFile(path, raw, 0o600); err != nil {
			t.Fatal(err)
		}
		if _, err := checkFile(path, -1); err != nil || len(raw) == 0 {
			return
		}
		bdb, err := bolt.Open(path, 0o600, &bolt.Options{ReadOnly: true})
		if err != nil {
			t.Fatalf("the check passed, bbolt fails: %v", err)
		}
		defer bdb.Close()
		bdb.View(func(btx *bolt.Tx) error {
			for err := range btx.Check() {
				t.Errorf("the check passed, bbolt finds: %v", err)
			}
			return nil
		})
	})
}
