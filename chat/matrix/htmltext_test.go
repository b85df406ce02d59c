package matrix

import (
	"context"
	"math/rand/v2"
	"strings"
	"testing"

	"maunium.net/go/mautrix/format"
)

// mautrixText is the text mautrix's format.HTMLParser gives with the
// settings parseCommand used before it had its own parser: the reference
// htmlText is held to (the package is linked into the tests only).
func mautrixText(body string) string {
	same := func(s string, _ format.Context) string { return s }
	parser := &format.HTMLParser{
		TabsToSpaces:           4,
		Newline:                "\n",
		BoldConverter:          same,
		ItalicConverter:        same,
		StrikethroughConverter: same,
		UnderlineConverter:     same,
		MonospaceConverter:     same,
		PillConverter: func(text, mxid, eventID string, _ format.Context) string {
			return testPill(text, mxid, eventID)
		},
	}
	return parser.Parse(body, format.NewContext(context.Background()))
}

func testPill(text, mxid, eventID string) string {
	if strings.HasPrefix(mxid, "@") && eventID == "" {
		return "[" + text + "=" + mxid + "]"
	}
	return text
}

// htmlCorpus is what clients send: Element's composer (pills, Markdown
// turned into HTML, replies, code), other clients' quirks, and markup a
// browser repairs (unclosed tags, entities, odd case).
var htmlCorpus = []string{
	"!go play D4",
	`!go challenge <a href="https://matrix.to/#/@bob:example.org">Bob Smith</a> 9`,
	`!go challenge <a href="https://matrix.to/#/@bob:example.org">Bob Smith</a>: 9`,
	`!go challenge <a href="https://matrix.to/#/%40bob%3Aexample.org?via=example.org">Bob</a>`,
	`!go challenge <a href="matrix:u/bob:example.org?action=chat">Bob</a> 13 white`,
	`!go rengo @ann:example.org <a href="https://matrix.to/#/@bob:example.org">Bob</a> vs <a href='https://matrix.to/#/@carol:example.org'>Carol</a> 9`,
	`see <a href="https://matrix.to/#/!room:example.org/$event?via=example.org">this</a> and <a href="https://matrix.to/#/#go:example.org">#go</a>`,
	`<a href="https://matrix.to/#/!room:example.org">!room:example.org</a>`,
	"<mx-reply><blockquote><a href=\"https://matrix.to/#/!r:ex.org/$e\">In reply to</a> <a href=\"https://matrix.to/#/@bot:ex.org\">@bot:ex.org</a><br>Game #1</blockquote></mx-reply>!go play C3",
	"!go <strong>play</strong> D4",
	"!go <em>play</em> <code>D4</code> <del>E5</del> <u>x</u> <b>b</b> <i>i</i> <s>s</s> <ins>n</ins> <tt>t</tt> <strike>k</strike>",
	"<p>!go play D4</p>",
	"<p>!go</p><p>play</p>",
	"<p>!go</p>\n<p>play D4</p>\n",
	"!go play<br>D4",
	"!go play<br/>D4<br />E5",
	"!go\nplay",
	"!go  play   D4",
	"!go\tplay\t\tD4",
	"  !go play  ",
	"<h1>!go</h1><h3>play</h3>",
	"<ul><li>!go</li><li>play</li></ul>",
	"<ol><li>one</li><li>two<br>lines</li></ol>",
	"<ol start=\"9\"><li>a</li><li>b</li><li>c</li></ol>",
	"<ol start=\"99\">\n<li>a</li>\n<li>b</li>\n</ol>\n",
	"<ol start=\"x\"><li>a</li></ol>",
	"<ol start=\"-3\"><li>a</li><li>b</li></ol>",
	"<ul>\n<li>a\n<ul>\n<li>nested</li>\n</ul>\n</li>\n</ul>\n",
	"<ul><li><input type=\"checkbox\" checked> done</li><li><input type=\"checkbox\"> todo</li></ul>",
	"<input type=checkbox>",
	"<blockquote>\n<p>quoted</p>\n<p>twice</p>\n</blockquote>\n<p>!go pass</p>\n",
	"<pre><code>!go play D4\n</code></pre>",
	"<pre><code class=\"language-sgf\">(;GM[1]SZ[9];B[ee])\n</code></pre>\n",
	"<pre>\nline one\n  two</pre>",
	"<pre><code>```\nfenced\n````\n</code></pre>",
	"<pre>a <b>bold</b>\n b</pre>",
	"!go say &lt;b&gt; &amp; &quot;quoted&quot; &#39;x&#39; &#x41; &nbsp;end",
	"!go say &copy; &amp &ampfoo &notit; &unknown;",
	"<span data-mx-spoiler>secret</span> and <span data-mx-spoiler=\"why\">more</span>",
	"<span data-mx-color=\"#ff0000\">red</span> <font color=\"blue\">blue</font>",
	"<div>!go</div><div>play</div>",
	"<img src=\"mxc://x/y\" alt=\":smile:\" data-mx-emoticon> <img src=\"mxc://x/z\">",
	"<hr>!go pass<hr/>",
	"<a href=\"https://example.org\">https://example.org</a> <a href=\"https://example.org/x\">example.org/x</a> <a href=\"mailto:a@b.c\">a@b.c</a> <a href=\"https://go.dev\">Go</a> <a>none</a>",
	"<A HREF=\"https://matrix.to/#/@bob:example.org\">Bob</A> <STRONG>Loud</STRONG>",
	"<p>one<p>two<p>three",
	"<ul><li>a<li>b<li>c</ul>",
	"<h2>title<h3>sub</h3>",
	"text</p>more",
	"text</br>more",
	"a <!-- comment --> b",
	"a < b and c > d",
	"<script>alert(1)</script>!go play",
	"<style>p{}</style>!go pass",
	"<table><tr><td>!go</td><td>play</td></tr></table>",
	"<details><summary>s</summary>body</details>",
	"<p>a</p>\n\n<p>b</p>",
	"!go play D4\r\n!go pass\rx",
	"<span/>!go play",
	"<b>!go</b> play <a href=\"https://matrix.to/#/@x:y.z\"><b>X</b> Y</a>",
	"",
	"<p></p>",
	"<mx-reply>only a reply</mx-reply>",
	"<del>!go</del> resign",
	"<p>!go <code>play   D4</code></p>",
	"<blockquote>a<br>b</blockquote>c",
	"<ul><li><p>para item</p></li><li>plain</li></ul>",
}

