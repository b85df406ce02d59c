package tournament

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestWriteH9 writes the results file of a fixture and compares it with
// the expected file in testdata/h9, checked by hand against the fixture
// (see testdata/h9/README.md).
func TestWriteH9(t *testing.T) {
	fx := loadFixtures(t, "mcmahon-13-late.json")[0]
	tr := fx.tournament(t, len(fx.Played))
	m := fixtureMeta(fx.Name)
	m.Name = "Brno Autumn McMahon [13]"
	var b bytes.Buffer
	if err := WriteH9(&b, tr, m); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join("testdata", "h9", fx.Name+".h9")
	if *updateFiles {
		if err := os.WriteFile(file, b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(b.Bytes(), want) {
		t.Errorf("results file differs from %s:\n%s", file, b.Bytes())
	}
}

// TestWriteH9Unfinished: a results file needs every game's result.
func TestWriteH9Unfinished(t *testing.T) {
	fx := loadFixtures(t, "mcmahon-8.json")[0]
	tr := fx.tournament(t, len(fx.Played))
	tr.Played[2].Games[1].Result = Unknown
	err := WriteH9(&bytes.Buffer{}, tr, Meta{})
	if !errors.Is(err, ErrUnfinished) || !strings.Contains(err.Error(), "table 2 of round 3") {
		t.Errorf("%v", err)
	}
	if err := WriteH9(&bytes.Buffer{}, &Tournament{System: Swiss, Rounds: 3}, Meta{}); !errors.Is(err, ErrUnfinished) {
		t.Errorf("no round played: %v", err)
	}
}

// TestH9Text: names are written in ASCII, one token each.
func TestH9Text(t *testing.T) {
	for in, want := range map[string]string{
		"Ádám":         "Adam",
		"Jiří Novák":   "Jiri_Novak",
		"Straße":       "Strasse",
		"Łukasz":       "Lukasz",
		"李 [x]; y":     "?_(x)__y",
		"":             "-",
		"Zsófia\t\x01": "Zsofia",
	} {
		if got := h9Token(in, "-"); got != want {
			t.Errorf("h9Token(%q) = %q, want %q", in, got, want)
		}
	}
}
