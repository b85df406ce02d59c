package matrix

import (
	"html"
	"math"
	"strconv"
	"strings"

	"maunium.net/go/mautrix/id"
)

// A message's formatted_body (Matrix's subset of HTML) is read as text
// for commands here, with gobot's own small parser rather than mautrix's
// format package: that package links a Markdown library whose start-up
// work every `gobot` command paid for, also `gobot sgf replay`. The text
// is the one format.HTMLParser gives with the settings parseCommand used
// (formatting kept as plain text, user pills handed to pill);
// TestHTMLTextAsMautrix compares the two.

// htmlNode is an element (tag set) or a text node of a parsed body.
type htmlNode struct {
	tag      string // lower case; "" for text
	text     string // a text node's text, entities decoded
	attrs    [][2]string
	children []*htmlNode
}

func (n *htmlNode) attr(key string) (string, bool) {
	for _, a := range n.attrs {
		if a[0] == key {
			return a[1], true
		}
	}
	return "", false
}

// maxHTMLDepth is how deep elements nest; messages nest a few levels.
const maxHTMLDepth = 100

var (
	voidTags = set("area", "base", "br", "col", "embed", "hr", "img", "input", "keygen", "link", "meta", "param", "source", "track", "wbr")
	rawTags  = set("script", "style", "textarea", "title", "xmp", "iframe", "noembed", "noframes")
	// closesP are the start tags that end an open paragraph.
	closesP = set("address", "article", "aside", "blockquote", "center", "details", "dialog", "dir", "div", "dl", "fieldset",
		"figcaption", "figure", "footer", "header", "hgroup", "main", "menu", "nav", "ol", "p", "search", "section", "summary",
		"ul", "li", "dd", "dt", "h1", "h2", "h3", "h4", "h5", "h6", "pre", "listing", "form", "table", "hr")
	headings  = set("h1", "h2", "h3", "h4", "h5", "h6")
	blockTags = set("p", "h1", "h2", "h3", "h4", "h5", "h6", "ol", "ul", "pre", "blockquote", "div", "hr", "table")
)

func set(words ...string) map[string]bool {
	m := make(map[string]bool, len(words))
	for _, w := range words {
		m[w] = true
	}
	return m
}

// parseHTML reads s into a tree of elements and text as a browser would
// for the markup messages carry: tags close in order, a paragraph ends
// where a block starts, a list item where the next one starts; entities
// are decoded. It returns the root, whose children are the body's.
func parseHTML(s string) *htmlNode {
	s = strings.ReplaceAll(strings.ReplaceAll(s, "\r\n", "\n"), "\r", "\n")
	root := &htmlNode{tag: "body"}
	stack := []*htmlNode{root}
	top := func() *htmlNode { return stack[len(stack)-1] }
	open := func(tag string, stopAt ...string) int { // index in stack, or -1
		for i := len(stack) - 1; i > 0; i-- {
			if stack[i].tag == tag {
				return i
			}
			for _, s := range stopAt {
				if stack[i].tag == s {
					return -1
				}
			}
		}
		return -1
	}
	addText := func(t string) {
		t = strings.ReplaceAll(t, "\x00", "")
		if t == "" {
			return
		}
		p := top()
		if k := len(p.children); k > 0 && p.children[k-1].tag == "" {
			p.children[k-1].text += t
			return
		}
		if p.tag == "pre" && len(p.children) == 0 && strings.HasPrefix(t, "\n") {
			t = t[1:] // a newline right after <pre> is not part of it
			if t == "" {
				return
			}
		}
		p.children = append(p.children, &htmlNode{text: t})
	}
	for len(s) > 0 {
		i := strings.IndexByte(s, '<')
		if i < 0 {
			addText(html.UnescapeString(s))
			break
		}
		if i > 0 {
			addText(html.UnescapeString(s[:i]))
			s = s[i:]
		}
		switch {
		case strings.HasPrefix(s, "<!--"):
			if end := strings.Index(s[4:], "-->"); end >= 0 {
				s = s[4+end+3:]
			} else {
				s = ""
			}
			// A comment has no text, but the text around it stays apart.
			top().children = append(top().children, &htmlNode{tag: "!--"})
		case len(s) > 1 && (s[1] == '!' || s[1] == '?'):
			s = skipPast(s, '>')
		case len(s) > 2 && s[1] == '/' && isLetter(s[2]):
			name, rest := tagName(s[2:])
			s = skipPast(rest, '>')
			switch {
			case name == "br":
				top().children = append(top().children, &htmlNode{tag: "br"})
			case name == "p" && open("p") < 0:
				top().children = append(top().children, &htmlNode{tag: "p"})
			default:
				if j := open(name); j > 0 {
					stack = stack[:j]
				}
			}
		case len(s) > 1 && s[1] == '/':
			s = skipPast(s, '>')
		case len(s) > 1 && isLetter(s[1]):
			name, rest := tagName(s[1:])
			n := &htmlNode{tag: name}
			rest = readAttrs(n, rest)
			s = rest
			if closesP[name] {
				if j := open("p", "button"); j > 0 {
					stack = stack[:j]
				}
			}
			switch {
			case name == "li":
				if j := open("li", "ul", "ol"); j > 0 {
					stack = stack[:j]
				}
			case headings[name] && headings[top().tag]:
				stack = stack[:len(stack)-1]
			}
			top().children = append(top().children, n)
			switch {
			case voidTags[name]:
			case len(stack) > maxHTMLDepth:
				// Deeper elements are kept flat: a body of thousands of
				// nested tags costs no more than its size.
			case rawTags[name]:
				end := indexFold(s, "</"+name)
				if end < 0 {
					end = len(s)
				}
				if t := s[:end]; t != "" {
					if name == "textarea" || name == "title" {
						t = html.UnescapeString(t)
					}
					n.children = append(n.children, &htmlNode{text: t})
				}
				s = skipPast(s[end:], '>')
			default:
				stack = append(stack, n)
			}
		default:
			addText("<")
			s = s[1:]
		}
	}
	return root
}