func TestHTMLTextAsMautrix(t *testing.T) {
	for _, body := range htmlCorpus {
		if got, want := htmlText(body, testPill), mautrixText(body); got != want {
			t.Errorf("%q:\n got %q\nwant %q", body, got, want)
		}
	}
}

// TestHTMLTextRandom builds well-formed bodies at random from the
// elements clients send (inline elements hold only inline ones, list
// items sit in lists, links hold no links) and compares the text. Markup
// whose tags cross (<b><p></b>) is repaired differently: a browser
// reopens the formatting elements a block closed, htmlText does not;
// the words come out the same but may group differently.
func TestHTMLTextRandom(t *testing.T) {
	rng := rand.New(rand.NewPCG(47, 1))
	words := []string{"!go", "play", "D4", " ", "  ", `\n`, "x&amp;y", "&lt;", `\t`, "pass ", " #7"}
	inline := []string{"b", "strong", "em", "i", "code", "del", "u", "a", "pill", "span", "spoiler", "br", "img", "font"}
	block := []string{"p", "div", "blockquote", "ul", "ol", "pre", "h2", "hr", "mx-reply"}
	var gen func(b *strings.Builder, depth int, blocks, inLink bool)
	gen = func(b *strings.Builder, depth int, blocks, inLink bool) {
		for range rng.IntN(4) {
			k := rng.IntN(10)
			switch {
			case k < 4 || depth > 3:
				b.WriteString(strings.NewReplacer(`\n`, "\n", `\t`, "\t").Replace(words[rng.IntN(len(words))]))
			case k < 7 || !blocks:
				tag := inline[rng.IntN(len(inline))]
				switch tag {
				case "br":
					b.WriteString("<br>")
					continue
				case "img":
					b.WriteString(`<img alt="pic" src="mxc://a/b">`)
					continue
				case "a", "pill":
					if inLink {
						continue
					}
					if tag == "a" {
						b.WriteString(`<a href="https://go.dev/">`)
					} else {
						b.WriteString(`<a href="https://matrix.to/#/@bob:example.org">`)
					}
					gen(b, depth+1, false, true)
					b.WriteString("</a>")
					continue
				case "spoiler":
					b.WriteString(`<span data-mx-spoiler="r">`)
					gen(b, depth+1, false, inLink)
					b.WriteString("</span>")
					continue
				}
				b.WriteString("<" + tag + ">")
				gen(b, depth+1, false, inLink)
				b.WriteString("</" + tag + ">")
			default:
				tag := block[rng.IntN(len(block))]
				switch tag {
				case "hr":
					b.WriteString("<hr>")
				case "ul", "ol":
					b.WriteString("<" + tag + ">")
					for range 1 + rng.IntN(3) {
						b.WriteString("<li>")
						gen(b, depth+1, true, inLink)
						b.WriteString("</li>")
						if rng.IntN(2) == 0 {
							b.WriteString("\n")
						}
					}
					b.WriteString("</" + tag + ">")
				case "pre":
					b.WriteString("<pre><code>")
					gen(b, depth+1, false, inLink)
					b.WriteString("</code></pre>")
				case "p", "h2":
					b.WriteString("<" + tag + ">")
					gen(b, depth+1, false, inLink)
					b.WriteString("</" + tag + ">")
				default:
					b.WriteString("<" + tag + ">")
					gen(b, depth+1, true, inLink)
					b.WriteString("</" + tag + ">")
				}
			}
		}
	}
	for range 5000 {
		var b strings.Builder
		gen(&b, 0, true, false)
		body := b.String()
		if got, want := htmlText(body, testPill), mautrixText(body); got != want {
			t.Errorf("%q:\n got %q\nwant %q", body, got, want)
		}
	}
}

// TestHTMLTextDeep: a body of thousands of nested tags costs no more
// than a small multiple of its size, and its words are all there.
func TestHTMLTextDeep(t *testing.T) {
	body := strings.Repeat("<b>x", 20000) + strings.Repeat("</i>", 20000) + strings.Repeat("<ul><li>", 5000) + "!go"
	got := htmlText(body, testPill)
	if n := strings.Count(got, "x"); n != 20000 || !strings.HasSuffix(got, "!go") {
		t.Errorf("%d x, ends %q", n, got[max(0, len(got)-20):])
	}
}
