package game

import (
	"strings"
	"unicode/utf8"

	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/charmap"
	"golang.org/x/text/encoding/htmlindex"
	"golang.org/x/text/encoding/ianaindex"
)

// SGF text (SimpleText and Text values: names, comments, the event...) is
// in the charset the root's CA names, ISO-8859-1 when there is none. This
// file resolves CA names, tells the parser and the writer how to find the
// escapes in multibyte charsets, and decodes text into UTF-8.

// sgfCharset is a charset named by CA.
type sgfCharset struct {
	name string            // canonical, as htmlindex or ianaindex names it ("shift_jis")
	enc  encoding.Encoding // nil for UTF-8, which needs no decoding
	// lead marks the first bytes of two-byte characters whose second byte
	// can be "\" (0x5C) or "]" (0x5D): Shift_JIS, GBK, GB18030 and Big5.
	// nil for every other charset, where those bytes are always ASCII.
	lead *[256]bool
}

var (
	sjisLead = leadBytes(func(b int) bool { return (b >= 0x81 && b <= 0x9F) || (b >= 0xE0 && b <= 0xFC) })
	cjkLead  = leadBytes(func(b int) bool { return b >= 0x81 && b <= 0xFE })
)

func leadBytes(is func(int) bool) (t [256]bool) {
	for b := range t {
		t[b] = is(b)
	}
	return t
}

// charsetAliases are CA names seen in records that neither index knows.
var charsetAliases = map[string]string{
	"cp932": "shift_jis", "ms932": "shift_jis", "sjis": "shift_jis", "shift-jis": "shift_jis",
	"cp949": "euc-kr", "uhc": "euc-kr", "ks_c_5601": "euc-kr",
	"euc-cn": "gbk", "euccn": "gbk", "gb-2312": "gbk", "cp936": "gbk",
	"latin-1": "iso-8859-1", "iso8859_1": "iso-8859-1", "utf_8": "utf-8",
}

// lookupCharset resolves a CA value. ok is false for a name neither the
// WHATWG index (htmlindex) nor the IANA index knows, and for charsets an
// SGF file cannot be written in (UTF-16 and UTF-32 are not ASCII-based,
// so their files do not parse at all).
func lookupCharset(ca string) (cs sgfCharset, ok bool) {
	n := strings.ToLower(strings.TrimSpace(ca))
	if a, found := charsetAliases[n]; found {
		n = a
	}
	enc, err := htmlindex.Get(n)
	name := ""
	if err == nil {
		name, err = htmlindex.Name(enc)
	}
	if err != nil || enc == nil {
		enc, err = ianaindex.IANA.Encoding(n)
		if err != nil || enc == nil {
			return sgfCharset{}, false
		}
		if name, err = ianaindex.IANA.Name(enc); err != nil {
			return sgfCharset{}, false
		}
		name = strings.ToLower(name)
	}
	switch {
	case name == "utf-8":
		return sgfCharset{name: name}, true
	case strings.HasPrefix(name, "utf-16"), strings.HasPrefix(name, "utf-32"), name == "replacement":
		return sgfCharset{}, false
	case name == "shift_jis":
		return sgfCharset{name: name, enc: enc, lead: &sjisLead}, true
	case name == "gbk", name == "gb18030", name == "big5":
		return sgfCharset{name: name, enc: enc, lead: &cjkLead}, true
	}
	return sgfCharset{name: name, enc: enc}, true
}

// leadTable returns the lead-byte table for a CA value, or nil when the
// charset's text can be scanned byte by byte.
func leadTable(ca string) *[256]bool {
	if ca == "" || isASCIIName(ca) {
		return nil
	}
	cs, _ := lookupCharset(ca)
	return cs.lead
}

// isASCIIName is a quick yes for the names written most often, to skip the
// index lookups.
func isASCIIName(ca string) bool {
	switch ca {
	case "UTF-8", "utf-8", "UTF8", "utf8", "ISO-8859-1", "iso-8859-1", "Latin1", "latin1":
		return true
	}
	return false
}

// rootCA finds the CA value of the game tree whose root node starts at
// src[pos] (just after its ";"), before the node is parsed, so that the
// parser reads the root's own values in that charset. It looks in the
// next 64 KB for the first "CA[" at the start of a property naming a
// charset gobot knows; parseRoot checks the guess against the CA it reads.
func rootCA(src string, pos int) string {
	region := src[pos:min(len(src), pos+1<<16)]
	for off := 0; ; {
		i := strings.Index(region[off:], "CA[")
		if i < 0 {
			return ""
		}
		i += off
		off = i + 3
		if i > 0 && (isUpper(region[i-1]) || isLower(region[i-1])) {
			continue
		}
		j := strings.IndexByte(region[off:], ']')
		if j < 0 {
			return ""
		}
		if ca := region[off : off+j]; j <= 64 && (isASCIIName(ca) || knownCharset(ca)) {
			return ca
		}
	}
}

func knownCharset(ca string) bool {
	_, ok := lookupCharset(ca)
	return ok
}

// textDecoder turns the SGF text of one game tree into UTF-8.
type textDecoder struct {
	cs      sgfCharset
	latin1  bool // no CA (or an unknown one) and some text is not UTF-8
	invalid bool // CA is UTF-8 but some text is not
}

// newTextDecoder picks the decoding for a game tree. texts are its values
// holding bytes ≥ 0x80 (the only ones decoding changes). The returned
// warning, when not empty, says what was guessed.
func newTextDecoder(ca string, hasCA bool, texts []string) (textDecoder, string) {
	allUTF8 := true
	for _, s := range texts {
		if !utf8.ValidString(s) {
			allUTF8 = false
			break
		}
	}
	if hasCA && strings.TrimSpace(ca) != "" {
		cs, ok := lookupCharset(ca)
		if ok {
			d := textDecoder{cs: cs}
			if cs.enc == nil && !allUTF8 {
				d.invalid = true
				return d, "CA[" + clipText(ca, 20) + "] but some text is not valid UTF-8: those bytes read as U+FFFD"
			}
			return d, ""
		}
		if allUTF8 {
			return textDecoder{cs: sgfCharset{name: "utf-8"}}, "CA[" + clipText(ca, 20) + "] is not a charset gobot knows: text read as UTF-8"
		}
		return textDecoder{latin1: true}, "CA[" + clipText(ca, 20) + "] is not a charset gobot knows: text read as ISO-8859-1"
	}
	if allUTF8 {
		return textDecoder{cs: sgfCharset{name: "utf-8"}}, ""
	}
	return textDecoder{latin1: true}, "no CA and the text is not UTF-8: read as ISO-8859-1, the SGF default"
}

// decode returns s in UTF-8. Every result is valid UTF-8.
func (d textDecoder) decode(s string) string {
	if !hasHighByte(s) {
		return s
	}
	switch {
	case d.latin1:
		out, err := charmap.ISO8859_1.NewDecoder().String(s)
		if err == nil {
			return out
		}
	case d.cs.enc != nil:
		out, err := d.cs.enc.NewDecoder().String(s)
		if err == nil {
			return strings.ToValidUTF8(out, "\uFFFD")
		}
	}
	return strings.ToValidUTF8(s, "\uFFFD")
}

func hasHighByte(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return true
		}
	}
	return false
}

// clipText shortens s to at most n bytes (on a rune boundary) for
// messages, marking the cut with "…".
func clipText(s string, n int) string {
	s = strings.ToValidUTF8(s, "\uFFFD")
	if len(s) <= n {
		return s
	}
	s = s[:n]
	for len(s) > 0 && !utf8.ValidString(s) {
		s = s[:len(s)-1]
	}
	return s + "…"
}