func isLetter(c byte) bool { return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' }

func isSpace(c byte) bool { return c == ' ' || c == '\n' || c == '\t' || c == '\f' || c == '\r' }

// skipPast returns s after its first c ("" if none).
func skipPast(s string, c byte) string {
	if i := strings.IndexByte(s, c); i >= 0 {
		return s[i+1:]
	}
	return ""
}

// indexFold is strings.Index ignoring ASCII case (sub is lower case).
func indexFold(s, sub string) int {
	for i := 0; i+len(sub) <= len(s); i++ {
		if strings.EqualFold(s[i:i+len(sub)], sub) {
			return i
		}
	}
	return -1
}

// tagName reads a tag's name, lower-cased, and returns the rest.
func tagName(s string) (string, string) {
	i := 0
	for i < len(s) && !isSpace(s[i]) && s[i] != '/' && s[i] != '>' {
		i++
	}
	return strings.ToLower(s[:i]), s[i:]
}

// readAttrs reads a start tag's attributes into n, up to and past its
// ">", and returns the rest.
func readAttrs(n *htmlNode, s string) string {
	for {
		for len(s) > 0 && (isSpace(s[0]) || s[0] == '/') {
			s = s[1:]
		}
		if s == "" {
			return ""
		}
		if s[0] == '>' {
			return s[1:]
		}
		i := 1 // a name may start with "="
		for i < len(s) && !isSpace(s[i]) && s[i] != '/' && s[i] != '>' && s[i] != '=' {
			i++
		}
		key := strings.ToLower(s[:i])
		s = s[i:]
		for len(s) > 0 && isSpace(s[0]) {
			s = s[1:]
		}
		val := ""
		if len(s) > 0 && s[0] == '=' {
			s = s[1:]
			for len(s) > 0 && isSpace(s[0]) {
				s = s[1:]
			}
			if len(s) > 0 && (s[0] == '"' || s[0] == '\'') {
				end := strings.IndexByte(s[1:], s[0])
				if end < 0 {
					return "" // an unclosed quote swallows the rest
				}
				val, s = s[1:1+end], s[2+end:]
			} else {
				j := 0
				for j < len(s) && !isSpace(s[j]) && s[j] != '>' {
					j++
				}
				val, s = s[:j], s[j:]
			}
			val = html.UnescapeString(val)
		}
		n.attrs = append(n.attrs, [2]string{key, val})
	}
}

// htmlText is the text of a message's HTML body as parseCommand reads
// it. pill gives the text of a link to a Matrix ID (a user, or a room
// or event with eventID set), from the link's text.
func htmlText(body string, pill func(text, mxid, eventID string) string) string {
	t := htmlToText{pill: pill}
	root := parseHTML(strings.ReplaceAll(body, "\t", "    "))
	return t.blocks(root.children, "body", false)
}

type htmlToText struct {
	pill func(text, mxid, eventID string) string
}

// blocks joins the text of nodes, a block element on lines of its own,
// and trims the result.
func (t htmlToText) blocks(nodes []*htmlNode, parent string, pre bool) string {
	var b strings.Builder
	for _, n := range nodes {
		s := t.node(n, parent, pre)
		if blockTags[n.tag] {
			s = "\n" + s + "\n"
		}
		b.WriteString(s)
	}
	return strings.TrimSpace(b.String())
}

// inline joins the text of nodes as they are.
func (t htmlToText) inline(nodes []*htmlNode, parent string, pre bool) string {
	var b strings.Builder
	for _, n := range nodes {
		b.WriteString(t.node(n, parent, pre))
	}
	return b.String()
}

func (t htmlToText) node(n *htmlNode, parent string, pre bool) string {
	if n.tag == "" {
		if pre {
			return n.text
		}
		return collapseSpaces(strings.ReplaceAll(n.text, "\n", ""))
	}
	kids := n.children
	switch n.tag {
	case "blockquote":
		lines := strings.Split(t.blocks(kids, n.tag, pre), "\n")
		for i, l := range lines {
			lines[i] = "> " + l
		}
		return strings.Join(lines, "\n")
	case "ol", "ul":
		return t.list(n, pre)
	case "h1", "h2", "h3", "h4", "h5", "h6":
		return strings.Repeat("#", int(n.tag[1]-'0')) + " " + t.inline(kids, n.tag, pre)
	case "br":
		return "\n"
	case "span":
		s := t.blocks(kids, n.tag, pre)
		if reason, ok := n.attr("data-mx-spoiler"); ok {
			if reason != "" {
				return "||" + reason + "|" + s + "||"
			}
			return "||" + s + "||"
		}
		return s
	case "a":
		s := t.blocks(kids, n.tag, pre)
		href, _ := n.attr("href")
		if href == "" {
			return s
		}
		if uri, err := id.ParseMatrixURIOrMatrixToURL(href); err == nil && uri != nil {
			return t.pill(s, uri.PrimaryIdentifier(), uri.SecondaryIdentifier())
		}
		if s == href || s == strings.TrimPrefix(href, "mailto:") || s == strings.TrimPrefix(href, "http://") || s == strings.TrimPrefix(href, "https://") {
			return s
		}
		return s + " (" + href + ")"
	case "img":
		alt, _ := n.attr("alt")
		return alt
	case "hr":
		return ""
	case "input":
		if parent == "li" {
			if _, ok := n.attr("checked"); ok {
				return "[x]"
			}
			return "[ ]"
		}
		return t.blocks(kids, n.tag, pre)
	case "pre":
		lang := ""
		if len(kids) > 0 && kids[0].tag == "code" {
			if class, _ := kids[0].attr("class"); strings.HasPrefix(class, "language-") {
				lang = class[len("language-"):]
			}
			kids = kids[0].children
		}
		return codeBlock(t.inline(kids, n.tag, true), lang)
	}
	return t.blocks(kids, n.tag, pre)
}

// list writes a list's items, "* " or numbered, their later lines
// indented under the first.
func (t htmlToText) list(n *htmlNode, pre bool) string {
	ordered := n.tag == "ol"
	counter, width := 1, 0
	if ordered {
		if start, _ := n.attr("start"); start != "" {
			counter, _ = strconv.Atoi(start)
		}
		width = digits(counter - 1 + len(n.children))
	}
	indent := strings.Repeat(" ", width+2)
	var items []string
	for _, c := range n.children {
		s := t.node(c, n.tag, pre)
		if c.tag != "li" {
			continue
		}
		prefix := "* "
		if ordered {
			prefix = strconv.Itoa(counter) + ". " + strings.Repeat(" ", max(0, width-digits(counter)))
		}
		counter++
		items = append(items, strings.ReplaceAll(prefix+s, "\n", "\n"+indent))
	}
	return strings.Join(items, "\n")
}

// digits is how many characters n takes, its sign included (computed
// with a logarithm, as the text has always been laid out).
func digits(n int) int {
	switch {
	case n == 0:
		return 1
	case n < 0:
		return digits(-n) + 1
	}
	return int(math.Floor(math.Log10(float64(n))) + 1)
}

// codeBlock fences code with more backticks than any line of it holds
// alone.
func codeBlock(code, lang string) string {
	if !strings.HasSuffix(code, "\n") {
		code += "\n"
	}
	fence := "```"
	for _, l := range strings.Split(code, "\n") {
		l = strings.TrimSpace(l)
		if l != "" && strings.Trim(l, "`") == "" && len(l) >= len(fence) {
			fence = strings.Repeat("`", len(l)+1)
		}
	}
	return fence + lang + "\n" + code + fence
}

// collapseSpaces turns every run of spaces into one.
func collapseSpaces(s string) string {
	if !strings.Contains(s, "  ") {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); i++ {
		if s[i] == ' ' && i > 0 && s[i-1] == ' ' {
			continue
		}
		b.WriteByte(s[i])
	}
	return b.String()
}
